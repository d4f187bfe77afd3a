#!/usr/bin/env python3
"""The SystemC top (otpu-lockstep run --systemc) runs the same lockstep as the C++ driver: on a
smoke set of bundles (one and two slices, HALT CHAIN, an error case, a conflict-heavy random
program) and on injected faults, both give the same exit status and the same verdict line, and a
divergence gets the same report.

usage: test_lockstep_systemc.py OTPU_LOCKSTEP OTPU_RTL ISA_FOLDER"""
import json
import os
import subprocess
import sys
import tempfile

SMOKE = ["kernel_mlp_S1", "gather_bar_S2", "halt_chain", "err_vop_hazard", "random_003",
         "kernel_attn_S2_T96"]
# (bundle, plusargs): a flipped VPU result bit, a dropped DMA write, a flipped MXU write bit
FAULTS = [("kernel_mlp_S1", ["+otpu_flip_unit=3", "+otpu_flip_n=5", "+otpu_flip_bit=7"]),
          ("random_003", ["+otpu_drop_unit=0", "+otpu_drop_n=3"]),
          ("kernel_attn_S2_T96", ["+otpu_flip_unit=1", "+otpu_flip_n=2", "+otpu_flip_bit=30"])]


def run(tool, bundle, report, extra):
    p = subprocess.run([tool, "run", bundle, "--report", report, "--wave-window", "0", *extra],
                       capture_output=True, text=True, timeout=1800)
    last = (p.stdout.strip().splitlines() or [""])[-1]
    d = None
    path = os.path.join(report, "divergence.json")
    if os.path.exists(path):
        with open(path) as f:
            d = json.load(f)
            d.pop("repro", None)  # names the top it ran on
    return p.returncode, last.replace(report, "REPORT"), d, p.stdout[-3000:] + p.stderr[-2000:]


def is_systemc_build(rtl, bundle):
    """the simulator --systemc runs was built with Verilator --sc and links SystemC"""
    exe = subprocess.run([rtl, "path", "--systemc", bundle], capture_output=True, text=True,
                         timeout=1800).stdout.strip()
    with open(os.path.join(os.path.dirname(exe), "build.txt")) as f:
        how = f.read()  # what was built and the command (it compiles the sc_main top)
    libs = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
    return "(SystemC top)" in how and "otpu_rtl_sc.cpp" in how and "libsystemc" in libs


def main():
    tool, rtl, isa = sys.argv[1], sys.argv[2], sys.argv[3]
    cases = [(b, []) for b in SMOKE] + FAULTS
    ok = bad = 0
    if not is_systemc_build(rtl, os.path.join(isa, SMOKE[0])):
        print("FAIL: otpu-rtl path --systemc does not name a SystemC build")
        return 1
    with tempfile.TemporaryDirectory(prefix="otpu-lockstep-sc-") as tmp:
        for i, (name, plus) in enumerate(cases):
            b = os.path.join(isa, name)
            cc = run(tool, b, os.path.join(tmp, f"{i}-cc"), plus)
            sc = run(tool, b, os.path.join(tmp, f"{i}-sc"), ["--systemc", *plus])
            want_rc = 1 if plus else 0
            same = cc[:3] == sc[:3]
            if same and cc[0] == want_rc:
                ok += 1
                print(f"ok   {name} {' '.join(plus)}: {sc[1]}")
            else:
                bad += 1
                print(f"FAIL {name} {' '.join(plus)}: C++ exit {cc[0]} / SystemC exit {sc[0]} "
                      f"(want {want_rc}); reports {'equal' if cc[2] == sc[2] else 'differ'}\n"
                      f"-- C++:\n{cc[3]}\n-- SystemC:\n{sc[3]}")
    print(f"{ok} passed, {bad} failed")
    return 1 if bad or not ok else 0


if __name__ == "__main__":
    sys.exit(main())
