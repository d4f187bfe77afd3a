"""otpu-regress: run | history | merge (usage: otpu-regress --help). Every argument and every
place the command writes is checked before the first test runs; bad usage or bad input is one
line on stderr and exit status 2, never a traceback."""
import argparse
import datetime
import json
import os
import shlex
import socket
import sqlite3
import sys
import time

from . import buckets, history, identity, places, procs, progress, report, rounds, runner, suite
from . import codecov, gen, localize, outputs, resume, waivers
from .errors import UsageError
from .finish import finish
from .merge import merge_dirs
from .number import number
from .results import RUN_SCHEMA
from .slurm_run import run_on_slurm
from .text import visible, visible_lines
from .tools import TOOLS, tools_from_env

EPILOG = """exit status: 0 every test passed, 1 a test failed, 2 bad usage or bad input, 7 no
space left on the device (what was written is whole: run --resume OUT goes on once there is),
128+N stopped by signal N (run --resume OUT goes on).
The tools come from $OTPU_LOCKSTEP, $OTPU_RTL, $OTPU_GEN, $OTPU_COV, $OTPU_SHRINK, else from
the build this launcher belongs to. Suite files: ci/nightly.suite; the format is in
docs/regress.md. Numbers: decimal without leading zeros, or hex with 0x."""
WAIVERS_HELP = ("the known differences (a TOML file of [[waiver]] tables: id, signature, why, "
                "link; regress/README.md, 'Waivers'): a failure whose bucket matches one is "
                "'waived' (skipped in junit.xml, apart on the page, not failing the run); a "
                "waiver that matches nothing is reported as stale")
MAX_JOBS, MAX_TIMEOUT, MAX_SHARDS, MAX_TASKS = 1024, 7 * 24 * 3600, 100000, 1000
SQLITE_FULL = 13  # (sqlite3.Error.sqlite_errorcode of a full disk)


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def cmd_run(a, log, resumed=None):
    """resumed: (RUN, planned names, {name: TEST} kept) of the interrupted run --resume goes on
    with (resume.py), its folder locked already"""
    if a.slurm and a.shard:
        raise UsageError("--shard and --slurm do not go together (--slurm makes the shards)")
    rounds.check_usage(a)
    tools = tools_from_env()
    cc_tools = codecov.tools() if a.code_coverage else None  # (verilator_coverage, genhtml)
    out = os.path.abspath(a.out)
    tests = suite.load(a.suites, os.path.join(out, "bundles"))
    a.waiver_list = waivers.load(a.waivers)
    places.check_inputs(out, [("the suite", s) for s in a.suites if not s.startswith("gen:")] +
                        [("--waivers", a.waivers), ("--db", a.db)] +
                        [(f"${v}", tools[k]) for k, v in TOOLS.items()], tests,
                        a.tasks if a.slurm else 0)
    gen.check(tests, tools["gen"])
    ident = identity.of(tests, tools)
    places.claim(out)
    if resumed:
        resume.check_identity(out, resumed[0], ident)
    db = history.connect(a.db) if a.db else None
    if a.slurm:
        return localized(a, out, db, log, run_on_slurm(a, tests, tools, out, ident, db, log))
    if a.shard:
        tests = suite.shard(tests, *a.shard)
    if resumed:
        run, names, kept = resumed
        kept = resume.prepare(out, kept, log)
        run["resumed"] = run.get("resumed", []) + [now_iso()]
        log(f"otpu-regress: resuming {out}: {len(kept)} tests keep their results")
    else:
        places.clear(out)
        run = {"started": now_iso(), "wall_time": 0.0, "host": socket.gethostname(),
               "jobs": a.jobs, "shard": f"{a.shard[0]}/{a.shard[1]}" if a.shard else None,
               "suites": a.suites, "command": sys.argv, "cwd": os.getcwd(), "out": out,
               "identity": ident}
        names, kept = [], {}
    a.code_cov = codecov.Night(out, cc_tools, log, kept if resumed else None) if cc_tools \
        else None
    return localized(a, out, db, log, night(a, tests, tools, out, db, run, names, kept, log))


def localized(a, out, db, log, status):
    """the ended night's buckets localized (--localize; waived ones too), the night's exit
    status kept"""
    if a.localize and status in (0, 1):
        localize.folder(out, tools_from_env(), a.jobs, a.localize_time,
                        history.recent_runs(db) if db else [], log)
    return status


