#!/usr/bin/env python3
"""otpu-regress run --resume (issue 38, part 6): a night interrupted at any moment goes on with
nothing lost and nothing redone, and ends as the uninterrupted night would.

mode 'stubs' (seconds, stub tools; verilator_coverage and genhtml the real ones):
  REFUSALS: folders --resume must refuse (not a run, a --slurm parent's, stopped before its
    first test, a broken run.json or results.jsonl, a moved folder, a changed suite, build or
    OTPU_DUT, a lock held by a live process, options beside --resume): exit 2, one stderr line
    with the words, the folder's run.json and results.jsonl unchanged; a run that ended: its own
    exit status, one line, nothing written.
  full disk: ENOSPC injected (OTPU_REGRESS_FAIL_WRITE_AFTER=N) at every write of a small night
    in turn (results.jsonl's lines, run.json, a shrink's result, coverage, buckets.json, the
    summaries, junit.xml, the history's note, index.html, results.json): each ends with exit 7
    and the one line naming the file and how to go on, and --resume (or, before run.json, the
    command again) then ends the night as the uninterrupted one: the same verdicts test for
    test, counts, buckets (each bucket's shrink not done twice once done), junit testcases,
    code coverage, and one history row with the same changes; a tool that says it ran out of
    space ends the night too, its verdict not kept.
  a kill's leftovers: a last line cut short, the repro folder of a test without a result, a
    file a write left before its rename: dropped, redone, removed.
  code coverage: a full disk just before and just after a fold of 50 tests' points: each test's
    points counted once.
  Slurm: the array's batch script run as a requeued task: a shard folder holding a run goes on
    with it (--resume), one without starts it.
mode 'kill' (the reference RTL, ~2 minutes): a small night (golden bundles, two faults, each a
  bucket shrunk in the background; -j 2) killed with SIGKILL, every process of it (found by a
  marker in their environment), at random moments (seeded, printed), then --resume, kill again,
  ... until it ends; the same with --rounds and a gen: entry. Each trial: the same verdicts
  test for test, counts, coverage, buckets, junit testcases, rounds and history rows as an
  uninterrupted run, and every resume kept exactly the results results.jsonl held.
mode 'kill-night' (nightly): the same with more trials and kills.

usage: test_regress_resume.py stubs OTPU_REGRESS SOURCE_ROOT
       test_regress_resume.py kill|kill-night OTPU_REGRESS SOURCE_ROOT VECTORS_ISA"""
import fcntl
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from types import SimpleNamespace
from stub_kit import LOCKSTEP, SHRINK, Tally, executable, regress_args, run_tool, write

MODE = sys.argv[1]
REGRESS, ROOT, QUICKSTART = regress_args(sys.argv[2:4])
from otpu_regress import names, slurm, slurm_run  # noqa: E402

TALLY = Tally("otpu-regress-resume-")
check, tmp, path = TALLY.check, TALLY.scratch, TALLY.path
TIMEOUT, LOG = 300, path("stub.log")
SOURCE = "module mod(input logic a, output logic y);\n  assign y = a;\nendmodule\n"


def stub(name, text):
    return executable(path("tools", name), text)


def dat_fixture():
    keys = [("f", path("src", "mod.sv")), ("l", "2"), ("n", "3"), ("page", "v_line/mod"),
            ("o", "block"), ("S", "2"), ("h", "TOP.mod")]
    write(path("src", "mod.sv"), SOURCE)
    return write(path("fixture.dat"), "# SystemC::Coverage-3\nC '" +
                 "".join(f"\x01{k}\x02{v}" for k, v in keys) + "' 3\n")


ENV = {"STUB_LOG": LOG, "STUB_NOSPACE": path("nospace")}
if MODE == "stubs":
    ENV.update({"OTPU_LOCKSTEP": stub("otpu-lockstep", LOCKSTEP),
                "OTPU_SHRINK": stub("otpu-shrink", SHRINK),
                "OTPU_RTL": stub("otpu-rtl", "#!/bin/sh\n"),
                "OTPU_GEN": stub("otpu-gen", "#!/bin/sh\n"),
                "OTPU_COV": stub("otpu-cov", "#!/bin/sh\n"), "STUB_DAT": dat_fixture()})
    for var in ("VERILATOR_COVERAGE", "GENHTML", "OTPU_DUT"):
        os.environ.pop(var, None)


