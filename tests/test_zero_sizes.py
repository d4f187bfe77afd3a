#!/usr/bin/env python3
"""isa.def's size rule in lockstep on the reference RTL: every size line of every opcode at 0
(tests/zero_size_bundles.cpp writes a bundle per line and base instruction). Each must pass in
lockstep: the RTL and the model agree on the error rows, and the younger writes into what the 0
emptied are taken as they land (no order violation). On the empty rows the RTL must also not
hold those writes back for the instruction: each completes before it does (its scoreboard
follows the same rule as the model's footprints).

    test_zero_sizes.py ZERO_SIZE_BUNDLES OTPU_LOCKSTEP OTPU_RTL SRCDIR
"""
import os
import subprocess
import sys
import tempfile

from checks import Checks, too_few

BUNDLES, LOCKSTEP, RTL, SRC = sys.argv[1:5]
sys.path.insert(0, os.path.join(SRC, "python"))
from otpu import _isa  # noqa: E402  (the size lines, as sim/isa.def describes them)


def note(bundle):
    """zero.txt's fields"""
    with open(os.path.join(bundle, "zero.txt")) as f:
        return dict(w.split("=", 1) for w in f.read().split())


def completions(events):
    """pc -> the cycle its instruction completed (the first time), from otpu-rtl --events"""
    done = {}
    with open(events) as f:
        for line in f:
            parts = line.split()
            if len(parts) > 2 and parts[2] == "complete":
                fields = dict(p.split("=", 1) for p in parts[3:])
                done.setdefault(int(fields["pc"]), int(parts[0]))
    return done


def main():
    c = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bundles")
        p = subprocess.run([BUNDLES, out], capture_output=True, text=True)
        c(p.returncode == 0, "the model does what isa.def's size lines say", p.stdout + p.stderr)
        names = sorted(os.listdir(out)) if os.path.isdir(out) else []
        seen = set()
        for name in names:
            b = os.path.join(out, name)
            n = note(b)
            seen.add((n["op"], n["field"]))
            lock = subprocess.run([LOCKSTEP, "run", b, "--report", os.path.join(tmp, "r", name),
                                   "--wave-window", "0"], capture_output=True, text=True)
            c(lock.returncode == 0, f"{name}: {n['op']} {n['field']}=0 ({n['rule']}) passes in "
              "lockstep", lock.stdout[-1500:] + lock.stderr[-1500:])
            writers = [int(w) for w in n["writers"].split(",") if w]
            if n["rule"] != "empty" or not writers:
                continue
            ev = os.path.join(tmp, name + ".events")
            r = subprocess.run([RTL, "run", b, "--events", ev], capture_output=True, text=True)
            done = completions(ev) if r.returncode == 0 else {}
            x = int(n["x"])
            late = [w for w in writers if w not in done or x not in done or done[w] > done[x]]
            c(r.returncode == 0 and not late, f"{name}: the RTL lets the writes into what the 0 "
              "emptied land while it waits", f"otpu-rtl exit {r.returncode}; writers completing after X (pc {x} at "
              f"{done.get(x)}): {[(w, done.get(w)) for w in late]}")
        formats = {name: fmt for name, (_, _, fmt) in _isa.OPCODES.items()}
        for fmt, field, *_ in _isa.SIZES:
            ops = [op for op, f in formats.items() if f == fmt]
            c(any((op, field) in seen for op in ops), f"size line {fmt} {field} is run at 0 "
              f"(an opcode of its format: {' '.join(ops)})")
        if too_few(len(names), 40, "bundles"):
            c.failed.append("bundles")
    return c.verdict()


if __name__ == "__main__":
    sys.exit(main())
