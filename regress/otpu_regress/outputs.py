"""Files written whole (results, summaries, pages; otpu-mutate's too). An output path is a
regular file or nothing (a link to one is followed): it is replaced atomically, by a new file
beside it (a name of its own, made with O_EXCL, so that no FIFO or link put there is opened)
renamed over it, with the permissions the file had. Anything else in its place (a FIFO, a
device such as /dev/null, a folder, a link to one) is refused before the run by check, with one
line, and again at the rename: replacing it would put a file where the FIFO or /dev/null was."""
import os
import secrets
import stat

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
            f.write(text)
        kind = _not_file(real)
        if kind:
            raise UsageError(f"{path}: {kind} now, not a regular file: not replaced")
        os.replace(tmp, real)
    except BaseException:
        os.unlink(tmp)
        raise
