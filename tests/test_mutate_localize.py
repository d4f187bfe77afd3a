#!/usr/bin/env python3
"""Fault localization on planted bugs whose line is known, one per unit family (issue 40):
otpu-mutate --localize over one reviewed mutant of the sequencer, DMA, MXU, VPU, STREAM and
collectives (mutate/mutants.txt), each localized as otpu-regress localizes a bucket; each one's
mutated line must rank in the top 5 of its suspects, and the report must carry the figures.

usage: test_mutate_localize.py OTPU_MUTATE WORK"""
import json
import os
import subprocess
import sys

MUTATE, WORK = (os.path.abspath(a) for a in sys.argv[1:3])
PER_UNIT = ["SEQ-LD-RAW-LAST", "DMA-ST-BYTE3", "MXU-SIGN-W8", "VPU-RSUB-SWAP",
            "STR-FMMA-SWAP", "COLL-SRC-SLICE0"]


def main():
    os.makedirs(WORK, exist_ok=True)
    out = os.path.join(WORK, "localize.json")
    p = subprocess.run([MUTATE, "--only", ",".join(PER_UNIT), "--no-golden", "-j", "2",
                        "--count", "6", "--localize", "--work", os.path.join(WORK, "work"),
                        "--json", out], capture_output=True, text=True, timeout=6 * 3600,
                       stdin=subprocess.DEVNULL)
    print(p.stdout[-6000:], p.stderr[-3000:], flush=True)
    bad = [] if p.returncode == 0 else [f"otpu-mutate exited {p.returncode}"]
    with open(out) as f:
        doc = json.load(f)
    figs = doc.get("localization") or {}
    if not figs.get("all", {}).get("mutants"):
        bad.append("the report has no localization figures")
    for m in doc["mutants"]:
        rank = (m.get("localize") or {}).get("rank")
        ok = m["status"] == "killed" and rank is not None and rank <= 5
        print(("ok   " if ok else "FAIL ") + f"{m['id']}: {m['status']}, its line "
              f"{m['file']}:{m['line']} at rank {rank}", flush=True)
        if not ok:
            bad.append(m["id"])
    print("; ".join(bad) if bad else "all passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
