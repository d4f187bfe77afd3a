"""Local parallel execution: every test is one otpu-lockstep run in a process group of its own,
under a wall-clock timeout; a crash, hang, timeout or failed build of one test never stops the
others. The Verilator build of each Config is made once, before the tests, through the tools'
cache and its lock."""
import collections
import concurrent.futures
import hashlib
import os
import shlex
import shutil

from . import buckets, files, forkserver, outcome, outputs, procs
from .repro import make_repro
from .names import safe_name
from .suite import Test
from .text import one_line

# the case.txt keys that decide which simulator a bundle needs: a Config is built from them
# (otpu-rtl build KEY=VALUE...), never from one of its bundles, whose own faults would then be
# every other test's of that Config. (REV: otpu-rtl build takes no revision; each test's run
# checks its own against the RTL's.)
CONFIG_KEYS = ("S", "D", "MCOLS", "ACT_BLOCKS", "TMEM_WORDS", "DRAM_BYTES", "IMEM_WORDS",
               "LANES", "PAIR", "DSTEP", "STREAM", "ACT_ROWS")


def file_sha256(path, buf):
    """a file's sha256, read through buf (a bytearray reused for every file): a DRAM image of
    megabytes read whole would land in fresh pages, each a page fault (issue 16: loading must
    not dwarf running)"""
    h, view = hashlib.sha256(), memoryview(buf)
    with files.open_checked(path, files.limit_of(os.path.basename(path))) as fh:
        while True:
            n = fh.readinto(view)
            if not n:
                return h.digest()
            h.update(view[:n])


