#!/usr/bin/env python3
"""otpu-regress run --slurm on a real one-node cluster (scripts/slurm-local): the array job's
merged totals, test names and statuses, and its RTL code coverage (--code-coverage: each shard's
merged into the night's), equal a local run of the same suite, and a task killed by Slurm
leaves its tests as failures, never missing. The cluster's daemons are stopped at the
end whatever happens.

usage: test_regress_slurm.py SOURCE_ROOT OTPU_REGRESS VECTORS_ISA"""
import os
import re
import subprocess
import sys
import tempfile

import regress_util
from regress_util import check, load, verdict

ROOT, REGRESS, ISA = (os.path.abspath(a) for a in sys.argv[1:4])


def regress(*args, env, expect):
    return regress_util.regress(REGRESS, *args, env=env, expect=expect)


def main():
    with tempfile.TemporaryDirectory(prefix="otpu-regress-slurm-") as tmp:
        env = {**os.environ, "OTPU_SLURM_DIR": os.path.join(tmp, "slurm")}
        local = os.path.join(ROOT, "scripts", "slurm-local")
        p = subprocess.run([local, "start"], capture_output=True, text=True, env=env,
                           timeout=300)
        m = re.search(r"export SLURM_CONF=(\S+)", p.stdout)
        if not check(p.returncode == 0 and m, f"slurm-local start: {p.stdout}{p.stderr}"):
            subprocess.run([local, "stop"], env=env, timeout=120)
            return 1
        env["SLURM_CONF"] = m.group(1)
        try:
            suite = os.path.join(tmp, "s.suite")
            with open(suite, "w") as f:
                f.write("\n".join([os.path.join(ISA, b) for b in
                                   ("random_000", "random_003", "random_005", "ld_st")] +
                                  [f"{os.path.join(ISA, 'random_007')} name=flip "
                                   "+otpu_flip_unit=0 +otpu_flip_n=2 +otpu_flip_bit=5",
                                   "gen:dma:seed=3:count=3"]) + "\n")
            here = os.path.join(tmp, "local")
            regress("run", suite, "-j", "2", "--out", here, "--db", "none", "--code-coverage",
                    env=env, expect=1)
            there = os.path.join(tmp, "slurm-run")
            regress("run", suite, "--slurm", "--tasks", "3", "-j", "1", "--out", there, "--db",
                    "none", "--code-coverage", env=env, expect=1)
            a, b = load(here, "summary.json"), load(there, "summary.json")
            for k in ("tests", "passed", "failed", "by_kind", "instructions", "cycles"):
                check(a[k] == b[k], f"{k}: {a[k]} locally, {b[k]} through Slurm")
            ca, cb = a["code_coverage"] or {}, b["code_coverage"] or {}
            for k in ("tests", "without", "total", "modules"):
                check(ca.get(k) is not None and ca.get(k) == cb.get(k),
                      f"code coverage {k}: {ca.get(k)} locally, {cb.get(k)} through Slurm")
            check(os.path.isfile(os.path.join(there, "code-coverage", "index.html")),
                  "no code-coverage report of the Slurm night")
            ra = {t["name"]: t["status"] for t in load(here, "results.json")["tests"]}
            rb = {t["name"]: t["status"] for t in load(there, "results.json")["tests"]}
            check(ra == rb, f"names and statuses differ:\n{ra}\n{rb}")
            check(all(os.path.isdir(os.path.join(there, f"shard-{i}")) for i in (1, 2, 3)),
                  "a shard folder is missing")
            # a task Slurm kills (a 1-minute limit on a run that sleeps longer): its tests are
            # failures of kind crash, every test is still there
            slow = os.path.join(tmp, "sleep")
            with open(slow, "w") as f:
                f.write("#!/bin/sh\nsleep 300\n")
            os.chmod(slow, 0o755)
            killed = os.path.join(tmp, "killed")
            regress("run", suite, "--slurm", "--tasks", "2", "--out", killed, "--db", "none",
                    "--sbatch-args=--time=1", env={**env, "OTPU_LOCKSTEP": slow}, expect=1)
            rk = {t["name"]: t for t in load(killed, "results.json")["tests"]}
            check(sorted(rk) == sorted(ra), f"killed tasks: tests missing {sorted(rk)}")
            check(all(t["status"] == "fail" and t["kind"] in ("crash", "timeout")
                      for t in rk.values()), "killed tasks: a test did not fail")
        finally:
            p = subprocess.run([local, "stop"], capture_output=True, text=True, env=env,
                               timeout=300)
            check(p.returncode == 0, f"slurm-local stop: {p.stdout}{p.stderr}")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
