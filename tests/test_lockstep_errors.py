#!/usr/bin/env python3
"""Errors on a machine of several slices, in lockstep on the reference RTL: each slice is judged
to its own end (the model stops a slice at its error and runs the others on, as the RTL does).

- both slices stop with an error in the same cycle: a golden error bundle copied onto both
  slices of S=2 (the RTL once stopped slice 1 while the model kept it running);
- one slice stops with its error while the other runs on to its halt: the same program on
  slice 0 and a clean one on slice 1 (the other slice's later writes were once stray writes);
- the other slice reaches a BAR after the error: the collective fails on it too, on both sides.

usage: test_lockstep_errors.py OTPU_LOCKSTEP VECTORS_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_rtl_util as U  # noqa: E402
from test_rtl_util import bar, check, halt, ld, st  # noqa: E402


def two_slices(src, dst, prog1=None):
    """The one-slice bundle src on slice 0 of an S=2 bundle dst; slice 1 runs prog1 (default:
    the same program on the same DRAM)."""
    os.makedirs(dst)
    for s in (0, 1):
        shutil.copy(os.path.join(src, "dram_0.bin"), os.path.join(dst, f"dram_{s}.bin"))
    shutil.copy(os.path.join(src, "prog_0.hex"), os.path.join(dst, "prog_0.hex"))
    if prog1 is None:
        shutil.copy(os.path.join(src, "prog_0.hex"), os.path.join(dst, "prog_1.hex"))
    else:
        with open(os.path.join(dst, "prog_1.hex"), "w") as f:
            f.writelines(f"{w:08x}\n" for ins in prog1 for w in ins)
    with open(os.path.join(src, "case.txt")) as f, open(os.path.join(dst, "case.txt"), "w") as g:
        for line in f:
            g.write("S=2\n" if line.startswith("S=") else line)


def lockstep(tool, bundle, tmp):
    p = subprocess.run([tool, "run", bundle, "--wave-window", "0", "--report",
                        os.path.join(tmp, "report-" + os.path.basename(bundle))],
                       capture_output=True, text=True, timeout=1800)
    return p.returncode, p.stdout + p.stderr


def main():
    tool, vectors = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="otpu-lockstep-errors-")
    clean = [ld(0x40, 0x300, 8), st(0x400, 0x300, 8), ld(0x400, 0x310, 8), halt()]
    cases = [
        ("regs_loop", None, "loop-rule"),       # both slices: a loop rule in the sequencer
        ("vop_argmax_b0", None, "illegal"),     # both slices: a unit instruction refused
        ("vop_argmax_b0", clean, "illegal"),    # slice 1 runs on to its halt
        ("regs_loop", clean, "loop-rule"),
        ("vop_argmax_b0", [ld(0x40, 0x300, 8), bar(), halt()], "illegal"),  # BAR after it
    ]
    for k, (name, prog1, kind) in enumerate(cases):
        b = os.path.join(tmp, f"{name}_{k}")
        two_slices(os.path.join(vectors, "isa", name), b, prog1)
        rc, out = lockstep(tool, b, tmp)
        what = "both slices" if prog1 is None else f"slice 0, slice 1 {len(prog1)} instructions"
        check(f"{name} on {what}: PASS with the expected {kind} error",
              rc == 0 and f"PASS with the expected {kind} error" in out, f"exit {rc}\n{out[-2500:]}")
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if U.FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