def regress(*args, env=None, cwd=None):
    """(exit status, stdout, stderr) of otpu-regress, text"""
    return run_tool([REGRESS, *args], cwd or tmp, {**os.environ, **ENV, **(env or {})},
                    TIMEOUT, text=True)


def hygiene(name, out, err):
    check(f"{name}: no traceback, no raw control byte", "Traceback" not in err and not any(
        (ord(c) < 0x20 and c != "\n") or ord(c) == 0x7f for c in out + err), err[-800:])


def load(*parts):
    with open(os.path.join(*parts)) as f:
        return json.load(f)


def stub_runs(tool):
    """the stub runs of tool logged since the last call (the log emptied)"""
    if not os.path.exists(LOG):
        return []
    with open(LOG) as f:
        runs = [json.loads(line) for line in f]
    os.remove(LOG)
    return [r["bundle"] for r in runs if r["tool"] == tool]


# --- what a night is, to compare two --------------------------------------------------------

def night_of(out, db=None):
    """what an interrupted night must end with as an uninterrupted one does (times, hosts and
    paths left out)"""
    res = load(out, "results.json")
    s = load(out, "summary.json")
    tests = {t["name"]: (t["status"], t["kind"], t["exit"], (t["bucket"] or {}).get("key"),
                         bool(t.get("waived")), t["repro"] is not None) for t in res["tests"]}
    bks = [(b["n"], b["key"], b["count"], b["kind"], b["tests"], b["repro"] is not None,
            (b["repro"] or {}).get("confirmed"), (b["repro"] or {}).get("shrunk"))
           for b in s["buckets"]]
    junit = {}
    for ts in ET.parse(os.path.join(out, "junit.xml")).getroot():
        for tc in ts:
            verdict = "failure" if tc.find("failure") is not None else \
                "skipped" if tc.find("skipped") is not None else "pass"
            junit[f"{ts.get('name')}/{tc.get('name')}"] = verdict
    cc = s.get("code_coverage")
    doc = {"tests": tests, "buckets": bks, "junit": junit,
           "counts": {k: s[k] for k in ("tests", "passed", "failed", "waived", "by_kind")},
           "coverage": s["coverage"] and {k: s["coverage"][k] for k in ("hit", "bins")},
           "code_coverage": cc and {k: cc[k] for k in ("tests", "without", "total", "error")},
           "changes": s["changes"],
           "rounds": [{k: v for k, v in r.items() if k != "time"}
                      for r in res["run"].get("rounds") or []],
           "repro_folders": sorted(os.listdir(os.path.join(out, "repro")))
           if os.path.isdir(os.path.join(out, "repro")) else []}
    if db:
        con = sqlite3.connect(db)
        doc["history"] = [con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                          for t in ("runs", "results", "buckets")]
        con.close()
    return doc


def same_night(name, ref, out, db=None):
    try:
        got = night_of(out, db)
    except (OSError, ValueError, ET.ParseError) as e:  # (no results.json: the run did not end)
        got = {"unreadable": str(e)}
    diff = {k: (ref[k], got.get(k)) for k in ref if ref[k] != got.get(k)}
    return check(f"{name}: the night an uninterrupted run ends with", not diff,
                 json.dumps(diff)[:1500])


# --- mode stubs -----------------------------------------------------------------------------

def bundle(folder, name, stub_json):
    d = os.path.join(folder, name)
    shutil.copytree(QUICKSTART, d)
    write(os.path.join(d, "stub.json"), json.dumps(stub_json))
    return d


def divergence(key):
    return {"exit": 1, "say": f"lockstep: DIVERGENCE {key}",
            "divergence": {"schema": "otpu-lockstep/divergence/1", "kind": "wrong-value",
                           "detail": "d", "slice": 0, "cycle": 10, "unit": "VPU",
                           "instruction": {"n": 1, "pc": 1, "disasm": "VOP"},
                           "location": {"space": "TMEM", "address": 1, "mask": 15},
                           "repro": "OTPU_SOURCE_ROOT=/src otpu-lockstep run b",
                           "signature": {"key": key, "words": f"the bucket {key}"}}}


