#!/usr/bin/env python3
"""Host steps in lockstep, as a property over generated programs: every `otpu-gen mix` bundle
with a host.txt (its steps at random points: flags, data, wrong values first, polls) passes on
the reference RTL, no false alarm; and with one of its host writes that no later write replaces
dropped on the RTL's side only (+otpu_host_drop_write=K) it does not pass: a divergence (or a hang), never a PASS.

usage: test_host_property.py OTPU_GEN OTPU_LOCKSTEP [--seed S] [--bundles N] [--slices S]"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_rtl_util as U  # noqa: E402


def lockstep(tool, bundle, report, *plusargs):
    p = subprocess.run([tool, "run", bundle, "--report", report, "--wave-window", "0",
                        *plusargs], capture_output=True, text=True, timeout=1800)
    return p.returncode, (p.stdout.strip().splitlines() or [""])[-1], p.stdout + p.stderr


def lasting_writes(writes):
    """The 1-based numbers of the host writes that leave a word no later host write replaces:
    dropping one of those must show; dropping a wrong value written first and then corrected
    (the generator writes such values on purpose) leaves nothing to see."""
    words = [{(w[1], int(w[2], 0) + 4 * i) for i in range(len(w) - 3)} for w in writes]
    return [k + 1 for k, mine in enumerate(words)
            if mine - set().union(*words[k + 1:], set())]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gen")
    ap.add_argument("lockstep")
    ap.add_argument("--seed", default="11")
    ap.add_argument("--bundles", type=int, default=6)
    ap.add_argument("--slices", default="2")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="otpu-host-property-")
    found, index = 0, 0
    while found < a.bundles and index < 40 * a.bundles:
        out = os.path.join(tmp, f"b{index}")
        subprocess.run([a.gen, "mix", "--seed", a.seed, "--first", str(index), "--count", "1",
                        "--out", out, f"S={a.slices}"], check=True, capture_output=True,
                       timeout=600)
        index += 1
        b = os.path.join(out, os.listdir(out)[0])
        host = os.path.join(b, "host.txt")
        if not os.path.exists(host):
            continue
        writes = [ln.split() for ln in open(host) if ln.split()[:1] == ["write"]]
        lasting = lasting_writes(writes)
        if not lasting:
            continue
        found += 1
        name = os.path.basename(b)
        rc, last, log = lockstep(a.lockstep, b, os.path.join(tmp, "r-" + name))
        U.check(f"{name} ({len(writes)} host writes): PASS in lockstep",
                rc == 0 and "PASS" in last, log[-2500:])
        k = lasting[found % len(lasting)]  # a different write each bundle
        rc, last, log = lockstep(a.lockstep, b, os.path.join(tmp, "d-" + name),
                                 f"+otpu_host_drop_write={k}")
        U.check(f"{name}: its host write {k} dropped on the RTL's side: not a pass (exit {rc})",
                rc in (1, 3) and "PASS" not in last, log[-2500:])
    U.check(f"{a.bundles} generated bundles with host writes (seed {a.seed}, {index} tried)",
            found == a.bundles)
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if U.FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