def night(a, tests, tools, out, db, run, names, kept, log):
    """the tests of the night run (those whose results a resumed run keeps restored, not run
    again: resume.py), then its end (finish.py)"""
    t0 = time.monotonic()
    results, planned = [], set(names)
    jl = resume.journal(out, kept)
    # each bucket's first shrinkable failure shrunk while the other tests run (buckets.py)
    shrinker = buckets.Shrinker(out, tools, a.jobs, a.shrink_time, a.timeout, log,
                                enabled=a.shrink_buckets, waiver_list=a.waiver_list)

    def save():  # what a merge of a killed run, and --resume, read
        report.write_json(os.path.join(out, "run.json"),
                          {"schema": RUN_SCHEMA, "run": run, "tests": names})

    def add(rec):  # a result, kept or new, as the run's end takes it
        results.append(rec)
        shrinker.offer(rec)
        if a.code_cov:
            a.code_cov.add(rec["name"])

    def run_round(round_tests):
        names.extend(t.name for t in round_tests if t.name not in planned)
        planned.update(names)
        save()
        gen_problems = gen.generate(round_tests, tools["gen"], os.path.join(out, "bundles"),
                                    log)
        done, rest = resume.split(out, round_tests, kept, jl, log)
        for rec in done:
            waivers.mark(a.waiver_list, rec)
            add(rec)
        prog = progress.Progress(len(rest))

        def on_result(rec):
            waivers.mark(a.waiver_list, rec)  # (the line below says WAIVED as it ends)
            jl.append(rec["name"], json.dumps(rec))
            if rec["status"] != "pass":
                prog.say(report.failure_lines([rec])[0])
            prog.note(rec["status"] != "pass" and not rec.get("waived"))
            add(rec)
        if rest:
            runner.run_all(rest, tools, out, a, on_result, gen_problems)

    a.log = log
    if a.rounds > 1:
        rounds.run(a, tests, tools, out, run_round, results, run.setdefault("rounds", []), save,
                   log)
    else:
        run_round(tests)
    for name in list(kept):  # (kept by a round a resumed run's rounds did not reach)
        jl.drop(name)
    jl.close()
    shrinker.tests_done()
    run["wall_time"] = resume.span(run) if run.get("resumed") else time.monotonic() - t0
    covs = [runner.coverage_path(out, t["name"]) for t in results] if a.coverage else []
    return finish(out, run, results, db, tools["cov"], covs, log, code_cov=a.code_cov,
                  shrinker=shrinker, waiver_list=a.waiver_list)


def cmd_resume(a, log):
    """run --resume OUT: the interrupted run in OUT goes on, with the options of its command
    (run.json), from the folder it was started in"""
    out = os.path.abspath(a.resume)
    try:
        run, planned, kept = resume.open_run(out)
    except resume.Finished as e:
        log(f"otpu-regress: --resume {out}: its run ended (it has results.json): nothing to "
            f"resume (exit status {e.status}: the run's)")
        return e.status
    try:
        os.chdir(run["cwd"])
    except OSError as e:
        raise UsageError(f"--resume {out}: the folder the run was started in, {run['cwd']}, "
                         f"cannot be entered ({e.strerror})") from None
    orig = parser().parse_args(run["command"][1:])
    if orig.cmd != "run" or orig.resume or os.path.abspath(orig.out) != run["out"]:
        raise UsageError(f"--resume {out}: its run.json records no run into it")
    default_db(orig)
    a.db = orig.db  # (what a full disk's line names)
    return cmd_run(orig, log, (run, planned, kept))


def cmd_localize(a, log):
    tools = tools_from_env()
    out = os.path.abspath(a.out)
    if not os.path.isdir(out) or not os.path.lexists(os.path.join(out, "results.json")):
        raise UsageError(f"localize: {visible(out)} holds no ended night (no results.json)")
    places.check_inputs(out, [(f"${v}", tools[k]) for k, v in TOOLS.items()])
    places.claim(out)
    db = history.connect(a.db, create=False) if a.db and os.path.lexists(a.db) else None
    localize.folder(out, tools, a.jobs, a.localize_time, history.recent_runs(db) if db else [],
                    log)
    return 0


