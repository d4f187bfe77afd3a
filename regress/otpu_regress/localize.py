"""Fault localization of a night's failure buckets (`run --localize`, `localize OUT`;
regress/README.md, "Suspect lines"): for each bucket, the RTL's lines ranked by how suspicious
they are (spectrum.py), from the code coverage of tests run again on the Config's
code-coverage build:

  failing   the bucket's shrunk repro and its members (those that fail again with its key);
            a failing run's coverage ends at its divergence: otpu-lockstep stops there
  witnesses variants of the shrunk repro (otpu-shrink --variants: one instruction dropped, a
            LOOP count lowered, other data) and fresh programs of the members' otpu-gen
            families that pass in lockstep; one that fails with the bucket's key is one more
            failing test
  passing   the night's passing tests of the same Config, those of the members' suites first

within --localize-time seconds a bucket (the Config's coverage build, once, not counted). Ties
of the score are broken by the lines that ran close to the divergence, then the diverging
unit's files. Buckets whose top lines agree are one cause (causes): a bug seen as several
signatures."""
import concurrent.futures
import hashlib
import itertools
import json
import os
import re
import shutil
import tempfile
import time

from . import buckets, files, html, outputs, procs, report, results, runner, schema, spectrum
from .errors import UsageError
from .suspects import text_lines
from .text import one_line, visible

DEFAULT_TIME = 300           # seconds per bucket (--localize-time)
MAX_SUSPECTS = 20
MAX_MEMBERS = 8              # members run again besides the shrunk repro
MAX_PASSING = 48             # night's passing tests run again
MAX_VARIANTS = 48
GEN_FAMILIES, GEN_COUNT = 2, 12  # fresh programs of the members' families
CAUSE_TOP = 3                # two buckets are one cause when each one's first line is in the
                             # other's first CAUSE_TOP
# the files of a unit (a file whose name holds one of the words), for breaking ties
UNIT_FILES = {"SEQ": ("seq",), "DMA": ("dma", "dram"), "MXU": ("mxu",),
              "QUANT": ("quant", "fp"), "VPU": ("vpu", "fp"), "COLL": ("coll", "colu"),
              "STREAM": ("stream",)}
NEAR_MARGIN = 2              # cycles before the diverging instruction's start
RANKABLE = ("divergence",)   # kinds with a diverging write (a lockstep hang has its cycle too)


class Evidence:
    """the runs of one bucket: each test's executed lines, by role"""

    def __init__(self):
        self.layout, self.failing, self.passing, self.witnesses = None, [], [], 0
        self.near, self.roots = set(), []

    def settle(self, points, runs, near, sources):
        """the layout of the build (points: one run's) without the points that only count the
        model's settling in these runs, and each run's executed lines: runs [(failing?,
        {point: count})], near (the first failing run's counts to its end and stopped at its
        diverging instruction's start, or None)"""
        self.layout = spectrum.Layout(points, sources,
                                      spectrum.flat_points([c for _, c in runs]))
        for failing, counts in runs:
            (self.failing if failing else self.passing).append(self.layout.executed(counts))
        self.near = self.layout.grown(*near) if near else set()


def _why_not(b, tests):
    """why bucket b cannot be ranked, or None"""
    kinds = {tests[n]["kind"] for n in b["tests"] if n in tests}
    hang = any(tests[n].get("exit") == 3 for n in b["tests"] if n in tests)
    if "timeout" in kinds and not hang:
        return ("a timeout has no divergence cycle: the coverage up to the first wrong write "
                "cannot be counted")
    if not kinds & set(RANKABLE) and not hang:
        return f"a {'/'.join(sorted(kinds))} failure has no diverging write to localize"
    return None


def _env(b):
    """the variables that name the bucket's RTL (its repro's), without the normal build's key"""
    env = dict(((b.get("repro") or {}).get("env") or {}))
    env.pop("OTPU_RTL_KEY", None)
    return env


