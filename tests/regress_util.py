"""Shared by the otpu-regress test scripts: failures counted as they are found (the script
fails at the end if there is any), otpu-regress run with its exit status checked, and the JSON
files of an output folder."""
import json
import os
import subprocess

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL {what}", flush=True)
    return cond


def regress(tool, *args, env=None, expect=None):
    p = subprocess.run([tool, *args], capture_output=True, text=True, timeout=1800,
                       env={**os.environ, **(env or {})})
    if expect is not None:
        check(p.returncode == expect, f"otpu-regress {' '.join(args)}: exit {p.returncode}, "
              f"wanted {expect}\n{p.stderr[-2000:]}")
    return p


def load(out, name):
    with open(os.path.join(out, name)) as f:
        return json.load(f)


def verdict():
    """the script's exit status"""
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0
