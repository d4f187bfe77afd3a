#!/usr/bin/env python3
"""Mutation self-test of the lockstep checker: seeded faults injected into the reference RTL
(its fault plusargs, rtl/README.md) across fault kinds and bundles. Each fault's ground truth
comes from the RTL's own event log (--events): the first write that differs from the fault-free
run's, the unit's instruction in flight then, its dynamic number. Every fault that changes what
the RTL writes must be found by otpu-lockstep with the right kind, slice, instruction and
address; an early start whose writes are identical to the fault-free run's is counted as
undetectable by construction, and said so.

usage: test_lockstep_mutation.py OTPU_RTL OTPU_LOCKSTEP VECTORS_ISA [N_FAULTS]"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

BUNDLES = ["kernel_mlp_S1", "kernel_mlp_S2", "kernel_attn_S1_T96", "kernel_attn_layer_S1",
           "qact_mm_row0", "qst", "mm_w4_2_pair1", "stream_gdn_7x64", "dstep_7x64",
           "gather_bar_S2", "random_003", "random_017", "random_042", "peer_dma_94001",
           "vop_rdot_b2", "vop_outer_column"]
UNITS = ["DMA", "MXU", "QUANT", "VPU", "COLL"]
LINE = re.compile(r"(\d+) s(\d+) (\w+)(.*)")


def events(tool, bundle, path, plusargs):
    subprocess.run([tool, "run", bundle, "--events", path, *plusargs], capture_output=True,
                   text=True, timeout=900)
    out = []
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                kv = dict(x.split("=", 1) for x in m.group(4).split() if "=" in x)
                out.append((int(m.group(1)), int(m.group(2)), m.group(3), kv))
    return out


def writes(ev):
    """per (slice, unit): the write records in order, each with its index in ev"""
    w = {}
    unit_of_port = {"DMA_T": "DMA", "DMA_M": "DMA", "MXU_T": "MXU", "QNT_A": "QUANT",
                    "QNT_A2": "QUANT", "QNT_S": "QUANT", "QNT_S2": "QUANT", "QNT_M": "QUANT",
                    "VPU_T": "VPU", "COL_T": "COLL"}
    for i, (_, s, kind, kv) in enumerate(ev):
        if kind == "write" and kv["port"] in unit_of_port:
            w.setdefault((s, unit_of_port[kv["port"]]), []).append(
                (kv["space"], int(kv["addr"]), kv["data"], i))
    return w


def instruction_at(ev, i, s, unit):
    """the instruction a write of unit on slice s at event i belongs to: the unit's oldest
    started, uncompleted one (a unit completes in start order; within one edge a start is
    reported before the writes and the completion of the previous instruction). Returns its
    (pc, dynamic number)."""
    running = []  # (slot, pc) started, not completed
    for j in range(i):
        _, t, kind, kv = ev[j]
        if t != s or kv.get("unit") != unit:
            continue
        if kind == "start":
            running.append((kv["slot"], int(kv["pc"]), j))
        elif kind == "complete" and running:
            running.pop(0)
    if not running:
        return None
    slot, pc, j = running[0]
    for j in range(j, -1, -1):
        _, t, kind, kv = ev[j]
        if t == s and kind == "dispatch" and kv["slot"] == slot and int(kv["pc"]) == pc:
            return pc, sum(1 for k in range(j) if ev[k][1] == s and ev[k][2] in ("dispatch", "exec"))
    return pc, None


def truth(clean, faulty):
    """the first write (in the fault-free log's order) the faulty run makes differently:
    (how, slice, (pc, n) of its instruction, space, address); None if every write is the same"""
    cw, fw = writes(clean), writes(faulty)
    first = None
    for key, cl in cw.items():
        fl = fw.get(key, [])
        k = next((k for k, c in enumerate(cl) if k >= len(fl) or fl[k][:3] != c[:3]), None)
        if k is None:
            continue
        how = "drop" if len(fl) < len(cl) else "value"
        if first is None or cl[k][3] < first[0]:
            first = (cl[k][3], key, cl[k], how)
    if first is None:
        return None
    _, (s, unit), c, how = first
    return how, s, instruction_at(clean, c[3], s, unit), c[0], c[1]


def lockstep(tool, bundle, report, plusargs):
    p = subprocess.run([tool, "run", bundle, "--report", report, "--wave-window", "0",
                        *plusargs], capture_output=True, text=True, timeout=900)
    d = None
    if os.path.exists(os.path.join(report, "divergence.json")):
        with open(os.path.join(report, "divergence.json")) as f:
            d = json.load(f)
    return p.returncode, d, p.stdout + p.stderr


def main():
    rtl, ls, isa = sys.argv[1:4]
    want = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    rng = random.Random(20261202)
    bad = checked = undetectable = 0
    counts = {}
    with tempfile.TemporaryDirectory(prefix="otpu-mutation-") as tmp:
        clean = {}
        for b in BUNDLES:
            clean[b] = events(rtl, os.path.join(isa, b), os.path.join(tmp, b + ".ev"), [])
        i = 0
        while checked + undetectable < want and i < 4 * want:
            i += 1
            b = BUNDLES[i % len(BUNDLES)]
            ev = clean[b]
            w = writes(ev)
            kind = ["flip", "drop", "fp", "early"][i % 4]
            if kind in ("flip", "drop"):
                (s, unit), lst = rng.choice(sorted(w.items()))
                if s != 0:
                    continue  # the fault plusargs default to slice 0; keep it simple
                n = rng.randrange(1, len(lst) + 1)
                u = UNITS.index(unit)
                args = ([f"+otpu_flip_unit={u}", f"+otpu_flip_n={n}",
                         f"+otpu_flip_bit={rng.randrange(32)}"] if kind == "flip" else
                        [f"+otpu_drop_unit={u}", f"+otpu_drop_n={n}"])
            elif kind == "fp":
                nv = len(w.get((0, "VPU"), []))
                if not nv:
                    continue
                args = [f"+otpu_fp_n={rng.randrange(1, nv + 1)}", f"+otpu_fp_bit={rng.randrange(31)}"]
            else:
                starts = sum(1 for e in ev if e[1] == 0 and e[2] == "start")
                args = [f"+otpu_early_unit={rng.randrange(5)}", f"+otpu_early_n={rng.randrange(1, starts + 1)}"]
            bundle = os.path.join(isa, b)
            fev = events(rtl, bundle, os.path.join(tmp, f"f{i}.ev"), args)
            gt = truth(ev, fev)
            rc, d, out = lockstep(ls, bundle, os.path.join(tmp, f"r{i}"), args)
            tag = f"{b} {' '.join(args)}"
            if gt is None:
                if d is None and rc == 0:
                    undetectable += 1
                    print(f"undetectable by construction (identical writes): {tag}")
                    continue
                if d and d["kind"] == "order-violation":
                    checked += 1
                    counts["order"] = counts.get("order", 0) + 1
                    continue  # an ordering fault seen by its timing alone
                bad += 1
                print(f"FAIL {tag}: no write differs, yet exit {rc} {d and d['kind']}\n{out}")
                continue
            how, s, ins, space, addr = gt
            checked += 1
            # an early start is an ordering bug whatever its symptom; a flipped or dropped write
            # is that write's (or, if it broke an input early, the ordering pair's)
            expect = (["order-violation"] if kind == "early" else
                      {"value": ["wrong-value"], "drop": ["missing-write"]}[how])
            blamed = [d.get("instruction"), d.get("conflicting_instruction")] if d else []
            if not d or d["kind"] != "order-violation":
                blamed = blamed[:1]  # an ordering fault names a pair: either may hold the write
            ok = (d is not None and rc == 1 and d["kind"] in expect and d["slice"] == s and
                  ins is not None and
                  any(x and x["pc"] == ins[0] and x["n"] == ins[1] for x in blamed))
            if ok and d["kind"] in ("wrong-value",) and d["location"]["address"] != addr:
                ok = False
            counts[d["kind"] if d else "none"] = counts.get(d["kind"] if d else "none", 0) + 1
            if not ok:
                bad += 1
                print(f"FAIL {tag}: truth {how} slice {s} instruction {ins} {space} {addr}; "
                      f"got exit {rc} {json.dumps(d)[:600] if d else out[-800:]}")
    print(f"faults: {checked} detectable checked, {undetectable} undetectable by construction, "
          f"{bad} wrong; kinds {counts}")
    if checked + undetectable < want:
        print(f"FAIL only {checked + undetectable} faults landed (wanted {want})")
        return 1
    print(f"{checked - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
