"""Config: the machine configuration (sim/config.h), a plain value."""
import ctypes

from . import _lib
from ._check import uint
from .errors import OtpuInputError

FIELDS = tuple(n for n, _ in _lib.ConfigC._fields_ if n != "revision")
_BITS = {n: 8 * ctypes.sizeof(t) for n, t in _lib.ConfigC._fields_ if n != "revision"}
_FLAGS = ("PAIR", "DSTEP", "STREAM")           # 0/1: a bool is taken for them


class Config:
    """Fields S D MCOLS ACT_BLOCKS TMEM_WORDS DRAM_BYTES IMEM_WORDS LANES PAIR DSTEP STREAM
    ACT_ROWS (ints; PAIR, DSTEP, STREAM 0/1 or a bool) and rev, the ISA revision's name
    ("current" or an older one, e.g. "acf0c1c6"). Config(**fields) starts from the model's
    default (openTPU's isasim.Config()); Config.design() and Config.board() from its presets.
    A field is checked when set: TypeError for a float or a bool, OtpuInputError when negative,
    OverflowError when too big for its C type; the model checks the ranges in to_c()."""

    __slots__ = FIELDS + ("rev",)

    def __init__(self, _base=None, **fields):
        base = _base if _base is not None else _lib.lib().otpu_config_default()
        for name in FIELDS:
            setattr(self, name, int(getattr(base, name)))
        self.rev = _lib.lib().otpu_rev_name(base.revision).decode()
        for name, value in fields.items():
            if name not in self.__slots__:
                raise TypeError(f"Config has no field {name!r} (fields: {', '.join(FIELDS)}, rev)")
            setattr(self, name, value)

    def __setattr__(self, name, value):
        if name in _BITS:
            if name in _FLAGS and isinstance(value, bool):
                value = int(value)
            value = uint(value, f"Config.{name}", _BITS[name])
        elif name == "rev" and not isinstance(value, str):
            raise TypeError(f"Config.rev must be a revision's name (str), not {value!r:.60}")
        object.__setattr__(self, name, value)

    @classmethod
    def design(cls, **fields):
        return cls(_lib.lib().otpu_config_design(), **fields)

    @classmethod
    def board(cls, **fields):
        return cls(_lib.lib().otpu_config_board(), **fields)

    @classmethod
    def from_c(cls, c):
        return cls(c)

    @property
    def act_rows(self):
        return self.ACT_ROWS or self.MCOLS

    def to_c(self):
        """The otpu_config, checked by the model (OtpuInputError with its reason)."""
        lib = _lib.lib()
        c = _lib.ConfigC()
        for name in FIELDS:
            setattr(c, name, getattr(self, name))
        rev = ctypes.c_int()
        # (a NUL would end the name early in C: "current\0x" must not pass as "current")
        if "\0" in self.rev or lib.otpu_rev_from_name(self.rev.encode(), ctypes.byref(rev)):
            raise OtpuInputError(f"Config: unknown ISA revision {self.rev!r}")
        c.revision = rev.value
        why = ctypes.create_string_buffer(512)
        if lib.otpu_config_check(ctypes.byref(c), why, len(why)):
            raise OtpuInputError(f"Config: {why.value.decode()}")
        return c

    def __eq__(self, other):
        return isinstance(other, Config) and all(
            getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __repr__(self):
        return "Config(%s)" % ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
