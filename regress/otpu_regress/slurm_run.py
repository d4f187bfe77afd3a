"""otpu-regress run --slurm: the suite as a Slurm array job, one task per shard, each task an
`otpu-regress run --shard I/N` writing its own folder on the shared file system; then the
shards merged. A task that fails or is killed leaves its tests as failures, never missing."""
import os
import shlex
import sys

from . import suite
from .merge import merge_dirs, read_shard
from .runner import new_record
from .slurm import SlurmError, run_array


def shard_command(a, out):
    """the argv of array task i"""
    launcher = os.path.abspath(sys.argv[0])
    suites = [s if s.startswith("gen:") else os.path.abspath(s) for s in a.suites]
    base = [sys.executable, launcher, "run", *suites, "-j", str(a.jobs), "--timeout",
            f"{a.timeout:g}", "--db", "none"] + (["--shrink"] if a.shrink else []) + \
        ([] if a.coverage else ["--no-coverage"])
    return lambda i: base + ["--shard", f"{i}/{a.tasks}", "--out",
                             os.path.join(out, f"shard-{i}")]


def lost(tests, got, i, n, why, tools):
    """failure records for the tests of shard i that its task did not report"""
    recs = []
    for t in tests:
        if t.name not in got:
            recs.append({**new_record(t, tools), "status": "fail", "kind": "crash",
                         "message": f"the Slurm task of shard {i}/{n} {why} before this test "
                                    "had a result"})
    return recs


def run_on_slurm(a, tests, tools, out, log):
    os.makedirs(out, exist_ok=True)
    try:
        status = run_array(a.tasks, shard_command(a, out), out, partition=a.partition,
                           sbatch_args=shlex.split(a.sbatch_args), log=log)
    except SlurmError as e:
        log(f"otpu-regress: {e}")
        return 2
    dirs, missing = [], []
    for i in range(1, a.tasks + 1):
        d = os.path.join(out, f"shard-{i}")
        _, got = read_shard(d) if os.path.isdir(d) else (None, [])
        code = status.get(i)
        why = "ended" if code is not None else "was killed or never ran"
        if code not in (None, 0, 1):
            why = f"exited with status {code}"
        missing += lost(suite.shard(tests, i, a.tasks), {t["name"] for t in got}, i, a.tasks,
                        why, tools)
        if os.path.isdir(d):
            dirs.append(d)
    return merge_dirs(dirs, out, a.db, log, tools, missing)
