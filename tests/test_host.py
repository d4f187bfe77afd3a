#!/usr/bin/env python3
"""Host steps (host.txt, docs/bundle.md): every scenario of tests/host_scenarios.py gives the
same outcome and the same final state in otpu-sim and otpu-rtl and passes otpu-lockstep; planted
faults (a WAITW the RTL retires before its word holds, a WAITW that times out on the RTL's side
only) are found and blamed on the WAITW; the SystemC top plays the steps too; a failing or
unreached step, a misused step and a bad host.txt get the messages and exit codes the format
promises; examples/host is current.

usage: test_host.py OTPU_SIM OTPU_RTL OTPU_LOCKSTEP EXAMPLES_HOST"""
import filecmp
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import host_scenarios  # noqa: E402
import test_rtl_util as U  # noqa: E402
from test_rtl_util import check  # noqa: E402

def run(*cmd):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=3600)
    return p.returncode, p.stdout + p.stderr


def finals(d):
    return sorted(f for f in os.listdir(d) if f.startswith("final_"))


def same_tree(a, b):
    c = filecmp.dircmp(a, b)
    return not (c.left_only or c.right_only or c.diff_files or c.funny_files) and all(
        same_tree(os.path.join(a, s), os.path.join(b, s)) for s in c.common_dirs)


