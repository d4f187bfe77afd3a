"""Instruction builders for tests and examples: each returns an Instr with op, ra, rb, rc, rd,
flags and w (the seven immediates w1..w7, openTPU docs/isa.md's numbering) and encode() (the
eight words), the shape openTPU's isasim reads, so a program built here runs on both.
Keyword arguments name the operands; the register of an R[reg] + imm operand is ra/rb/rc/rd
as the ISA assigns it."""
import struct

from ._check import word

# the opcodes (NOP .. GATHER), the flag bits (F_UNIT, F_ROW, ..) and the formats, from
# sim/isa.def
from ._isa import *  # noqa: F401,F403
from ._isa import FIELDS, OPCODES

V_ADD, V_SUB, V_RSUB, V_MUL, V_MAX, V_MIN = 0, 1, 2, 3, 4, 5
V_COPY, V_EXP2, V_RECIP, V_RSQRT, V_ABS, V_FILL, V_EXP2SUB, V_LOG2 = 8, 9, 10, 11, 12, 13, 14, 15
V_RSUM, V_RMAX, V_RSSQ, V_RDOT = 16, 17, 18, 19
B_FULL, B_ROW, B_COL, B_SCALAR = 0, 1, 2, 3


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", float(x)))[0]


class Instr:
    __slots__ = ("op", "ra", "rb", "rc", "rd", "flags", "w")

    def __init__(self, op, ra=0, rb=0, rc=0, rd=0, flags=0, w=()):
        imm = [word(x, f"immediate w{k + 1}") for k, x in enumerate(w)]   # never wrapped
        if len(imm) > 7 or not all(0 <= r < 16 for r in (ra, rb, rc, rd)):
            raise ValueError("an instruction has 7 immediates and registers 0..15")
        self.op, self.ra, self.rb, self.rc, self.rd, self.flags = op, ra, rb, rc, rd, flags
        self.w = imm + [0] * (7 - len(imm))

    def encode(self):
        w0 = (self.op & 0xFF) | self.ra << 8 | self.rb << 12 | self.rc << 16 | self.rd << 20 \
            | (self.flags & 0xFF) << 24
        return [w0] + list(self.w)

    def __repr__(self):
        from .machine import disasm
        return "<%s>" % disasm(self.encode())


def instr(name, **operands):
    """An instruction of opcode `name` ("MM") from its operands, as sim/isa.def names them: a
    register field (rd=3), an R[reg] + imm field (sa=0x100, with its register as sa_reg=2),
    a field of the immediates (rows=4), a flag (acc=True) or a field of the flags (wf=1 or
    wf="int4"). Operands not given are 0; an unknown one is a ValueError."""
    if name not in OPCODES:
        raise ValueError(f"unknown opcode {name!r}")
    code, _, fmt = OPCODES[name]
    regs, w, flags = {"ra": 0, "rb": 0, "rc": 0, "rd": 0}, [0] * 8, 0
    left = dict(operands)
    for fmt_of, fname, kind, reg, at, lo, width, shared, mask, vals in FIELDS:
        if fmt_of != fmt:
            continue
        v = left.pop(fname, 0)
        if kind == "reg":
            regs[reg] = v
        elif kind == "ri":
            r = left.pop(fname + "_reg", 0)
            if not shared:
                regs[reg] = r
            if at:
                w[at] = word(v, fname)
        elif kind == "bits":
            if not 0 <= v < 1 << width:
                raise ValueError(f"{name} {fname}: {v} does not fit {width} bits")
            w[at] |= v << lo
        elif kind == "flag":
            flags |= mask if v else 0
        else:
            vals = vals.split(",")
            if isinstance(v, str):
                if v not in vals:
                    raise ValueError(f"{name} {fname}: {v!r} is not one of {', '.join(vals)}")
                v = vals.index(v)
            if not 0 <= v < 1 << width:
                raise ValueError(f"{name} {fname}: {v} does not fit {width} bits")
            flags |= v << lo
    if left:
        raise ValueError(f"{name} has no operand {', '.join(sorted(left))}")
    return Instr(code, flags=flags, w=w[1:], **regs)


def nop():
    return Instr(NOP)


def halt():
    return Instr(HALT)


def bar():
    return Instr(BAR)


def li(rd, value):
    return Instr(LI, rd=rd, w=[value])


def addi(rd, ra, value):
    return Instr(ADDI, rd=rd, ra=ra, w=[value])


def loop(body, count, rcount=0):
    """Repeat the next `body` instructions count (+ R[rcount]) times."""
    return Instr(LOOP, ra=rcount, w=[body, count])


def ld(*, dram, tmem, n, ra=0, rb=0):
    """n words from DRAM byte address dram (+R[ra]) to TMEM word tmem (+R[rb])."""
    return Instr(LD, ra=ra, rb=rb, w=[dram, tmem, n])


def st(*, dram, tmem, n, ra=0, rb=0):
    return Instr(ST, ra=ra, rb=rb, w=[dram, tmem, n])


def vop(func, *, dst, a=0, b=0, rows=1, cols=1, drs=0, ars=0, brs=0, bmode=B_FULL, imm=0.0,
        ra=0, rb=0, rc=0):
    """dst[r, c] = func(a[r, c], B) over rows x cols; B by bmode: b[r, c], b[r], b[c], or imm."""
    return Instr(VOP, ra=ra, rb=rb, rc=rc,
                 w=[dst, a, b, rows | cols << 16, drs | ars << 16,
                    brs | func << 16 | bmode << 24, f32_bits(imm)])


def qact(*, src, rows, kb, srs, ab=0, row=False, ra=0):
    """Quantize rows x (kb * D) TMEM floats at src (row stride srs) into ACT RAM block ab."""
    return Instr(QACT, ra=ra, flags=F_ROW if row else 0,
                 w=[src, rows | ab << 8 | kb << 16, srs])


def mm(*, sa, out, n, kb, m, rs, ors, ssa=0, srs=0, ab=0, unit=False, acc=False, rmax=False,
       ra=0, rb=0, rc=0):
    """out[j, i] (+)= sum over kb blocks of ACT row j . DRAM weight row i (at sa + i * rs, int8)
    times the weight scales (fp32 at ssa + i * srs + 4k; none with unit) and ACT scales."""
    flags = (F_UNIT if unit else 0) | (F_ACC if acc else 0) | (F_RMAX if rmax else 0)
    return Instr(MM, ra=ra, rb=rb, rc=rc, flags=flags,
                 w=[sa, ssa, out, n | kb << 16, rs, ors | m << 16 | ab << 24, srs])


def gather(*, src, dst, rows, cols, srs, drs, seg, ra=0, rb=0):
    return Instr(GATHER, ra=ra, rb=rb, w=[src, dst, rows | cols << 16, srs, drs, seg])
