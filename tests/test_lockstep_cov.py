#!/usr/bin/env python3
"""otpu-lockstep run --coverage on a golden bundle (docs/coverage.md): the run passes, the file
has the model's groups with the counts otpu-sim gives for the same bundle, and the rtl group
with at least one pair of units busy together (the RTL runs its units concurrently) and one
out-of-order completion: the same unit pairs as computed here from otpu-rtl's event log of the
bundle; otpu-cov reports it.

usage: test_lockstep_cov.py OTPU_LOCKSTEP OTPU_RTL OTPU_SIM OTPU_COV BUNDLE"""
import json
import os
import subprocess
import sys
import tempfile

from checks import Checks


def bins(doc):
    return {(g["name"], b["name"]): b["count"] for g in doc["groups"] for b in g["bins"]}


def rtl_pairs(path):
    """The rtl bins an event log must hit, from the instructions' intervals: a younger
    instruction completing first (or at the same edge, reported first: lower unit number), two
    instructions of different units busy in one cycle."""
    ins, by_slot, order = [], {}, 0
    units = ["DMA", "MXU", "QUANT", "VPU", "COLL"]
    for k, line in enumerate(open(path)):
        p = line.split()
        f = dict(x.split("=", 1) for x in p[3:] if "=" in x)
        if p[2] == "dispatch":
            by_slot[(p[1], f["slot"])] = rec = {"slice": p[1], "age": order}
            order += 1
            ins.append(rec)
        elif p[2] == "start":
            rec = by_slot[(p[1], f["slot"])]
            rec.update(unit=f["unit"], start=int(p[0]))
        elif p[2] == "complete":
            rec = by_slot.pop((p[1], f["slot"]))
            rec["done"] = (int(p[0]), k)  # the edge, then the order of the records in it
    want = set()
    for i in ins:
        for j in ins:
            if i is j or i["slice"] != j["slice"] or i["unit"] == j["unit"]:
                continue
            if j["age"] > i["age"] and j["done"] < i["done"]:
                want.add(f"ooo {j['unit']} before {i['unit']}")
            if i["start"] < j["done"][0] and j["start"] < i["done"][0]:
                a, b = sorted([i["unit"], j["unit"]], key=units.index)
                want.add(f"overlap {a}+{b}")
    return want


def main():
    lockstep, rtl, sim, cov, bundle = sys.argv[1:6]
    check = Checks()

    with tempfile.TemporaryDirectory(prefix="otpu-lockstep-cov-") as tmp:
        out = os.path.join(tmp, "cov.json")
        p = subprocess.run([lockstep, "run", bundle, "--coverage", out, "--report",
                            os.path.join(tmp, "report"), "--wave-window", "0"],
                           capture_output=True, text=True, timeout=3600)
        check(p.returncode == 0 and os.path.isfile(out),
              f"otpu-lockstep run --coverage passes and writes the file (exit {p.returncode}: "
              f"{p.stderr.strip()[-500:]})")
        if check.failed:
            return 1
        doc = json.load(open(out))
        got = bins(doc)
        rtl_bins = {k[1]: n for k, n in got.items() if k[0] == "rtl"}
        check(len(rtl_bins) == 30, f"the rtl group has its 30 bins ({len(rtl_bins)})")
        overlaps = {b: n for b, n in rtl_bins.items() if b.startswith("overlap") and n}
        ooo = {b: n for b, n in rtl_bins.items() if b.startswith("ooo") and n}
        print(f"     overlaps: {overlaps}\n     out of order: {ooo}")
        check(overlaps, "at least one overlap of two units")
        check(ooo, "at least one out-of-order completion")
        ev = os.path.join(tmp, "events.txt")
        p = subprocess.run([rtl, "run", bundle, "--events", ev], capture_output=True, text=True,
                           timeout=3600)
        want = rtl_pairs(ev) if p.returncode == 0 else None
        check(want == set(overlaps) | set(ooo),
              f"the rtl bins hit are those of otpu-rtl's event log ({sorted(want or [])})")

        ref = os.path.join(tmp, "sim.json")
        p = subprocess.run([sim, "run", bundle, "--coverage", ref], capture_output=True,
                           text=True, timeout=600)
        check(p.returncode == 0, "otpu-sim run --coverage on the same bundle")
        want = bins(json.load(open(ref)))
        model = {k: n for k, n in got.items() if k[0] != "rtl"}
        check(model == want and any(want.values()),
              "the model's groups are otpu-sim's for the same bundle")

        p = subprocess.run([cov, "report", out], capture_output=True, text=True, timeout=60)
        check(p.returncode == 0 and "\nrtl " in p.stdout, "otpu-cov reports the rtl group")
    return check.verdict()


if __name__ == "__main__":
    sys.exit(main())
