#!/usr/bin/env python3
"""Every count an input can give is bounded by the run's limits (issue 38, "work without a
bound"): a host's `polls` and `cycles`, a LOOP's count, a HALT CHAIN back to itself, a WAITW
without a timeout, each at its largest, end within seconds in otpu-sim (--max-steps: a round of
WAITW polls is a step), otpu-rtl (--max-cycles) and otpu-lockstep (the RTL's limits; the model
inside polls no more often than the RTL had cycles), with the exit status and words the docs
promise.

usage: test_bounded_work.py OTPU_SIM OTPU_RTL OTPU_LOCKSTEP"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import host_scenarios as H  # noqa: E402
import test_rtl_util as U  # noqa: E402
from test_rtl_util import check  # noqa: E402

BIG = 0xFFFFFFFF
LIMIT_S = 20  # seconds any one of these runs may take (each ends far sooner)


def loop(body, count):
    return U.ins(0x04, w=(body, count))


def nop():
    return U.ins(0x00)


def chain_to_self():
    """HALT CHAIN to the program's own image at DRAM 0 (R1 = 0, R2 = 2 instructions)"""
    return [U.li(2, 2), U.ins(0x01, ra=1, rb=2, flags=1)]


def image(prog):
    return b"".join(w.to_bytes(4, "little") for i in prog for w in i)


# name, slice 0's program, DRAM image, host.txt, tool, its options, exit status, words
ROWS = [
    ("polls 2^32-1 (sim)", H.waiter(1), H.dram({H.FLAG: 0}), f"await 0 waitw\npolls {BIG}\n",
     "sim", [], 1, "step limit exceeded (10000000 steps, WAITW polls counted)"),
    ("polls 2^32-1 (sim, --max-steps)", H.waiter(1), H.dram({H.FLAG: 0}),
     f"await 0 waitw\npolls {BIG}\n", "sim", ["--max-steps", "5000"], 1,
     "step limit exceeded (5000 steps"),
    ("polls 2^32-1 (rtl)", H.waiter(1), H.dram({H.FLAG: 0}), f"await 0 waitw\npolls {BIG}\n",
     "rtl", [], 1, "error=1"),
    ("polls 2^32-1 (lockstep)", H.waiter(1), H.dram({H.FLAG: 0}),
     f"await 0 waitw\npolls {BIG}\n", "lockstep", ["--wave-window", "0"], 1,
     "host.txt:2 (polls 4294967295)"),
    ("polls 2^32-1, WAITW without a timeout (lockstep)", H.waiter(1), H.dram({H.FLAG: 0}),
     f"await 0 waitw\npolls {BIG}\n", "lockstep",
     ["--wave-window", "0", "+otpu_waitw_limit=100000"], 1, "polls 4294967295"),
    ("cycles 2^32-1 (sim)", H.waiter(1), H.dram({H.FLAG: 0}),
     f"await 0 waitw\ncycles {BIG}\nwrite 0 {H.FLAG:#x} 1\n", "sim", [], 0, "host: 3 steps done"),
    ("cycles 2^32-1 (rtl)", H.waiter(1), H.dram({H.FLAG: 0}),
     f"await 0 waitw\ncycles {BIG}\nwrite 0 {H.FLAG:#x} 1\n", "rtl",
     ["--max-cycles", "100000"], 3, "timeout"),
    ("LOOP of 2^32-1 NOPs (sim)", [loop(1, BIG), nop(), U.halt()], b"", None, "sim", [], 1,
     "step limit exceeded"),
    ("LOOP of 2^32-1 NOPs (lockstep)", [loop(1, BIG), nop(), U.halt()], b"", None, "lockstep",
     ["--wave-window", "0", "--max-cycles", "200000"], 3, "TIMEOUT"),
    ("HALT CHAIN to itself (sim)", chain_to_self(), image(chain_to_self()), None, "sim", [], 1,
     "step limit exceeded"),
    ("HALT CHAIN to itself (lockstep)", chain_to_self(), image(chain_to_self()), None,
     "lockstep", ["--wave-window", "0", "--max-cycles", "200000"], 3, "TIMEOUT"),
]


def main():
    tools = dict(zip(("sim", "rtl", "lockstep"), map(os.path.abspath, sys.argv[1:4])))
    with tempfile.TemporaryDirectory() as tmp:
        for k, (name, prog, dram, host, tool, opts, want, words) in enumerate(ROWS):
            b = os.path.join(tmp, f"b{k}")
            U.write_bundle(b, prog, dram or bytes(64), name, expect="expect=ok")
            if host:
                with open(os.path.join(b, "host.txt"), "w") as f:
                    f.write(host)
            t0 = time.monotonic()
            try:
                p = subprocess.run([tools[tool], "run", b, *opts], capture_output=True,
                                   text=True, timeout=10 * LIMIT_S, cwd=tmp)
                rc, out = p.returncode, p.stdout + p.stderr
            except subprocess.TimeoutExpired:
                rc, out = None, "(killed)"
            secs = time.monotonic() - t0
            check(f"{name}: exit {want} saying '{words}' in under {LIMIT_S} s (took {secs:.1f} s)",
                  rc == want and words in out and secs < LIMIT_S, out[-2000:])
    sys.exit(1 if U.FAILS else 0)


if __name__ == "__main__":
    main()
