"""The gen: entries' bundles: each spec asked of otpu-gen before the first test (check), so that a
spec otpu-gen refuses (an unknown family, Config field or revision, a Config it cannot have, a
count past its bound) is bad usage, one line and exit status 2, not a night of bad-input
failures; then written before the tests that need them (generate).

otpu-gen has no option that only checks its arguments, so it is asked twice, in a temporary
folder: with the spec as it is and a regular file as --out (it checks every argument before
--out, so its only complaint must be that --out is not a folder), and for the spec's first
bundle (the checks it makes only when it generates, a family that cannot have the Config)."""
import os
import tempfile

from . import places, procs
from .errors import UsageError
from .outcome import last_line

TIMEOUT = 300  # seconds for one question to otpu-gen
PROBE = "not-a-folder"  # the regular file given as --out


def _argv(tool, g, out, count=None):
    return [tool, g.family, "--seed", str(g.seed), "--count", str(count or g.count),
            "--out", out, *(["--rev", g.rev] if g.rev else []),
            *(["--data", g.data] if g.data else []),
            *(["--first", str(g.first)] if g.first else []),
            *(["--cover", g.cover] if g.cover else []), *g.overrides]


def check(tests, tool):
    """UsageError naming the first gen: entry of tests that otpu-gen refuses (exit status 2)"""
    entries = {t.entry.name: t.entry for t in tests if t.entry.gen}
    tool = os.path.abspath(tool)
    with tempfile.TemporaryDirectory(prefix="otpu-regress-gen-") as tmp:
        with open(os.path.join(tmp, PROBE), "w"):
            pass
        for e in entries.values():
            # (run in tmp: its complaint names --out PROBE as given, short)
            for argv, refused in ((_argv(tool, e.gen, PROBE), lambda why: PROBE not in why),
                                  (_argv(tool, e.gen, "first", 1), lambda why: True)):
                status, out, _, _ = procs.run(argv, TIMEOUT, cwd=tmp)
                why = last_line(out, r"\S")
                if status == 2 and refused(why):
                    raise UsageError(f"{e.source}: otpu-gen refuses it: "
                                     f"{why.removeprefix('otpu-gen: ')}")
            places.remove(os.path.join(tmp, "first"))


def generate(tests, tool, gen_root, log):
    """write the bundles of the gen entries these tests need; {entry name: problem}"""
    problems = {}
    for e in {t.entry.name: t.entry for t in tests if t.entry.gen}.values():
        g = e.gen
        folder = os.path.join(gen_root, e.name)
        places.remove(folder)
        os.makedirs(gen_root, exist_ok=True)
        log(f"otpu-regress: generating {g.count} {g.family} programs (seed {g.seed}" +
            (f", from index {g.first}, toward the bins still empty" if g.cover else "") + ")")
        status, out, _, _ = procs.run(_argv(tool, g, folder))
        if status:
            problems[e.name] = last_line(out, r"\S") or "otpu-gen failed"
    return problems
