#!/usr/bin/env python3
"""otpu-lockstep on bad input: one clear line, exit status 2, never a crash.

usage: test_lockstep_input.py OTPU_LOCKSTEP GOOD_BUNDLE"""
import os
import shutil
import subprocess
import sys
import tempfile


def run(tool, *args):
    p = subprocess.run([tool, *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def main():
    tool, good = sys.argv[1], sys.argv[2]
    bad = 0

    def expect(name, rc, err, phrases):
        nonlocal bad
        lines = [l for l in err.splitlines() if l.startswith("otpu-lockstep:") or "case.txt" in l]
        if rc != 2 or not all(p in err for p in phrases) or not lines:
            bad += 1
            print(f"FAIL {name}: exit {rc}, stderr: {err!r}")
        else:
            print(f"ok   {name}: {lines[0]}")

    with tempfile.TemporaryDirectory(prefix="otpu-lockstep-input-") as tmp:
        rc, _, err = run(tool, "run", os.path.join(tmp, "missing"))
        expect("a missing bundle", rc, err, ["missing", "not a bundle folder"])
        b = os.path.join(tmp, "b")
        shutil.copytree(good, b)
        for f in os.listdir(b):
            os.chmod(os.path.join(b, f), 0o644)
        with open(os.path.join(b, "prog_0.hex"), "a") as f:
            f.write("xyz\n")
        rc, _, err = run(tool, "run", b)
        expect("a malformed program", rc, err, ["prog_0.hex"])
        c = os.path.join(tmp, "c")
        shutil.copytree(good, c)
        os.chmod(os.path.join(c, "case.txt"), 0o644)
        with open(os.path.join(c, "case.txt")) as f:
            text = f.read()
        with open(os.path.join(c, "case.txt"), "w") as f:
            f.write(text.replace("ACT_BLOCKS=64", "ACT_BLOCKS=512"))
        rc, _, err = run(tool, "run", c)
        expect("a Config the RTL does not support", rc, err, ["ACT_BLOCKS must be 1..256",
                                                             "ACT_BLOCKS=512"])
        rc, _, err = run(tool, "run", good, "--wave-window", "x")
        expect("a bad option value", rc, err, ["--wave-window"])
        rc, out, _ = run(tool, "--help")
        if rc != 0 or "otpu-lockstep run BUNDLE" not in out:
            bad += 1
            print("FAIL --help")
    print(f"{5 - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
