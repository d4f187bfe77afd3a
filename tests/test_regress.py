#!/usr/bin/env python3
"""otpu-regress on the reference RTL: fault injection on a subset fails exactly those tests,
each with a repro.sh that reproduces the same divergence; JUnit has the usual shape; four
shards merged equal one unsharded run; history finds one new failure and one fix, and a flaky
test; every failure kind (crash, timeout, build-failed, bad-input, and unexpected-outcome: a
bundle whose expect= the RTL and the model both contradict) is its own and never stops the
other tests; --shrink leaves a smaller failing bundle; the faults' failures are bucketed (each
failure in one bucket, each bucket with a shrunk repro that fails the same way again, the
merged shards' buckets those of one run); bad usage is one line, exit 2.

usage: test_regress.py OTPU_REGRESS OTPU_LOCKSTEP VECTORS_ISA"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import regress_util
from regress_util import check, load, verdict

REGRESS, LOCKSTEP, ISA = (os.path.abspath(a) for a in sys.argv[1:4])
CLEAN = ["random_000", "random_003", "random_005", "random_006", "ld_st", "qact_scales"]
FAULTS = {  # entry name -> (bundle, plusargs)
    "flip-dma": ("random_007", "+otpu_flip_unit=0 +otpu_flip_n=2 +otpu_flip_bit=5"),
    "flip-vpu": ("random_001", "+otpu_flip_unit=3 +otpu_flip_n=1 +otpu_flip_bit=30"),
    "drop-dma": ("qst", "+otpu_drop_unit=0 +otpu_drop_n=3"),
}


def regress(*args, env=None, expect=None):
    return regress_util.regress(REGRESS, *args, env=env, expect=expect)


def suite_file(path, lines):
    with open(path, "w") as f:
        f.write("# written by test_regress.py\n" + "\n".join(lines) + "\n")
    return path


def results(out):
    return {t["name"]: t for t in load(out, "results.json")["tests"]}


def summary(out):
    return load(out, "summary.json")


def junit_shape(path, tests):
    root = ET.parse(path).getroot()
    check(root.tag == "testsuites", f"{path}: root <{root.tag}>")
    cases = {}
    for ts in root:
        check(ts.tag == "testsuite" and ts.get("name"), f"{path}: <{ts.tag}> under testsuites")
        members = list(ts)
        check(int(ts.get("tests")) == len(members), f"{path}: {ts.get('name')} tests= count")
        check(int(ts.get("failures")) == sum(tc.find("failure") is not None for tc in members),
              f"{path}: {ts.get('name')} failures= count")
        for tc in members:
            check(tc.tag == "testcase" and tc.get("classname") == ts.get("name") and
                  float(tc.get("time")) >= 0, f"{path}: testcase {tc.attrib}")
            f = tc.find("failure")
            if f is not None:
                check(f.get("message") and f.get("type"), f"{path}: failure without message")
            cases[f"{ts.get('name')}/{tc.get('name')}"] = f is not None
    check(cases == {n: t["status"] != "pass" for n, t in tests.items()},
          f"{path}: the testcases are not the run's tests")


def same_divergence(a, b):
    keys = ("kind", "slice", "cycle", "instruction", "location", "unit")
    return all(a.get(k) == b.get(k) for k in keys)


def fault_subset(tmp):
    """faults on a subset: exactly those fail, each reproduced by its repro.sh"""
    s = suite_file(os.path.join(tmp, "faults.suite"),
                   [os.path.join(ISA, b) for b in CLEAN] +
                   [f"{os.path.join(ISA, b)} name={n} {p}" for n, (b, p) in FAULTS.items()])
    out = os.path.join(tmp, "faults")
    p = regress("run", s, "-j", "2", "--out", out, "--db", "none", expect=1)
    check("done," in p.stderr, "no progress line")
    r = results(out)
    failed = {n for n, t in r.items() if t["status"] != "pass"}
    want = {f"{n}/{b}" for n, (b, _) in FAULTS.items()}
    check(failed == want, f"failed {sorted(failed)}, wanted exactly {sorted(want)}")
    check(len(r) == len(CLEAN) + len(FAULTS), f"{len(r)} tests")
    junit_shape(os.path.join(out, "junit.xml"), r)
    s = summary(out)
    check(s["failed"] == len(FAULTS) and s["by_kind"]["divergence"] == len(FAULTS),
          f"summary counts {s['failed']} {s['by_kind']}")
    for name in sorted(want & failed):
        t = r[name]
        folder = os.path.join(out, t["repro"])
        with open(os.path.join(folder, "report", "divergence.json")) as f:
            first = json.load(f)
        check(t["divergence"]["kind"] == first["kind"], f"{name}: results.json and report")
        q = subprocess.run([os.path.join(folder, "repro.sh")], capture_output=True, text=True,
                           timeout=600)
        again = os.path.join(folder, "report-rerun", "divergence.json")
        if check(q.returncode == 1 and os.path.isfile(again),
                 f"{name}: repro.sh exit {q.returncode}\n{q.stdout[-800:]}{q.stderr[-800:]}"):
            with open(again) as f:
                check(same_divergence(first, json.load(f)), f"{name}: repro.sh diverged "
                      "differently")
    # the failures' buckets (regress/README.md, "Buckets"): every failure in one, each with a
    # shrunk repro (its plusargs kept) that fails with the bucket's signature when run again
    groups = s["buckets"]
    check(all(r[n]["bucket"]["key"] == b["key"] for b in groups for n in b["tests"]),
          "buckets: each member's record names its bucket")
    check(sorted(n for b in groups for n in b["tests"]) == sorted(failed) and
          [b["count"] for b in groups] == sorted((b["count"] for b in groups), reverse=True),
          f"buckets: {[(b['key'], b['tests']) for b in groups]}")
    for b in groups:
        rep = b["repro"] or {}
        check(rep.get("confirmed") and os.path.isfile(os.path.join(out, rep["folder"], "bundle",
                                                                   "case.txt")),
              f"bucket {b['key']}: no repro that fails the same way: {b['shrink']}")


def shards(tmp):
    """four shards merged give the totals and test names of one unsharded run"""
    s = suite_file(os.path.join(tmp, "shards.suite"),
                   [os.path.join(ISA, b) for b in CLEAN] +
                   ["gen:dma:seed=3:count=5", "gen:hazard:seed=4:count=4",
                    f"{os.path.join(ISA, 'random_007')} name=flip "
                    "+otpu_flip_unit=0 +otpu_flip_n=2 +otpu_flip_bit=5"])
    whole = os.path.join(tmp, "whole")
    regress("run", s, "-j", "2", "--out", whole, "--db", "none", expect=1)
    parts = []
    for i in range(1, 5):
        parts.append(os.path.join(tmp, f"shard-{i}"))
        regress("run", s, "-j", "2", "--shard", f"{i}/4", "--out", parts[-1], "--db", "none")
    merged = os.path.join(tmp, "merged")
    regress("merge", *parts, "--out", merged, "--db", "none", expect=1)
    a, b = summary(whole), summary(merged)
    for k in ("tests", "passed", "failed", "by_kind", "instructions", "cycles"):
        check(a[k] == b[k], f"shards: {k} {a[k]} unsharded, {b[k]} merged")
    ra, rb = results(whole), results(merged)
    check(sorted(ra) == sorted(rb), "shards: the merged test names differ")
    check(all(ra[n]["status"] == rb[n]["status"] for n in ra if n in rb), "shards: statuses")
    check(all(len(results(p)) > 0 for p in parts), "shards: an empty shard")
    check(os.path.isdir(os.path.join(merged, rb["flip/random_007"]["repro"])),
          "shards: the merged repro folder")
    check(a["coverage"] and b["coverage"] and a["coverage"]["hit"] == b["coverage"]["hit"],
          f"shards: coverage {a['coverage']} unsharded, {b['coverage']} merged")
    check([(x["key"], x["tests"]) for x in a["buckets"]] ==
          [(x["key"], x["tests"]) for x in b["buckets"]],
          f"shards: buckets {a['buckets']} unsharded, {b['buckets']} merged")


def history(tmp):
    """one injected regression and one fix: exactly one new failure and one fix"""
    db = os.path.join(tmp, "h.db")
    flip = "+otpu_flip_unit=0 +otpu_flip_n=2 +otpu_flip_bit=5"
    night = [(f"{os.path.join(ISA, 'random_007')} name=p {flip}",
              f"{os.path.join(ISA, 'random_003')} name=q"),
             (f"{os.path.join(ISA, 'random_007')} name=p",
              f"{os.path.join(ISA, 'random_003')} name=q {flip}")]
    for k, lines in enumerate(night):
        s = suite_file(os.path.join(tmp, f"night{k}.suite"),
                       list(lines) + [os.path.join(ISA, "random_005")])
        regress("run", s, "-j", "2", "--out", os.path.join(tmp, f"night{k}"), "--db", db,
                expect=1)
    ch = summary(os.path.join(tmp, "night1"))["changes"]
    check(ch["new_failures"] == ["q/random_003"] and ch["fixed"] == ["p/random_007"] and
          not ch["still_failing"], f"history: changes {ch}")
    p = regress("history", "--db", db, expect=0)
    check("new failures: 1\n  q/random_003\nfixed: 1\n  p/random_007\nstill failing: 0" in
          p.stdout, f"history: {p.stdout}")
    check("flaky (pass and fail on the same input, last 30 runs): 0" in p.stdout,
          f"history: a changed input is not flaky\n{p.stdout}")


def fake(tmp, name, body):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)
    return path


def kinds(tmp):
    """crash, timeout, build-failed and bad-input: each its own kind, the others still run"""
    one = os.path.join(ISA, "random_003")
    crash = fake(tmp, "crash", "kill -SEGV $$")
    hang = fake(tmp, "hang", "sleep 120")
    nobuild = fake(tmp, "nobuild", "echo 'otpu-rtl: the build failed (make: error 2)' >&2\n"
                                   "exit 4")
    out = os.path.join(tmp, "k")
    regress("run", one, "--out", out, "--db", "none", env={"OTPU_LOCKSTEP": crash}, expect=1)
    t = results(out)["random_003/random_003"]
    check(t["kind"] == "crash" and "signal 11" in t["message"], f"crash: {t['kind']} "
          f"{t['message']}")
    t0 = time.monotonic()
    regress("run", one, "--out", out, "--db", "none", "--timeout", "1",
            env={"OTPU_LOCKSTEP": hang}, expect=1)
    t = results(out)["random_003/random_003"]
    check(t["kind"] == "timeout" and time.monotonic() - t0 < 30,
          f"timeout: {t['kind']} after {time.monotonic() - t0:.1f} s")
    regress("run", one, "--out", out, "--db", "none", env={"OTPU_RTL": nobuild}, expect=1)
    t = results(out)["random_003/random_003"]
    check(t["kind"] == "build-failed" and "make: error 2" in t["message"],
          f"build-failed: {t['kind']} {t['message']}")
    # a bundle whose expect= the RTL and the model both contradict: otpu-lockstep's exit 6
    wrong = os.path.join(tmp, "wrong-expect")
    shutil.copytree(one, wrong)
    with open(os.path.join(wrong, "case.txt")) as f:
        case = f.read()
    with open(os.path.join(wrong, "case.txt"), "w") as f:
        f.write(case.replace("expect=ok", "expect=error"))
    s = suite_file(os.path.join(tmp, "mixed.suite"),
                   [f"{one} name=badarg +otpu_flip_unit=99", os.path.join(ISA, "random_005"),
                    wrong])
    regress("run", s, "--out", out, "--db", "none", expect=1)
    r = results(out)
    got = {n: t["kind"] for n, t in r.items()}
    check(got == {"badarg/random_003": "bad-input", "random_005/random_005": None,
                  "wrong-expect/wrong-expect": "unexpected-outcome"}, f"kinds: {got}")
    # a gen: entry otpu-gen refuses is bad usage before the first test (otpu-gen is asked)
    p = regress("run", "gen:nosuchfamily:seed=1:count=2", "--out", os.path.join(tmp, "k2"),
                "--db", "none", expect=2)
    check("otpu-gen refuses it: unknown family" in p.stderr and
          not os.path.exists(os.path.join(tmp, "k2")), f"gen: nosuchfamily: {p.stderr}")
    check(summary(out)["by_kind"]["unexpected-outcome"] == 1 and
          summary(out)["by_kind"]["divergence"] == 0, "unexpected-outcome is not a divergence")
    flaky(tmp, one)


def flaky(tmp, one):
    """a test that passes and fails on the same input is listed as flaky"""
    flag = os.path.join(tmp, "fail-now")
    lock = fake(tmp, "coin", f'if [ -e {flag} ]; then exit 1; fi\n'
                f'exec "{LOCKSTEP}" "$@"')
    db = os.path.join(tmp, "flaky.db")
    env = {"OTPU_LOCKSTEP": lock}
    open(flag, "w").close()
    regress("run", one, "--out", os.path.join(tmp, "f1"), "--db", db, env=env, expect=1)
    os.remove(flag)
    regress("run", one, "--out", os.path.join(tmp, "f2"), "--db", db, env=env, expect=0)
    p = regress("history", "--db", db, expect=0)
    check("flaky (pass and fail on the same input, last 30 runs): 1\n  random_003/random_003"
          in p.stdout, f"flaky: {p.stdout}")


def shrink(tmp):
    """--shrink: a divergence's repro folder holds a smaller bundle that fails the same way"""
    out = os.path.join(tmp, "shrink")
    b, plus = FAULTS["flip-dma"]
    s = suite_file(os.path.join(tmp, "shrink.suite"), [f"{os.path.join(ISA, b)} name=s {plus}"])
    regress("run", s, "--shrink", "--no-shrink-buckets", "--out", out, "--db", "none",
            expect=1)
    folder = os.path.join(out, results(out)[f"s/{b}"]["repro"])

    def lines(d):
        with open(os.path.join(d, "prog_0.hex")) as f:
            return sum(1 for _ in f)
    shrunk = os.path.join(folder, "shrunk")
    if check(os.path.isfile(os.path.join(shrunk, "case.txt")), "--shrink: no shrunk bundle"):
        check(lines(shrunk) < lines(os.path.join(folder, "bundle")),
              f"--shrink: {lines(shrunk)} lines, not fewer than the bundle's")


