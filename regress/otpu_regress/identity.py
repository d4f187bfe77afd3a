"""What a run's results belong to (RUN's "identity" in regress/README.md), so that merge joins
only the parts of one run: the suite (a hash of every test's name, plusargs and generator spec,
however its arguments were spelled, and the count of its tests), the ISA revisions of its gen
entries, the build (a hash of the contents of the tools whose output a result depends on and of
otpu-regress's own code: shards of other binaries are not one run) and the RTL it ran
(OTPU_DUT, docs/opentpu.md)."""
import glob
import hashlib
import os

from . import files

BUILD_TOOLS = ("lockstep", "rtl", "gen")
PACKAGE = os.path.dirname(os.path.abspath(__file__))


def suite_hash(tests):
    h = hashlib.sha256()
    for t in sorted(tests, key=lambda t: t.name):
        spec = t.entry.gen.canonical() if t.entry.gen else ""
        h.update("\0".join([t.name, spec, *t.plusargs]).encode("utf-8", "surrogateescape"))
        h.update(b"\n")
    return h.hexdigest()


def _file_digest(path):
    h = hashlib.sha256()
    with files.open_checked(path, files.TOOL) as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.digest()


def build_hash(tools):
    """the tools' and the package's contents, hashed (a few MB: milliseconds). Shards built
    apart are one build when their binaries are the same bytes: the same commit built at the
    same path (.gitlab-ci.yml fixes its clone path for that)."""
    h = hashlib.sha256()
    paths = [tools[k] for k in BUILD_TOOLS if k in tools]
    paths += sorted(glob.glob(os.path.join(PACKAGE, "*.py")))
    for p in paths:
        h.update(_file_digest(p))
    return h.hexdigest()


def of(tests, tools):
    """the identity of a run of the whole suite tests (before any --shard)"""
    return {"suite": suite_hash(tests), "tests": len(tests),
            "revs": sorted({t.entry.gen.rev or "current" for t in tests if t.entry.gen}),
            "build": build_hash(tools), "dut": os.environ.get("OTPU_DUT") or None}
