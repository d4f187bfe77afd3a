"""Files from outside (bundles, suite files, shard folders, the tools) read or copied safely.
Before it is opened each must be a regular file (after following links) no larger than the
bound of its kind, and it is opened with O_NONBLOCK and checked again on the open descriptor,
so that a FIFO, a socket, a device, a link to /dev/zero or a file of terabytes is refused with
one line (BadFile) instead of hanging a run or filling the disk, even when it replaces the
checked file between the check and the open. The bounds (regress/README.md):"""
import os
import stat

from .errors import UsageError

MiB, GiB = 1 << 20, 1 << 30
DRAM = 1 * GiB      # a bundle's DRAM image (dram_N.bin) and a report's waveform (wave.fst)
OTHER = 64 * MiB    # every other file of a bundle or a repro folder, coverage.json
RESULTS = 256 * MiB  # results.json, results.jsonl, run.json: a night of many thousand tests
SUITE = 16 * MiB    # a suite file
LOCK = 64 * 1024    # the output folder's lock file
TOOL = 1 * GiB      # a tool binary, hashed for the build identity


class BadFile(UsageError):
    """a file that is not a regular file, or too large, or unreadable: one line"""


def limit_of(name):
    """the bound of a file of a bundle or a repro folder, by its name"""
    if name.endswith(".fst") or (name.startswith("dram_") and name.endswith(".bin")):
        return DRAM
    return OTHER


def what_is(mode):
    for test, what in ((stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a link"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return what
    return "not a regular file"


def _judge(path, st, limit):
    if not stat.S_ISREG(st.st_mode):
        raise BadFile(f"{path}: not a regular file ({what_is(st.st_mode)})")
    if st.st_size > limit:
        raise BadFile(f"{path}: {st.st_size:,} bytes, more than the {limit:,} this kind of "
                      "file may have")
    return st


def check(path, limit):
    """path's stat if it is a regular file of at most limit bytes, else BadFile"""
    try:
        return _judge(path, os.stat(path), limit)
    except OSError as e:
        raise BadFile(f"{path}: {e.strerror}") from None


def open_checked(path, limit):
    """path opened for reading in binary, after the checks (before and after the open)"""
    check(path, limit)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise BadFile(f"{path}: {e.strerror}") from None
    try:
        _judge(path, os.fstat(fd), limit)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def read_bytes(path, limit):
    with open_checked(path, limit) as f:
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise BadFile(f"{path}: {e.strerror}") from None
    if len(data) > limit:  # it grew since the check
        raise BadFile(f"{path}: more than the {limit:,} bytes this kind of file may have")
    return data


def read_text(path, limit):
    """the file as text; bytes that are not UTF-8 kept as surrogates (text.visible shows them)"""
    return read_bytes(path, limit).decode("utf-8", "surrogateescape")


def copy_file(src, dst, limit):
    """src (checked) into the new file dst, at most limit bytes"""
    with open_checked(src, limit) as f:
        try:
            with open(dst, "xb") as g:
                left = limit
                while chunk := f.read(min(1 << 20, left + 1)):
                    left -= len(chunk)
                    if left < 0:
                        raise BadFile(f"{src}: grew past {limit:,} bytes while copied")
                    g.write(chunk)
        except OSError as e:
            from .outputs import full  # (outputs imports this module)
            if full(e):  # a full disk ends the night, it is not this bundle's fault
                raise
            raise BadFile(f"{src}: cannot copy it to {dst}: {e.strerror}") from None


def entries(folder):
    try:
        return sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as e:
        raise BadFile(f"{folder}: {e.strerror}") from None


def copy_tree(src, dst):
    """the folder src into the new folder dst: its folders (not links to folders) and regular
    files, each file within the bound of its name (limit_of)"""
    os.makedirs(dst)
    for e in entries(src):
        if e.is_dir(follow_symlinks=False):
            copy_tree(e.path, os.path.join(dst, e.name))
        else:
            copy_file(e.path, os.path.join(dst, e.name), limit_of(e.name))


def bundle_problem(folder):
    """None if every entry of the bundle folder is a regular file within its bound, else the one
    line that says which is not (a bundle holds files only)"""
    try:
        for e in entries(folder):
            check(e.path, limit_of(e.name))
    except BadFile as e:
        return str(e)
    return None
