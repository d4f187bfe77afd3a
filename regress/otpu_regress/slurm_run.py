"""otpu-regress run --slurm: the suite as a Slurm array job, one task per shard, each task an
`otpu-regress run --shard I/N` writing its own folder on the shared file system; then the
shards merged as `merge` does, checked against this run's identity. A task that fails or is
killed leaves its tests as failures, never missing, and never an earlier run's results."""
import os
import sys

from . import places, suite
from .merge import merge_dirs
from .runner import new_record
from .slurm import run_array


def shard_command(a, out):
    """the argv of array task i"""
    launcher = os.path.abspath(sys.argv[0])
    suites = [s if s.startswith("gen:") else os.path.abspath(s) for s in a.suites]
    base = [sys.executable, launcher, "run", *suites, "-j", str(a.jobs), "--timeout",
            str(a.timeout), "--db", "none"] + (["--shrink"] if a.shrink else []) + \
        ([] if a.coverage else ["--no-coverage"]) + ["--shrink-time", str(a.shrink_time)] + \
        ([] if a.shrink_buckets else ["--no-shrink-buckets"]) + \
        (["--code-coverage"] if a.code_coverage else []) + \
        ([] if a.fork_server else ["--no-fork-server"]) + \
        (["--waivers", os.path.abspath(a.waivers)] if a.waivers else [])
    return lambda i: base + ["--shard", f"{i}/{a.tasks}", "--out",
                             os.path.join(out, f"shard-{i}")]


def resume_command():
    """the argv that resumes a shard's run (its folder after it): a requeued task's"""
    return [sys.executable, os.path.abspath(sys.argv[0]), "run", "--resume"]


def lost(tests, i, n, why, tools):
    """failure records for the tests of shard i, whose task left no results"""
    return [{**new_record(t, tools), "status": "fail", "kind": "crash",
             "message": f"the Slurm task of shard {i}/{n} {why} before this test had a result"}
            for t in tests]


def run_on_slurm(a, tests, tools, out, ident, db, log):
    n = a.tasks
    for i in range(1, n + 1):  # an earlier run's shard must not stand in for a lost task
        places.remove(os.path.join(out, f"shard-{i}"))
    status = run_array(n, shard_command(a, out), out, partition=a.partition,
                       sbatch_args=a.sbatch_args, log=log, resume=resume_command())
    dirs, missing, accounted, why = [], [], set(), {}
    for i in range(1, n + 1):
        d = os.path.join(out, f"shard-{i}")
        code = status.get(i)
        why[i] = "ended" if code is not None else "was killed or never ran"
        if code not in (None, 0, 1):
            why[i] = f"exited with status {code}"
        if any(os.path.lexists(os.path.join(d, f)) for f in ("results.json", "run.json")):
            dirs.append(d)
        else:
            accounted.add(i)
            missing += lost(suite.shard(tests, i, n), i, n, why[i], tools)
    return merge_dirs(dirs, out, db, log, tools, missing, accounted, ident,
                      lambda s: f"the Slurm task of shard {s.index}/{n} {why[s.index]} before "
                                "this test had a result", a.waiver_list)
