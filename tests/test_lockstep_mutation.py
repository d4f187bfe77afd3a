#!/usr/bin/env python3
"""Mutation self-test of the lockstep checker: seeded faults injected into the reference RTL
(its fault plusargs, rtl/README.md) across fault kinds and bundles. Each fault's ground truth
comes from the RTL's own event log (--events): the first write that differs from the fault-free
run's, the unit's instruction in flight then, its dynamic number. Every fault that changes what
the RTL writes must be found by otpu-lockstep with the right kind, slice, instruction and
address. A fault whose writes are identical to the fault-free run's counts as a detection only
as an order violation of an early start that happened (the RTL's event log changed); any other
report of it is a false alarm, a failure; no report is undetectable by construction, said so.
Each fault kind visits every bundle in turn.

Counts have floors, so that a checker that checks little cannot pass: the fault-free lockstep run
of every bundle must check at least as many unit instructions as the RTL's event log completes
(and some), and at least half the faults must be detectable ones, checked.

usage: test_lockstep_mutation.py OTPU_RTL OTPU_LOCKSTEP VECTORS_ISA [N_FAULTS]"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

from checks import too_few

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


UNIT_OF_PORT = {"DMA_T": "DMA", "DMA_M": "DMA", "MXU_T": "MXU", "QNT_A": "QUANT",
                "QNT_A2": "QUANT", "QNT_S": "QUANT", "QNT_S2": "QUANT", "QNT_M": "QUANT",
                "VPU_T": "VPU", "COL_T": "COLL"}


def fault_fired(ev, fev):
    """Did the injected fault happen at all? A fault that never fired leaves the RTL's event
    log (cycles included) as the fault-free run's. The early-start fault fires only on an
    instruction the RTL's own scoreboard says still waits on an older conflicting one
    (rtl/otpu_seq.sv), so when it fired, an ordering bug really happened."""
    return ev != fev


def per_instruction(ev):
    """(slice, pc, dynamic number) -> its writes [(space, addr, data, event index)], each write
    given to its unit's oldest started, uncompleted instruction (the protocol's attribution: a
    unit completes in start order, and may start a younger independent instruction first)"""
    count, slot, running, out = {}, {}, {}, {}
    for i, (_, s, kind, kv) in enumerate(ev):
        if kind in ("exec", "dispatch"):
            if kind == "dispatch":
                slot[(s, kv["slot"])] = (int(kv["pc"]), count.get(s, 0))
            count[s] = count.get(s, 0) + 1
        elif kind == "start":
            running.setdefault((s, kv["unit"]), []).append(slot[(s, kv["slot"])])
        elif kind == "complete" and running.get((s, kv["unit"])):
            running[(s, kv["unit"])].pop(0)
        elif kind == "write" and kv["port"] in UNIT_OF_PORT:
            r = running.get((s, UNIT_OF_PORT[kv["port"]]))
            if r:
                out.setdefault((s,) + r[0], []).append((kv["space"], int(kv["addr"]), kv["data"], i))
    return out


def unit_writes(ev):
    """(slice, unit) -> the unit's writes, to choose the n-th write a fault hits"""
    w = {}
    for i, (_, s, kind, kv) in enumerate(ev):
        if kind == "write" and kv["port"] in UNIT_OF_PORT:
            w.setdefault((s, UNIT_OF_PORT[kv["port"]]), []).append(i)
    return w


def truth(clean, faulty):
    """the first instruction (by the fault-free run's order) whose writes differ in the faulty
    run: (how, slice, (pc, n), space, addr); None when every instruction writes the same"""
    cw, fw = per_instruction(clean), per_instruction(faulty)
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
    _, (s, pc, n), c, how = first
    return how, s, (pc, n), c[0], c[1]


def lockstep(tool, bundle, report, plusargs):
    p = subprocess.run([tool, "run", bundle, "--report", report, "--wave-window", "0",
                        *plusargs], capture_output=True, text=True, timeout=900)
    d = None
    if os.path.exists(os.path.join(report, "divergence.json")):
        with open(os.path.join(report, "divergence.json")) as f:
            d = json.load(f)
    return p.returncode, d, p.stdout + p.stderr


CHECKED = re.compile(r"checked: (\d+) unit instructions with (\d+) writes")


