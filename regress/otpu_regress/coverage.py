"""The run's functional coverage: each test's file (otpu-lockstep --coverage) merged with
otpu-cov into coverage.json, and its overall figure. otpu-cov failing costs the run its coverage
figure, with one line saying why, not its results; a shard's coverage.json is checked before a
merge writes anything (check: strict JSON of bounded nesting, and otpu-cov reads it)."""
import json
import os
import re
import subprocess
import tempfile

from . import files, outputs, schema
from .errors import UsageError
from .text import visible


class CoverageError(Exception):
    """otpu-cov failed: the run has no coverage figure"""


def _cov(cmd):
    """otpu-cov's stdout, or CoverageError with its last line"""
    p = subprocess.run(cmd, capture_output=True, encoding="utf-8", errors="surrogateescape")
    if p.returncode == 0:
        return p.stdout
    why = (p.stderr.strip().splitlines() or [f"exit status {p.returncode}"])[-1]
    raise CoverageError(f"otpu-cov {cmd[1]}: {visible(why)}")


def check(cov_tool, path):
    """UsageError unless the coverage file at path (a shard's coverage.json) is one: a regular
    file of its bound, strict JSON of bounded nesting and numbers, that otpu-cov reads"""
    schema.parse(files.read_text(path, files.OTHER), path)
    try:
        _cov([cov_tool, "report", path])
    except CoverageError as e:
        raise UsageError(f"{path}: {e}") from None


def merge(cov_tool, paths, out):
    """merge the files paths into out, a few hundred at a time (the command line stays short);
    True if there was anything to merge"""
    paths = [f for f in paths if os.path.isfile(f)]
    if not paths:
        return False
    with tempfile.TemporaryDirectory(prefix="otpu-regress-cov-") as tmp:
        acc = None
        for k in range(0, len(paths), 200):
            part = os.path.join(tmp, f"part{k}.json")
            _cov([cov_tool, "merge", *([acc] if acc else []), *paths[k:k + 200], "-o", part])
            acc = part
        outputs.write(out, files.read_text(acc, files.RESULTS))  # (whole or not at all)
    return True


def totals(cov_tool, path):
    """{"percent", "hit", "bins"} of the 'overall' line of otpu-cov report"""
    m = re.search(r"^overall\s+([\d.]+)%\s+(\d+) of (\d+) bins", _cov([cov_tool, "report", path]),
                  re.M)
    return {"percent": float(m.group(1)), "hit": int(m.group(2)), "bins": int(m.group(3))} \
        if m else None


MAX_LISTED = 200  # bins named on the page, each list


def holes(path):
    """{"never_hit": ["group: bin", ...], "unreachable": ["group: bin (why)", ...]} of a merged
    coverage file (otpu-cov has read it: its shape is known), at most MAX_LISTED each; the
    idle group's counts (a reason starting "count:") are figures, not holes"""
    doc = json.loads(files.read_text(path, files.OTHER))
    never, unreachable = [], []
    for g in doc["groups"]:
        for b in g["bins"]:
            why = b.get("unreachable")
            if why is None and b["count"] == 0:
                never.append(visible(f"{g['name']}: {b['name']}"))
            elif why is not None and not why.startswith("count:"):
                unreachable.append(visible(f"{g['name']}: {b['name']} ({why})"))
    return {"never_hit": never[:MAX_LISTED], "unreachable": unreachable[:MAX_LISTED]}


def of(cov_tool, cov_files, out, log):
    """the merged coverage of cov_files written to out/coverage.json: its totals and holes, or
    None"""
    path = os.path.join(out, "coverage.json")
    try:
        if not cov_files or not merge(cov_tool, cov_files, path):
            return None
        t = totals(cov_tool, path)
        return dict(t, **holes(path)) if t else None
    except CoverageError as e:
        log(f"otpu-regress: no coverage figure: {e}")
        return None
