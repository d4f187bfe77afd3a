"""The RTL against isasim.py where the two disagree (openTPU acf0c1c6): one test per difference.

Each test runs one tiny program (LD a few words into TMEM, the instruction, HALT) through the
ISA simulator (isasim.Machine) and through the RTL (rtlsim.run, Verilator), then asserts that
the RTL wrote what isasim wrote at the locations the instruction writes. On acf0c1c6 every
test FAILS, by design: the two implementations differ there, and the assertion message names
the difference, the instruction and both values in hex.

Which side openTPU's own docs and code call right, where they say:
  1. QACT/QST of a group that makes NaNs (a NaN element here): RTL 0x7f, isasim 0. docs/isa.md
     expects no NaN inputs and leaves q8(NaN) open; isasim's 0 is numpy's cast of a NaN to
     int8, which numpy calls invalid (platform-defined).
  2. VOP recip / rsqrt of a NaN: RTL a signed zero, isasim 0x7fc00000. docs/isa.md defines
     recip for 0 and |x| >= 2^126 only and expects no NaN inputs: open.
  3. A QST whose scale words overlap its own bytes: the RTL writes a group's scale before the
     group's bytes, isasim all bytes first. docs/isa.md forbids the overlap ("must not
     overlap"), so this is the behaviour of a program outside the contract.
  4. A NaN through copy / fill / abs / max / min / row max: the RTL keeps the NaN's bits,
     isasim makes it 0x7fc00000. fp32.py documents the canonical NaN as what the RTL does
     (ftz: "as the RTL does") and docs/isa.md says any NaN produced is 0x7FC00000: by
     openTPU's own account the RTL is the side that departs.
  5. VOP RSUM / RSSQ of zero columns: isasim writes +0, the RTL nothing. docs/isa.md's sums
     start every partial at +0, which reads as isasim's +0; isa.vop() refuses cols = 0, so
     the instruction is encoded by hand here.

Found by otpu-lockstep (the RTL run in lockstep with a model of the ISA); the write-up is
docs/opentpu.md of otpu-lockstep, section "What lockstep found".
"""
import shutil

import numpy as np
import pytest

from opentpu import isa as I
from opentpu import rtlsim
from opentpu.isasim import Config, Machine

CFG = Config(S=1)                  # the smallest machine: one slice, D = 32
NAN = 0x7FC00000                   # the canonical NaN
ONE = 0x3F800000                   # 1.0

pytestmark = pytest.mark.skipif(shutil.which("verilator") is None, reason="needs verilator")


def image(words):
    """A DRAM image holding `words` (fp32 bits) from byte 0."""
    img = np.zeros(CFG.DRAM_BYTES, np.uint8)
    w = np.asarray(words, np.uint32)
    img[:4 * len(w)] = w.view(np.uint8)
    return img


def run_both(prog, img):
    """Run on both; returns (isasim's slice 0, the RTL's DRAM bytes, the RTL's TMEM words)."""
    sim = Machine(CFG, [prog], [img.copy()]).run().slices[0]
    drams, tmems, _ = rtlsim.run(CFG, [prog], [img.copy()])
    return sim, drams[0], tmems[0]


def assert_same(what, mem, addrs, rtl, sim, digits):
    """rtl[a] == sim[a] for every a in addrs, else a message with every difference."""
    diffs = [f"{mem}[{a:#x}]: RTL {int(rtl[i]):#0{digits + 2}x}, "
             f"isasim {int(sim[i]):#0{digits + 2}x}"
             for i, a in enumerate(addrs) if rtl[i] != sim[i]]
    assert not diffs, f"{what}: " + "; ".join(diffs)


def test_quantize_group_with_nan():
    """1. QST of one group of 1.0s with a NaN at element 3: the NaN's byte."""
    x = [ONE] * CFG.D
    x[3] = NAN
    dst, sdst = 0x1000, 0x1100
    prog = [I.ld(0, 0, CFG.D),
            I.qst(0, dst, sdst, rows=1, kb=1, srs=CFG.D, drs=CFG.D, es=1),
            I.halt()]
    sim, dram, _ = run_both(prog, image(x))
    at = np.arange(dst, dst + CFG.D)
    assert_same("difference 1 (a quantization group that makes NaNs): QST of a group of 1.0 "
                "with a NaN (0x7fc00000) at element 3, int8 bytes", "DRAM", at,
                dram[at], sim.dram[at], 2)


def test_recip_of_nan():
    """2. VOP recip of +NaN and -NaN: the RTL writes +0 and -0."""
    prog = [I.ld(0, 0, 2),
            I.vop(I.V_RECIP, 16, 0, 0, rows=1, cols=2, drs=2, ars=2, brs=0),
            I.halt()]
    sim, _, tmem = run_both(prog, image([NAN, NAN | 0x80000000]))
    at = np.array([16, 17])
    assert_same("difference 2 (recip / rsqrt of a NaN): VOP recip of 0x7fc00000, 0xffc00000",
                "TMEM", at, tmem[at], sim.tmem[at], 8)


def test_qst_scales_overlapping_its_bytes():
    """3. QST of two groups (rows 1, KB 2, es 1) with its scale words at dst: scale 0 lies on
    bytes 0..3 of group 0, scale 1 on bytes 4..7. The RTL writes scale 0, then group 0's
    bytes over it; isasim writes the bytes, then both scales."""
    x = [int(np.float32(v).view(np.uint32)) for v in range(1, 2 * CFG.D + 1)]
    dst = sdst = 0x1000
    prog = [I.ld(0, 0, 2 * CFG.D),
            I.qst(0, dst, sdst, rows=1, kb=2, srs=2 * CFG.D, drs=2 * CFG.D, es=1),
            I.halt()]
    sim, dram, _ = run_both(prog, image(x))
    words = np.arange(dst, dst + 2 * CFG.D, 4)            # every byte and scale written
    assert_same("difference 3 (a QST whose scale words overlap its own bytes): QST rows=1 "
                "KB=2 es=1 dst=sdst=0x1000, 32-bit words", "DRAM", words,
                dram.view("<u4")[words // 4], sim.dram.view("<u4")[words // 4], 8)


def test_abs_keeps_nan_payload():
    """4. VOP abs of the NaN 0x7fbb4961: the RTL keeps its bits."""
    prog = [I.ld(0, 0, 1),
            I.vop(I.V_ABS, 16, 0, 0, rows=1, cols=1, drs=1, ars=1, brs=0),
            I.halt()]
    sim, _, tmem = run_both(prog, image([0x7FBB4961]))
    at = np.array([16])
    assert_same("difference 4 (a NaN through copy/fill/abs/max/min/rmax): VOP abs of "
                "0x7fbb4961", "TMEM", at, tmem[at], sim.tmem[at], 8)


def test_rsum_of_zero_columns():
    """5. VOP rsum of one row of zero columns into a word holding 1.0: isasim writes +0."""
    dst = 16
    rsum = I.Instr(I.VOP, w=[dst, 0, 0, 1 | (0 << 16),           # rows 1, cols 0
                             1 | (1 << 16), 1 | (I.V_RSUM << 16), 0])
    prog = [I.ld(0, dst, 1), rsum, I.halt()]
    sim, _, tmem = run_both(prog, image([ONE]))
    at = np.array([dst])
    assert_same("difference 5 (RSUM / RSSQ of zero columns): VOP rsum rows=1 cols=0 over "
                "1.0 (0x3f800000)", "TMEM", at, tmem[at], sim.tmem[at], 8)
