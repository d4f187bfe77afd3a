"""The public surface of openTPU's ISA simulator (opentpu/isasim.py) over the C model.

A test written against openTPU's isasim runs on libotpusim by changing its import:

    from opentpu.isasim import Config, Machine, SimError   # openTPU's Python model
    from otpu.isasim import Config, Machine, SimError       # the C model

What is here: Config (its fields and defaults, act_rows), design_config, board_config (with
the same OTPU_* environment overrides), SimError, ARG0, Machine(cfg, programs, drams,
args=None) with cfg, slices, load(programs, args=None) and run(max_steps); each slice with
cfg, sid, prog, dram, m32, tmem, act, ascale (numpy arrays over the model's own memory:
writing them writes the model), R, pc, icount, halted, stack, reg(r), tget(idx), tput(idx,
vals) and step(). Programs are lists of instructions with encode() (openTPU's isa.Instr,
otpu.asm's) or of eight-word lists, or assembled word arrays.

What is not: the slices' private helpers (_widx, _tidx, execute, the units' methods), waiting,
Machine._gather; assigning pc or stack. SimError is otpu.OtpuError: its message is the C
model's, which names the same error in other words than openTPU's (match on the kind of error,
e.g. "hazard", "out of range"). tput stores values rounded to float32 by numpy. numpy is
required here, as openTPU's isasim requires it.
"""
import os
from dataclasses import dataclass, fields

import numpy as np

from . import machine as _m
from .config import Config as _ModelConfig
from .errors import OtpuError

SimError = OtpuError
ARG0 = 8                # the run's arguments are R8..R15


@dataclass(frozen=True)
class Config:
    S: int = 1
    D: int = 32
    MCOLS: int = 8
    ACT_BLOCKS: int = 64
    TMEM_WORDS: int = 1 << 16
    DRAM_BYTES: int = 1 << 20
    IMEM_WORDS: int = 1 << 16
    LANES: int = 8
    PAIR: bool = False
    DSTEP: bool = False
    STREAM: bool = False
    ACT_ROWS: int = 0
    rev: str = "current"    # the model's ISA revision (not in openTPU's Config)

    @property
    def act_rows(self):
        return self.ACT_ROWS or self.MCOLS

    def model(self):
        """This Config as the binding's otpu.Config."""
        return _ModelConfig(**{f.name: getattr(self, f.name) for f in fields(self)})


def design_config(**kw):
    """The Kintex-7 design point (the model's otpu_config_design); fields overridable."""
    return _preset(_ModelConfig.design(), kw)


def board_config(**kw):
    """The YPCB-00338 board's configuration, with openTPU's environment overrides OTPU_MCOLS,
    OTPU_LANES, OTPU_ACT_ROWS, OTPU_PAIR, OTPU_DSTEP, OTPU_STREAM; fields overridable."""
    env = {}
    for name in ("MCOLS", "LANES", "ACT_ROWS", "PAIR", "DSTEP", "STREAM"):
        value = os.environ.get("OTPU_" + name)
        if value is not None:
            env[name] = int(value)
    env.update(kw)
    return _preset(_ModelConfig.board(), env)


def _preset(base, kw):
    values = {f.name: getattr(base, f.name) for f in fields(Config)}
    for flag in ("PAIR", "DSTEP", "STREAM"):
        values[flag] = bool(values[flag])
    values.update(kw)
    return Config(**values)


class _Registers:
    """A slice's R0..R15, read and written through the model (list-like)."""

    def __init__(self, machine, sid):
        self._m, self._sid = machine, sid

    def _all(self):
        return self._m.regs(self._sid)

    def __getitem__(self, k):
        return self._all()[k]

    def __setitem__(self, k, value):
        regs = self._all()
        regs[k] = value
        self._m.write(_m.REG, 0, [int(v) & 0xFFFFFFFF for v in regs], self._sid)

    def __len__(self):
        return 16

    def __iter__(self):
        return iter(self._all())

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return repr(self._all())


