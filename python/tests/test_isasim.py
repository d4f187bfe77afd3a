"""otpu.isasim: openTPU isasim's public surface over the C model."""
import numpy as np
import pytest

import isasim_kernel
import otpu
from otpu import asm as A
from otpu.isasim import Config, Machine, SimError, board_config, design_config


def test_the_kernel_example_runs():
    isasim_kernel.main()


def test_config_defaults_are_the_models():
    assert Config().model() == otpu.Config()
    assert design_config().model() == otpu.Config.design()
    assert design_config(S=4).S == 4 and Config().act_rows == Config().MCOLS


def test_board_config_reads_the_environment(monkeypatch):
    monkeypatch.setenv("OTPU_MCOLS", "4")
    monkeypatch.setenv("OTPU_PAIR", "1")
    c = board_config()
    assert c.MCOLS == 4 and c.PAIR and c.DRAM_BYTES == 1 << 32


def test_slices_are_views_of_the_model():
    fill = [A.vop(A.V_FILL, dst=0, rows=2, cols=3, drs=3, bmode=A.B_SCALAR, imm=2.0),
            A.gather(src=0, dst=100, rows=2, cols=3, srs=3, drs=6, seg=3), A.halt()]
    m = Machine(Config(S=2), [fill, fill], [None, np.arange(8, dtype=np.uint8)])
    m.slices[1].tput([0, 1], [9.0, 10.0])                 # before the run: host writes
    m.run()
    s0, s1 = m.slices
    assert np.array_equal(s0.tget(100 + np.arange(12)).reshape(2, 6)[:, :3], np.full((2, 3), 2.0))
    assert list(s1.dram[:8]) == list(range(8)) and s1.m32[0] == 0x03020100
    assert s0.halted and s0.pc == 2 and s0.icount == 3 and s0.stack == []
    assert s0.act.shape == (8, 64 * 32) and s0.ascale.dtype == np.float32
    s0.R[5] = 42
    assert s0.reg(5) == 42 and s0.reg(0) == 0 and s0.R[5] == 42
    with pytest.raises(SimError, match="out of range"):
        s0.tget([1 << 20])


def test_load_keeps_memory_and_takes_args():
    m = Machine(Config(), [[A.li(1, 5), A.halt()]], [None]).run()
    m.slices[0].tput([7], [3.0])
    m.load([[A.addi(2, 8, 1), A.halt()]], args=[41]).run()
    s = m.slices[0]
    assert s.R[2] == 42 and s.R[1] == 0 and s.tget([7])[0] == 3.0


def test_load_after_an_error_runs_the_new_programs():
    m = Machine(Config(), [[A.li(1, 5), A.ld(dram=3, tmem=0, n=1), A.halt()]], [None])
    with pytest.raises(SimError, match="bad DRAM word address"):
        m.run()
    with pytest.raises(SimError, match="bad DRAM word address"):   # sticky until a load
        m.run()
    m.load([[A.li(2, 7), A.halt()]]).run()
    assert m.slices[0].R[2] == 7 and m.slices[0].halted


def test_programs_as_words_and_errors():
    words = np.array([w for ins in [A.li(3, 9), A.halt()] for w in ins.encode()], np.uint32)
    assert Machine(Config(), [words], [None]).run().slices[0].R[3] == 9
    with pytest.raises(SimError, match="step limit"):
        Machine(Config(), [[A.loop(1, 100), A.nop(), A.halt()]], [None]).run(max_steps=10)
    with pytest.raises(ValueError):
        Machine(Config(S=2), [[A.halt()]], [None])