SIG_A, SIG_B = "wrong-value/VPU/VOP/TMEM/sign", "wrong-value/VPU/VOP/TMEM/value"
NIGHT = path("night")
for i in range(4):
    bundle(NIGHT, f"p{i}", {})
bundle(NIGHT, "a0", divergence(SIG_A))
bundle(NIGHT, "a1", divergence(SIG_A))
bundle(NIGHT, "b0", divergence(SIG_B))
bundle(NIGHT, "c0", {"exit": 5, "say": "lockstep: the simulator crashed"})


def night_args(out, db, suite=NIGHT):
    return ["run", suite, "-j", "1", "--no-coverage", "--code-coverage", "--out", out,
            "--db", db]


def reference():
    out, db = path("ref"), path("ref.db")
    rc, o, err = regress(*night_args(out, db))
    check("the uninterrupted stub night fails (exit 1)", rc == 1, err[-800:])
    check("its buckets' first members were shrunk, once each", sorted(stub_runs("shrink")) ==
          sorted([os.path.join(out, "repro", names.safe_name(f"night/{n}"), "bundle")
                  for n in ("a0", "b0", "c0")]))
    return rc, night_of(out, db)


def interrupted(name, n=3):
    """an output folder of a night stopped by a full disk at write n"""
    out = path(name)
    rc, _, err = regress(*night_args(out, path(name + ".db")),
                         env={"OTPU_REGRESS_FAIL_WRITE_AFTER": str(n)})
    check(f"{name}: the night stopped by a full disk (exit 7)", rc == 7, err[-600:])
    return out


def snapshot(out):
    """run.json and results.jsonl of out, as bytes (what a refusal must leave as it was)"""
    got = {}
    for f in ("run.json", "results.jsonl"):
        p = os.path.join(out, f)
        got[f] = open(p, "rb").read() if os.path.exists(p) else None
    return got


def edit_json(p, change):
    doc = load(p)
    change(doc)
    with open(p, "w") as f:
        json.dump(doc, f)


