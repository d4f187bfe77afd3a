#!/usr/bin/env python3
"""The bench shell scripts on bad input, table-driven: --help prints their header (exit 0);
an unknown option, a bad RUNS/COUNT, a missing build or bundle exit 2 with one line naming it,
before anything is timed or edited (bench_rebuild edits sim/machine.c only after its checks).

usage: test_bench_scripts_input.py SCRIPTS_DIR BUILD_DIR"""
import os
import subprocess
import sys
import tempfile

SCRIPTS, BUILD = sys.argv[1], sys.argv[2]
NOWHERE = os.path.join(tempfile.gettempdir(), "otpu-no-such-build-dir")
CASES = [  # (script, arguments, environment, exit status, words of the message)
    ("bench_codecov", ["--help"], {}, 0, ["code coverage", "RUNS"]),
    ("bench_codecov", ["--bogus"], {}, 2, ["unknown option", "--bogus"]),
    ("bench_codecov", [BUILD], {}, 2, ["usage"]),
    ("bench_codecov", [BUILD, NOWHERE], {}, 2, ["is not a bundle"]),
    ("bench_codecov", [BUILD, NOWHERE], {"RUNS": "0"}, 2, ["RUNS", "'0'"]),
    ("bench_codecov", [BUILD, NOWHERE], {"RUNS": "3 4"}, 2, ["RUNS"]),
    ("bench_gen", ["--help"], {}, 0, ["otpu-gen's speed"]),
    ("bench_gen", [NOWHERE], {}, 2, ["not built"]),
    ("bench_gen", [BUILD], {"COUNT": "many"}, 2, ["COUNT", "'many'"]),
    ("bench_gen", [BUILD], {"RUNS": "-1"}, 2, ["RUNS"]),
    ("bench_lockstep", ["-h"], {}, 0, ["Lockstep overhead"]),
    ("bench_lockstep", ["--fast"], {}, 2, ["unknown option", "--fast"]),
    ("bench_lockstep", [BUILD, NOWHERE], {}, 2, ["no bench folder"]),
    ("bench_lockstep", [BUILD], {"RUNS": "1e3"}, 2, ["RUNS"]),
    ("bench_snapshot", ["--help"], {}, 0, ["Snapshot waveforms"]),
    ("bench_snapshot", ["--bogus"], {}, 2, ["unrecognized arguments", "--bogus"]),
    ("bench_snapshot", [NOWHERE], {}, 2, ["not built"]),
    ("bench_snapshot", [BUILD, "--cycles", "5"], {}, 2, ["--cycles", "at least"]),
    ("bench_snapshot", [BUILD, "--every", "x"], {}, 2, ["--every", "'x'"]),
    ("bench_rebuild", ["--help"], {}, 0, ["edit-build-run"]),
    ("bench_rebuild", ["--now"], {}, 2, ["unknown option"]),
    ("bench_rebuild", [NOWHERE], {}, 2, ["not built"]),
    ("bench_rebuild", [BUILD], {"RUNS": "100000"}, 2, ["RUNS"]),
]


def main():
    fails = 0
    for script, args, env, status, words in CASES:
        p = subprocess.run([os.path.join(SCRIPTS, script), *args], capture_output=True,
                           text=True, timeout=60, env={**os.environ, **env})
        msg = p.stdout if status == 0 else p.stderr.strip()
        ok = (p.returncode == status and all(w in msg for w in words)
              and (status == 0 or len(msg.splitlines()) == 1))
        shown = " ".join(f"{k}={v}" for k, v in env.items()) + f" {script} {' '.join(args)}"
        print(("ok   " if ok else "FAIL ") + shown.strip() + f": exit {p.returncode}"
              + ("" if ok else f"\n  stdout: {p.stdout[-300:]}\n  stderr: {p.stderr[-300:]}"))
        fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