def clean_checks(ls, bundle, report, ev):
    """The fault-free lockstep run of bundle: a failure line, or None when it passed having
    checked at least the unit instructions the RTL completed (its event log) and a write"""
    rc, d, out = lockstep(ls, bundle, report, [])
    m = CHECKED.search(out)
    completes = sum(1 for e in ev if e[2] == "complete")
    if rc != 0 or d is not None or not m:
        return f"fault-free run: exit {rc}, no 'checked:' counts\n{out[-800:]}"
    units, writes = int(m.group(1)), int(m.group(2))
    if units < max(completes, 1) or writes < 1:
        return (f"fault-free run checked {units} unit instructions with {writes} writes; the RTL "
                f"completed {completes}")
    return None


def main():
    rtl, ls, isa = sys.argv[1:4]
    want = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    rng = random.Random(20261202)
    bad = checked = undetectable = 0
    counts = {}
    explained_n = [0]
    with tempfile.TemporaryDirectory(prefix="otpu-mutation-") as tmp:
        clean = {}
        for b in BUNDLES:
            clean[b] = events(rtl, os.path.join(isa, b), os.path.join(tmp, b + ".ev"), [])
            why = clean_checks(ls, os.path.join(isa, b), os.path.join(tmp, "clean-" + b), clean[b])
            if why:
                bad += 1
                print(f"FAIL {b}: {why}")
        i = 0
        while checked + undetectable < want and i < 4 * want:
            i += 1
            kind = ["flip", "drop", "fp", "early"][i % 4]
            b = BUNDLES[(i // 4) % len(BUNDLES)]
            ev = clean[b]
            w = unit_writes(ev)
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
                fired_early = kind == "early" and fault_fired(ev, fev)
                if d and d["kind"] == "order-violation" and fired_early:
                    checked += 1
                    counts["order"] = counts.get("order", 0) + 1
                    continue  # an ordering fault seen by its timing alone
                # no write differs and no early start happened: any report is a false alarm
                bad += 1
                print(f"FAIL {tag}: no write differs, yet exit {rc} {d and d['kind']}\n{out}")
                continue
            how, s, ins, space, addr = gt
            checked += 1
            # an early start is an ordering bug whatever its symptom; a flipped or dropped write
            # is that write's (or, if it broke an input early, the ordering pair's)
            expect = (["order-violation"] if kind == "early" else
                      {"value": ["wrong-value"], "drop": ["missing-write"]}[how])
            # an early start is blamed on the ordering pair the checker saw first, which may
            # come before the first write whose value changed; other faults on the instruction
            # that made the write
            ok = (d is not None and rc == 1 and d["kind"] in expect and d["slice"] == s and
                  (kind == "early" or (d["instruction"] is not None and ins is not None and
                                       d["instruction"]["pc"] == ins[0] and
                                       d["instruction"]["n"] == ins[1])))
            if ok and kind != "early" and d["location"]["address"] != addr:
                ok = False
            # the values that explain it: a QACT, QST, LD or ST element's operands, and a VOP
            # or MM element's within its tile
            op = ((d or {}).get("instruction") or {}).get("disasm", "").split(" ")[0]
            needs = op in ("QACT", "QST", "LD", "ST") or (op in ("VOP", "MM") and
                                                          "row" in d["location"])
            if ok and kind != "early" and needs and not d.get("operands"):
                ok = False
                print(f"FAIL {tag}: no operands in the report of {op}")
            explained_n[0] += bool(d and d.get("operands"))
            counts[d["kind"] if d else "none"] = counts.get(d["kind"] if d else "none", 0) + 1
            if not ok:
                bad += 1
                print(f"FAIL {tag}: truth {how} slice {s} instruction {ins} {space} {addr}; "
                      f"got exit {rc} {json.dumps(d)[:600] if d else out[-800:]}")
    print(f"faults: {checked} detectable checked, {undetectable} undetectable by construction, "
          f"{bad} wrong; kinds {counts}; {explained_n[0]} reports with the element's operands")
    if (too_few(checked + undetectable, want, "faults landed") or
            too_few(checked, (want + 1) // 2, "detectable faults checked")):
        return 1
    print(f"{checked - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