def refusals():
    """--resume of what cannot be resumed: exit 2 and one line; a run that ended: its status"""
    plain = path("plain")
    write(os.path.join(plain, "notes.txt"), "mine\n")
    slurm_parent = path("slurm-parent")
    write(os.path.join(slurm_parent, "shard-1", "otpu-regress.lock"), "")
    early = path("early")
    write(os.path.join(early, "otpu-regress.lock"), "")
    broken = interrupted("broken")
    write(os.path.join(broken, "run.json"), "{not json")
    middle = interrupted("middle", 6)
    with open(os.path.join(middle, "results.jsonl")) as f:
        lines = f.read().splitlines(True)
    write(os.path.join(middle, "results.jsonl"), lines[0] + "{oops\n" + "".join(lines[1:]))
    nocwd = interrupted("nocwd")
    edit_json(os.path.join(nocwd, "run.json"), lambda d: d["run"].pop("cwd", None))
    moved = path("moved")
    shutil.copytree(interrupted("to-move"), moved)
    grown = path("grown-suite")
    shutil.copytree(NIGHT, grown)
    out_grown = path("grown")
    regress(*night_args(out_grown, path("grown.db"), grown),
            env={"OTPU_REGRESS_FAIL_WRITE_AFTER": "3"})
    bundle(grown, "p9", {})
    rebuilt = interrupted("rebuilt")
    dut = interrupted("dut")
    gone_cwd = path("gone-cwd")
    os.makedirs(gone_cwd)
    rc, _, err = regress(*night_args(path("gone"), path("gone.db")), cwd=gone_cwd,
                         env={"OTPU_REGRESS_FAIL_WRITE_AFTER": "3"})
    shutil.rmtree(gone_cwd)
    held = interrupted("held")
    lock = open(os.path.join(held, "otpu-regress.lock"), "a")
    fcntl.flock(lock, fcntl.LOCK_EX)
    ok = interrupted("ok")
    lockstep2 = executable(path("tools2", "otpu-lockstep"), LOCKSTEP + "# rebuilt\n")
    rows = [  # (name, arguments, env, words of the one line, the folder to leave unchanged)
        ("a missing folder", ["--resume", path("missing")], {}, ["no such folder"], None),
        ("a folder of another program", ["--resume", plain], {},
         ["not an otpu-regress output folder"], None),
        ("a --slurm run's folder", ["--resume", slurm_parent], {},
         ["--slurm run", "shard-I", "merge"], None),
        ("stopped before its first test", ["--resume", early], {},
         ["before its first test", "run it again"], None),
        ("run.json not JSON", ["--resume", broken], {}, ["run.json", "not JSON"], broken),
        ("results.jsonl: a line within not JSON", ["--resume", middle], {},
         ["results.jsonl:2", "not JSON"], middle),
        ("run.json without cwd", ["--resume", nocwd], {}, ["does not say where"], nocwd),
        ("a moved folder", ["--resume", moved], {}, ["moved", "resume it there"], moved),
        ("the suite changed", ["--resume", out_grown], {},
         ["the suite", "changed", "not comparable"], out_grown),
        ("the build changed", ["--resume", rebuilt], {"OTPU_LOCKSTEP": lockstep2},
         ["was rebuilt or changed", "not comparable"], rebuilt),
        ("OTPU_DUT changed", ["--resume", dut], {"OTPU_DUT": "opentpu=" + path("nowhere")},
         ["OTPU_DUT", "not comparable"], dut),
        ("the folder it was started in is gone", ["--resume", path("gone")], {},
         ["cannot be entered"], path("gone")),
        ("a lock held by a live process", ["--resume", held], {},
         ["in use by another otpu-regress run"], held),
        ("a suite beside --resume", ["--resume", ok, NIGHT], {}, ["give it alone", "SUITE"], ok),
        ("an option beside --resume", ["--resume", ok, "-j", "7"], {},
         ["give it alone", "--jobs"], ok),
        ("no suite and no --resume", [], {}, ["SUITE (or --resume OUT)"], None),
        ("an empty --resume", ["--resume", ""], {}, ["empty value"], None),
    ]
    for name, args, env, words, keep in rows:
        before = snapshot(keep) if keep else None
        rc, o, err = regress("run", *args, env=env)
        lines = err.splitlines()
        check(f"refused: {name}: exit 2, one line with {words}",
              rc == 2 and len(lines) == 1 and all(w in err for w in words), f"{rc} {err!r}")
        if keep:
            check(f"refused: {name}: run.json and results.jsonl unchanged",
                  snapshot(keep) == before)
        hygiene(f"refused: {name}", o, err)
    lock.close()
    stub_runs("lockstep")
    rc, o, err = regress("run", "--resume", path("ref"))
    check("a run that ended: its own exit status (1), one line saying nothing to resume",
          rc == 1 and len(err.splitlines()) == 1 and "nothing to resume" in err, f"{rc} {err}")
    check("a run that ended: no test run again", stub_runs("lockstep") == [])


def full_disk(ref_rc, ref):
    """a full disk at each write of the night in turn, then --resume: the same night"""
    stub_runs("lockstep")
    seen, n = [], 0
    while n < 60:
        out, db = path(f"full-{n}"), path(f"full-{n}.db")
        rc, o, err = regress(*night_args(out, db), env={"OTPU_REGRESS_FAIL_WRITE_AFTER": str(n)})
        if rc != 7:
            check(f"no write after the {n}th: the night ends as without a full disk",
                  rc == ref_rc and n > 15, f"{rc} {err[-500:]}")
            break
        m = re.fullmatch(r"otpu-regress: no space left on device while writing (.+): free space "
                         r"and (rerun with --resume (.+)|run it again)", err.splitlines()[-1])
        planned = os.path.exists(os.path.join(out, "run.json"))
        ok = check(f"full at write {n}: exit 7, its last line naming the file and how to go on",
                   m and (m[3] == out) == planned, err[-600:])
        hygiene(f"full at write {n}", o, err)
        where = os.path.relpath(m[1], out) if ok else "?"
        seen.append(where)
        stub_runs("shrink")
        if planned:
            rc, o, err = regress("run", "--resume", out)
        else:
            rc, o, err = regress(*night_args(out, db))
        check(f"full at write {n} ({where}), then {'--resume' if planned else 'run again'}: "
              "its exit status", rc == ref_rc, err[-600:])
        same_night(f"full at write {n} ({where}), resumed", ref, out, db)
        if where in AFTER_SHRINKS:
            check(f"full at write {n} ({where}): no bucket shrunk again",
                  stub_runs("shrink") == [])
        shutil.rmtree(out)
        n += 1
    for where in ("results.jsonl", "run.json", "buckets.json", "summary.json", "summary.txt",
                  "junit.xml", "work/history.json", "index.html", "results.json"):
        check(f"a full disk was met while writing {where}", where in seen, seen)
    check("a full disk was met while writing code coverage's state",
          "work/code-coverage/night.json" in seen, seen)


