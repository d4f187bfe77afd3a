#!/usr/bin/env python3
"""otpu-shrink (shrink/README.md): for each fault kind of the reference RTL's fault injection
(rtl/README.md: flip, drop, early, fp), a program that fails under it shrinks to at most 10
instructions that still fail the same way when rerun (exit status, divergence kind, unit,
opcode); a bundle that does not fail exits 1 with one line; bad input exits 2 with one line.

usage: test_shrink.py OTPU_SHRINK OTPU_LOCKSTEP (--vectors DIR [--bundles A,B,...] |
                      --gen OTPU_GEN [--seed S] [--count K]) [--slices BUNDLE]

The programs come from DIR (golden bundles, the names given first) or from `OTPU_GEN mix --seed
S --count K --out TMP`; for each fault kind the first bundle with more than 10 instructions that
passes in lockstep without a fault and diverges under one of the kind's plusargs is shrunk.
--slices: a bundle of 2 slices with a fault on slice 1 shrinks to one slice (its S=1 Config and
its own are built on first use)."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

MAX_INSTRUCTIONS = 10
# each kind's plusargs, tried in turn until a bundle diverges under them
FAULTS = {
    "flip": [["+otpu_flip_unit=3", "+otpu_flip_n=5", "+otpu_flip_bit=3"],
             ["+otpu_flip_unit=0", "+otpu_flip_n=3", "+otpu_flip_bit=0"],
             ["+otpu_flip_unit=1", "+otpu_flip_n=2", "+otpu_flip_bit=7"]],
    "drop": [["+otpu_drop_unit=0", "+otpu_drop_n=10"],
             ["+otpu_drop_unit=3", "+otpu_drop_n=3"],
             ["+otpu_drop_unit=1", "+otpu_drop_n=1"]],
    "early": [["+otpu_early_unit=3", "+otpu_early_n=2"],
              ["+otpu_early_unit=0", "+otpu_early_n=2"],
              ["+otpu_early_unit=1", "+otpu_early_n=1"]],
    "fp": [["+otpu_fp_n=7"], ["+otpu_fp_n=1", "+otpu_fp_bit=3"]],
}
LOCKSTEP_TRIES = 16  # lockstep runs spent looking for a failing bundle, per kind
DEFAULT_BUNDLES = ["random_017", "kernel_mlp_S1", "random_003", "random_029", "random_041"]

failures = []


def check(ok, what, detail=""):
    print(("ok   " if ok else "FAIL ") + what + ("" if ok or not detail else "\n" + detail))
    if not ok:
        failures.append(what)
    return ok


def instructions(bundle):
    n = 0
    for f in os.listdir(bundle):
        if f.startswith("prog_") and f.endswith(".hex"):
            with open(os.path.join(bundle, f)) as h:
                n += sum(1 for _ in h) // 8
    return n


def lockstep(tool, bundle, report, plusargs):
    """exit status and (kind, unit, opcode) of the divergence, read from divergence.json"""
    p = subprocess.run([tool, "run", bundle, "--report", report, "--wave-window", "0"] + plusargs,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    sig = None
    path = os.path.join(report, "divergence.json")
    if os.path.exists(path):
        with open(path) as f:
            d = json.load(f)
        ins = d.get("instruction") or {}
        sig = (d["kind"], d.get("unit"), (ins.get("disasm") or "-").split(" ")[0])
    return p.returncode, sig, p.stdout


def shrink(tool, args):
    p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=600)
    return p.returncode, p.stdout, p.stderr


def copy_bundle(src, dst, plusargs):
    os.makedirs(dst)
    for f in os.listdir(src):
        if f in ("case.txt", "host.txt") or f.startswith(("prog_", "dram_")) or \
                f.endswith(".hex"):  # (host.txt's programs too)
            shutil.copyfile(os.path.join(src, f), os.path.join(dst, f))
    if plusargs:
        with open(os.path.join(dst, "plusargs.txt"), "w") as f:
            f.write(" ".join(plusargs) + "\n")


def passing(lock, sources, tmp):
    """the sources that pass in lockstep without a fault (a fault's failure is then its own)"""
    return [src for src in sources
            if lockstep(lock, src, os.path.join(tmp, "probe"), [])[0] == 0]


def find_failing(lock, sources, variants, tmp):
    """the first (bundle, plusargs, signature) that diverges under one of the plusargs"""
    tries = 0
    for plusargs in variants:
        for src in sources:
            if tries == LOCKSTEP_TRIES:
                return None
            tries += 1
            rc, sig, _ = lockstep(lock, src, os.path.join(tmp, "probe"), plusargs)
            if rc == 1 and sig:
                return src, plusargs, (rc, sig)
    return None


def one_line_error(rc, err, want_rc, what, needle=""):
    lines = err.strip().split("\n") if err.strip() else []
    check(rc == want_rc and len(lines) == 1 and needle in err,
          f"{what}: exit {want_rc}, one line",
          f"exit {rc}, stderr:\n{err}")


def judge_limits(tool, clean, tmp):
    """A judge that hangs on small candidates is killed at --timeout (its candidates are not the
    same failure); a failure that does not repeat on the reduced bundle keeps nothing."""
    n0 = instructions(clean)
    hang = (f"n=$(wc -l < {{}}/prog_0.hex); if [ $n -lt {8 * (n0 - 2)} ]; then sleep 600; fi; "
            "exit 3")
    out = os.path.join(tmp, "hang.out")
    t0 = time.monotonic()  # 30 candidates of at most 2 s each (a long program has hundreds)
    p = subprocess.run([tool, clean, "--cmd", hang, "--timeout", "2", "--max-tries", "30",
                        "--out", out], capture_output=True, text=True, timeout=600)
    took = time.monotonic() - t0
    n = instructions(out) if p.returncode == 0 else -1
    check(p.returncode == 0 and n >= n0 - 2 and took < 120, "--timeout 2: a judge that hangs "
          f"on candidates of fewer than {n0 - 2} instructions does not hang the shrinker "
          f"({n0} -> {n} in {took:.0f} s)", f"exit {p.returncode}\n{p.stderr[-1500:]}")
    count = os.path.join(tmp, "flaky.count")
    flaky = (f"n=$(cat {count} 2>/dev/null || echo 0); echo $((n + 1)) > {count}; "
             "[ $n -lt 3 ] && exit 3; exit 0; {}")
    out = os.path.join(tmp, "flaky.out")
    p = subprocess.run([tool, clean, "--cmd", flaky, "--max-tries", "2", "--out", out],
                       capture_output=True, text=True, timeout=600)
    check(p.returncode == 1 and "fails otherwise when run again" in p.stderr
          and not os.path.exists(out), "a failure that does not repeat on the reduced bundle: "
          "exit 1, nothing kept", f"exit {p.returncode}\n{p.stderr[-1500:]}")


def host_steps(tool, lock, tmp):
    """A failing bundle with host steps that await a WAITW: the reduced bundle keeps that WAITW
    (its host steps must still all run in the model) and is a valid bundle."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import host_scenarios
    gen = os.path.join(tmp, "hosts")
    host_scenarios.write_all(gen)
    b = os.path.join(gen, "host_writes")
    with open(os.path.join(b, "plusargs.txt"), "w") as f:
        f.write("+otpu_flip_unit=0 +otpu_flip_n=2 +otpu_flip_bit=4\n")  # the LD after the WAITW
    rc, _, err = shrink(tool, [b, "--lockstep", lock])
    out = b + ".shrunk"
    words = open(os.path.join(out, "prog_0.hex")).read().split() if rc == 0 else []
    ops = {int(w, 16) & 0xFF for w in words[::8]}
    rr, sig, log = lockstep(lock, out, os.path.join(tmp, "rerun-host"),
                            ["+otpu_flip_unit=0", "+otpu_flip_n=2", "+otpu_flip_bit=4"])
    check(rc == 0 and 0x07 in ops and rr == 1 and "host.txt" in os.listdir(out),
          "host steps: the reduced bundle keeps the WAITW its host awaits, and still diverges",
          f"exit {rc} ops {sorted(ops)} rerun {rr} {sig}\n{err[-1500:]}\n{log[-1500:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("shrink")
    ap.add_argument("lockstep")
    ap.add_argument("--vectors")
    ap.add_argument("--bundles", default=",".join(DEFAULT_BUNDLES))
    ap.add_argument("--gen")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--count", default="8")
    ap.add_argument("--slices", help="a bundle of 2 slices (a new Config: an RTL build)")
    a = ap.parse_args()
    tool, lock = os.path.abspath(a.shrink), os.path.abspath(a.lockstep)
    with tempfile.TemporaryDirectory(prefix="otpu-shrink-test-") as tmp:
        if a.gen:
            src_dir = os.path.join(tmp, "gen")
            subprocess.run([a.gen, "mix", "--seed", a.seed, "--count", a.count, "--out", src_dir],
                           check=True, timeout=600)
            names = sorted(n for n in os.listdir(src_dir)
                           if os.path.isdir(os.path.join(src_dir, n)))
        elif a.vectors:
            src_dir = a.vectors
            names = a.bundles.split(",")
        else:
            ap.error("--vectors or --gen")
        sources = [os.path.join(src_dir, n) for n in names
                   if instructions(os.path.join(src_dir, n)) > MAX_INSTRUCTIONS]
        sources = passing(lock, sources[:LOCKSTEP_TRIES], tmp)
        check(len(sources) > 0, f"bundles of more than {MAX_INSTRUCTIONS} instructions that "
              "pass in lockstep without a fault")

        shrunk_any = None  # a reduced bundle, for the --out check
        for kind, variants in FAULTS.items():
            found = find_failing(lock, sources, variants, tmp)
            if not check(found is not None, f"{kind}: a bundle that diverges under the fault"):
                continue
            src, plusargs, want = found
            bundle = os.path.join(tmp, kind)
            copy_bundle(src, bundle, plusargs)
            n0 = instructions(bundle)
            rc, _, err = shrink(tool, [bundle])
            out = bundle + ".shrunk"
            if not check(rc == 0 and os.path.exists(os.path.join(out, "shrink.txt")),
                         f"{kind}: otpu-shrink {os.path.basename(src)} {' '.join(plusargs)} "
                         f"writes a reduced bundle", f"exit {rc}\n{err}"):
                continue
            n1 = instructions(out)
            check(n1 <= MAX_INSTRUCTIONS and n1 < n0,
                  f"{kind}: {n0} -> {n1} instructions (at most {MAX_INSTRUCTIONS})")
            with open(os.path.join(out, "plusargs.txt")) as f:
                kept = f.read().split()
            check(kept == plusargs, f"{kind}: the reduced bundle keeps its plusargs", str(kept))
            rc2, sig2, log2 = lockstep(lock, out, os.path.join(tmp, "rerun"), kept)
            check((rc2, sig2) == want, f"{kind}: the reduced bundle fails the same way "
                  f"(exit {want[0]}, {', '.join(map(str, want[1]))})",
                  f"rerun: exit {rc2}, {sig2}\n{log2[-2000:]}")
            with open(os.path.join(out, "shrink.txt")) as f:
                note = f.read()
            check(f"instructions: {n0} -> {n1}" in note and want[1][0] in note,
                  f"{kind}: shrink.txt names the failure and the sizes", note)
            shrunk_any = shrunk_any or out

        # the same bundle without its fault: nothing fails, nothing to shrink
        if sources:
            clean = os.path.join(tmp, "clean")
            copy_bundle(sources[0], clean, [])
            rc, _, err = shrink(tool, [clean])
            one_line_error(rc, err, 1, "a bundle that does not fail", "does not fail")
            check(not os.path.exists(clean + ".shrunk"), "  and nothing is written")
            # --cmd: any command; here one that always fails with exit 3, so only what the
            # model needs to halt (the final HALT) is left
            rc, _, err = shrink(tool, [clean, "--cmd", "exit 3; {}", "--out",
                                       os.path.join(tmp, "cmd.out")])
            n = instructions(os.path.join(tmp, "cmd.out")) if rc == 0 else -1
            check(rc == 0 and n == 1, "--cmd: a command that always fails keeps only the HALT",
                  f"exit {rc}, {n} instructions\n{err}")
            rc, _, err = shrink(tool, [clean, "--cmd", "true {}"])
            one_line_error(rc, err, 1, "--cmd: a command that passes")
            # --max-tries: a reduced bundle that says it is not minimal
            out = os.path.join(tmp, "tries.out")
            rc, _, err = shrink(tool, [clean, "--cmd", "exit 3; {}", "--max-tries", "2",
                                       "--out", out])
            note = open(os.path.join(out, "shrink.txt")).read() if rc == 0 else ""
            check("candidates tried: 2 " in note and "NOT minimal" in note,
                  "--max-tries 2: two candidates, and the note says it is not minimal",
                  f"exit {rc}\n{err}\n{note}")
            judge_limits(tool, clean, tmp)
        host_steps(tool, lock, tmp)

        # slices: a fault on slice 1 of a 2-slice bundle; slice 0 goes, the fault follows
        if a.slices:
            bundle = os.path.join(tmp, "slices")
            copy_bundle(a.slices, bundle, ["+otpu_fault_slice=1", "+otpu_flip_unit=0",
                                           "+otpu_flip_n=3", "+otpu_flip_bit=0"])
            rc, _, err = shrink(tool, [bundle])
            out = bundle + ".shrunk"
            S = ""
            if rc == 0:
                with open(os.path.join(out, "case.txt")) as f:
                    S = [l for l in f.read().split("\n") if l.startswith("S=")]
            plus = open(os.path.join(out, "plusargs.txt")).read().split() if rc == 0 else []
            check(rc == 0 and S == ["S=1"] and "+otpu_fault_slice=0" in plus,
                  "slices: S=2 -> S=1, the fault's slice renumbered",
                  f"exit {rc}, {S}, {plus}\n{err}")
            if rc == 0:
                _, sig, _ = lockstep(lock, out, os.path.join(tmp, "rerun"), plus)
                _, sig0, _ = lockstep(lock, bundle, os.path.join(tmp, "rerun"),
                                      open(os.path.join(bundle, "plusargs.txt")).read().split())
                check(sig == sig0 and sig is not None,
                      "slices: the reduced bundle fails the same way", f"{sig} vs {sig0}")

        # bad input
        rc, _, err = shrink(tool, [os.path.join(tmp, "no-such-bundle")])
        one_line_error(rc, err, 2, "a missing bundle", "no-such-bundle")
        if sources:
            bad = os.path.join(tmp, "badplus")
            copy_bundle(sources[0], bad, ["otpu_flip_unit=3"])
            rc, _, err = shrink(tool, [bad])
            one_line_error(rc, err, 2, "a plusargs.txt word without +", "plusargs.txt")
            bad = os.path.join(tmp, "badfault")
            copy_bundle(sources[0], bad, ["+otpu_flip_unit=9", "+otpu_flip_n=1"])
            rc, _, err = shrink(tool, [bad])
            one_line_error(rc, err, 2, "a fault plusarg otpu-lockstep refuses", "could not judge")
            rc, _, err = shrink(tool, [sources[0], "--frobnicate"])
            one_line_error(rc, err, 2, "an unknown option", "--frobnicate")
            rc, _, err = shrink(tool, [sources[0], "--max-tries", "0"])
            one_line_error(rc, err, 2, "--max-tries 0 (no limit is the default, not 0)",
                           "--max-tries")
            # an --out that cannot be written: refused before the first run (the judge, which
            # would leave its mark, never runs), not after the whole shrink
            mark, afile = os.path.join(tmp, "judged"), os.path.join(tmp, "afile")
            open(afile, "w").close()
            for out, word in ((os.path.join(afile, "x"), "not a folder"),
                              (os.path.join(tmp, "nosuch", "x"), "does not exist"),
                              (afile, "is a regular file, not a folder")):
                rc, _, err = shrink(tool, [sources[0], "--cmd", f"touch {mark}; exit 3; {{}}",
                                           "--out", out])
                one_line_error(rc, err, 2, f"--out {os.path.relpath(out, tmp)}", word)
                check(not os.path.exists(mark), "  and the judge never ran")
            rc, _, err = shrink(tool, [sources[0], "--cmd", "true"])
            one_line_error(rc, err, 2, "--cmd without {}", "{}")
            rc, _, err = shrink(tool, [sources[0], "--lockstep", os.path.join(tmp, "none")])
            one_line_error(rc, err, 2, "a --lockstep that is not there", "none")
        if shrunk_any:
            rc, _, err = shrink(tool, [shrunk_any, "--out", os.path.join(tmp, "clean")])
            one_line_error(rc, err, 2, "an --out folder that is not an earlier output", "--out")
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
