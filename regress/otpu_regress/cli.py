"""otpu-regress: run | history | merge (usage: otpu-regress --help)."""
import argparse
import datetime
import json
import os
import shutil
import socket
import subprocess
import sys
import time

from . import history, procs, report, runner, suite
from .errors import UsageError
from .finish import finish
from .merge import merge_dirs
from .slurm_run import run_on_slurm
from .tools import tools_from_env
from .progress import Progress

EPILOG = """exit status: 0 every test passed, 1 a test failed, 2 bad usage or bad input.
The tools come from $OTPU_LOCKSTEP, $OTPU_RTL, $OTPU_GEN, $OTPU_COV, $OTPU_SHRINK, else from
the build this launcher belongs to. Suite files: ci/nightly.suite; the format is in the
README ("Nightly regression")."""


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def prepare_out(out):
    """the output folder, without the files of an earlier run in it"""
    os.makedirs(out, exist_ok=True)
    for d in ("repro", "work"):
        shutil.rmtree(os.path.join(out, d), ignore_errors=True)
    for f in ("results.json", "results.jsonl", "summary.json", "summary.txt", "junit.xml",
              "index.html", "coverage.json"):
        if os.path.exists(os.path.join(out, f)):
            os.remove(os.path.join(out, f))


def generate(tests, tools, gen_root, log):
    """write the bundles of the gen entries these tests need; {entry name: problem}"""
    problems = {}
    for e in {t.entry.name: t.entry for t in tests if t.entry.gen}.values():
        g = e.gen
        folder = os.path.join(gen_root, e.name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(gen_root, exist_ok=True)
        log(f"otpu-regress: generating {g.count} {g.family} programs (seed {g.seed})")
        p = subprocess.run([tools["gen"], g.family, "--seed", str(g.seed), "--count",
                            str(g.count), "--out", folder, *(["--rev", g.rev] if g.rev else []),
                            *g.overrides], capture_output=True,
                           text=True)
        if p.returncode:
            problems[e.name] = (p.stderr.strip().splitlines() or ["otpu-gen failed"])[-1]
    return problems


def cmd_run(a, log):
    tools = tools_from_env()
    out = os.path.abspath(a.out)
    tests = suite.load(a.suites, os.path.join(out, "bundles"))
    if a.shard:
        tests = suite.shard(tests, *a.shard)
    if a.slurm:
        return run_on_slurm(a, tests, tools, out, log)
    prepare_out(out)
    run = {"started": now_iso(), "wall_time": 0.0, "host": socket.gethostname(),
           "jobs": a.jobs, "shard": f"{a.shard[0]}/{a.shard[1]}" if a.shard else None,
           "suites": a.suites, "command": sys.argv, "out": out}
    t0 = time.monotonic()
    gen_problems = generate(tests, tools, os.path.join(out, "bundles"), log)
    prog = Progress(len(tests))
    results = []
    jl = open(os.path.join(out, "results.jsonl"), "w")

    def on_result(rec):
        results.append(rec)
        jl.write(json.dumps(rec) + "\n")
        jl.flush()
        if rec["status"] != "pass":
            prog.say(report.failure_lines([rec])[0])
        prog.note(rec["status"] != "pass")

    a.log = log
    runner.run_all(tests, tools, out, a, on_result, gen_problems)
    jl.close()
    run["wall_time"] = time.monotonic() - t0
    covs = [os.path.join(out, "work", "coverage", suite.safe_name(t["name"]) + ".json")
            for t in results] if a.coverage else []
    return finish(out, run, results, a.db, tools["cov"], covs, log)


def cmd_history(a, log):
    if not os.path.isfile(a.db):
        raise UsageError(f"{a.db}: no history database (otpu-regress run --db writes one)")
    sys.stdout.write(history.report(history.connect(a.db), a.runs))
    return 0


def cmd_merge(a, log):
    return merge_dirs(a.dirs, os.path.abspath(a.out), a.db, log)


def shard_arg(s):
    try:
        i, n = (int(x) for x in s.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{s}' is not I/N") from None
    if not 1 <= i <= n:
        raise argparse.ArgumentTypeError(f"'{s}': I must be 1..N")
    return i, n


def positive(s):
    try:
        v = float(s)
    except ValueError:
        v = 0
    if v <= 0:
        raise argparse.ArgumentTypeError(f"'{s}' is not a positive number")
    return v


def parser():
    p = argparse.ArgumentParser(prog="otpu-regress", description=__doc__, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run suites of bundles through otpu-lockstep",
                       description="Runs every test of the SUITEs (a bundle folder, a folder "
                       "of bundles, gen:FAMILY:seed=N:count=K[:KEY=VALUE...] or a .suite "
                       "file) through otpu-lockstep and writes junit.xml, summary.txt/json, "
                       "index.html and a repro folder per failure into --out.", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("suites", nargs="+", metavar="SUITE")
    r.add_argument("-j", "--jobs", type=lambda s: int(positive(s)), default=os.cpu_count() or 1,
                   help="tests at once (default: the core count)")
    r.add_argument("--timeout", type=positive, default=600.0,
                   help="wall-clock seconds per test (default 600)")
    r.add_argument("--shard", type=shard_arg, help="run the I-th of N deterministic shares")
    r.add_argument("--out", default="regress-out", help="output folder (default regress-out)")
    r.add_argument("--db", help="history database (default regress.db beside --out; "
                   "'none': no history)")
    r.add_argument("--slurm", action="store_true", help="run as a Slurm array job and merge")
    r.add_argument("--tasks", type=lambda s: int(positive(s)), default=4,
                   help="with --slurm: array tasks (shards), default 4")
    r.add_argument("--partition", help="with --slurm: the partition")
    r.add_argument("--sbatch-args", default="", help="with --slurm: more sbatch options")
    r.add_argument("--shrink", action="store_true", help="shrink each divergence's bundle")
    r.add_argument("--no-coverage", dest="coverage", action="store_false",
                   help="do not collect functional coverage")
    h = sub.add_parser("history", help="new failures, fixes, still failing, flaky tests")
    h.add_argument("--db", default="regress.db")
    h.add_argument("--runs", type=lambda s: int(positive(s)), default=30,
                   help="runs looked at for flaky tests (default 30)")
    m = sub.add_parser("merge", help="merge shard output folders into one")
    m.add_argument("dirs", nargs="+", metavar="DIR")
    m.add_argument("--out", required=True)
    m.add_argument("--db", help="history database (default regress.db beside --out; 'none')")
    return p


def main(argv=None):
    a = parser().parse_args(argv)
    if getattr(a, "out", None) and a.cmd in ("run", "merge"):
        if a.db is None:
            a.db = os.path.join(os.path.dirname(os.path.abspath(a.out)), "regress.db")
        elif a.db == "none":
            a.db = None

    def log(s):
        print(s, file=sys.stderr, flush=True)
    procs.on_signals()
    try:
        return {"run": cmd_run, "history": cmd_history, "merge": cmd_merge}[a.cmd](a, log)
    except (UsageError, suite.SuiteError, history.HistoryError) as e:
        print(f"otpu-regress: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("otpu-regress: interrupted; the tests that ran are in results.jsonl",
              file=sys.stderr)
        return 130
    except procs.Stopped as e:
        print(f"otpu-regress: {e}; the tests that ran are in results.jsonl", file=sys.stderr)
        return 128 + e.signum