def _roots(env):
    """the folders a source path is named relative to: the RTL under test's root"""
    roots = [_dut_root(env), env.get("OTPU_SOURCE_ROOT") or os.environ.get("OTPU_SOURCE_ROOT")]
    roots.append(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    return [os.path.realpath(r) for r in roots if r]


def _dut_root(env):
    """openTPU's checkout when the RTL under test is openTPU's (OTPU_DUT=opentpu[-axi]=PATH)"""
    dut = env.get("OTPU_DUT") or os.environ.get("OTPU_DUT") or ""
    kind, eq, path = dut.partition("=")
    return os.path.abspath(path) if eq and kind.startswith("opentpu") and path else None


def _resolver(env):
    """the source of a coverage file's name: openTPU's build compiles copies of its checkout's
    files from the build's src/ (rtl_bridge/rtl_build.cpp), named src/PATH: PATH of the
    checkout (the copies' workarounds keep every line where it is)"""
    root = _dut_root(env)
    if not root:
        return None
    return lambda f: os.path.join(root, f[4:]) if f.startswith("src/") else f


class Case:
    """what one bucket's localization runs: its key (a failing run must fail with it), its
    shrunk repro (or None) and members, the passing tests to run, each (bundle, plusargs);
    env: the variables that name its RTL"""

    def __init__(self, key, shrunk, members, passing, env, unset=("OTPU_RTL_KEY",)):
        self.key, self.shrunk, self.members, self.passing = key, shrunk, members, passing
        self.env, self.unset = env, unset


class Runs:
    """one Case's coverage runs, bounded by a deadline"""

    def __init__(self, case, tools, jobs, budget, sources, work):
        self.case, self.tools, self.jobs, self.budget = case, tools, jobs, budget
        self.sources, self.work = sources, work
        self.ev = Evidence()
        self.ids, self.deadline = itertools.count(1), None
        self.points, self.runs = None, []  # (a run's points; each run: (failing?, counts))

    def _run(self, bundle, plusargs, max_cycles=None, keep=False):
        """('pass' | 'fail' | 'other', its {point: count} or None, facts) of one coverage
        run; facts (keep): {"counts": its counts, "start": the cycle the diverging instruction
        started or was dispatched at}; max_cycles: the run stopped there"""
        n = next(self.ids)  # (runs start in threads)
        dat = os.path.join(self.work, f"{n}.dat")
        report = os.path.join(self.work, f"{n}-report")
        cmd = [self.tools["lockstep"], "run", bundle, "--report", report, "--wave-window", "0",
               "--code-coverage", dat, *plusargs]
        if max_cycles:
            cmd += ["--max-cycles", str(max_cycles)]
        status, _, _, timed_out = procs.run(cmd, max(1, self.deadline - time.monotonic()),
                                            env=self.case.env, unset=self.case.unset)
        role = "pass" if status == 0 else "other"
        if status not in (0, None) and not timed_out:
            sig = buckets.report_signature(report)
            role = "fail" if sig and sig["key"] == self.case.key else "other"
        counts, facts = None, None
        if os.path.exists(dat) and (role != "other" or keep):
            try:
                points = spectrum.read_points(dat, _resolver(self.case.env))
                self.points = self.points or points
                counts = spectrum.counts_of(points)
            except files.BadFile:
                counts = None
        if keep:
            facts = {"counts": counts or {}, "start": _started(report)}
        shutil.rmtree(report, ignore_errors=True)
        if os.path.exists(dat):
            os.remove(dat)
        return role, (counts if role != "other" else None), facts

    def _near(self, first, facts):
        """(the counts of the first failing run, of the same run stopped a few cycles before
        its diverging instruction started), what ran close to the wrong write (Pecker's
        temporal view: a bug's line runs close to it), or None when not known"""
        if not facts or not facts["start"] or time.monotonic() >= self.deadline:
            return None
        _, _, early = self._run(*first, max(1, facts["start"] - NEAR_MARGIN), keep=True)
        return (facts["counts"], early["counts"]) if early["counts"] else None

    def _runs(self, items, witness=False):
        """runs items [(bundle, plusargs)] with jobs at once until the deadline; each result
        filed by its role"""
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as ex:
            futs = []
            for bundle, plusargs in items:
                if time.monotonic() >= self.deadline:
                    break
                futs.append(ex.submit(self._run, bundle, plusargs))
            for f in futs:
                role, counts, _ = f.result()
                if counts is not None:  # (a run that neither passed nor failed the same way)
                    self.runs.append((role == "fail", counts))
                    self.ev.witnesses += witness and role == "pass"

    def _variants(self, of):
        folder = os.path.join(self.work, "variants")
        status, _, _, _ = procs.run([self.tools["shrink"], of[0], "--variants", folder,
                                     "--max-variants", str(MAX_VARIANTS)],
                                    max(1, self.deadline - time.monotonic()))
        if status != 0:
            return []
        return [(os.path.join(folder, n), of[1]) for n in sorted(os.listdir(folder))
                if os.path.isdir(os.path.join(folder, n))]

    def _generated(self, config):
        """fresh programs of the members' otpu-gen families on the Config (the generator's
        witnesses: those that pass; those that fail with the key are more failing runs)"""
        fams, rev, plusargs = set(), None, []
        for bundle, pa in ([self.case.shrunk] if self.case.shrunk else []) + self.case.members:
            fams |= {_field(os.path.join(bundle, "gen.txt"), "family")} - {None}
            rev = rev or _field(os.path.join(bundle, "case.txt"), "REV")
            plusargs = plusargs or pa
        out = []
        seed = int(hashlib.sha256(self.case.key.encode()).hexdigest()[:8], 16) + 1
        for fam in sorted(fams)[:GEN_FAMILIES]:
            if not self.tools.get("gen") or time.monotonic() >= self.deadline or \
                    not re.fullmatch(r"[a-z]{1,16}", fam):
                break
            folder = os.path.join(self.work, "gen", fam)
            status, _, _, _ = procs.run(
                [self.tools["gen"], fam, "--seed", str(seed), "--count", str(GEN_COUNT),
                 "--out", folder, *(["--rev", rev] if rev else []), *config],
                max(1, self.deadline - time.monotonic()))
            if status == 0:
                out += [(os.path.join(folder, n), plusargs) for n in sorted(os.listdir(folder))]
        return out

    def build(self, config):
        """the Config's code-coverage build (once; not counted in the budget): None or why not"""
        status, out, _, _ = procs.run([self.tools["rtl"], "build", "--code-coverage", *config],
                                      env=self.case.env, unset=self.case.unset)
        if status == 0:
            return None
        last = out.strip().splitlines()[-1] if out.strip() else f"exit {status}"
        return f"its Config has no code-coverage build ({one_line(visible(last), 200)})"

    def gather(self):
        """the evidence within the budget; (Evidence, None) or (None, why not)"""
        c = self.case
        first = c.shrunk or (c.members[0] if c.members else None)
        if not first:
            return None, "no bundle of it is kept (no repro folder)"
        config = runner.config_of(first[0])
        if config is None:
            return None, "its bundle states no Config"
        why = self.build(config)
        if why:
            return None, why
        self.deadline = time.monotonic() + self.budget
        role, counts, facts = self._run(*first, keep=True)
        if role != "fail" or counts is None:
            return None, ("its repro does not fail with its signature when run on the "
                          "code-coverage build")
        self.runs.append((True, counts))
        near = self._near(first, facts)
        self._runs(self._variants(first), witness=True)
        self._runs(self._generated(config), witness=True)
        self._runs([m for m in c.members if m != first][:MAX_MEMBERS])
        self._runs([p for p in c.passing if runner.config_of(p[0]) == config][:MAX_PASSING])
        self.ev.settle(self.points, self.runs, near, self.sources)
        return self.ev, None


def _case(out, b, tests):
    """the Case of bucket b of the night in out (tests: {name: TEST})"""
    r = b.get("repro")
    shrunk = os.path.join(out, r["folder"], "bundle") if r else None
    shrunk = (shrunk, buckets.plusargs_of(shrunk)) if shrunk and os.path.isdir(shrunk) else None
    members = []
    for n in b["tests"]:
        t = tests.get(n)
        bundle = os.path.join(out, t["repro"], "bundle") if t and t.get("repro") else ""
        if os.path.isdir(bundle):
            members.append((bundle, list(t["plusargs"])))
    # the night's passing tests, those of the members' suites first, the shortest first
    suites = {tests[n]["suite"] for n in b["tests"] if n in tests}
    passing = sorted((t for t in tests.values() if t["status"] == "pass" and
                      os.path.isdir(t["bundle_path"])),
                     key=lambda t: (t["suite"] not in suites, t.get("cycles") or 0, t["name"]))
    return Case(b["key"], shrunk, members,
                [(t["bundle_path"], list(t["plusargs"])) for t in passing], _env(b))


def localize(case, unit, tools, jobs, budget, sources, work, limit=MAX_SUSPECTS):
    """(Evidence, suspects, None) of a Case, or (None, [], why it was not ranked)"""
    os.makedirs(work, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="localize-", dir=work)
    try:
        ev, why = Runs(case, tools, jobs, budget, sources, folder).gather()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if not ev:
        return None, [], why
    ev.roots = _roots(case.env)
    return ev, _suspects(ev, unit, sources, ev.roots, limit), None


def _prefer(unit):
    words = UNIT_FILES.get(unit or "", ())
    return [lambda f, w=words: any(x in os.path.basename(f).lower() for x in w)]


def _suspects(ev, unit, sources, roots, limit=MAX_SUSPECTS):
    ranked = spectrum.rank(ev.failing, ev.passing, sources, ev.layout, _prefer(unit), limit,
                           ev.near)
    for s in ranked:
        s["text"] = (sources.line(s["file"], s["line"]) or "").strip()[:200]
        s["file"] = spectrum.relative(s["file"], roots)
    return ranked


def _field(path, key):
    """KEY=value's value in a bundle's case.txt or gen.txt, or None"""
    try:
        for line in files.read_text(path, files.OTHER).splitlines():
            k, eq, v = line.partition("=")
            if eq and k.strip() == key:
                return v.strip()
    except (files.BadFile, UnicodeDecodeError):
        pass
    return None


def _note(ev):
    return (f"ranked from {len(ev.failing)} failing and {len(ev.passing)} passing runs "
            f"({ev.witnesses} of them witnesses); {len(ev.near)} lines ran from the diverging "
            "instruction's start to the divergence")


def _started(report):
    """the cycle the diverging instruction started (else was dispatched) at, from the
    report's history, or None"""
    try:
        d = json.loads(files.read_text(os.path.join(report, "divergence.json"), files.OTHER))
        n = (d.get("instruction") or {}).get("n")
        cycles = {h.get("what"): h.get("cycle") for h in d.get("history") or []
                  if isinstance(h, dict) and (h.get("instruction") or {}).get("n") == n and
                  h.get("slice") == d.get("slice")}
    except (files.BadFile, ValueError, AttributeError):
        return None
    c = cycles.get("start", cycles.get("dispatch"))
    return c if type(c) is int and c > 0 else None


def _unit(b):
    parts = b["key"].split("/")
    return parts[1] if len(parts) > 1 else None


def _causes(ranked, evidence, sources):
    """[{"buckets": [n...], "suspects": [...]}]: buckets whose first lines agree, together"""
    parent = {n: n for n in ranked}

    def find(n):
        while parent[n] != n:
            n = parent[n]
        return n
    top = {n: [(s["file"], s["line"]) for s in sus[:CAUSE_TOP]] for n, sus in ranked.items()}
    for a in ranked:
        for c in ranked:
            if a < c and top[a] and top[c] and top[a][0] in top[c] and top[c][0] in top[a]:
                parent[find(c)] = find(a)
    groups = {}
    for n in ranked:
        groups.setdefault(find(n), []).append(n)
    causes = []
    for ns in sorted(groups.values()):
        if len(ns) == 1:
            sus = ranked[ns[0]]
        else:  # one spectrum of all of their tests
            ev = Evidence()
            for n in ns:
                ev.layout = evidence[n].layout
                ev.failing += evidence[n].failing
                ev.passing += evidence[n].passing
            sus = _suspects(ev, None, sources, evidence[ns[0]].roots)
        causes.append({"buckets": ns, "suspects": sus})
    return causes


def night(out, summary, tests, tools, jobs, budget, log):
    """ranks every bucket of summary (its BUCKETs gain "suspects" and "localized"; the summary
    gains "causes"); tests: the night's TESTs"""
    by_name = {t["name"]: t for t in tests}
    work = os.path.join(out, "work", "localize")
    sources, ranked, evidence = spectrum.Sources(), {}, {}
    for b in summary.get("buckets") or []:
        t0 = time.monotonic()
        why = _why_not(b, by_name)
        ev, b["suspects"] = None, []
        if not why:
            ev, b["suspects"], why = localize(_case(out, b, by_name), _unit(b), tools, jobs,
                                              budget, sources, work)
        if ev:
            ranked[b["n"]], evidence[b["n"]] = b["suspects"], ev
            note = _note(ev)
            if not ev.passing:
                note += ("; no passing test of its Config ran: every line the failing tests "
                         "ran scores alike, the diverging unit's first")
        else:
            note = f"not ranked: {why}"
        b["localized"] = {"note": note, "time": round(time.monotonic() - t0, 1),
                          "failing": len(ev.failing) if ev else 0,
                          "passing": len(ev.passing) if ev else 0,
                          "witnesses": ev.witnesses if ev else 0}
        log(f"otpu-regress: bucket {b['n']} ({visible(b['key'])}): {note} in "
            f"{b['localized']['time']:.0f} s" +
            (f"; first {b['suspects'][0]['file']}:{b['suspects'][0]['line']}"
             if b["suspects"] else ""))
    summary["causes"] = _causes(ranked, evidence, sources)
    return summary


def render(out, summary, tests, history_runs, path):
    """(summary.txt, index.html) of the summary; UsageError when it is not otpu-regress's"""
    try:
        return report.summary_text(summary), html.render_index(out, summary, tests, history_runs)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise UsageError(f"localize: {path}: not otpu-regress's summary ({visible(e)})") \
            from None


def folder(out, tools, jobs, budget, history_runs, log):
    """localizes the buckets of the ended night in out: its summary.json, summary.txt and
    index.html written again with the suspects (buckets.json and results.json, which a merge
    and --resume read, stay as they are); UsageError when out holds no ended night"""
    try:
        run, tests, planned = results.read_folder(out)
        if planned is not None:
            raise UsageError(f"{out}: its run did not end (no results.json): "
                             f"otpu-regress run --resume {out} first")
        groups = buckets.read(os.path.join(out, "buckets.json"),
                              {b: {t["name"] for t in tests if (t.get("bucket") or {}).get(
                                  "key") == b} for b in {(t.get("bucket") or {}).get("key")
                                                         for t in tests}})
        path = os.path.join(out, "summary.json")
        summary = schema.parse(files.read_text(path, files.RESULTS), path)
    except (files.BadFile, schema.Invalid) as e:
        raise UsageError(f"localize: {visible(e)}") from None
    if not (isinstance(summary, dict) and summary.get("schema") == "otpu-regress/summary/2"):
        raise UsageError(f"localize: {path}: not otpu-regress's summary")
    if not groups:
        log(f"otpu-regress: {visible(out)}: no failure bucket to localize")
        return
    summary["buckets"] = groups
    render(out, summary, tests, history_runs, path)  # (a summary it cannot show: before the runs)
    night(out, summary, tests, tools, jobs, budget, log)
    shutil.rmtree(os.path.join(out, "work"), ignore_errors=True)
    text, page = render(out, summary, tests, history_runs, path)
    report.write_json(path, summary)
    outputs.write(os.path.join(out, "summary.txt"), text)
    outputs.write(os.path.join(out, "index.html"), page)
    for line in text_lines(summary):
        log(line)