def rounds(tmp):
    """--rounds: round 2 aims at round 1's holes; the records, the test names and the page"""
    out = os.path.join(tmp, "rounds")
    regress("run", "gen:mix:seed=4:count=3:S=2", "gen:error:seed=4:count=3", "--rounds", "3",
            "--out", out, "--db", "none", "-j", "2", expect=0)
    s = summary(out)
    recs = s["run"].get("rounds") or []
    check(2 <= len(recs) <= 3, f"--rounds 3: {len(recs)} rounds")
    hit = 0
    for r in recs:
        check(r["tests"] == 6 and r["hit"] - hit == r["new"] and r["new"] >= 0,
              f"round {r['round']}: {r}")
        hit = r["hit"]
    check(recs[1]["new"] > 0, f"round 2 hit no new bin: {recs}")
    check("stopped" in recs[-1] and all("stopped" not in r for r in recs[:-1]),
          f"the last round says why the rounds stopped: {recs}")
    names = set(results(out))
    check(len(names) == 6 * len(recs) and
          "gen-mix-seed4-S-2@round2/mix-4-0003" in names, f"round 2's tests: {sorted(names)}")
    check(s["coverage"]["hit"] == hit, "the run's coverage is the last round's")
    with open(os.path.join(out, "index.html")) as f:
        page = f.read()
    check('id="rounds"' in page and "Coverage by round" in page, "the page's rounds table")


def bad_usage(tmp):
    for args in (["run", os.path.join(tmp, "nowhere")], ["run", "gen:hazard:seed=x:count=2"],
                 ["run", os.path.join(ISA, "random_003"), "--shard", "5/4"],
                 ["history", "--db", os.path.join(tmp, "none.db")],
                 ["merge", os.path.join(tmp, "nowhere"), "--out", os.path.join(tmp, "m")]):
        p = regress(*args, expect=2)
        lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
        check(len(lines) == 1 or "usage:" in p.stderr, f"{args}: {p.stderr}")
    check(regress("--help").returncode == 0 and regress("run", "--help").returncode == 0,
          "--help")


def main():
    with tempfile.TemporaryDirectory(prefix="otpu-regress-test-") as tmp:
        os.chdir(tmp)
        for step in (bad_usage, kinds, fault_subset, history, shards, shrink, rounds):
            t0 = time.monotonic()
            step(tmp)
            print(f"{step.__name__}: {time.monotonic() - t0:.1f} s", flush=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