class Slice:
    def __init__(self, machine, sid, prog):
        self._machine, self.sid, self.prog = machine, sid, list(prog) if prog is not None else []
        self.cfg = machine.cfg

    @property
    def _m(self):
        return self._machine._model

    # memories: views of the model's memory, taken anew on each access
    @property
    def dram(self):
        return self._m.memory(_m.DRAM, self.sid)

    @property
    def m32(self):
        return self.dram.view(np.uint32)

    @property
    def tmem(self):
        return self._m.memory(_m.TMEM, self.sid)

    @property
    def act(self):
        return self._m.memory(_m.ACT, self.sid).reshape(self.cfg.act_rows,
                                                        self.cfg.ACT_BLOCKS * self.cfg.D)

    @property
    def ascale(self):
        return self._m.memory(_m.ASCALE, self.sid).view(np.float32).reshape(
            self.cfg.act_rows, self.cfg.ACT_BLOCKS)

    @property
    def R(self):
        return _Registers(self._m, self.sid)

    @R.setter
    def R(self, values):
        values = [int(v) & 0xFFFFFFFF for v in values]
        self._m.write(_m.REG, 0, values + [0] * (16 - len(values)), self.sid)

    @property
    def pc(self):
        return self._m.state(self.sid).pc

    @property
    def icount(self):
        return self._m.state(self.sid).icount

    @property
    def halted(self):
        return self._m.state(self.sid).halted

    @property
    def stack(self):
        """The open loops, outermost first: [first pc of the body, last pc, iterations left]."""
        return [[start, end, total - it] for start, end, it, total in self._m.state(self.sid).loops]

    def reg(self, r):
        return 0 if r == 0 else self._m.regs(self.sid)[r]

    def _index(self, idx):
        idx = np.asarray(idx, dtype=np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= self.cfg.TMEM_WORDS):
            raise SimError(f"slice {self.sid}: TMEM index out of range")
        return idx

    def tget(self, idx):
        """TMEM words at idx (any shape) as float32."""
        return self.tmem[self._index(idx)].view(np.float32)

    def tput(self, idx, vals):
        idx = self._index(idx)
        self.tmem[idx] = np.broadcast_to(np.asarray(vals, dtype=np.float32),
                                         idx.shape).view(np.uint32)

    def step(self):
        """Execute this slice's next instruction (a BAR or GATHER then waits for the others)."""
        self._m.step(self.sid)


class Machine:
    def __init__(self, cfg, programs, drams, args=None):
        if len(programs) != cfg.S or len(drams) != cfg.S:
            raise ValueError(f"a machine of {cfg.S} slices takes {cfg.S} programs and DRAM images")
        self.cfg = cfg
        self._model = _m.Machine(cfg.model() if isinstance(cfg, Config) else cfg, numpy=True)
        for s, image in enumerate(drams):
            if image is not None:
                # as openTPU does: the image's values, as uint8, from address 0
                self._model.load_dram(s, np.asarray(image).astype(np.uint8, copy=False))
        self.slices = [Slice(self, s, None) for s in range(cfg.S)]
        self.load(programs, args)

    def load(self, programs, args=None):
        """Start new programs on the same machine; DRAM, TMEM and ACT RAM are kept."""
        if len(programs) != self.cfg.S:
            raise ValueError(f"{len(programs)} programs for {self.cfg.S} slices")
        args = list(args or [])
        if len(args) > 8:
            raise ValueError("at most 8 run arguments")
        self._model.set_args(args + [0] * (8 - len(args)))
        self._model.clear_error()  # (a SimError of the last run does not stop the next)
        for s, prog in enumerate(programs):
            self.slices[s].prog = list(prog)
            self._model.load_program(s, prog)
        return self

    def run(self, max_steps=_m.DEFAULT_MAX_STEPS):
        self._model.run(max_steps)
        return self
