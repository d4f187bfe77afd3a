"""The places a run or a merge writes, made sure of before the first test runs: the output
folder (made if missing, locked for this process, which also proves it writable) and its
clearing of an earlier run's files. (The history database is checked by history.connect.)"""
import os
import shutil

from . import lock
from .errors import UsageError

# what a run writes into the output folder (regress/README.md), removed before it writes again
OUTPUTS = ("results.json", "run.json", "results.jsonl", "summary.json", "summary.txt",
           "junit.xml", "index.html", "index.html.tmp", "coverage.json", "repro", "work",
           "buckets", "buckets.json", "buckets.json.tmp", "code-coverage", "code-coverage.tmp")


def claim(out):
    """the output folder out, made if missing and locked for this process"""
    if os.path.lexists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out}: exists and is not a folder")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot make it ({e.strerror})") from None
    lock.take(out)


def remove(path):
    """path gone, whatever it is (a folder's own files, not a linked folder's)"""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def clear(out):
    """the output folder without the files of an earlier run"""
    for name in OUTPUTS:
        remove(os.path.join(out, name))
