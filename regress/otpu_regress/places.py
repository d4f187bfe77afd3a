"""The places a run or a merge writes, made sure of before the first test runs: the output
folder (new, empty, or an earlier otpu-regress output: made if missing, locked for this process,
which also proves it writable), what an earlier run left in it (each of its outputs a regular
file or a folder, as this run writes it: a FIFO, a device or a link in its place is refused, not
replaced), no input taken from a part of it that is cleared, and its clearing of an earlier
run's files. (The history database is checked by history.connect.)"""
import os
import re
import shutil
import stat

from . import files, lock, outputs
from .errors import UsageError

# what a run writes into the output folder (regress/README.md), removed before it writes again
FILES = ("results.json", "run.json", "results.jsonl", "summary.json", "summary.txt",
         "junit.xml", "index.html", "index.html.tmp", "coverage.json", "buckets.json",
         "buckets.json.tmp")
FOLDERS = ("repro", "work", "buckets", "code-coverage", "code-coverage.tmp", "bundles")
SCRIPT = "slurm-array.sh"  # (--slurm: rewritten, kept after the run)
# otpu-mutate's results, which may be written into the folder before the run (mutate/README.md)
MUTATION = ("mutation.json", "mutation.txt")


def _shard(out, name):
    """name is the folder of an earlier --slurm task (shard-I, an output of its own)"""
    return re.fullmatch(r"shard-[1-9][0-9]*", name) and \
        os.path.isfile(os.path.join(out, name, lock.NAME))


def claim(out):
    """the output folder out, made if missing and locked for this process: a new or empty
    folder, or an earlier otpu-regress output (it holds the lock file every run leaves, or only
    shard folders that do, and otpu-mutate's results)"""
    if os.path.lexists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out}: exists and is not a folder")
    if os.path.isdir(out):
        try:
            names = set(os.listdir(out))
        except OSError as e:
            raise UsageError(f"--out {out}: {e.strerror}") from None
        if lock.NAME not in names and not all(n in MUTATION or _shard(out, n) for n in names):
            raise UsageError(f"--out {out}: a folder that is neither empty nor an earlier "
                             f"otpu-regress output (no {lock.NAME} in it): give a new or "
                             "empty folder")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot make it ({e.strerror})") from None
    lock.take(out)
    for name in FILES + FOLDERS + (SCRIPT,):
        try:
            mode = os.lstat(os.path.join(out, name)).st_mode
        except FileNotFoundError:
            continue
        folder = name in FOLDERS
        if not (stat.S_ISDIR(mode) if folder else stat.S_ISREG(mode)):
            raise UsageError(f"--out {out}: its {name} is {files.what_is(mode)}, not the "
                             f"{'folder' if folder else 'regular file'} a run writes there: "
                             "remove it or give another --out")


def _bundle_inputs(tests):
    """(what, path) of the bundles of tests that are not generated, and of the links in them"""
    for t in tests:
        if t.entry.gen:
            continue
        yield "the bundle", t.path
        try:
            links = [e.path for e in os.scandir(t.path) if e.is_symlink()]
        except OSError:  # (the test reports its bundle as bad input)
            links = []
        for p in links:
            yield "the bundle file", p


def _within(path, folder):
    return path == folder or path.startswith(folder + os.sep)


def check_inputs(out, inputs, tests=(), shards=0):
    """UsageError when an input ((what, path) of inputs, or a bundle of tests) is inside a part
    of the output folder that the run removes before it reads it (shards: the --slurm task
    folders shard-1..N too): a bucket's repro bundle run again into its own --out, say; or when
    the output folder is inside a bundle (the run would write into its own input)"""
    base = os.path.realpath(out)
    cleared = [os.path.join(base, n) for n in
               FILES + FOLDERS + tuple(f"shard-{i}" for i in range(1, shards + 1))]
    for what, p in [*inputs, *_bundle_inputs(tests)]:
        if p is None:
            continue
        real = os.path.realpath(p)
        inside = next((c for c in cleared if _within(real, c)), None)
        if inside:
            raise UsageError(f"{what} {p} is inside {inside}, which a run into --out {out} "
                             "removes first: copy it elsewhere or give another --out")
        if what == "the bundle" and _within(base, real):
            raise UsageError(f"--out {out} is inside {what} {p}: the run would write into its "
                             "own input; give another --out")


def remove(path):
    """path gone, whatever it is (a folder's own files, not a linked folder's)"""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


# what a resumed run keeps of the one it resumes (resume.py); the rest it writes again
RESUMED = ("run.json", "results.jsonl", "repro", "work", "bundles")


def clear(out, keep=()):
    """the output folder without the files of an earlier run (keep: the names it keeps), and
    without what a write killed before its rename left (outputs.leftovers)"""
    for name in FILES + FOLDERS:
        if name not in keep:
            remove(os.path.join(out, name))
    for path in outputs.leftovers(out, FILES):
        os.remove(path)
