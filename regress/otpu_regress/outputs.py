"""Files written whole (results, summaries, pages; otpu-mutate's too). An output path is a
regular file or nothing (a link to one is followed): it is replaced atomically, by a new file
beside it (a name of its own, made with O_EXCL, so that no FIFO or link put there is opened)
renamed over it, with the permissions the file had. Anything else in its place (a FIFO, a
device such as /dev/null, a folder, a link to one) is refused before the run by check, with one
line, and again at the rename: replacing it would put a file where the FIFO or /dev/null was.

Each file is synced before its rename, and each line appended to a journal (results.jsonl) is
synced before the next: a kill, a reboot or a full disk at any instant leaves the old content or
the new, and a journal whose last line may be cut short (the reader drops it). A write that
fails for want of space (ENOSPC, EDQUOT) is an OSError that full() recognizes; the night ends
with one line and can be resumed (regress/README.md, "Resuming a night").

OTPU_REGRESS_FAIL_WRITE_AFTER=N (tests only) makes every write of this module after the first
N (a whole file, a journal's line) fail with ENOSPC: a full disk injected at a chosen write."""
import errno
import os
import re
import secrets
import stat
import threading

from .errors import UsageError
from .files import what_is


def _not_file(real):
    """what is at real when it is neither missing nor a regular file, else None"""
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return None
    except OSError as e:
        return e.strerror
    return None if stat.S_ISREG(mode) else what_is(mode)


def check(path, what):
    """UsageError unless path can be written as a file: missing or a regular file (after
    following links) in a folder that exists and can be written"""
    real = os.path.realpath(path)
    kind = _not_file(real)
    if kind:
        raise UsageError(f"{what} {path}: {kind}, not a regular file: give a file's path")
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise UsageError(f"{what} {path}: its folder {folder} does not exist")
    try:  # a file made and removed: the folder can be written (root's access() says yes to all)
        fd, tmp = _new(real)
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise UsageError(f"{what} {path}: its folder {folder} cannot be written "
                         f"({e.strerror})") from None


FULL = (errno.ENOSPC, errno.EDQUOT)
_budget = {"left": None}
_budget_lock = threading.Lock()
if os.environ.get("OTPU_REGRESS_FAIL_WRITE_AFTER", "").isdigit():
    _budget["left"] = int(os.environ["OTPU_REGRESS_FAIL_WRITE_AFTER"])


def _spend(path):
    """the test hook above: OSError(ENOSPC) once the writes pass the budget"""
    with _budget_lock:
        if _budget["left"] is None:
            return
        _budget["left"] -= 1
        if _budget["left"] < 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)


def full(e):
    """e is a write that failed for want of space (the disk, or a quota)"""
    return isinstance(e, OSError) and e.errno in FULL


def full_in(output, path):
    """OSError(ENOSPC) when a tool's output says it ran out of space (its verdict is then the
    full disk's, not the test's), else None"""
    for code in FULL:
        if os.strerror(code) in output:
            raise OSError(code, os.strerror(code), path)


# a leftover of write() killed before its rename: NAME.<12 hex digits>.tmp
LEFTOVER = re.compile(r"(.+)\.[0-9a-f]{12}\.tmp")


def leftovers(folder, names):
    """the paths of write()'s leftovers in folder of the outputs named names"""
    try:
        found = os.listdir(folder)
    except OSError:
        return []
    paths = [os.path.join(folder, n) for n in found
             if (m := LEFTOVER.fullmatch(n)) and m[1] in names]
    return [p for p in paths if stat.S_ISREG(os.lstat(p).st_mode)]


def _new(real):
    """a new empty file beside real, of a name of its own: (its descriptor, its path)"""
    tmp = f"{real}.{secrets.token_hex(6)}.tmp"
    return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                   0o666), tmp


def write(path, text):
    """text (UTF-8) as the whole file at path; UsageError when something else than a regular
    file is there now"""
    real = os.path.realpath(path)
    fd, tmp = _new(real)
    try:
        try:  # (a file replaced keeps its permissions)
            os.fchmod(fd, stat.S_IMODE(os.stat(real).st_mode))
        except FileNotFoundError:
            pass
        with open(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            _spend(path)
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        kind = _not_file(real)
        if kind:
            raise UsageError(f"{path}: {kind} now, not a regular file: not replaced")
        os.replace(tmp, real)
    except BaseException:
        os.unlink(tmp)
        raise


class Journal:
    """a file of one record a line, each of its own name, appended (results.jsonl): each line
    written whole and synced before append returns; a kill while one is written leaves it
    without its newline, and the reader drops it. keep: {name: line} of a resumed run, written
    anew (a last line cut short dropped); drop(name) takes one out (the file written anew)"""

    def __init__(self, path, keep=None):
        self.path, self.lines = path, dict(keep or {})
        self.f = None
        self._rewrite()

    def _rewrite(self):
        self.close()
        write(self.path, "".join(line + "\n" for line in self.lines.values()))
        # (unbuffered: nothing is left to flush at exit after a write failed)
        self.f = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)

    def append(self, name, line):
        data = (line + "\n").encode("utf-8", "surrogateescape")
        _spend(self.path)
        view = memoryview(data)
        while view:
            view = view[os.write(self.f, view):]
        os.fsync(self.f)
        self.lines[name] = line

    def drop(self, name):
        if self.lines.pop(name, None) is not None:
            self._rewrite()

    def close(self):
        if self.f is not None:
            os.close(self.f)
            self.f = None
