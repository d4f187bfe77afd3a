"""step(), run_to() and the write log of a step."""
import os

import pytest

import otpu
from otpu import asm as A
from conftest import VECTORS

LOOP_PROG = [A.li(1, 0), A.loop(2, 3), A.addi(1, 1, 5), A.addi(2, 2, 1), A.halt()]


def test_stepping_to_the_end_is_the_run():
    for case in ("kernel_mlp_S2", "gather_bar_S3", "halt_chain"):
        path = os.path.join(VECTORS, "isa", case)
        ran = otpu.load_bundle(path).run()
        m = otpu.load_bundle(path)
        steps = 0
        while m.step() is not None:
            steps += 1
        assert steps >= ran.steps
        for s in range(m.S):
            assert m.final_text(s) == ran.final_text(s)


def test_step_returns_the_writes():
    m = otpu.Machine(otpu.Config(), [LOOP_PROG])
    m.set_reg(1, 7)
    st = m.step()
    assert st.slice == 0 and len(st) == 1
    (rec,) = st
    assert (rec.slice, rec.n, rec.pc, rec.op) == (0, 0, 0, "LI")
    assert rec.words == tuple(LOOP_PROG[0].encode()) and rec.disasm().startswith("LI")
    assert rec.writes == [otpu.Write(otpu.REG, 1, 7, 0, 0xF)]
    m.step()                                                       # LOOP: no writes
    w = m.step().writes
    assert w == [otpu.Write(otpu.REG, 1, 0, 5, 0xF)]


def test_step_of_a_slice_and_of_the_machine():
    bar = [A.bar(), A.li(1, 1), A.halt()]
    m = otpu.Machine(otpu.Config(S=2), [bar, bar])
    assert m.step(1).slice == 1                                    # slice 1 reaches its BAR
    assert m.step(1) is None                                       # and waits there
    assert m.step().slice == 0                                     # slice 0 reaches its BAR
    st = m.step()                                                  # nobody can run: settle
    assert st.slice is None and sorted(r.slice for r in st) == [0, 1]
    assert all(r.op == "BAR" for r in st)
    while m.step():
        pass
    assert m.halted(0) and m.halted(1) and m.step() is None


def test_run_to_stops_before_the_pc_at_each_pass():
    m = otpu.Machine(otpu.Config(), [LOOP_PROG])
    for k in range(3):
        assert m.run_to(3) is True
        assert m.pc() == 3 and m.regs()[1] == 5 * (k + 1) and m.regs()[2] == k
    assert m.run_to(3) is False                                    # halted before coming back
    assert m.halted() and m.regs()[1:3] == [15, 3]


def test_run_to_another_slice_and_step_limit():
    m = otpu.load_bundle(os.path.join(VECTORS, "isa", "gather_bar_S2"))
    assert m.run_to(2, slice=1) and m.pc(1) == 2
    m.run()
    assert m.halted(0) and m.halted(1)
    spin = [A.loop(1, 1000), A.nop(), A.halt()]
    with pytest.raises(otpu.OtpuError) as e:
        otpu.Machine(otpu.Config(), [spin]).run_to(2, max_steps=50)
    assert e.value.kind == "step-limit"
    with pytest.raises(otpu.OtpuInputError, match="no slice 3"):
        m.run_to(0, slice=3)


def test_logging_keeps_a_whole_run():
    m = otpu.Machine(otpu.Config(), [LOOP_PROG])
    m.logging = True
    m.run()
    log = m.take_log()
    assert [r.pc for r in log] == [0, 1, 2, 3, 2, 3, 2, 3, 4]
    assert [w.val for r in log for w in r.writes if w.addr == 1] == [0, 5, 10, 15]
    assert m.take_log() == []
