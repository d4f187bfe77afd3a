"""Every public entry point of otpu with bad values, on a fresh, a closed and a stopped machine:
nothing may crash the interpreter (test_robust.py runs this in a subprocess) and every refusal is
a TypeError, ValueError, OverflowError or OtpuError with a message. Prints "ok N" (N calls).
Usage: sweep_bad_values.py numpy|hidden   (hidden: numpy cannot be imported, the stdlib path)"""
import sys

if sys.argv[1] == "hidden":
    sys.modules["numpy"] = None                      # "import numpy" now fails

import otpu                                          # noqa: E402
from otpu import asm as A                            # noqa: E402

BAD = [-1, 2**31, 2**32, 2**32 + 5, 2**63, 2**64, 2**64 + 32, -2**63, 10**30, True, 2.5,
       float("nan"), None, "1", b"1", [1], object()]
PROG = [A.li(1, 1), A.ld(dram=2, tmem=0, n=1), A.halt()]    # fails at pc 1: misaligned LD
CALLS = {      # name: (call, valid arguments); each argument in turn is replaced by a bad one
    "Machine": (lambda m, c, p, a: otpu.Machine(c, p, [], a), (None, [], None)),
    "load_program": (lambda m, s, w: m.load_program(s, [w] * 8), (0, 0)),
    "load_dram": (lambda m, s, a, v: m.load_dram(s, [v], a), (0, 0, 0)),
    "set_args": (lambda m, a: m.set_args([a]), (0,)),
    "run": (lambda m, n: m.run(n), (100,)),
    "run_to": (lambda m, pc, s, n: m.run_to(pc, s, n), (1, 0, 100)),
    "step": (lambda m, s: m.step(s), (0,)),
    "state": (lambda m, s: (m.state(s), m.pc(s), m.halted(s), m.final_text(s)), (0,)),
    "units": (lambda m, sp: m.units(sp), (1,)),
    "read": (lambda m, sp, a, c, s: m.read(sp, a, c, s), (1, 0, 1, 0)),
    "write": (lambda m, sp, a, v, s: m.write(sp, a, [v], s), (1, 0, 1, 0)),
    "memory": (lambda m, sp, s: m.memory(sp, s)[0], (1, 0)),
    "act_addr": (lambda m, r, c: m.read_act(m.act_addr(r, c), 1), (0, 0)),
    "scale_addr": (lambda m, r, b: m.read_scales(m.scale_addr(r, b), 1, f32=True), (0, 0)),
    "set_reg": (lambda m, r, v, s: (m.set_reg(r, v, s), m.regs(s)), (1, 1, 0)),
    "log": (lambda m, on: (setattr(m, "logging", on), m.run(), m.take_log()), (True,)),
    "counters": (lambda m, _: (m.steps, m.chains), (0,)),
    "disasm": (lambda m, w: otpu.disasm([w] * 8), (0,)),
    "load_bundle": (lambda m, p: otpu.load_bundle(p), ("/nonexistent",)),
}


def machine(state):
    m = otpu.Machine(otpu.Config(S=2, DRAM_BYTES=1 << 16), [PROG, [A.halt()]])
    if state == "closed":
        m.close()
    elif state == "stopped":
        try:
            m.run()
        except otpu.OtpuError:
            pass
    return m


n = 0
for field in otpu.config.FIELDS:
    for v in BAD:
        try:
            otpu.Machine(otpu.Config(**{field: v}))
        except (TypeError, ValueError, OverflowError) as e:
            assert str(e), (field, v)
        n += 1
for name, (call, valid) in CALLS.items():
    for state in ("fresh", "closed", "stopped"):
        for k in range(len(valid)):
            for v in BAD:
                args = list(valid)
                args[k] = v
                try:
                    call(machine(state), *args)
                except (TypeError, ValueError, OverflowError, otpu.OtpuError) as e:
                    assert str(e), (name, state, k, v)
                n += 1
print("ok", n)
