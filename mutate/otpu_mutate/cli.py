"""otpu-mutate's command line and its run: the checks before anything is built, the unmutated
RTL's baseline, then each mutant in the list's order."""
import argparse
import datetime
import fcntl
import os
import re
import signal
import socket
import stat
import sys
import time

from otpu_regress import localize, outputs, procs

from . import mutants as ml
from . import localized, programs, report, runner, trees
from .errors import UsageError, visible

HERE = os.path.dirname(os.path.abspath(__file__))
MUTATE_DIR = os.path.dirname(HERE)
DEFAULT_SETTINGS = ["S=2", "PAIR=1", "DSTEP=1", "STREAM=1"]

DESCRIPTION = """\
The mutation score of the lockstep checker and the generated programs: each mutant of the
reviewed list (mutate/mutants.txt: one planted change in the reference RTL, rtl/*.sv) is built
in a copy of the source tree (cached by the tools), and otpu-gen's programs of every family run
in lockstep against it (otpu-lockstep run), each family until its first kill; the golden
vectors of one Config run beside them for comparison. A run that does not pass kills the mutant.
A mutant whose RTL does not build is stillborn; one whose Verilated model is the original's, or
which survives and is listed in mutate/equivalent.txt, is equivalent; neither is scored.
Output: --json (schema in mutate/README.md) and the text report (--text, and stdout)."""

