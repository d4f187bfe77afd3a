"""Child processes: each in a process group of its own, so that a timeout stops the whole
group (otpu-lockstep and its simulator, a build's make and compilers), and every one of them is
stopped when otpu-mutate is (SIGINT, SIGTERM, SIGHUP). Commands are argument lists: no shell."""
import os
import signal
import subprocess
import threading
import time

_live = set()
_lock = threading.RLock()  # the signal handler takes it in the main thread too
_stopping = threading.Event()
_signum = [signal.SIGTERM]  # the signal that stopped otpu-mutate


class Stopped(Exception):
    """otpu-mutate was told to stop by a signal"""

    def __init__(self, signum):
        super().__init__(f"stopped by signal {signum}")
        self.signum = signum


def _stop_group(p):
    out = ""
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, None)):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            pass
        try:
            out, _ = p.communicate(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    return out or ""


def run(argv, timeout=None, env=None, cwd=None):
    """(exit status or None, stdout and stderr together, seconds, timed out)"""
    if _stopping.is_set():
        raise Stopped(_signum[0])
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, encoding="utf-8",
                             errors="surrogateescape", start_new_session=True, env=env, cwd=cwd)
    except OSError as e:
        return 127, f"cannot run {argv[0]}: {e.strerror}", time.monotonic() - t0, False
    with _lock:
        _live.add(p)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out, time.monotonic() - t0, False
    except subprocess.TimeoutExpired:
        return None, _stop_group(p), time.monotonic() - t0, True
    finally:
        with _lock:
            _live.discard(p)
        if _stopping.is_set():
            raise Stopped(_signum[0])


def _on_signal(signum, frame):
    if not _stopping.is_set():
        _signum[0] = signum
    _stopping.set()
    with _lock:
        live = list(_live)
    for p in live:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    raise Stopped(signum)


def install_handlers():
    """SIGINT, SIGTERM and SIGHUP stop every child group, then otpu-mutate (exit 128 + N)"""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, _on_signal)


def stop_all():
    _stopping.set()
    with _lock:
        live = list(_live)
    for p in live:
        _stop_group(p)
