"""Progress while a run goes: done/total, failures so far (not the waived ones), rate and an
ETA; one rewritten line on a terminal, plain lines (every 10 s, and at the end) otherwise."""
import sys
import threading
import time

_LOCK = threading.Lock()


def write(stream, text):
    """text written whole and flushed: the bucket-shrinking threads log while the main thread
    reports results, and print()'s separate writes of text and newline would interleave"""
    with _LOCK:
        stream.write(text)
        stream.flush()


class Progress:
    def __init__(self, total, stream=sys.stderr):
        self.total, self.done, self.failed = total, 0, 0
        self.t0 = self.last = time.monotonic()
        self.stream, self.tty = stream, stream.isatty()

    def line(self):
        secs = time.monotonic() - self.t0
        rate = self.done / secs if secs > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"otpu-regress: {self.done}/{self.total} done, {self.failed} failed, "
                f"{rate * 3600:.0f} tests/h, ETA {eta:.0f} s")

    def note(self, failed):
        self.done += 1
        self.failed += failed
        now = time.monotonic()
        if self.tty:
            write(self.stream, "\r" + self.line() + "\033[K" +
                  ("\n" if self.done == self.total else ""))
        elif now - self.last >= 10 or self.done == self.total:
            write(self.stream, self.line() + "\n")
            self.last = now

    def say(self, text):
        """a line of its own (a failure as it happens) above the progress line"""
        write(self.stream, ("\r\033[K" if self.tty else "") + text + "\n")
