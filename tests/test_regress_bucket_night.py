#!/usr/bin/env python3
"""Issue 27's acceptance test of failure buckets: a copy of the reference RTL with three planted
bugs in three units (mutate/mutants.txt, planted as mutate/otpu_mutate/trees.py plants one: a
snapshot of the source tree with each anchor replaced, run with OTPU_SOURCE_ROOT pointing at
it) and a night of generated programs give exactly three buckets, one per bug, each with a
shrunk repro that fails with the same signature.

The bugs (BUGS below): MXU-SIGN-W8 (int8 weights zero-extended: MM writes wrong values),
DMA-ST-BYTE3 (ST drops each word's top byte enable: ST's writes go missing) and VPU-RSUB-SWAP
(RSUB computes A - B: VOP writes the negated value). (DMA-LD-STRIDE, the list's stride bug,
cannot be one of three: every generated program starts with an LD of its data, so that bug is
the first divergence of every program and hides the other two.)

One bucket per bug:
- sample (suite regress): 8 programs of fixed seeds that meet all three bugs; by construction:
  lockstep stops at the first write that differs, every earlier write agreed, and each bug
  changes the writes of its own unit only, so the first divergence's unit (the key's second
  part) names the bug: three buckets of three different units are three bugs, none split.
- night (suite nightly): 500 programs of every family; then each failing program is run again
  on a copy with each bug alone: a program of bucket K fails with K's key on K's bug alone, and
  a bug alone never fails with a key other than its bucket's (it does not split).

Both check each bucket's repro: shrunk (fewer instructions), confirmed by otpu-regress, and run
again here on the three-bug RTL, failing with the bucket's signature; and, the night run with
--localize (issue 40), its fault localization: exactly three causes, each bug's line among the
first 5 suspects of one cause and of its unit's bucket.
- causes (suite nightly): issue 40's three bugs of which one shows several signatures
  (CAUSE_BUGS), the night's 500 programs with --localize: its buckets grouped into exactly
  three causes, each bug's line in the first 5 of one of them, every bucket's first 5 holding
  a bug's line.

usage: test_regress_bucket_night.py sample|night OTPU_REGRESS OTPU_LOCKSTEP SOURCE_ROOT WORK"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

MODE, REGRESS, LOCKSTEP, ROOT, WORK = sys.argv[1], *(os.path.abspath(a) for a in sys.argv[2:6])
sys.path.insert(0, os.path.join(ROOT, "mutate"))
from otpu_mutate import mutants as mutant_list, trees  # noqa: E402

BUGS = {"MXU-SIGN-W8": "MXU", "DMA-ST-BYTE3": "DMA", "VPU-RSUB-SWAP": "VPU"}
# 'causes': issue 40's three bugs, one seen as several signatures (a QACT scale, an argmax
# tie rule, a STREAM destination stride): a night of them gave 6 buckets, 3 causes
CAUSE_BUGS = {"QNT-RSCALE-PORT": "QUANT", "VPU-ARGMAX-TIE": "VPU", "STR-RSAVE-STRIDE": "STREAM"}
CONFIG = "S=2:PAIR=1:DSTEP=1:STREAM=1"
SAMPLE = [("mm", 11, 3), ("fp", 11, 3), ("dma", 11, 2)]
NIGHT = [("mix", 21, 80), ("hazard", 21, 80), ("dma", 21, 70), ("mm", 21, 80), ("fp", 21, 80),
         ("stream", 21, 60), ("error", 21, 50)]
failures = []


def check(ok, what, detail=""):
    print(("ok   " if ok else "FAIL ") + what + ("" if ok or not detail else f"\n  {detail}"),
          flush=True)
    if not ok:
        failures.append(what)
    return ok


def mutants():
    ms = mutant_list.read_list(os.path.join(ROOT, "mutate", "mutants.txt"))
    mutant_list.check_against(ms, ROOT)
    return {m.id: m for m in ms}


def plant(ids):
    """the snapshot of the source tree with the mutants ids planted: WORK/trees/<name>, a
    stable path (the tools' cache finds its builds again)"""
    by = mutants()
    return trees.planted_tree(trees.snapshot(ROOT, WORK), WORK, [by[i] for i in ids])


def lockstep_key(tree, bundle, report):
    """the signature key of a lockstep run of bundle on tree (None: it passed)"""
    env = {**os.environ, "OTPU_SOURCE_ROOT": tree}
    env.pop("OTPU_RTL_KEY", None)
    p = subprocess.run([LOCKSTEP, "run", bundle, "--report", report, "--wave-window", "0"],
                       capture_output=True, text=True, env=env, timeout=1800)
    if p.returncode == 0:
        return None
    try:
        with open(os.path.join(report, "divergence.json")) as f:
            return json.load(f)["signature"]["key"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"exit {p.returncode}: {p.stdout.strip()[-200:]}"


def night(tree, entries, out):
    suites = [f"gen:{f}:seed={s}:count={n}:{CONFIG}" for f, s, n in entries]
    env = {**os.environ, "OTPU_SOURCE_ROOT": tree}
    p = subprocess.run([REGRESS, "run", *suites, "--no-coverage", "--db", "none", "-j", "2",
                        "--localize", "--out", out], capture_output=True, text=True, env=env,
                       timeout=4 * 3600)
    print(p.stderr[-4000:], flush=True)
    check(p.returncode == 1, f"the night fails (exit {p.returncode})")
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def check_buckets(s, tree, out, tmp):
    groups = s["buckets"]
    print("buckets: " + "; ".join(f"{b['key']} x {b['count']}" for b in groups), flush=True)
    check(len(groups) == 3, f"exactly 3 buckets ({len(groups)})",
          [(b["key"], b["count"]) for b in groups])
    units = sorted(b["key"].split("/")[1] for b in groups)
    check(units == sorted(BUGS.values()), f"one bucket per bug's unit: {units}")
    check(sum(b["count"] for b in groups) == s["failed"], "every failure is in a bucket")
    for b in groups:
        r = b["repro"] or {}
        check(r.get("shrunk") and r.get("instructions") and
              r["instructions"][1] < r["instructions"][0],
              f"bucket {b['key']}: its repro is shrunk ({r.get('instructions')})", b["shrink"])
        check(r.get("confirmed") is True, f"bucket {b['key']}: otpu-regress ran its repro "
              "again: the same signature", b["shrink"])
        bundle = os.path.join(out, r.get("folder", "?"), "bundle")
        again = lockstep_key(tree, bundle, os.path.join(tmp, f"again-{b['n']}"))
        check(again == b["key"], f"bucket {b['key']}: its shrunk bundle run here fails with "
              f"the same signature ({again})")
        check(b["command"].startswith("OTPU_RTL_KEY=") and bundle in b["command"],
              f"bucket {b['key']}: its one-line command", b["command"])


def check_localized(s, bugs):
    """fault localization: one cause per bug (bugs: {mutant id: unit}), each bug's line in its
    cause's first 5 suspects, and each bucket's first 5 holding a bug's line (its unit's when
    a bug is of that unit)"""
    by = mutants()
    line = {i: (by[i].file, by[i].line) for i in bugs}
    causes = s.get("causes") or []
    check(len(causes) == len(bugs), f"exactly {len(bugs)} causes ({len(causes)})",
          [c["buckets"] for c in causes])
    for i, want in line.items():
        mine = [c for c in causes if want in [(x["file"], x["line"]) for x in c["suspects"][:5]]]
        check(len(mine) == 1, f"{i}: its line {want} in the first 5 of exactly one cause",
              [c["buckets"] for c in mine])
    for b in s["buckets"]:
        unit = b["key"].split("/")[1]
        wants = [line[i] for i, u in bugs.items() if u == unit] or list(line.values())
        got = [(x["file"], x["line"]) for x in b.get("suspects") or []]
        rank = min((got.index(w) + 1 for w in wants if w in got), default=None)
        print(f"bucket {b['key']}: a bug's line at rank {rank}; "
              f"{(b.get('localized') or {}).get('note')}", flush=True)
        check(rank is not None and rank <= 5, f"bucket {b['key']}: a bug's line in its first 5 "
              f"suspects (rank {rank})", got[:5])


def alone(s, out, tmp):
    """each failing program on each bug alone: a bucket's programs fail with its key on its bug,
    and no bug alone fails with another key"""
    unit_key = {b["key"].split("/")[1]: b["key"] for b in s["buckets"]}
    members = {n: b["key"] for b in s["buckets"] for n in b["tests"]}
    with open(os.path.join(out, "results.json")) as f:
        bundles = {t["name"]: t["bundle_path"] for t in json.load(f)["tests"]}
    for bug, unit in BUGS.items():
        tree = plant([bug])
        want = unit_key.get(unit)

        def run(name, tree=tree):
            return name, lockstep_key(tree, bundles[name],
                                      os.path.join(tmp, "alone", bug, name.replace("/", "_")))
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            got = dict(ex.map(run, sorted(members)))
        mine = [n for n in members if members[n] == want]
        wrong = {n: got[n] for n in mine if got[n] != want}
        check(not wrong, f"{bug} alone: each of its bucket's {len(mine)} programs fails with "
              f"{want}", dict(list(wrong.items())[:5]))
        other = {n: k for n, k in got.items() if k is not None and k != want}
        check(not other, f"{bug} alone: no failure with another key (it does not split)",
              dict(list(other.items())[:5]))
        print(f"{bug} alone: {sum(k == want for k in got.values())} of {len(got)} failing "
              "programs fail with its key", flush=True)


def main():
    if MODE not in ("sample", "night", "causes"):
        sys.exit("usage: test_regress_bucket_night.py sample|night|causes OTPU_REGRESS "
                 "OTPU_LOCKSTEP SOURCE_ROOT WORK")
    os.makedirs(WORK, exist_ok=True)
    bugs = CAUSE_BUGS if MODE == "causes" else BUGS
    tree = plant(list(bugs))
    entries = SAMPLE if MODE == "sample" else NIGHT
    check(MODE == "sample" or sum(n for _, _, n in entries) >= 500, "a night of 500 programs")
    out = os.path.join(WORK, f"out-{MODE}")
    tmp = tempfile.mkdtemp(prefix="otpu-bucket-night-")
    try:
        s = night(tree, entries, out)
        if MODE != "causes":
            check_buckets(s, tree, out, tmp)
        check_localized(s, bugs)
        if MODE == "night":
            alone(s, out, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