def shrink_full(ref_rc, ref):
    """a full disk met by the second shrink in the background (the tests done, their 10 writes
    and the first shrink's result made): the night ends at its end, and --resume shrinks again
    the buckets whose shrink had not ended, not the first"""
    out, db = path("shrink-full"), path("shrink-full.db")
    slow = {"STUB_SLEEP": "3"}  # (each shrink ends after the tests)
    rc, o, err = regress(*night_args(out, db), env={**slow, "OTPU_REGRESS_FAIL_WRITE_AFTER": "11"})
    check("a full disk met by a shrink: exit 7, the line names its result file", rc == 7 and
          re.search(r"while writing \S+/work/buckets/[0-9a-f]{16}\.json: free space and rerun "
                    "with --resume", err.splitlines()[-1]), err[-600:])
    stub_runs("shrink")
    rc, o, err = regress("run", "--resume", out)
    check("a full disk met by a shrink, then --resume: its exit status", rc == ref_rc, err[-500:])
    same_night("a full disk met by a shrink, resumed", ref, out, db)
    check("the resume shrank again the two buckets whose shrinks had not ended, not the first",
          len(stub_runs("shrink")) == 2)


AFTER_SHRINKS = ("buckets.json", "summary.json", "summary.txt", "junit.xml", "work/history.json",
                 "index.html", "results.json")


def tool_out_of_space(ref_rc, ref):
    """a tool that says it ran out of space: the night ends (exit 7), that verdict not kept"""
    out, db = path("nospace-out"), path("nospace.db")
    write(path("nospace"), "")
    rc, o, err = regress(*night_args(out, db))
    os.remove(path("nospace"))
    check("a tool out of space: exit 7, one line with how to go on",
          rc == 7 and len(err.strip().splitlines()) >= 1 and
          err.strip().splitlines()[-1].startswith("otpu-regress: no space left on device") and
          "--resume" in err, err[-600:])
    check("a tool out of space: its verdict is not kept",
          os.path.getsize(os.path.join(out, "results.jsonl")) == 0)
    rc, o, err = regress("run", "--resume", out)
    check("a tool out of space, then --resume: its exit status", rc == ref_rc, err[-500:])
    same_night("a tool out of space, resumed", ref, out, db)