def rewrite(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def timing(sim, rtl, lockstep, tmp):
    """The documented host timing (docs/bundle.md), pinned on the model, the RTL's driver and
    lockstep: the steps before the first wait run before any instruction; a step after `cycles`
    (model: at the next point where no slice can run) and after `polls` (every polling slice
    polled that often more); time that runs out after every slice stopped is a timeout (3)."""
    FLAG, DATA, OUT = host_scenarios.FLAG, host_scenarios.DATA, host_scenarios.OUT
    copy = [U.ld(DATA, 11, 1), U.st(OUT, 11, 1), U.halt()]  # no WAITW: reads the word at once
    cases = [
        ("steps_first", copy, {DATA: 5},
         f"write 0 {DATA:#x} cafef00d   # before any instruction\nawait 0 halted\n"
         f"expect 0 {OUT:#x} cafef00d\n", 0),
        ("steps_after_cycles", host_scenarios.waiter(1), {FLAG: 0},
         f"cycles 40\nwrite 0 {DATA:#x} 77\nwrite 0 {FLAG:#x} 1\nawait 0 halted\n"
         f"expect 0 {OUT:#x} 00000001 00000077\n", 0),
        ("steps_after_polls", host_scenarios.waiter(1), {FLAG: 0},
         f"await 0 waitw\npolls 3\nwrite 0 {DATA:#x} 78\nwrite 0 {FLAG:#x} 1\n"
         f"await 0 halted\nexpect 0 {OUT:#x} 00000001 00000078\n", 0),
        ("cycles_past_the_end", copy, {DATA: 5},
         "await all halted\ncycles 4294967295\nawait all halted\n", 3),
    ]
    for name, prog, words, text, want in cases:
        b = os.path.join(tmp, "timing", name)
        U.write_bundle(b, prog, host_scenarios.dram(words), name)
        rewrite(b, "host.txt", text)
        limit = ["--max-cycles", "20000"] if want == 3 else []
        rs, outs = run(sim, "run", b)
        rr, outr = run(rtl, "run", b, *limit)
        rl, outl = run(lockstep, "run", b, "--wave-window", "0", *limit)
        if want == 0:
            check(f"{name}: the model, the RTL's driver and lockstep agree and pass",
                  rs == 0 and rr == 0 and rl == 0 and "steps done" in outs
                  and "steps done" in outr and "lockstep: PASS (" in outl,
                  outs + outr + outl[-2000:])
        else:
            check(f"{name}: the model passes (untimed); the RTL and lockstep time out (exit 3)",
                  rs == 0 and rr == 3 and rl == 3 and "timeout" in outr
                  and "lockstep: TIMEOUT" in outl and "still waiting" in outl,
                  outs + outr + outl[-2000:])


def after_an_error(sim, rtl, lockstep, tmp):
    """Steps after a slice stopped with an error (docs/bundle.md) mean one thing in the model
    (otpu-sim), the RTL's driver and lockstep: the slice counts as halted, the host goes on
    with what a stopped machine allows (DRAM written and read, time passing), and a step that
    needs the slice running again stops the host or is never reached; lockstep passes with
    the expected error, or (6) finds both sides failing the same step."""
    rows = [  # host.txt, otpu-lockstep's exit status, words of every tool's host verdict
        ("await 0 halted", 0, "host: 1 steps done"),
        ("await all halted", 0, "host: 1 steps done"),
        ("barrier", 0, "host: 1 steps done"),
        ("await 0 halted\nexpect 0 0x100 00000000", 0, "host: 2 steps done"),
        ("await 0 halted\nwrite 0 0x200 0000abcd\nexpect 0 0x200 0000abcd", 0,
         "host: 3 steps done"),
        ("await 0 halted\ncycles 10\npolls 3\nawait 0 halted", 0, "host: 4 steps done"),
        ("await 0 halted\nrun 0", 6, "host.txt:2: run 0: the slice stopped with an error"),
        ("await 0 halted\nexpect 0 0x100 00000001", 6, "is 00000000, expected 00000001"),
        ("await 0 halted\nawait 0 waitw", 6, "host.txt:2: await 0 waitw: never reached"),
    ]
    for k, (text, want, words) in enumerate(rows):
        d = os.path.join(tmp, f"after_error{k}")
        host_scenarios.write_all(d)
        b = os.path.join(d, "timeout_no_host")
        rewrite(b, "host.txt", text + "\n")
        rs, outs = run(sim, "run", b)
        rr, outr = run(rtl, "run", b)
        rl, outl = run(lockstep, "run", b, "--wave-window", "0")
        verdict = "lockstep: PASS with the expected waitw-timeout error" if want == 0 else \
            "UNEXPECTED OUTCOME"
        check(f"after a WAITW timeout ({' / '.join(text.splitlines())}): otpu-sim and otpu-rtl "
              f"exit 1 saying '{words}', otpu-lockstep {want}",
              rs == 1 and rr == 1 and rl == want and words in outs and words in outr
              and verdict in outl and (want == 0 or words in outl), outs + outr + outl[-2000:])


def main():
    sim, rtl, lockstep, examples = sys.argv[1:5]
    tmp = tempfile.mkdtemp(prefix="otpu-host-")
    gen = os.path.join(tmp, "gen")
    names = host_scenarios.write_all(gen)
    check("examples/host is what tests/host_scenarios.py writes", same_tree(gen, examples),
          f"regenerate: python3 tests/host_scenarios.py {examples}")

    for n in names:
        b = os.path.join(gen, n)
        ds, dr = os.path.join(tmp, "sim_" + n), os.path.join(tmp, "rtl_" + n)
        rs, outs = run(sim, "run", b, "--dump", ds)
        rr, outr = run(rtl, "run", b, "--dump", dr)
        error = n == "timeout_no_host"
        same = rs == rr == (1 if error else 0) and finals(ds) == finals(dr) and all(
            filecmp.cmp(os.path.join(ds, f), os.path.join(dr, f), shallow=False)
            for f in finals(ds))
        if not error:
            same = same and "host: " in outs and "steps done" in outr
        check(f"{n}: otpu-sim and otpu-rtl end alike (exit {rs}, {len(finals(ds))} final states)",
              same, outs[-1500:] + outr[-1500:])
        rl, outl = run(lockstep, "run", b)
        want = "lockstep: PASS with the expected waitw-timeout error" if error else \
            "lockstep: PASS ("
        check(f"{n}: otpu-lockstep passes", rl == 0 and want in outl, outl[-2500:])

    rl, outl = run(lockstep, "run", os.path.join(gen, "three_programs"), "--systemc")
    check("three_programs: the SystemC top plays the host's steps too",
          rl == 0 and "lockstep: PASS (" in outl and "9 host steps" in outl, outl[-2500:])

    # a WAITW the RTL retires before its word holds
    rep = os.path.join(tmp, "early")
    rc, out = run(lockstep, "run", os.path.join(gen, "host_writes"), "--report", rep,
                  "+otpu_waitw_early=1")
    txt = open(os.path.join(rep, "divergence.txt")).read() if os.path.isdir(rep) else ""
    check("an early WAITW is a wrong-value divergence of that WAITW at its TMEM word",
          rc == 1 and "FIRST DIVERGENCE: wrong-value" in txt and "pc=0 unit DMA: WAITW" in txt
          and "location: TMEM 0xa" in txt and "expected 00000001, the RTL wrote 00000000" in txt,
          out[-2500:])
    # a WAITW that times out on the RTL's side only (the host is slower than its limit)
    rep = os.path.join(tmp, "limit")
    rc, out = run(lockstep, "run", os.path.join(gen, "wrong_then_right"), "--report", rep,
                  "+otpu_waitw_limit=3")
    txt = open(os.path.join(rep, "divergence.txt")).read() if os.path.isdir(rep) else ""
    check("a WAITW timing out on one side only is a divergence of that WAITW",
          rc == 1 and "pc=0 unit DMA: WAITW" in txt and "timeout on the RTL's side only" in txt,
          out[-2500:])

    # steps that fail: an expect that does not hold, a step never reached, a run of a running
    # slice; both sides agree, so lockstep says UNEXPECTED OUTCOME (6)
    bad = [("expect 0 0x200 00000007 00000012", "expect 0 0x200: the word at 0x204 is 00000011, "
            "expected 00000012"),
           ("await 0 waitw", "host.txt:2: await 0 waitw: never reached"),
           ("run 0", "host.txt:2: run 0: the slice is not halted")]
    for k, (line, msg) in enumerate(bad):
        d = os.path.join(tmp, f"fail{k}")
        host_scenarios.write_all(d)
        b = os.path.join(d, "holds_at_once" if k < 2 else "host_writes")
        first = "await 0 halted\n" if k < 2 else "await 0 waitw\n"
        rewrite(b, "host.txt", first + line + "\n")
        rs, outs = run(sim, "run", b)
        rr, outr = run(rtl, "run", b)
        rl, outl = run(lockstep, "run", b)
        check(f"a failing step ({line}): exit 1 from otpu-sim and otpu-rtl, 6 from otpu-lockstep, "
              "each naming it", rs == 1 and rr == 1 and rl == 6 and msg in outs and msg in outr
              and msg in outl and "UNEXPECTED OUTCOME" in outl, outs + outr + outl[-1500:])

    timing(sim, rtl, lockstep, tmp)
    after_an_error(sim, rtl, lockstep, tmp)

    # bad host.txt: exit 2 and host.txt:LINE before anything runs
    for text, msg in [("await 0 waitw\nwait 0\n", "host.txt:2: unknown step 'wait'"),
                      ("write 1 0x100 1\n", "host.txt:1: '1' is not a slice (the Config has S=1)"),
                      ("write 0 0x102 1\n", "host.txt:1: write: '0x102' is not a 4-aligned"),
                      ("expect 0 0x3fffc 1 2\n", "host.txt:1: expect: 2 words at 0x3fffc end past"),
                      ("polls 0\n", "host.txt:1: polls needs a count"),
                      ("load 0 ../x.hex\n", "host.txt:1: load: '../x.hex' must name a file"),
                      ("load 0 nothere.hex\n", "nothere.hex"),
                      ("args 0 1 2 3 4 5 6 7 8 9\n", "host.txt:1: args needs <slice> and 1 to 8"),
                      ("write 0 0x100 1g\n", "host.txt:1: write: '1g' is not a word"),
                      # addresses near 2^64 (once wrapped past the check and crashed the tools)
                      ("write 0 0xfffffffffffffffc 1 2\n", "host.txt:1: write: 2 words at "
                       "0xfffffffffffffffc end past DRAM_BYTES"),
                      ("expect 0 18446744073709551612 0\n", "host.txt:1: expect: 1 words at"),
                      ("write 0 0x10000000000000000 1\n", "is not a 4-aligned byte address"),
                      ("cycles 4294967296\n", "host.txt:1: cycles needs a count from 1 to 2^32-1"),
                      ("write 0 010 1\n", "host.txt:1: write: '010' is not a 4-aligned")]:
        d = os.path.join(tmp, "badhost")
        host_scenarios.write_all(d)
        b = os.path.join(d, "host_writes")
        rewrite(b, "host.txt", text)
        rs, outs = run(sim, "run", b)
        rl, outl = run(lockstep, "run", b)
        check(f"bad host.txt ({text.splitlines()[-1]}): exit 2 naming the line",
              rs == 2 and rl == 2 and msg in outs and msg in outl, outs + outl)

    sys.exit(1 if U.FAILS else 0)


if __name__ == "__main__":
    main()
