"""One run at a time in an output folder: `run` and `merge` take an exclusive flock on
DIR/otpu-regress.lock and hold it until the process and the children it started have ended
(held() is passed to each child: the kernel drops the lock when the last holder ends, however it
ends), so that a run killed alone (the OOM killer) cannot be resumed while a test it started
still writes into the folder. The file says who holds it (pid, host, start, command) for the
one line a second run prints when it is refused. The file is left in place: removing it would
let two runs lock two different files of one name."""
import datetime
import fcntl
import json
import os
import socket
import stat
import sys

from . import files
from .errors import UsageError

NAME = "otpu-regress.lock"
_held = {}  # folder -> its locked descriptor, open until the process ends


def held():
    """the descriptors of the locks this process holds (for its children to hold them too)"""
    return tuple(_held.values())


def _gone(pid, host):
    """pid on host (this one) has ended"""
    if host != socket.gethostname():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        pass
    return False


def _holder(fd):
    """who holds the lock, from its file"""
    try:
        info = json.loads(os.pread(fd, files.LOCK, 0).decode())
        pid, host, started, command = (info["pid"], info["host"], info["started"],
                                       info["command"])
        if not (isinstance(pid, int) and all(isinstance(x, str) for x in (host, started)) and
                isinstance(command, list)):
            raise TypeError
        return (f"pid {pid} on {host}, started {started}: {' '.join(map(str, command))}" +
                ("; it has ended, but a process it started still runs and holds the lock: "
                 "wait for it or end it" if _gone(pid, host) else ""))
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return "its lock file does not say which"


def take(out):
    """lock the output folder out for this process (once: --resume locks it before it reads
    the run), or UsageError naming the holder"""
    if os.path.realpath(out) in _held:
        return
    path = os.path.join(out, NAME)
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > files.LOCK:
            what = files.what_is(st.st_mode) if not stat.S_ISREG(st.st_mode) else "too large"
            raise UsageError(f"{path}: the lock file is {what}; remove it")
    except FileNotFoundError:
        pass
    try:  # no link followed, no wait on a FIFO that appeared since
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                     0o644)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write in it ({e.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UsageError(f"{path}: the lock file is not a regular file; remove it")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(f"{out} is in use by another otpu-regress run "
                             f"({_holder(fd)}); wait for it to end or use another "
                             "--out") from None
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        text = json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": now,
                           "command": sys.argv}) + "\n"
        os.ftruncate(fd, 0)
        os.pwrite(fd, text.encode("utf-8", "surrogateescape")[:files.LOCK], 0)
    except BaseException:
        os.close(fd)
        raise
    _held[os.path.realpath(out)] = fd