def input_hash(test):
    """the test's input: its bundle's files and its plusargs (a file that cannot be read, which
    the test reports as bad input, counts by its name)"""
    h, buf = hashlib.sha256(), bytearray(1 << 16)  # one per call: tests start in threads
    try:
        for e in files.entries(test.path):
            h.update(e.name.encode("utf-8", "surrogateescape") + b"\0")
            try:
                h.update(file_sha256(e.path, buf))
            except files.BadFile:
                h.update(b"unreadable")
    except files.BadFile:
        h.update(b"missing")
    h.update("\0".join(test.plusargs).encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def config_of(path):
    """the Config fields a bundle's case.txt states, as KEY=VALUE words (None when it cannot be
    read or states none: its run says what is wrong with it)"""
    try:
        text = files.read_text(os.path.join(path, "case.txt"), files.OTHER)
    except files.BadFile:
        return None
    kv = dict(ln.strip().split("=", 1) for ln in text.splitlines() if "=" in ln)
    words = tuple(f"{k}={kv[k]}" for k in CONFIG_KEYS if k in kv)
    return words if words and not any("\0" in w for w in words) else None


def build_configs(tests, tools, jobs, log, code_cov=False, exes=None):
    """build each Config's simulator once (code_cov: its code-coverage build); {config: None,
    or (kind, the build's last words)}; exes: a dict given gets {config: the simulator's path}"""
    configs = sorted({c for c in map(config_of, (t.path for t in tests)) if c is not None})
    dut = os.environ.get("OTPU_DUT", "")  # (otpu-rtl and otpu-lockstep read it: docs/opentpu.md)
    log(f"otpu-regress: finding or building the RTL of {len(configs)} Config(s)" +
        (f" (OTPU_DUT={dut})" if dut else ""))
    done = []

    def build(config):
        status, out, secs, _ = procs.run([tools["rtl"], "build"] +
                                         (["--code-coverage"] if code_cov else []) +
                                         list(config))
        done.append(config)
        if secs > 1:
            log(f"otpu-regress: {len(done)}/{len(configs)} Configs ready ({secs:.0f} s for "
                f"{' '.join(config)})")
        if status == 0:
            if exes is not None:  # (the same cache entry: found at once)
                st, out, _, _ = procs.run([tools["rtl"], "path", *config])
                if st == 0 and out.strip():
                    exes[config] = out.strip().splitlines()[-1]
            return None
        why = outcome.last_line(out, r"\S") or f"otpu-rtl build exited {status}"
        return ("bad-input" if status == 2 else "build-failed"), why  # 2: the Config is bad

    with concurrent.futures.ThreadPoolExecutor(max(1, min(jobs, len(configs)))) as ex:
        return dict(zip(configs, ex.map(build, configs)))


def lockstep_command(tools, test, report, coverage, code_cov=None):
    cmd = [tools["lockstep"], "run", test.path, "--report", report, "--report-html"]
    if coverage:
        cmd += ["--coverage", coverage]
    if code_cov:  # the .dat of the RTL's code coverage (codecov.py)
        cmd += ["--code-coverage", code_cov]
    return cmd + list(test.plusargs)


def new_record(test: Test, tools):
    """a test's result record before it has a verdict (TEST in regress/README.md)"""
    return {"name": test.name, "suite": test.suite, "bundle": test.bundle,
            "bundle_path": test.path, "plusargs": list(test.plusargs),
            "input_hash": input_hash(test), "repro": None, "divergence": None,
            "cycles": None, "instructions": None, "exit": None, "time": 0.0, "bucket": None,
            "command": " ".join(shlex.quote(w) for w in
                                [os.path.basename(tools["lockstep"]), "run", test.path] +
                                list(test.plusargs))}


def coverage_path(out_dir, name):
    """where the test of this name writes its coverage file"""
    return os.path.join(out_dir, "work", "coverage", safe_name(name) + ".json")


def served_run(test, servers, report, cov, opts):
    """the test through its Config's fork server: (status, output, seconds, timed out) of a
    pass or a timeout, None for anything else (then otpu-lockstep runs it: forkserver.py)"""
    server = servers.of(config_of(test.path)) if servers and not test.plusargs else None
    if server is None:
        return None
    try:
        r = server.run(forkserver.simulator_args(test, report, cov), opts.timeout)
    except forkserver.ServerGone:
        return None
    return r if r[0] == 0 or r[3] else None


def run_test(test: Test, tools, out_dir, opts, problem, servers=None):
    """one test's result record (TEST in summary.json's terms); problem: (kind, message) when
    the test cannot run (its bundle was not generated, its Config not built); servers: the
    run's fork servers (forkserver.Servers) or None"""
    # the report is written where a failure's repro folder keeps it, so that the paths in
    # divergence.txt stay true; a passing run leaves no folder
    folder = os.path.join(out_dir, "repro", safe_name(test.name))
    report = os.path.join(folder, "report")
    cov = coverage_path(out_dir, test.name)
    night = getattr(opts, "code_cov", None)
    cmd = lockstep_command(tools, test, report, cov if opts.coverage else None,
                           night.path(test.name) if night else None)
    rec = new_record(test, tools)
    output = ""
    bad_bundle = bundle_problem(test.path)
    problem = problem or bad_bundle
    if problem:
        rec.update(status="fail", kind=problem[0], message=one_line(problem[1]))
    else:
        os.makedirs(os.path.dirname(cov), exist_ok=True)
        served = served_run(test, servers, report, cov if opts.coverage else None, opts)
        status, output, secs, timed_out = served or procs.run(cmd, opts.timeout)
        if status != 0:  # a tool that ran out of space: the disk's verdict, not the test's
            outputs.full_in(output, report)
        rec["served"] = served is not None
        st, kind, msg, d = outcome.classify(status, output, report, timed_out, opts.timeout)
        cycles, instructions = outcome.counts(output)
        rec.update(status=st, kind=kind, message=msg, divergence=d, exit=status, time=secs,
                   cycles=cycles, instructions=instructions)
    if rec["status"] == "fail" and not bad_bundle:
        try:
            rec["repro"] = make_repro(test, rec, tools, out_dir, output,
                                      opts.shrink and rec["kind"] == "divergence")
        except files.BadFile as e:  # the bundle changed since it was checked
            shutil.rmtree(folder, ignore_errors=True)
            rec.update(kind="bad-input", message=one_line(e), repro=None)
    else:
        shutil.rmtree(folder, ignore_errors=True)
    rec["bucket"] = buckets.of_test(rec, report)  # (its signature: buckets.py)
    return rec


def bundle_problem(path):
    """("bad-input", why) when the bundle is missing or holds what otpu-regress must not read
    (files.bundle_problem), else None"""
    if not os.path.isdir(path):
        return "bad-input", f"no bundle at {path}"
    why = files.bundle_problem(path)
    return ("bad-input", why) if why else None


def run_all(tests, tools, out_dir, opts, on_result, gen_problems):
    """run every test with opts.jobs workers; on_result(record) as each one ends.
    gen_problems: {entry name: why its bundles could not be generated}"""
    runnable = [t for t in tests if t.entry.name not in gen_problems]
    code_cov = getattr(opts, "code_cov", None) is not None
    exes = {}
    built = build_configs(runnable, tools, opts.jobs, opts.log, code_cov, exes)
    servers = None
    if getattr(opts, "fork_server", False) and not code_cov and \
            os.environ.get("OTPU_DUT", "reference") in ("", "reference"):
        counts = collections.Counter(config_of(t.path) for t in runnable)
        exes = {c: e for c, e in exes.items() if counts[c] >= forkserver.MIN_TESTS}
        servers = forkserver.Servers(exes, os.path.join(out_dir, "work", "serve")) if exes \
            else None

    def problem(t):
        if t.entry.name in gen_problems:
            return "bad-input", gen_problems[t.entry.name]
        return built.get(config_of(t.path))

    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as ex:
        futs = [ex.submit(run_test, t, tools, out_dir, opts, problem(t), servers) for t in tests]
        try:
            for f in concurrent.futures.as_completed(futs):
                on_result(f.result())
        except BaseException:  # stopped: no test waits for the ones running to end
            procs.stop_all()
            for f in futs:
                f.cancel()
            raise
        finally:
            if servers:
                servers.close()