def leftovers(ref_rc, ref):
    """a last line cut short, a repro folder of a test without a result, a write's leftover"""
    out, db = path("torn"), path("torn.db")
    interrupted("torn", 5)
    jl = os.path.join(out, "results.jsonl")
    with open(jl) as f:
        lines = f.read().splitlines()
    kept, cut = lines[:-1], json.loads(lines[-1])["name"]
    write(jl, "".join(line + "\n" for line in kept) + lines[-1][:len(lines[-1]) // 2])
    done = {json.loads(line)["name"] for line in kept}
    lost = sorted({"night/a0", "night/a1", "night/b0", "night/c0"} - done - {cut})
    orphan = os.path.join(out, "repro", names.safe_name(lost[0]))
    write(os.path.join(orphan, "output.txt"), "half of an earlier attempt\n")
    stray = write(os.path.join(out, "summary.json.0123456789ab.tmp"), "{")
    stub_runs("lockstep")
    rc, o, err = regress("run", "--resume", out)
    check("a kill's leftovers, then --resume: its exit status", rc == ref_rc, err[-500:])
    ran = [b for b in stub_runs("lockstep") if b != "bundle"]  # (not the buckets' reruns)
    check("the resume kept the whole lines' results and ran the others, the one cut short too",
          f"resuming {out}: {len(kept)} tests keep their results" in err and
          sorted(ran) == sorted(n.split("/")[1] for n in set(ref["tests"]) - done) and
          cut.split("/")[1] in ran, f"{ran} {err[-800:]}")
    same_night("a kill's leftovers, resumed", ref, out, db)
    try:
        back = [json.loads(line)["name"] for line in open(jl)]
    except ValueError as e:
        back = [str(e)]
    check("results.jsonl reads back whole: one line a test (the one cut short once)",
          sorted(back) == sorted(ref["tests"]), back)
    check("the repro folder of a test without a result was made again",
          "half of an earlier attempt" not in open(os.path.join(orphan, "output.txt")).read())
    check("a write's leftover is removed", not os.path.exists(stray))


def code_coverage_folds():
    """a full disk just before and just after the fold of 50 tests' .dat: each counted once"""
    many = path("many")
    for i in range(55):
        bundle(many, f"t{i:02d}", {})
    ref = path("many-ref")
    regress(*night_args(ref, "none", many))
    want = load(ref, "summary.json")["code_coverage"]
    check("55 tests' code coverage merged", want["tests"] == 55, want)
    for n, where in ((52, "work/code-coverage/night.json"), (53, "results.jsonl")):
        out = path(f"many-{n}")
        rc, _, err = regress(*night_args(out, "none", many),
                             env={"OTPU_REGRESS_FAIL_WRITE_AFTER": str(n)})
        check(f"a full disk at write {n} of 55 tests: {where}", rc == 7 and
              f"writing {os.path.join(out, where)}:" in err, err[-400:])
        rc, _, err = regress("run", "--resume", out)
        got = load(out, "summary.json")["code_coverage"]
        check(f"a full disk at write {n}, resumed: each test's points once (tests, totals)",
              rc == 0 and {k: got[k] for k in ("tests", "without", "total")} ==
              {k: want[k] for k in ("tests", "without", "total")}, f"{rc} {got} {err[-300:]}")


def slurm_requeued():
    """the array's batch script as a requeued task: a shard with a run goes on with it"""
    out = path("slurm")
    a = SimpleNamespace(suites=[NIGHT], jobs=1, timeout=600, shrink=False, coverage=False,
                        shrink_time=300, shrink_buckets=True, code_coverage=False,
                        fork_server=True, waivers=None, tasks=2)
    saved, sys.argv[0] = sys.argv[0], REGRESS
    try:
        script = slurm.batch_script(2, slurm_run.shard_command(a, out), out,
                                    slurm_run.resume_command())
    finally:
        sys.argv[0] = saved
    write(os.path.join(out, "slurm-array.sh"), script)
    shard1 = os.path.join(out, "shard-1")
    first = slurm_run.shard_command(a, out)(1)[2:]
    rc, _, err = regress(*first, env={"OTPU_REGRESS_FAIL_WRITE_AFTER": "4"})
    check("shard 1 stopped by a full disk", rc == 7, err[-300:])
    kept = sum(1 for _ in open(os.path.join(shard1, "results.jsonl")))
    ref1 = path("slurm-ref-1")
    regress(*first[:-1], ref1)
    stub_runs("lockstep")
    for i in (1, 2):
        p = subprocess.run(["bash", os.path.join(out, "slurm-array.sh")], capture_output=True,
                           text=True, env={**os.environ, **ENV, "SLURM_ARRAY_TASK_ID": str(i)},
                           timeout=TIMEOUT)
        check(f"task {i} of the batch script ends", p.returncode == 1 and open(os.path.join(
            out, f"shard-{i}", ".exit")).read().strip() == "1", p.stdout + p.stderr)
    same = night_of(ref1)
    got = night_of(shard1)
    check("a requeued task resumed its shard: the shard's night as an uninterrupted one",
          {k: got[k] for k in ("tests", "counts", "buckets")} ==
          {k: same[k] for k in ("tests", "counts", "buckets")}, (got, same))
    ran = [b for b in stub_runs("lockstep") if b != "bundle"]
    check("the requeued task ran only the tests without a result, task 2 all of its own",
          len(ran) == 4 - kept + 4, (kept, ran))
    check("shard 2, without a run, was started", os.path.exists(
        os.path.join(out, "shard-2", "results.json")) and
        load(out, "shard-2", "run.json")["run"]["shard"] == "2/2")


def orphan(ref_rc, ref):
    """otpu-regress killed alone (its test still running): --resume is refused while the test
    runs (it still writes into the folder), then goes on"""
    out, db = path("orphan"), path("orphan.db")
    p = subprocess.Popen([REGRESS, *night_args(out, db)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, cwd=tmp,
                         env={**os.environ, **ENV, "STUB_LOCKSTEP_SLEEP": "2"})
    jl = os.path.join(out, "results.jsonl")
    end = time.monotonic() + 60
    while time.monotonic() < end and not (os.path.exists(jl) and os.path.getsize(jl)):
        time.sleep(0.05)
    time.sleep(0.5)  # (the second test is running)
    p.kill()
    p.wait()
    rc, o, err = regress("run", "--resume", out)
    check("otpu-regress killed alone: --resume refused while its test runs, one line",
          rc == 2 and len(err.splitlines()) == 1 and "in use by another otpu-regress run" in err
          and "a process it started still runs" in err, f"{rc} {err}")
    end = time.monotonic() + 30
    while rc == 2 and "still runs" in err and time.monotonic() < end:
        time.sleep(0.2)
        rc, o, err = regress("run", "--resume", out)
    check("otpu-regress killed alone, resumed once its test ended: its exit status",
          rc == ref_rc, err[-500:])
    same_night("otpu-regress killed alone, resumed", ref, out, db)


def stubs():
    ref_rc, ref = reference()
    refusals()
    full_disk(ref_rc, ref)
    shrink_full(ref_rc, ref)
    orphan(ref_rc, ref)
    tool_out_of_space(ref_rc, ref)
    leftovers(ref_rc, ref)
    code_coverage_folds()
    slurm_requeued()


# --- modes kill, kill-night: the reference RTL ------------------------------------------------

def marked(marker):
    """the live processes whose environment holds marker: every process of one run"""
    found = []
    for d in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                if marker in f.read().split(b"\0"):
                    with open(f"/proc/{d}/stat") as g:
                        if g.read().rsplit(")", 1)[1].split()[0] != "Z":
                            found.append(int(d))
        except (OSError, IndexError):
            pass
    return found


def attempt(args, env, kill_at):
    """(exit status or 'killed', stderr) of otpu-regress ARGS, every process of it killed with
    SIGKILL after kill_at seconds (None: run to its end)"""
    marker = f"OTPU_RESUME_TEST={os.getpid()}-{time.monotonic_ns()}"
    k, v = marker.split("=", 1)
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([REGRESS, *args], env={**os.environ, **env, k: v},
                             stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
        try:
            rc = p.wait(timeout=kill_at if kill_at is not None else TIMEOUT)
        except subprocess.TimeoutExpired:
            while pids := marked(marker.encode()):  # (children start while others die)
                for pid in pids:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                time.sleep(0.01)
            p.wait()
            rc = "killed"
        err.seek(0)
        return rc, err.read().decode(errors="replace")


def whole_lines(out):
    """the results.jsonl lines a resume must keep: the whole ones"""
    try:
        with open(os.path.join(out, "results.jsonl")) as f:
            return sum(1 for line in f if line.endswith("\n"))
    except FileNotFoundError:
        return 0


def resumed(name, k, cmd, env, at):
    """attempt k of a trial (attempt's); a resume must keep what results.jsonl held whole"""
    kept = whole_lines(os.path.join(tmp, name))
    rc, err = attempt(cmd, env, at)
    print(f"  {name}: attempt {k}: {'run --resume' if '--resume' in cmd else 'run'}, "
          f"{'to its end' if at is None else f'killed at {at} s'}: {rc}", flush=True)
    hygiene(f"{name}: attempt {k}", "", err)
    if "--resume" in cmd and "resuming" in err:
        check(f"{name}: attempt {k} kept the {kept} results results.jsonl held whole",
              f"{kept} tests keep their results" in err, err[-600:])
    return rc, err


def trial(name, args, ref, kills, rng, env):
    """the night of args killed at random moments, each time resumed, until it ends"""
    out, db = path(name), path(name + ".db")
    full = [*args, "--out", out, "--db", db]
    cmd, rc = full, "killed"
    for k in range(kills):
        at = round(rng.uniform(0.05, ref["time"]), 2)
        rc, err = resumed(name, k + 1, cmd, env, at)
        if rc != "killed":
            break
        cmd = ["run", "--resume", out] if os.path.exists(os.path.join(out, "run.json")) \
            else full
    if rc == "killed":
        rc, err = resumed(name, kills + 1, cmd, env, None)
    check(f"{name}: ends with the uninterrupted run's exit status", rc == ref["rc"],
          f"{rc} {err[-800:]}")
    same_night(name, ref["night"], out, db)
    shutil.rmtree(out, ignore_errors=True)


def kill_mode(vectors, trials, kills):
    seed = int(os.environ.get("OTPU_RESUME_SEED", "38"))
    print(f"seed {seed} (OTPU_RESUME_SEED)", flush=True)
    rng = random.Random(seed)
    golden = ["random_000", "random_001", "random_002", "random_003", "random_004",
              "random_005", "random_006", "random_008", "ld_st", "qst", "qact_scales",
              "mm_ascale"]
    suite = write(path("night.suite"), "".join(
        f"{os.path.join(vectors, b)}\n" for b in golden) +
        f"{os.path.join(vectors, 'random_009')} name=flip-dma +otpu_flip_unit=0 +otpu_flip_n=2 "
        "+otpu_flip_bit=5\n"
        f"{os.path.join(vectors, 'random_007')} name=flip-dma2 +otpu_flip_unit=0 +otpu_flip_n=2 "
        "+otpu_flip_bit=5\n"
        f"{os.path.join(vectors, 'qst')} name=drop-dma +otpu_drop_unit=0 +otpu_drop_n=3\n")
    nights = {"golden": ["run", suite, "-j", "2", "--no-fork-server", "--shrink-time", "30"],
              "rounds": ["run", "gen:mix:seed=7:count=6", "-j", "2", "--rounds", "4",
                         "--no-shrink-buckets"]}
    for night, args in nights.items():
        out, db = path(f"{night}-ref"), path(f"{night}-ref.db")
        t0 = time.monotonic()
        rc, err = attempt([*args, "--out", out, "--db", db], {}, None)
        ref = {"rc": rc, "time": time.monotonic() - t0, "night": night_of(out, db)}
        print(f"{night}: uninterrupted: exit {rc} in {ref['time']:.1f} s, "
              f"{len(ref['night']['rounds']) or 1} round(s)", flush=True)
        check(f"{night}: the uninterrupted night ran", rc in (0, 1) and
              ref["night"]["counts"]["tests"] > 0, err[-800:])
        if night == "golden":
            check("golden: its faults fail in buckets with shrunk repros",
                  ref["night"]["counts"]["failed"] == 3 and
                  all(b[5] for b in ref["night"]["buckets"]), ref["night"]["buckets"])
        else:
            check("rounds: more than one round ran", len(ref["night"]["rounds"]) > 1,
                  ref["night"]["rounds"])
        for t in range(trials[night]):
            trial(f"{night}-{t + 1}", args, ref, kills, rng, {})


def main():
    if MODE == "stubs":
        sections = [stubs]
    else:
        vectors = os.path.abspath(sys.argv[4])
        big = MODE == "kill-night"
        sections = [lambda: kill_mode(vectors, {"golden": 12 if big else 4,
                                                "rounds": 6 if big else 2}, 6 if big else 3)]
    return TALLY.run(sections, tmp)


if __name__ == "__main__":
    sys.exit(main())
