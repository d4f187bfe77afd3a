#!/usr/bin/env python3
"""scripts/worked_example on bad input, table-driven: each case exits 2 with one line naming
the field, and writes nothing (the night itself is the nightly test's and the docs' business).

usage: test_worked_example_input.py SCRIPT BUILD_DIR"""
import os
import subprocess
import sys
import tempfile

SCRIPT, BUILD = sys.argv[1], sys.argv[2]


def main():
    fails = 0
    with tempfile.TemporaryDirectory(prefix="otpu-worked-input-") as tmp:
        a_file = os.path.join(tmp, "a-file")
        open(a_file, "w").close()
        out = os.path.join(tmp, "out")
        cases = [  # (arguments, exit status, words of the message)
            ([], 2, ["OUT"]),
            (["--bug", "NO-SUCH-BUG", out], 2, ["NO-SUCH-BUG", "not in mutate/mutants.txt"]),
            (["--count", "0", out], 2, ["--count", "1..10000"]),
            (["--count", "many", out], 2, ["--count", "invalid"]),
            (["--build", os.path.join(tmp, "nowhere"), out], 2, ["no otpu-regress"]),
            (["--build", BUILD, a_file], 2, ["a-file", "not a folder"]),
            (["--no-such-option", out], 2, ["--no-such-option"]),
        ]
        for args, status, words in cases:
            if "--build" not in args:
                args = ["--build", BUILD] + args
            p = subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=60)
            err = p.stderr.strip()
            lines = [ln for ln in err.splitlines() if not ln.startswith("usage:")]
            ok = (p.returncode == status and all(w in err for w in words) and len(lines) <= 1
                  and not os.path.exists(out))
            print(("ok   " if ok else "FAIL ") + " ".join(args[2:] if args[0] == "--build"
                                                          and args[1] == BUILD else args)
                  + f": exit {p.returncode}" + ("" if ok else f"\n  stderr: {err}"))
            fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
