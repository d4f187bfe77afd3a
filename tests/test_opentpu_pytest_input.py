#!/usr/bin/env python3
"""scripts/opentpu_pytest on bad input (no checkout needed, nothing built): each row of the
table is (arguments, exit status, words of the one line on stderr); --help is exit 0. A fake
checkout (the three Python files the script looks for, empty) gets past the argument checks
and must stop at the first Verilator 5.006 workaround whose text is not there, with nothing
run.

usage: test_opentpu_pytest_input.py SCRIPT"""
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.abspath(sys.argv[1])
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def main():
    with tempfile.TemporaryDirectory(prefix="opentpu-pytest-input-") as d:
        fake = os.path.join(d, "fake")
        for f in ("opentpu/isasim.py", "opentpu/isa.py", "opentpu/rtlsim.py"):
            os.makedirs(os.path.dirname(os.path.join(fake, f)), exist_ok=True)
            open(os.path.join(fake, f), "w").close()
        a_file = os.path.join(d, "a-file")
        open(a_file, "w").close()
        foreign = os.path.join(d, "foreign")
        os.makedirs(foreign)
        open(os.path.join(foreign, "keep.txt"), "w").close()
        rows = [  # (arguments, exit status, words of the message)
            ([], 2, "CHECKOUT"),
            (["--bogus", fake], 2, "unrecognized arguments"),
            ([os.path.join(d, "nowhere")], 2, "is not a directory"),
            ([a_file], 2, "is not a directory"),
            ([d], 2, "not an openTPU checkout"),
            ([fake, "--work", a_file], 2, "is not a directory"),
            ([fake, "--work", foreign], 2, "not made by opentpu_pytest"),
            ([fake, "--work", os.path.join(fake, "work")], 2, "must not contain each other"),
            ([fake, "--work", ""], 2, "--work needs a folder"),
            ([fake, "--work", os.path.join(d, "w")], 2, "not an acf0c1c6 checkout"),
        ]
        for args, status, words in rows:
            p = subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=120)
            lines = p.stderr.strip().splitlines()
            check(p.returncode == status and len(lines) == 1 and words in lines[0] and
                  "Traceback" not in p.stderr,
                  f"opentpu_pytest {args}: exit {p.returncode} (want {status}), "
                  f"stderr {p.stderr.strip()[-200:]!r} (want one line with {words!r})")
        check(os.listdir(foreign) == ["keep.txt"], "a foreign --work folder is left as it was")
        p = subprocess.run([SCRIPT, "--help"], capture_output=True, text=True, timeout=60)
        check(p.returncode == 0 and "CHECKOUT" in p.stdout and "workaround" in p.stdout,
              "--help: exit 0 and the usage")
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