def cmd_history(a, log):
    sys.stdout.write(visible_lines(history.report(history.connect(a.db, create=False), a.runs)))
    return 0


def cmd_merge(a, log):
    tools = tools_from_env(("cov",))
    out = os.path.abspath(a.out)
    waiver_list = waivers.load(a.waivers)
    places.check_inputs(out, [("the shard folder", d) for d in a.dirs] +
                        [("--waivers", a.waivers), ("--db", a.db), ("$OTPU_COV", tools["cov"])])
    places.claim(out)
    db = history.connect(a.db) if a.db else None
    return merge_dirs(a.dirs, out, db, log, tools, waiver_list=waiver_list)


def count(what, lo, hi):
    """an argparse type: a number of the grammar in lo..hi"""
    def parse(s):
        try:
            return number(s, what, lo, hi)
        except UsageError as e:
            raise argparse.ArgumentTypeError(str(e).removeprefix(f"{what}: ")) from None
    return parse


def shard_arg(s):
    i, slash, n = s.partition("/")
    if not slash:
        raise argparse.ArgumentTypeError(f"'{visible(s)}' is not I/N")
    n = count("N", 1, MAX_SHARDS)(n)
    i = count("I", 1, n)(i)
    return i, n


def given(s):
    """an argparse type: a path or a name that is not empty (an unset variable's empty value
    would otherwise mean the current folder, or the default)"""
    if not s:
        raise argparse.ArgumentTypeError("an empty value (an unset variable?)")
    return s


def words(s):
    try:
        return shlex.split(s)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"'{visible(s)}': {e}") from None


class Parser(argparse.ArgumentParser):
    """argparse with one line for bad usage (its default is the usage text and the error)"""

    def error(self, message):
        self.exit(2, f"{self.prog}: {visible(message)} (see {self.prog} --help)\n")