EPILOG = """\
tools: OTPU_LOCKSTEP, OTPU_RTL, OTPU_GEN (the launcher in the meson build sets them; else
<source>/build/...), VERILATOR (default: verilator on PATH).
exit status: 0 done (the report gives the score), 1 the generated programs' score is below
--min-score, 2 bad input (a bad mutant list, an anchor missing or not unique, a missing tool,
a bad option; one line on stderr), 128+N stopped by signal N."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def _int(lo, hi):
    def parse(s):
        if not re.fullmatch(r"0|[1-9][0-9]*", s or ""):
            raise argparse.ArgumentTypeError(f"'{visible(s)}' is not a decimal number")
        v = int(s)
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{v} is not in {lo}..{hi}")
        return v
    return parse


def _percent(s):
    if not re.fullmatch(r"(0|[1-9][0-9]*)(\.[0-9]+)?", s or ""):
        raise argparse.ArgumentTypeError(f"'{visible(s)}' is not a percentage (0 to 100)")
    v = float(s)
    if v > 100:
        raise argparse.ArgumentTypeError(f"{s} is more than 100")
    return v


def _setting(s):
    if not re.fullmatch(r"[A-Z_]+=(0|[1-9][0-9]*|0x[0-9a-fA-F]+)", s or ""):
        raise argparse.ArgumentTypeError(f"'{visible(s)}' is not KEY=VALUE (a Config field and "
                                         f"a number)")
    return s


def _given(s):
    """a path that is not empty (an unset variable's empty value would otherwise mean the
    default, or the current folder)"""
    if not s:
        raise argparse.ArgumentTypeError("an empty value (an unset variable?)")
    return s


def _families(s):
    fams = [f.strip() for f in (s or "").split(",")]
    bad = [f for f in fams if f not in programs.FAMILIES]
    if bad:
        raise argparse.ArgumentTypeError(f"'{visible(s)}': families are a comma-separated list "
                                         f"of {','.join(programs.FAMILIES)}")
    if len(set(fams)) != len(fams):
        raise argparse.ArgumentTypeError(f"'{visible(s)}' names a family twice")
    return fams


def _user_cache(sub):
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "otpu-lockstep", sub)


def parser():
    p = _Parser(prog="otpu-mutate", description=DESCRIPTION, epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    a = p.add_argument
    a("--mutants", metavar="FILE", type=_given,
      help="the mutant list (default: mutate/mutants.txt)")
    a("--equivalent", metavar="FILE", type=_given,
      help="the reviewed equivalences (default: mutate/equivalent.txt)")
    a("--only", metavar="ID,...", help="run only these mutants (the whole list is still checked; "
      "a list that names none is bad usage)")
    a("--list", action="store_true",
      help="check the lists against the sources, print the mutants and exit")
    a("--source", metavar="DIR", type=_given, help="the source tree whose RTL is mutated "
      "(default: the one otpu-mutate belongs to)")
    a("--families", type=_families, default=list(programs.FAMILIES), metavar="LIST",
      help="otpu-gen families (default: " + ",".join(programs.FAMILIES) + ")")
    a("--seed", type=_int(0, 2 ** 63), default=1, help="otpu-gen's seed (default 1)")
    a("--count", type=_int(1, 10000), default=15, help="programs a family (default 15)")
    a("--config", type=_setting, action="append", metavar="K=V",
      help="a Config field of the generated programs, over " + " ".join(DEFAULT_SETTINGS) +
      " (repeat it)")
    a("--golden", metavar="DIR", type=_given, help="the golden vectors (default: "
      "$OTPU_VECTORS_DIR/isa, else <source>/../shared/vectors/isa); the bundles of the Config "
      "most of them share are run")
    a("--no-golden", action="store_true", help="no golden vectors (one build per mutant)")
    a("--golden-count", type=_int(0, 100000), default=0, metavar="N",
      help="at most N golden bundles (default 0: all of that Config)")
    a("--cache", metavar="DIR", type=_given, help="the RTL build cache (default: "
      "$OTPU_RTL_CACHE, else the per-user cache ~/.cache/otpu-lockstep/rtl)")
    a("--work", metavar="DIR", type=_given, help="the mutant trees and programs (default: "
      "~/.cache/otpu-lockstep/mutate); stable paths keep the builds cached")
    a("--json", metavar="FILE", default="mutation.json", type=_given,
      help="the results (default ./mutation.json: a regular file or a new one, replaced whole); "
      "when FILE's folder holds otpu-regress's index.html, its mutation section is updated")
    a("--text", metavar="FILE", type=_given,
      help="the text report (default: --json's name with .txt)")
    a("-j", "--jobs", type=_int(1, 64), default=1, help="families run at once (default 1)")
    a("--timeout", type=_int(1, 86400), default=300, metavar="S",
      help="wall-clock limit of one lockstep run (default 300 s)")
    a("--build-timeout", type=_int(1, 86400), default=3600, metavar="S",
      help="wall-clock limit of one RTL build (default 3600 s)")
    a("--fast", action="store_true", help="stop a mutant at its first kill (the per-family "
      "shares become lower bounds)")
    a("--min-score", type=_percent, default=0.0, metavar="P",
      help="exit 1 when the generated programs kill less than P %% of the scored mutants "
      "(default 0: never)")
    a("--lockstep", metavar="PATH", type=_given, help="otpu-lockstep (default $OTPU_LOCKSTEP)")
    a("--rtl", metavar="PATH", type=_given, help="otpu-rtl (default $OTPU_RTL)")
    a("--gen", metavar="PATH", type=_given, help="otpu-gen (default $OTPU_GEN)")
    a("--localize", action="store_true", help="localize each killed mutant as otpu-regress "
      "localizes a bucket (its killing programs failing, the programs that passed on it and "
      "witnesses passing, on its code-coverage build) and report the mutated line's rank: "
      "the share of killed mutants with it at rank 1, in the top 3, 5 and 10")
    a("--localize-time", type=_int(1, 86400), default=localize.DEFAULT_TIME, metavar="S",
      help=f"with --localize: seconds of runs a mutant (default {localize.DEFAULT_TIME})")
    a("--shrink", metavar="PATH", type=_given, help="with --localize: otpu-shrink, which makes "
      "the witnesses (default $OTPU_SHRINK)")
    return p


def _tool(given, var, source, rel, name):
    path = given or os.environ.get(var) or os.path.join(source, "build", rel)
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise UsageError(f"{name} not found: '{visible(path)}' is not an executable file "
                         f"(set {var} or give --{name.split('-')[1]})")
    return os.path.abspath(path)


def _dir_arg(path, what):
    if os.path.lexists(path) and not os.path.isdir(path):
        raise UsageError(f"{what} '{visible(path)}' is not a folder")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UsageError(f"{what} '{visible(path)}': {e.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UsageError(f"{what} '{visible(path)}' cannot be written")
    return os.path.abspath(path)


def _lock(work):
    path = os.path.join(work, "otpu-mutate.lock")
    try:  # (no link followed, no wait on a FIFO put there)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                     0o644)
    except OSError as e:
        raise UsageError(f"--work '{visible(work)}': its lock file: {e.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"{visible(path)}: the lock file is not a regular file; remove it")
    f = os.fdopen(fd, "r+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        holder = f.read(300).strip() or "another otpu-mutate"
        raise UsageError(f"--work '{visible(work)}' is in use by {visible(holder)}") from None
    f.seek(0)
    f.truncate()
    f.write(f"pid {os.getpid()} on {socket.gethostname()} since "
            f"{datetime.datetime.now().isoformat(timespec='seconds')}\n")
    f.flush()
    return f


def _settings(given):
    merged = {}
    for s in DEFAULT_SETTINGS + (given or []):
        k, v = s.split("=", 1)
        merged[k] = v
    return [f"{k}={v}" for k, v in merged.items()]


class Progress:
    def __init__(self, total):
        self.total, self.t0, self.done = total, time.monotonic(), 0

    def log(self, msg):
        print(f"otpu-mutate: {msg}", file=sys.stderr, flush=True)

    def mutant(self, i, m, outcome, secs):
        self.done += 1
        el = time.monotonic() - self.t0
        eta = el / self.done * (self.total - self.done)
        self.log(f"[{i}/{self.total}] {m.id} ({m.file}:{m.line}): {outcome} ({secs:.0f} s) "
                 f"| elapsed {report._duration(el)}, ETA {report._duration(eta)}")


def _kills_text(fams):
    ks = [f for f, r in fams.items() if r["kill"]]
    return ("killed by " + ", ".join(ks)) if ks else "survived"


def _one(tools, m, original, work, orig_digest, cfg_gen, cfg_gold, sources, by_family,
         first_bundle, jobs, fast):
    """one mutant's record"""
    rec = {"id": m.id, "file": m.file, "line": m.line, "unit": m.unit, "kind": m.kind,
           "description": m.description, "anchor": m.anchor, "replacement": m.replacement,
           "listed_equivalent": m.equivalent, "status": None, "reason": None, "note": None,
           "killed_by": {}, "programs_run": {}, "model": None, "build_time": 0.0,
           "run_time": 0.0, "tree": None}
    tree = trees.mutant_tree(original, work, m)
    rec["tree"] = tree
    tmp = os.path.join(work, "tmp")
    configs = [("generated", cfg_gen)] + ([("golden", cfg_gold)] if cfg_gold else [])
    same = True
    for name, cfg in configs:
        digest, err = trees.model_digest(tools.verilator, tree, cfg, sources, tmp)
        if err:
            rec["status"], rec["reason"] = "stillborn", f"Verilator: {err}"
            rec["model"] = "does not Verilate"
            return rec
        if digest != orig_digest[name]:
            same = False
            break
    if same:
        rec["status"] = "equivalent"
        rec["reason"] = ("identical Verilated model (on the " +
                         " and ".join(n for n, _ in configs) + " Config)")
        rec["model"] = "identical"
        return rec
    rec["model"] = "differs"
    for name, _ in configs:
        ok, secs, why = runner.build(tools, tree, first_bundle[name])
        rec["build_time"] += round(secs, 1)
        if not ok:
            rec["status"], rec["reason"] = "stillborn", f"the RTL build failed: {why}"
            return rec
    t0 = time.monotonic()
    fams = runner.run_families(tools, tree, by_family, os.path.join(work, "reports", m.id),
                               jobs, fast)
    rec["run_time"] = round(time.monotonic() - t0, 1)
    for fam, r in fams.items():
        rec["programs_run"][fam] = r["run"]
        if r["kill"]:
            rec["killed_by"][fam] = r["kill"]
    gen_kill = any(f != programs.GOLDEN for f in rec["killed_by"])
    if gen_kill:
        rec["status"] = "killed"
        if m.equivalent:
            rec["note"] = ("listed in equivalent.txt, yet killed: the list is wrong (" +
                           m.equivalent + ")")
    elif m.equivalent and not rec["killed_by"]:
        rec["status"], rec["reason"] = "equivalent", f"reviewed: {m.equivalent}"
    else:
        rec["status"] = "survived"
        if m.equivalent:
            rec["note"] = "listed in equivalent.txt, yet the golden vectors kill it"
    return rec


