#!/usr/bin/env python3
"""Functional coverage of otpu-gen's programs (gen/README.md, docs/coverage.md, issue 11).

  test_gen_coverage.py GEN SIM COV N [--seed K] [--s2 PCT] [--min PCT] [--keep DIR] [KEY=VALUE ...]

generates N bundles spread evenly over the families (`otpu-gen FAMILY --seed K`, default 1,
with the Config overrides KEY=VALUE), PCT percent of each family's bundles on S=2 (--s2,
default 0), runs each in `otpu-sim run B --coverage cI.json`, merges the files
(`otpu-cov merge`) and prints `otpu-cov report`. Fails when fewer than --min percent (default
95) of the reachable bins were hit, or when a run's outcome is not the bundle's expect=.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

from case_file import case_value

FAMILIES = ["mix", "hazard", "dma", "mm", "stream", "fp", "error"]


def run(cmd, timeout=600):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def generate(args, out):
    """The bundles of every family into out: count, and PCT percent of them on S=2."""
    per, extra = divmod(args.n, len(FAMILIES))
    for i, family in enumerate(FAMILIES):
        count = per + (i < extra)
        s2 = count * args.s2 // 100
        base = [args.gen, family, "--seed", str(args.seed), "--out", out] + args.config
        if count - s2:
            run(base + ["--count", str(count - s2)])
        if s2:  # the same family's next indexes, on two slices
            run(base + ["--count", str(s2), "--first", str(count - s2), "S=2"])


def simulate(sim, bundle, cov):
    r = subprocess.run([sim, "run", bundle, "--coverage", cov], capture_output=True, text=True,
                       timeout=120)
    want = 0 if case_value(bundle, "expect", "") == "ok" else 1
    if r.returncode != want or not os.path.exists(cov):
        return f"{bundle}: otpu-sim exit {r.returncode}, want {want}: {r.stderr.strip()}"
    return None


def figures(path):
    """(hit, reachable) bins of a merged coverage file."""
    with open(path) as f:
        doc = json.load(f)
    hit = reach = 0
    for g in doc["groups"]:
        for b in g["bins"]:
            if "unreachable" not in b:
                reach += 1
                hit += b["count"] > 0
    return hit, reach


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("gen")
    p.add_argument("sim")
    p.add_argument("cov")
    p.add_argument("n", type=int)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--s2", type=int, default=0)
    p.add_argument("--min", type=float, default=95.0)
    p.add_argument("--keep", help="write the bundles and coverage files here")
    p.add_argument("config", nargs="*")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = args.keep or tmp
        bundles_dir = os.path.join(d, "bundles")
        os.makedirs(bundles_dir, exist_ok=True)
        generate(args, bundles_dir)
        bundles = sorted(os.path.join(bundles_dir, b) for b in os.listdir(bundles_dir))
        assert len(bundles) == args.n, f"{len(bundles)} bundles, want {args.n}"
        covs = [os.path.join(d, f"c{i}.json") for i in range(len(bundles))]
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            bad = [e for e in pool.map(lambda bc: simulate(args.sim, *bc), zip(bundles, covs))
                   if e]
        assert not bad, "\n".join(bad[:10])
        merged = os.path.join(d, "all.json")
        run([args.cov, "merge"] + covs + ["-o", merged])
        print(run([args.cov, "report", merged]), end="")
        hit, reach = figures(merged)
    pct = 100.0 * hit / reach if reach else 0.0
    print(f"{args.n} bundles (seed {args.seed}, {args.s2}% on S=2): {hit} of {reach} reachable "
          f"bins hit, {pct:.1f}% (want {args.min:g}%)")
    if pct < args.min:
        sys.exit(1)


if __name__ == "__main__":
    main()
