#!/usr/bin/env python3
"""Every bundle of the given folders (the golden vectors, the bench, tests/lockstep_regress,
../shared/vectors/disagree) passes otpu-lockstep on the reference RTL: no false alarm (error
cases: both sides stop at the same instruction). A bundle named with --bad-input NAME=PHRASE
must instead be refused (exit 2, PHRASE on stderr): its program breaks a rule of the ISA.

usage: test_lockstep_golden.py OTPU_LOCKSTEP [--bad-input NAME=PHRASE]... FOLDER..."""
import os
import subprocess
import sys
import tempfile


def main():
    tool, args = sys.argv[1], sys.argv[2:]
    refused, folders = {}, []
    while args:
        a = args.pop(0)
        if a == "--bad-input":
            name, _, phrase = args.pop(0).partition("=")
            refused[name] = phrase
        else:
            folders.append(a)
    ok = bad = 0
    with tempfile.TemporaryDirectory(prefix="otpu-lockstep-golden-") as tmp:
        for folder in folders:
            for name in sorted(os.listdir(folder)):
                b = os.path.join(folder, name)
                if not os.path.isfile(os.path.join(b, "case.txt")):
                    continue
                p = subprocess.run([tool, "run", b, "--report", os.path.join(tmp, name),
                                    "--wave-window", "0"], capture_output=True, text=True,
                                   timeout=3600)
                last = (p.stdout.strip().splitlines() or [""])[-1]
                if name in refused:
                    good = p.returncode == 2 and refused.pop(name) in p.stderr
                else:
                    good = p.returncode == 0 and last.startswith("lockstep: PASS")
                if good:
                    ok += 1
                else:
                    bad += 1
                    print(f"FAIL {b}: exit {p.returncode}\n{p.stdout[-3000:]}{p.stderr[-2000:]}")
    for name in refused:
        bad += 1
        print(f"FAIL {name}: not found in {folders}")
    print(f"{ok} passed, {bad} failed")
    return 1 if bad or not ok else 0


if __name__ == "__main__":
    sys.exit(main())
