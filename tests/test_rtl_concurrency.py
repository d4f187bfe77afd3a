#!/usr/bin/env python3
"""Concurrency of the reference RTL, from its event log (rtl/EVENTS.md):
1. a small program: an independent FILL on the VPU starts and completes while an older LD runs
   on the DMA (out of program order across units), the ADD that reads the LD's words starts only
   after the LD completed, and the end state is the sequential one;
2. a golden kernel (the MLP): instructions of different units overlap in time, and every unit
   completes its instructions in the order it started them.

usage: test_rtl_concurrency.py OTPU_RTL VECTORS_ISA_DIR"""
import os
import sys
import tempfile

import test_rtl_util as U


def intervals(evs):
    """{pc: (unit, start cycle, complete cycle)} of one run (each pc executed once)."""
    start, done = {}, {}
    for e in evs:
        if e["kind"] == "start":
            start[int(e["pc"])] = (e["unit"], e["cycle"])
        elif e["kind"] == "complete":
            done[int(e["pc"])] = e["cycle"]
    return {pc: (u, c, done.get(pc)) for pc, (u, c) in start.items()}


def check(cond, what, problems):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        problems.append(what)


def main():
    tool, isa = sys.argv[1], sys.argv[2]
    problems = []
    with tempfile.TemporaryDirectory(prefix="otpu-rtl-conc-") as tmp:
        bundle = os.path.join(tmp, "bundle")
        want = U.overlap_bundle(bundle)
        evp = os.path.join(tmp, "ev.txt")
        rc, log, final = U.run(tool, bundle, os.path.join(tmp, "out"), "--events", evp)
        check(rc == 0 and all(final.get(k) == v for k, v in want.items()),
              "the small program ends in the sequential end state", problems)
        iv = intervals(U.events(evp))
        check(all(pc in iv and iv[pc][2] is not None for pc in range(4)),
              "every dispatched instruction started and completed", problems)
        if not problems:
            ld, fill, add, st = iv[0], iv[1], iv[2], iv[3]
            check(fill[1] < ld[2] and fill[2] < ld[2],
                  f"FILL (pc 1, VPU, cycles {fill[1]}-{fill[2]}) runs and completes inside the "
                  f"older LD (pc 0, DMA, cycles {ld[1]}-{ld[2]})", problems)
            check(add[1] > ld[2], f"ADD (pc 2) starts at {add[1]}, after the LD it reads "
                  f"completed at {ld[2]}", problems)
            check(st[1] > add[2], f"ST (pc 3) starts at {st[1]}, after the ADD it reads "
                  f"completed at {add[2]}", problems)

        case = os.path.join(isa, "kernel_mlp_S1")
        if not os.path.isdir(case):
            print(f"FAIL no golden bundle {case}")
            return 1
        evp = os.path.join(tmp, "ev2.txt")
        rc, log, final = U.run(tool, case, os.path.join(tmp, "out2"), "--events", evp)
        golden = dict(l.strip().partition("=")[::2] for l in open(os.path.join(case, "final_0.txt")))
        check(rc == 0 and final == golden, "kernel_mlp_S1 matches its golden end state with "
              "the event log on", problems)
        evs = U.events(evp)
        runs = []                         # (unit, start, complete)
        open_ = {}
        order_ok = True
        for e in evs:
            if e["kind"] == "start":
                open_.setdefault(e["unit"], []).append((e["pc"], e["cycle"]))
            elif e["kind"] == "complete":
                q = open_.get(e["unit"], [])
                if not q or q[0][0] != e["pc"]:
                    order_ok = False
                else:
                    pc, c0 = q.pop(0)
                    runs.append((e["unit"], c0, e["cycle"]))
        check(order_ok and not any(open_.values()),
              "each unit completes its instructions in start order", problems)
        overlaps = sum(1 for i, a in enumerate(runs) for b in runs[i + 1:]
                       if a[0] != b[0] and a[1] < b[2] and b[1] < a[2])
        units = sorted({r[0] for r in runs})
        check(overlaps > 0, f"kernel_mlp_S1: {overlaps} pairs of instructions on different "
              f"units overlap in time (units used: {', '.join(units)})", problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
