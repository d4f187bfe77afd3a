"""Output folders of the shards of one run merged into one run. Every part must belong to the
same run: the same suite, ISA revisions, build and RTL (RUN's identity), the same shard count,
and the shards complete, 1..N each exactly once; otherwise nothing is merged and one line says
what is missing or foreign. A shard killed part way keeps the tests its results.jsonl holds;
the tests its run.json planned but that have no result are failures of kind crash. Then the
repro folders and coverage are gathered and the files, the page and the history of the whole
written as one run."""
import datetime
import os

from . import codecov, coverage, files, places, results
from .errors import UsageError
from .finish import finish
from .names import safe_name
from .text import visible
from .tools import tools_from_env

# the parts of an identity two shards must share, and how a refusal names each
SAME = {"suite": "suite", "tests": "suite size", "revs": "ISA revisions", "build": "build",
        "dut": "RTL (OTPU_DUT)"}


class Shard:
    def __init__(self, folder):
        self.folder = folder
        self.run, self.tests, self.planned = results.read_folder(folder)
        self.index, self.count = results.shard_of(self.run["shard"] or "1/1")


def check_parts(shards, expect=None, accounted=()):
    """every shard of one run, and every shard 1..N there once (those in accounted: lost,
    their tests given as failures); expect: the identity they must have (the Slurm path's)"""
    ref = expect or shards[0].run["identity"]
    first = "this run" if expect else shards[0].folder
    for s in shards:
        for k, what in SAME.items():
            if s.run["identity"][k] != ref[k]:
                raise UsageError(f"{s.folder} is of another {what} than {first}: "
                                 "not a shard of the same run")
    counts = {s.count for s in shards}
    if len(counts) > 1:
        raise UsageError("the shards were made with different --shard totals ("
                         + ", ".join(f"{s.folder}: {s.run['shard'] or 'unsharded'}"
                                     for s in shards)
                         + ")")
    n, seen = counts.pop(), {}
    for s in shards:
        if s.index in seen:
            raise UsageError(f"shard {s.index}/{n} is given twice: {seen[s.index]} "
                             f"and {s.folder}")
        seen[s.index] = s.folder
    missing = [f"{i}/{n}" for i in range(1, n + 1) if i not in seen and i not in accounted]
    if missing:
        raise UsageError(f"missing shard {', '.join(missing)}: no folder given holds it "
                         "(merge needs every shard of the run)")
    for s in shards:  # each shard's tests are its share of the suite (suite.shard)
        share = len(range(s.index - 1, ref["tests"], n))
        held = len({t["name"] for t in s.tests} | set(s.planned or ()))
        if held != share:
            raise UsageError(f"{s.folder} holds {held} tests, but shard {s.index}/{n} of a "
                             f"suite of {ref['tests']} has {share}")


def lost_record(name, why):
    """the failure record of a test that has no result"""
    suite, _, bundle = name.partition("/")
    return {"name": name, "suite": suite, "bundle": bundle, "bundle_path": "", "plusargs": [],
            "input_hash": "", "repro": None, "divergence": None, "cycles": None,
            "instructions": None, "exit": None, "time": 0.0, "command": "", "status": "fail",
            "kind": "crash", "message": why}


def merged_run(shards, ident, dirs, out):
    """one RUN of the shards': the earliest start to the latest end"""
    runs = [s.run for s in shards]
    if not runs:
        return {"started": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"), "wall_time": 0.0, "host": "", "jobs": 0, "shard": None,
            "suites": [], "command": [], "out": out, "identity": ident, "merged": dirs}

    def start(r):
        return datetime.datetime.fromisoformat(r["started"])
    t0 = min(start(r) for r in runs)
    t1 = max(start(r) + datetime.timedelta(seconds=r["wall_time"]) for r in runs)
    return {"started": t0.isoformat(timespec="seconds"), "wall_time": (t1 - t0).total_seconds(),
            "host": ",".join(sorted({r["host"] for r in runs})),
            "jobs": sum(r["jobs"] for r in runs), "shard": None, "suites": runs[0]["suites"],
            "command": runs[0]["command"], "out": out, "identity": ident, "merged": dirs}


def gather(shards, missing, why):
    """(tests, coverage files) of the checked shards; why(shard): the message of a test the
    shard planned but has no result of"""
    tests, covs, seen = list(missing), [], {t["name"]: "the lost tasks" for t in missing}
    for s in shards:
        for t in s.tests:
            if t["name"] in seen:
                raise UsageError(f"test {t['name']} is in both {seen[t['name']]} and "
                                 f"{s.folder}")
            seen[t["name"]] = s.folder
            tests.append(t)
        for name in s.planned or ():
            if name not in seen:
                seen[name] = s.folder
                tests.append(lost_record(name, why(s)))
        cov = os.path.join(s.folder, "coverage.json")
        if os.path.lexists(cov):
            files.check(cov, files.OTHER)
            covs.append(cov)
    return tests, covs


def copy_repros(shards, out):
    for s in shards:
        for t in s.tests:
            src = os.path.join(s.folder, "repro", safe_name(t["name"]))
            if t["repro"] and os.path.isdir(src):
                files.copy_tree(src, os.path.join(out, "repro", safe_name(t["name"])))


def ended_early(s):
    return f"shard {s.index}/{s.count} ({visible(s.folder)}) ended before this test had a result"


def merge_dirs(dirs, out, db, log, tools=None, missing=(), accounted=(), expect=None,
               why=ended_early, waiver_list=()):
    """merge the shard folders into out (db: an open history database or None); missing:
    failure records of the tests of the shards in accounted, which left no folder; expect:
    the identity every shard must have; why: gather's. Nothing in out changes unless every
    part is good."""
    tools = tools or tools_from_env(("cov",))
    if any(os.path.abspath(d) == out for d in dirs):
        raise UsageError(f"--out {out} is one of the shard folders: merge into another")
    shards = [Shard(d) for d in dirs]
    if not shards and not missing:
        raise UsageError("no shard folder to merge")
    if shards:
        check_parts(shards, expect, accounted)
    ident = expect or shards[0].run["identity"]
    tests, covs = gather(shards, missing, why)
    for cov in covs:
        coverage.check(tools["cov"], cov)
    if len(tests) != ident["tests"]:
        raise UsageError(f"the shards hold {len(tests)} tests, their suite {ident['tests']}: a "
                         "shard's results lost some")
    # (checked here, before any write)
    code_cov = codecov.Shards([(s.folder, len(s.tests)) for s in shards])
    places.clear(out)
    copy_repros(shards, out)
    return finish(out, merged_run(shards, ident, list(dirs), out), tests, db, tools["cov"],
                  covs, log, code_cov=code_cov if code_cov.inputs else None,
                  waiver_list=waiver_list)