def _refresh_page(json_path, source, log):
    """otpu-regress's page in the JSON's folder: its mutation section, again"""
    out = os.path.dirname(os.path.abspath(json_path))
    if not os.path.isfile(os.path.join(out, "index.html")):
        return
    pkg = os.environ.get("OTPU_REGRESS_PKG") or os.path.join(source, "regress")
    sys.path.insert(0, pkg)
    try:
        from otpu_regress import html  # noqa: E402 (otpu-regress's package, found at run time)
        if html.refresh_mutation(out):
            log(f"updated the mutation section of {os.path.join(out, 'index.html')}")
    except Exception as e:  # the page is a convenience; the results are written
        log(f"could not update {os.path.join(out, 'index.html')}: {visible(e)}")
    finally:
        sys.path.remove(pkg)


def run(argv):
    args = parser().parse_args(argv)
    source = os.path.abspath(args.source or os.environ.get("OTPU_MUTATE_SOURCE") or
                             os.path.dirname(MUTATE_DIR))
    if not os.path.isdir(os.path.join(source, "rtl")):
        raise UsageError(f"--source '{visible(source)}' has no rtl/ folder")
    list_path = os.path.abspath(args.mutants or os.path.join(MUTATE_DIR, "mutants.txt"))
    eq_path = os.path.abspath(args.equivalent or os.path.join(MUTATE_DIR, "equivalent.txt"))
    every = ml.read_list(list_path)
    ml.check_against(every, source)
    ml.read_equivalent(eq_path, every)
    chosen = ml.select(every, args.only)
    if args.list:
        for m in chosen:
            eq = f" [equivalent: {m.equivalent}]" if m.equivalent else ""
            print(f"{m.id}\t{m.file}:{m.line}\t{m.kind}\t{m.description}{eq}")
        return 0
    tools = runner.Tools(
        _tool(args.lockstep, "OTPU_LOCKSTEP", source, "rtl_bridge/otpu-lockstep",
              "otpu-lockstep"),
        _tool(args.rtl, "OTPU_RTL", source, "rtl_bridge/otpu-rtl", "otpu-rtl"),
        _tool(args.gen, "OTPU_GEN", source, "gen/otpu-gen", "otpu-gen"),
        os.environ.get("VERILATOR") or "verilator",
        None, args.timeout, args.build_timeout)
    shrink = _tool(args.shrink, "OTPU_SHRINK", source, "shrink/otpu-shrink", "otpu-shrink") \
        if args.localize else None
    vver = trees.verilator_found(tools.verilator)
    golden_dir = None
    if not args.no_golden:
        golden_dir = os.path.abspath(args.golden or os.path.join(
            os.environ.get("OTPU_VECTORS_DIR") or os.path.join(source, "..", "shared", "vectors"),
            "isa"))
        if not os.path.isdir(golden_dir):
            raise UsageError(f"--golden '{visible(golden_dir)}' is not a folder (or --no-golden)")
    tools.cache = _dir_arg(args.cache or os.environ.get("OTPU_RTL_CACHE") or _user_cache("rtl"),
                           "--cache")
    work = _dir_arg(args.work or _user_cache("mutate"), "--work")
    json_path = os.path.abspath(args.json)
    text_path = os.path.abspath(args.text or (json_path[:-5] if json_path.endswith(".json")
                                              else json_path) + ".txt")
    for p, what in ((json_path, "--json"), (text_path, "--text")):
        _dir_arg(os.path.dirname(p), f"{what}'s folder")
        outputs.check(p, what)  # a regular file or none: a FIFO or /dev/null is not replaced
    if os.path.realpath(json_path) == os.path.realpath(text_path):
        raise UsageError(f"--json and --text are one file: {visible(json_path)}")
    lock = _lock(work)  # held until the process ends
    procs.on_signals((signal.SIGINT, signal.SIGTERM, signal.SIGHUP))
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t_start = time.monotonic()
    prog = Progress(len(chosen))
    log = prog.log
    os.makedirs(os.path.join(work, "tmp"), exist_ok=True)

    # programs
    settings = _settings(args.config)
    gen_progs, cfg_gen = programs.generate(tools.gen, args.families, args.seed, args.count,
                                           settings, os.path.join(work, "programs"),
                                           args.build_timeout)
    gold_progs, cfg_gold = ([], None) if args.no_golden else programs.golden(golden_dir,
                                                                              args.golden_count)
    log(f"{len(chosen)} mutants; {len(gen_progs)} generated programs "
        f"({programs.config_text(cfg_gen)})" +
        (f", {len(gold_progs)} golden ({programs.config_text(cfg_gold)})" if cfg_gold else ""))

    # the unmutated RTL: its model, its builds, every program passing on it
    original = trees.snapshot(source, work)
    sources = ml.read_sources(original)
    orig_digest = {}
    for name, cfg in [("generated", cfg_gen)] + ([("golden", cfg_gold)] if cfg_gold else []):
        digest, err = trees.model_digest(tools.verilator, original, cfg, sources,
                                         os.path.join(work, "tmp"))
        if err:
            raise UsageError(f"the unmutated RTL of {visible(source)} does not Verilate: {err}")
        orig_digest[name] = digest
    first_bundle = {"generated": gen_progs[0].path}
    if gold_progs:
        first_bundle["golden"] = gold_progs[0].path
    for name, b in first_bundle.items():
        log(f"building the unmutated RTL for the {name} Config")
        ok, _, why = runner.build(tools, original, b)
        if not ok:
            raise UsageError(f"the unmutated RTL of {visible(source)} does not build: {why}")
    log(f"the baseline: {len(gen_progs) + len(gold_progs)} programs on the unmutated RTL")
    kept, dropped = runner.baseline(tools, original, gen_progs + gold_progs, work, args.jobs)
    for d in dropped:
        log(f"dropped {d['family']}/{d['program']}: it fails on the unmutated RTL: "
            f"{d['message']}")
    by_family = {}
    for f in list(args.families) + ([programs.GOLDEN] if gold_progs else []):
        by_family[f] = [p for p in kept if p.family == f]
    runrec = {
        "started": started, "wall_time": None, "host": socket.gethostname(),
        "command": ["otpu-mutate"] + list(argv), "source_root": source,
        "mutant_list": list_path, "equivalent_list": eq_path, "cache": tools.cache,
        "work": work, "tools": {"otpu-lockstep": tools.lockstep, "otpu-rtl": tools.rtl,
                                "otpu-gen": tools.gen, "verilator": vver},
        "families": list(args.families), "seed": args.seed, "count": args.count,
        "config": {"generated": programs.config_text(cfg_gen),
                   "golden": programs.config_text(cfg_gold) if cfg_gold else None},
        "golden_dir": golden_dir,
        "programs": {f: [p.name for p in ps] for f, ps in by_family.items()},
        "dropped": dropped, "fast": args.fast, "jobs": args.jobs, "min_score": args.min_score,
    }

    records = []
    for i, m in enumerate(chosen, 1):
        t0 = time.monotonic()
        rec = _one(tools, m, original, work, orig_digest, cfg_gen, cfg_gold, sources,
                   by_family, first_bundle, args.jobs, args.fast)
        records.append(rec)
        if args.localize and rec["status"] == "killed":
            localized.localize_mutant(tools, shrink, rec["tree"], rec, by_family, args.jobs,
                                      args.localize_time, os.path.join(work, "tmp"))
            log(f"{m.id}: {m.file}:{m.line} at rank {rec['localize']['rank']} "
                f"({rec['localize']['note']})")
        outcome = rec["status"] if rec["status"] in ("equivalent", "stillborn") else \
            _kills_text({f: {"kill": rec["killed_by"].get(f)} for f in by_family})
        prog.mutant(i, m, outcome, time.monotonic() - t0)
    runrec["wall_time"] = round(time.monotonic() - t_start, 1)
    doc = report.document(runrec, records, list(args.families), bool(gold_progs))
    if args.localize:
        doc["localization"] = localized.figures(records)
    report.write_json(json_path, doc)
    txt = report.text(doc)
    outputs.write(text_path, txt)
    sys.stdout.write(txt)
    log(f"results: {json_path}, {text_path}")
    _refresh_page(json_path, source, log)
    lock.close()
    score = doc["totals"]["score"]["generated"]
    if args.min_score and score["of"] and score["percent"] < args.min_score:
        log(f"the generated programs' score {score['percent']:.1f} % is below --min-score "
            f"{args.min_score:g} %")
        return 1
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        return run(argv)
    except UsageError as e:
        print(f"otpu-mutate: {visible(e)}", file=sys.stderr)
        return 2
    except procs.Stopped as e:
        procs.stop_all()
        print(f"otpu-mutate: stopped by signal {e.signum}", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        procs.stop_all()
        return 130
    except OSError as e:  # a place that stopped being writable, a full disk
        where = f"{visible(e.filename)}: " if e.filename else ""
        print(f"otpu-mutate: {where}{visible(e.strerror or e)}", file=sys.stderr)
        return 2
