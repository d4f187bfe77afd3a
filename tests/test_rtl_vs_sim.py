#!/usr/bin/env python3
"""The reference RTL against the C model on Configs no golden vector has: every golden bundle of
the vectors' main Configs (S=1, D=32, DRAM_BYTES=262144, PAIR 0 or 1) is rerun with MCOLS=4 and
ACT_ROWS=8, so MMs of more than 4 rows replay their stream (and RMAX, ASCALE, PAIR and DUP on
them become errors). otpu-rtl and otpu-sim must agree on the exit code and on every line of
final_0.txt (an error at the same pc and icount).

usage: test_rtl_vs_sim.py OTPU_RTL OTPU_SIM VECTORS_ISA_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile

from checks import too_few

VARIANT = {"MCOLS": "4", "ACT_ROWS": "8"}
MIN_BUNDLES = 100


def config(case):
    cfg = {}
    for line in open(os.path.join(case, "case.txt")):
        k, _, v = line.strip().partition("=")
        cfg[k] = v
    return cfg


def run(cmd, out):
    os.makedirs(out)
    p = subprocess.run(cmd + ["--dump", out], capture_output=True, text=True)
    fp = os.path.join(out, "final_0.txt")
    return p.returncode, open(fp).read() if os.path.exists(fp) else "", p.stdout + p.stderr


def main():
    rtl, sim, isa = sys.argv[1:4]
    names = [n for n in sorted(os.listdir(isa)) if os.path.isfile(os.path.join(isa, n, "case.txt"))]
    bad = n = errors = 0
    with tempfile.TemporaryDirectory(prefix="otpu-rtl-vs-sim-") as tmp:
        for name in names:
            case = os.path.join(isa, name)
            cfg = config(case)
            if (cfg.get("S"), cfg.get("D"), cfg.get("DRAM_BYTES"), cfg.get("MCOLS"),
                    cfg.get("ACT_ROWS")) != ("1", "32", "262144", "8", "0"):
                continue
            b = os.path.join(tmp, name)
            os.makedirs(b)
            for f in os.listdir(case):
                if f.startswith(("prog_", "dram_")):
                    shutil.copy(os.path.join(case, f), b)
            lines = [f"{k}={VARIANT[k]}\n" if k in VARIANT else line
                     for line in open(os.path.join(case, "case.txt"))
                     for k in [line.partition("=")[0]] if k not in ("expect", "error")]
            with open(os.path.join(b, "case.txt"), "w") as g:
                g.write("".join(lines) + "expect=ok\n")
            rc_s, fin_s, log_s = run([sim, "run", b], os.path.join(tmp, "s_" + name))
            if rc_s == 1:  # the variant's outcome, as the bundle must state it
                with open(os.path.join(b, "case.txt"), "w") as g:
                    g.write("".join(lines) + "expect=error\n")
            rc_r, fin_r, log_r = run([rtl, "run", b], os.path.join(tmp, "r_" + name))
            n += 1
            errors += rc_s == 1
            if rc_r != rc_s or fin_r != fin_s or not fin_r:
                bad += 1
                print(f"FAIL {name}: otpu-rtl exit {rc_r}, otpu-sim exit {rc_s}")
                for a, c in zip(fin_r.splitlines(), fin_s.splitlines()):
                    if a != c:
                        print(f"    rtl {a}\n    sim {c}")
                print("    | " + log_r.strip().replace("\n", "\n    | "))
                print("    | " + log_s.strip().replace("\n", "\n    | "))
            else:
                print(f"ok   {name}" + (" (error in both)" if rc_s == 1 else ""))
    if n == 0:
        print("no bundles of the main Configs in", isa)
        return 77
    if too_few(n, MIN_BUNDLES, "bundles of the main Configs compared"):  # the golden set: 122
        return 1
    print(f"{n - bad} of {n} bundles agree with MCOLS=4 ACT_ROWS=8 ({errors} stop with an error)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
