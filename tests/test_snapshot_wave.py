#!/usr/bin/env python3
"""The waveform of a divergence from a snapshot of the run (rtl_bridge/rtl_snapshot.h) against
the one a full traced re-run from cycle 0 writes: on a planted divergence, the same cycles and
the same values, signal by signal (fst2vcd), and the same report. Also: a snapshot taken exactly
at the window's first cycle, a window that reaches cycle 0 (no snapshot holds it: the re-run
serves), and --snapshot-every 0.

usage: test_snapshot_wave.py OTPU_LOCKSTEP OTPU_GEN"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, too_few  # noqa: E402
from vcd_read import read_fst  # noqa: E402

# the QUANT unit's 5000th write flipped: a divergence some 12,000 cycles into mix-1-0152
FAULT = ["+otpu_flip_unit=2", "+otpu_flip_n=5000"]


def lockstep(tool, bundle, report, *opts):
    p = subprocess.run([tool, "run", bundle, "--report", report, *FAULT, *opts],
                       capture_output=True, text=True, timeout=900)
    return p.returncode, p.stdout + p.stderr


def signals(fst):
    """{signal's full name: [(time, value), ...]} of a waveform"""
    variables, changes = read_fst(fst)
    return {name: changes.get(ident, []) for name, _, ident in variables}


def report_facts(folder):
    """divergence.json without the report folder's own name"""
    with open(os.path.join(folder, "divergence.json")) as f:
        return json.loads(f.read().replace(folder, "REPORT"))


def main():
    tool, gen = sys.argv[1], sys.argv[2]
    check = Checks()
    tmp = tempfile.mkdtemp(prefix="otpu-snapshot-")
    try:
        subprocess.run([gen, "mix", "--seed", "1", "--first", "152", "--count", "1", "--out",
                        tmp], check=True, capture_output=True)
        bundle = os.path.join(tmp, "mix-1-0152")
        runs = {}
        rerun = os.path.join(tmp, "rerun")
        rc, out = lockstep(tool, bundle, rerun, "--wave-window", "2500", "--snapshot-every", "0")
        check(rc == 1 and "traced by a re-run from cycle 0" in out,
              "--snapshot-every 0: the divergence's waveform from a re-run", out)
        cycle = report_facts(rerun)["cycle"]
        start = cycle - 2500
        check(cycle > 5000, f"the planted divergence is deep in the run (cycle {cycle})")
        # a snapshot every 3000 cycles: the woken one is not the one at cycle 0; one exactly
        # at the window's first cycle cannot dump that cycle (it has clocked it): the one before
        for every in ("3000", str(start), str(start - 1)):
            rep = os.path.join(tmp, "snap-" + every)
            rc, out = lockstep(tool, bundle, rep, "--wave-window", "2500",
                               "--snapshot-every", every)
            check(rc == 1 and "traced by a snapshot of the run" in out and
                  f"cycles {start}..{cycle}" in out,
                  f"--snapshot-every {every}: the waveform from a snapshot, cycles {start}.."
                  f"{cycle}", out)
            runs[every] = rep
        vcds = {}
        for name, folder in [("rerun", rerun)] + list(runs.items()):
            vcds[name] = signals(os.path.join(folder, "wave.fst"))
        ref = vcds["rerun"]
        n_changes = sum(len(v) for v in ref.values())
        if too_few(len(ref), 500, "signals in the re-run's waveform") or \
                too_few(n_changes, 10000, "value changes in the re-run's waveform"):
            check.failed.append("waveform size")
        for every, folder in runs.items():
            got = vcds[every]
            differ = [n for n in ref if got.get(n) != ref[n]]
            check(set(got) == set(ref) and not differ,
                  f"snapshot every {every}: every signal's values at every time as the "
                  f"re-run's ({len(ref)} signals, {n_changes} changes)",
                  f"{len(differ)} differ, e.g. {differ[:3]}")
            check(report_facts(folder) == report_facts(rerun),
                  f"snapshot every {every}: the same report (divergence.json), naming its "
                  "waveform")
        # a window reaching back to cycle 0: no snapshot holds the reset's cycle, the re-run
        # serves it
        rep = os.path.join(tmp, "whole")
        rc, out = lockstep(tool, bundle, rep, "--wave-window", str(cycle + 10),
                           "--snapshot-every", "1000")
        check(rc == 1 and "traced by a re-run from cycle 0" in out and
              re.search(r"cycles 0\.\.", out) is not None,
              "a window from cycle 0: the waveform from a re-run", out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.verdict()


if __name__ == "__main__":
    sys.exit(main())