def parser():
    p = Parser(prog="otpu-regress", description=__doc__, epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run suites of bundles through otpu-lockstep",
                       description="Runs every test of the SUITEs (a bundle folder, a folder "
                       "of bundles, gen:FAMILY:seed=N:count=K[:KEY=VALUE...] or a .suite "
                       "file) through otpu-lockstep and writes junit.xml, summary.txt/json, "
                       "index.html and a repro folder per failure into --out. Failures are "
                       "grouped into buckets by signature (divergence.json's, or their kind's); "
                       "one member of each bucket is shrunk by otpu-shrink while the other "
                       "tests run (--shrink-time), into buckets/N with its one-line command. "
                       "A run that was killed, or stopped by a full disk, goes on with "
                       "--resume OUT: the tests with a result keep it, the others run.",
                       epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.run = r  # (check_resume names its options)
    r.add_argument("suites", nargs="*", metavar="SUITE", type=given)
    r.add_argument("--resume", metavar="OUT", type=given,
                   help="go on with the interrupted run (killed, its machine rebooted, its "
                   "Slurm task requeued, its disk full) whose output folder is OUT, alone: its "
                   "suite and options are its command's (run.json). The tests whose results "
                   "results.jsonl holds keep them; the others run; the end (page, junit.xml, "
                   "summaries, buckets, history, coverage) is written as an uninterrupted "
                   "run's. Refused (exit 2) when the suite or the build changed since; a run "
                   "that ended is not run again (exit status: its own)")
    r.add_argument("-j", "--jobs", type=count("-j", 1, MAX_JOBS),
                   default=min(os.cpu_count() or 1, MAX_JOBS),
                   help=f"tests at once, 1..{MAX_JOBS} (default: the core count)")
    r.add_argument("--timeout", type=count("--timeout", 1, MAX_TIMEOUT), default=600,
                   help="wall-clock seconds per test (default 600)")
    r.add_argument("--shard", type=shard_arg, help="run the I-th of N deterministic shares")
    r.add_argument("--out", default="regress-out", type=given,
                   help="output folder: new, empty, or an earlier run's (default regress-out)")
    r.add_argument("--db", type=given, help="history database (default regress.db beside "
                   "--out; 'none': no history)")
    r.add_argument("--slurm", action="store_true", help="run as a Slurm array job and merge")
    r.add_argument("--tasks", type=count("--tasks", 1, MAX_TASKS), default=4,
                   help=f"with --slurm: array tasks (shards), 1..{MAX_TASKS}, default 4")
    r.add_argument("--partition", type=given, help="with --slurm: the partition")
    r.add_argument("--sbatch-args", type=words, default=[], help="with --slurm: more sbatch "
                   "options")
    r.add_argument("--shrink", action="store_true", help="shrink each divergence's bundle "
                   "(into its repro folder, before the next test of its worker)")
    r.add_argument("--shrink-time", type=count("--shrink-time", 1, MAX_TIMEOUT),
                   default=buckets.DEFAULT_SHRINK_TIME, metavar="S",
                   help="seconds otpu-shrink may spend on each failure bucket's member, in the "
                   f"background of the run (1..{MAX_TIMEOUT}, default "
                   f"{buckets.DEFAULT_SHRINK_TIME})")
    r.add_argument("--no-shrink-buckets", dest="shrink_buckets", action="store_false",
                   help="do not shrink a member of each failure bucket (the buckets are still "
                   "made: buckets/ then holds no repro)")
    r.add_argument("--no-coverage", dest="coverage", action="store_false",
                   help="do not collect functional coverage")
    r.add_argument("--no-fork-server", dest="fork_server", action="store_false",
                   help="run every test as an otpu-lockstep process of its own (by default a "
                   "Config with at least 4 tests runs them through a fork server of its "
                   "simulator per worker, which builds the model once and forks a child per "
                   "test; any outcome but a pass is run again through otpu-lockstep)")
    r.add_argument("--code-coverage", action="store_true",
                   help="RTL code coverage: each test on the RTL's build with Verilator's "
                   "--coverage (line, branch, toggle), merged over the run into "
                   "code-coverage/ (merged.dat, the lcov tracefile coverage.info, genhtml's "
                   "index.html); totals per module in the summary and on the page. Needs "
                   "verilator_coverage and genhtml (Debian's lcov)")
    r.add_argument("--rounds", type=count("--rounds", 1, rounds.MAX_ROUNDS), default=1,
                   help="run in up to N rounds: after the first, each gen entry's next count "
                   "programs aim at the bins still empty (otpu-gen --cover); stops when a "
                   f"round hits no new bin (1..{rounds.MAX_ROUNDS}, default 1)")
    r.add_argument("--budget", type=count("--budget", 1, MAX_TIMEOUT),
                   help="with --rounds: start no round the wall-clock SECONDS left would not "
                   "hold (judged by the last round's time)")
    r.add_argument("--waivers", metavar="FILE", type=given, help=WAIVERS_HELP)
    r.add_argument("--localize", action="store_true", help="after a night with failures, rank "
                   "each bucket's suspect RTL lines (as `localize OUT` does)")
    localize_time(r)
    lz = sub.add_parser("localize", help="rank the suspect RTL lines of each failure bucket of "
                        "an ended night",
                        description="For each failure bucket of the night in OUT, runs its "
                        "shrunk repro, members, witnesses (variants of the repro that pass: "
                        "otpu-shrink --variants) and the night's passing tests of its Config "
                        "again on the Config's code-coverage build, and ranks the RTL's lines "
                        "by Ochiai's score (a failing run counted up to its divergence). "
                        "Writes the suspects into summary.json (buckets[i].suspects, causes), "
                        "summary.txt and index.html.", epilog=EPILOG,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    lz.add_argument("out", metavar="OUT", type=given, help="the night's output folder")
    lz.add_argument("-j", "--jobs", type=count("-j", 1, MAX_JOBS),
                    default=min(os.cpu_count() or 1, MAX_JOBS),
                    help=f"runs at once, 1..{MAX_JOBS} (default: the core count)")
    localize_time(lz)
    lz.add_argument("--db", type=given, help="history database the page's history chart reads "
                    "(default regress.db beside OUT, if there is one; 'none')")
    h = sub.add_parser("history", help="new failures, fixes, still failing, flaky tests; the "
                       "latest run's failure buckets: new, back and gone")
    h.add_argument("--db", default="regress.db", type=given)
    h.add_argument("--runs", type=count("--runs", 1, 1 << 20), default=30,
                   help="runs looked at for flaky tests (default 30)")
    m = sub.add_parser("merge", help="merge the shard output folders of one run into one "
                       "(their functional and RTL code coverage too)")
    m.add_argument("dirs", nargs="+", metavar="DIR", type=given)
    m.add_argument("--out", required=True, type=given)
    m.add_argument("--db", type=given,
                   help="history database (default regress.db beside --out; 'none')")
    m.add_argument("--waivers", metavar="FILE", type=given, help=WAIVERS_HELP)
    return p


def localize_time(p):
    p.add_argument("--localize-time", type=count("--localize-time", 1, MAX_TIMEOUT),
                   default=localize.DEFAULT_TIME, metavar="S",
                   help="seconds the runs of one bucket may take (the Config's code-coverage "
                   f"build not counted; 1..{MAX_TIMEOUT}, default {localize.DEFAULT_TIME})")


def default_db(a):
    """--db's default (regress.db beside --out) and 'none'"""
    if a.db is None:
        a.db = os.path.join(os.path.dirname(os.path.abspath(a.out)), "regress.db")
    elif a.db == "none":
        a.db = None


def check_resume(p, a):
    """--resume alone (the run's own options are its command's), or SUITEs without it"""
    if not a.resume:
        if not a.suites:
            p.error("the following arguments are required: SUITE (or --resume OUT)")
        return
    alone = vars(p.parse_args(["run", "--resume=" + a.resume]))
    words = {x.dest: (x.option_strings or [x.metavar])[-1] for x in p.run._actions}
    extra = sorted(words[k] for k, v in vars(a).items() if alone.get(k) != v)
    if extra:
        p.error(f"--resume OUT takes the suite and options of the run it resumes (its "
                f"run.json): give it alone, not with {', '.join(extra)}")


def say(line, status):
    """status, once every child is stopped (none may go on writing into the output folder or
    hold stderr open after the run ended) and line written whole"""
    procs.stop_all()
    progress.write(sys.stderr, f"otpu-regress: {line}\n")
    return status


def ended(e, a, out):
    """the one line of a run that ran out of space, with how to go on; exit status 7"""
    where = visible(e.filename) if getattr(e, "filename", None) else \
        f"the history database {visible(a.db)}"
    go_on = (f"rerun with --resume {visible(out)}" if a.cmd == "run" and
             os.path.lexists(os.path.join(out, "run.json")) else "run it again")
    return say(f"no space left on device while writing {where}: free space and {go_on}", 7)


def main(argv=None):
    for stream in (sys.stdout, sys.stderr):  # any text reaches them, whatever the locale
        stream.reconfigure(errors="backslashreplace")
    p = parser()
    a = p.parse_args(argv)
    out = None
    if a.cmd == "run":
        check_resume(p, a)
    if a.cmd in ("run", "merge", "localize"):
        out = os.path.abspath(getattr(a, "resume", None) or a.out)
        default_db(a)

    def log(s):
        progress.write(sys.stderr, visible_lines(s) + "\n")
    procs.on_signals()

    def go_on():  # (once the run has planned its tests)
        return (f"; otpu-regress run --resume {visible(out)} goes on with the others"
                if a.cmd == "run" and os.path.lexists(os.path.join(out, "run.json")) else "")
    try:
        cmd = cmd_resume if a.cmd == "run" and a.resume else \
            {"run": cmd_run, "history": cmd_history, "merge": cmd_merge,
             "localize": cmd_localize}[a.cmd]
        return cmd(a, log)
    except UsageError as e:
        return say(visible(e), 2)
    except sqlite3.Error as e:
        if getattr(e, "sqlite_errorcode", None) == SQLITE_FULL:
            return ended(e, a, out)
        return say(f"the history database: {visible(e)}", 2)
    except OSError as e:  # a place that stopped being writable
        if outputs.full(e):
            return ended(e, a, out)
        where = f"{visible(e.filename)}: " if e.filename else ""
        return say(f"{where}{visible(e.strerror or e)}", 2)
    except KeyboardInterrupt:
        # (children run in sessions of their own: no SIGINT reached them)
        return say(f"interrupted; the tests that ran are in results.jsonl{go_on()}", 130)
    except procs.Stopped as e:
        return say(f"{e}; the tests that ran are in results.jsonl{go_on()}", 128 + e.signum)
