"""Machine: an openTPU machine of the C model (sim/machine.h), run, stepped and inspected."""
import array
import collections
import copy
import ctypes
import os

from . import _lib
from ._check import uint, word
from .config import Config
from .errors import OtpuError, OtpuInputError

try:
    import numpy as _np
except ImportError:            # numpy is optional: bytes and array.array then
    _np = None

REG, TMEM, DRAM, ACT, ASCALE = range(5)          # sim/protocol.h otpu_space
SPACE_NAMES = ("REG", "TMEM", "DRAM", "ACT", "ASCALE")
_SPACES_ARE = ", ".join(SPACE_NAMES) + " are 0..4"
_TYPECODE = {REG: "I", TMEM: "I", DRAM: "B", ACT: "b", ASCALE: "I"}
_CTYPE = {TMEM: ctypes.c_uint32, DRAM: ctypes.c_uint8, ACT: ctypes.c_int8,
          ASCALE: ctypes.c_uint32}
_NPTYPE = {REG: "uint32", TMEM: "uint32", DRAM: "uint8", ACT: "int8", ASCALE: "uint32"}
# the error kind of an access past the end, as the C model's own check names it
_RANGE_KIND = {TMEM: "tmem-range", DRAM: "dram-address"}
DEFAULT_MAX_STEPS = 10_000_000   # otpu-sim's and openTPU isasim's default

Write = collections.namedtuple("Write", "space addr old val mask")
Write.__doc__ = """One location an instruction wrote (sim/log.h otpu_write): space (REG, TMEM,
DRAM, ACT, ASCALE), addr in that space's units (DRAM: the aligned word's byte address, mask
its bytes written), the value before and after."""
SliceState = collections.namedtuple("SliceState", "pc icount stalls halted nprog loops")


class Retired:
    """One retired instruction and its writes, in the order written (sim/log.h otpu_retired).
    words is None past the end of the program and for a HALT CHAIN's reload (chain True)."""
    __slots__ = ("slice", "n", "pc", "words", "faulted", "chain", "chain_addr", "chain_count",
                 "writes")

    def __init__(self, r, writes):
        self.slice, self.n, self.pc = r.slice, r.n, r.pc
        self.words = tuple(r.words) if r.has_ins else None
        self.faulted, self.chain = bool(r.faulted), bool(r.chain)
        self.chain_addr, self.chain_count = r.chain_addr, r.chain_count
        self.writes = writes

    @property
    def op(self):
        """The opcode's name ("VOP"), or None without an instruction."""
        if self.words is None:
            return None
        name = _lib.lib().otpu_op_name(self.words[0] & 0xFF)
        return name.decode() if name else "op%#x" % (self.words[0] & 0xFF)

    def disasm(self):
        return None if self.words is None else disasm(self.words)

    def __repr__(self):
        return "Retired(slice=%d, n=%d, pc=%d, %s, %d writes%s)" % (
            self.slice, self.n, self.pc, self.disasm() or ("chain" if self.chain else "-"),
            len(self.writes), ", faulted" if self.faulted else "")


class Step:
    """What one Machine.step() did: slice (None: the machine settled: a collective completed,
    the host acted), and the instructions it retired (iterate it). A BAR, GATHER or waiting
    WAITW retires later, in the step that completes it."""
    __slots__ = ("slice", "records")

    def __init__(self, slice, records):
        self.slice, self.records = slice, records

    def __iter__(self):
        return iter(self.records)

    def __len__(self):
        return len(self.records)

    @property
    def writes(self):
        return [w for r in self.records for w in r.writes]

    def __repr__(self):
        return "Step(slice=%r, %r)" % (self.slice, self.records)


def disasm(words):
    """An instruction's eight words, disassembled by the model."""
    words = [word(x, f"instruction word {k}") for k, x in enumerate(words)]
    if len(words) != 8:
        raise OtpuInputError(f"an instruction is 8 words, not {len(words)}")
    lib = _lib.lib()
    w = (ctypes.c_uint32 * 8)(*words)
    ins = lib.otpu_decode(w)
    buf = ctypes.create_string_buffer(256)
    lib.otpu_disasm(ctypes.byref(ins), buf, len(buf))
    return buf.value.decode()


def program_words(prog):
    """A program as an array('I') of words. prog: bytes (little-endian words), an array or numpy
    array of words, a flat list of ints, or a list of instructions, each eight words or an
    object with encode() returning them (openTPU's isa.Instr, otpu.asm's). Each word is
    0..2**32 - 1 or down to -2**31 (two's complement): OverflowError outside, TypeError for a
    float or a bool."""
    out = array.array("I")
    if prog is None:
        return out
    if isinstance(prog, (bytes, bytearray, memoryview)):
        b = bytes(prog)
        if len(b) % 4:
            raise OtpuInputError(f"a program of {len(b)} bytes is not a whole number of words")
        out.frombytes(b)
        return out
    if _np is not None and isinstance(prog, _np.ndarray) and prog.dtype.kind in "iu":
        lo, hi = (int(prog.min()), int(prog.max())) if prog.size else (0, 0)
        if lo < -(1 << 31) or hi >= 1 << 32:
            raise OverflowError(f"program words {lo}..{hi} do not fit 32 bits")
        out.frombytes(_np.ascontiguousarray(prog).astype(_np.uint32).tobytes())
        return out
    for x in prog:                 # (a numpy array of another dtype too: each word checked)
        if hasattr(x, "encode") and not isinstance(x, str):
            x = x.encode()
        if not hasattr(x, "__iter__"):     # a word (word() refuses what is not an integer)
            out.append(word(x, f"program word {len(out)}"))
            continue
        words = [word(v, f"program word {len(out) + k}") for k, v in enumerate(x)]
        if len(words) != 8:
            raise OtpuInputError(f"an instruction is 8 words, not {len(words)}: {x!r}")
        out.extend(words)
    return out


def _data_bytes(data, unit):
    """The bytes to write for data in units of `unit` bytes (see Machine.write)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        b = bytes(data)
    elif _np is not None and isinstance(data, _np.ndarray):
        if unit > 1 and data.dtype.itemsize != unit:
            raise OtpuInputError(f"a numpy array of {data.dtype} for {unit}-byte units: use a "
                                 f"{8 * unit}-bit dtype (uint32, int32, float32)")
        b = _np.ascontiguousarray(data).tobytes()
    elif isinstance(data, array.array):
        if unit > 1 and data.itemsize != unit:
            raise OtpuInputError(f"an array('{data.typecode}') for {unit}-byte units")
        b = data.tobytes()
    else:
        vals = list(data)
        if unit == 4 and any(isinstance(v, float) for v in vals):
            try:
                b = array.array("f", vals).tobytes()
            except TypeError as e:
                raise TypeError(f"data of floats: {e}") from None
        else:
            b = array.array("B" if unit == 1 else "I",
                            [word(v, f"data[{k}]", 8 * unit) for k, v in enumerate(vals)])
            b = b.tobytes()
    if len(b) % unit:
        raise OtpuInputError(f"{len(b)} bytes are not a whole number of {unit}-byte units")
    return b


class _Owner:
    """The C machine, with its write log buffer and run bundle, freed when the last reference
    to this goes: the Machine's (dropped by close()) and each memory() view's. So a view never
    reads freed memory: close() frees at once when no view is left, else the last view does."""
    __slots__ = ("lib", "m", "logbuf", "bundle", "__weakref__")

    def __init__(self, lib, m, bundle):
        self.lib, self.m, self.bundle = lib, m, bundle
        self.logbuf = lib.otpu_logbuf_new()
        if not self.logbuf:
            raise MemoryError("cannot allocate the write log")

    def __del__(self):
        self.lib.otpu_machine_free(self.m)        # (its listener, the log buffer, goes with it)
        self.lib.otpu_logbuf_free(self.logbuf)
        if self.bundle:                           # after the machine: it borrows host.txt
            self.lib.otpu_bundle_close(self.bundle)


class Machine:
    """An openTPU machine of config.S slices (see the package docstring for a tour).

    Machine(config, programs, drams, args): config a Config (None: the default); programs[s]
    slice s's program (see program_words); drams[s] its initial DRAM image from address 0
    (bytes-like or numpy; None: zeros); args R8..R15 at the start (up to 8 words). programs
    and drams each hold one entry per slice (None leaves that slice's empty) or none at all:
    another count is an OtpuInputError, as a slice left out by mistake is no run.
    numpy: True/False to return numpy arrays from reads or not (None: when numpy is there).

    Every integer argument is checked before it reaches C: TypeError for a float or a bool,
    OtpuInputError (a ValueError) when negative or out of range (naming the slice, the memory
    and the range), OverflowError when too big for its C type. After close() every method
    raises OtpuInputError("the machine is closed"). A simulated error (a step limit excepted)
    stops the machine for good: every later run(), run_to() and step() raises it again and
    changes nothing.
    """

    def __init__(self, config=None, programs=(), drams=(), args=None, numpy=None):
        lib = _lib.lib()
        cfg = config if config is not None else Config()
        if not isinstance(cfg, Config):
            raise TypeError(f"config must be an otpu.Config, not {type(cfg).__name__}")
        c = cfg.to_c()
        err = _lib.ErrorC()
        m = lib.otpu_machine_new(ctypes.byref(c), ctypes.byref(err))
        if not m:
            raise OtpuInputError(err.msg.decode(errors="replace"), kind=_kind(err.kind))
        self._setup(_Owner(lib, m, None), numpy)
        programs, drams = list(programs or ()), list(drams or ())
        for what, seq in (("programs", programs), ("DRAM images", drams)):
            if seq and len(seq) != self.S:
                raise OtpuInputError(f"{len(seq)} {what} for a machine of {self.S} slices: one "
                                     f"per slice (None leaves a slice's empty), or none")
        if args is not None:
            self.set_args(args)
        for s, p in enumerate(programs):
            if p is not None:
                self.load_program(s, p)
        for s, d in enumerate(drams):
            if d is not None:
                self.load_dram(s, d)

    def _setup(self, owner, numpy):
        self._lib, self._owner = owner.lib, owner
        self._attached = False
        self._stopped = None           # the simulated error that stopped the machine
        self.logging = False
        self.bundle = None
        self.numpy = (_np is not None) if numpy is None else bool(numpy)
        if self.numpy and _np is None:
            raise ImportError("numpy=True but numpy cannot be imported")
        self._err = _lib.ErrorC()
        self._which = ctypes.c_int()
        self.config = Config.from_c(self._lib.otpu_machine_config(owner.m).contents)
        self.S = self.config.S

    @classmethod
    def _wrap(cls, owner, numpy):
        self = cls.__new__(cls)
        self._setup(owner, numpy)
        return self

    # ---------------------------------------------------------------- lifetime
    def close(self):
        """Free the machine (also when the object goes away). A memory() view taken before
        keeps the memory it shows until the view goes too: it never reads freed memory."""
        self._owner = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _open(self):
        """The C machine's owner; OtpuInputError after close()."""
        if self._owner is None:
            raise OtpuInputError("the machine is closed")
        return self._owner

    def _running(self):
        """_open() for a call that runs the machine. After a simulated error it raises that
        error again (a fresh copy: the same kind, slice, pc, message, log), as the C model
        makes it sticky: nothing runs after it."""
        o = self._open()
        if self._stopped is not None:
            raise copy.copy(self._stopped)
        return o

    def clear_error(self):
        """Forget a simulated error, so that new programs can run (the reference's
        Machine.load after a SimError); a slice stopped by it counts as halted."""
        self._lib.otpu_machine_clear_error(self._open().m)
        self._stopped = None

    # ---------------------------------------------------------------- loading
    def load_program(self, s, prog):
        """Load slice s's program and restart it (pc 0, R8..R15 the run's arguments)."""
        s, words = self._slice(s), program_words(prog)
        ptr = (ctypes.c_uint32 * len(words)).from_buffer(words) if words else None
        if self._lib.otpu_machine_load_program(self._open().m, s, ptr, len(words),
                                               ctypes.byref(self._err)):
            raise self._input_error()

    def load_dram(self, s, data, addr=0):
        """Copy an image into slice s's DRAM at a byte address."""
        b = _data_bytes(data, 1)
        s, addr, n = self._span(DRAM, addr, len(b), s, "DRAM image")
        if self._lib.otpu_machine_load_dram(self._open().m, s, addr, b, n,
                                            ctypes.byref(self._err)):
            raise self._input_error()

    def set_args(self, args):
        """The run's arguments: R8..R15 (every slice, now and at each HALT CHAIN); each a
        32-bit word (see program_words)."""
        args = [word(a, f"run argument {k}") for k, a in enumerate(args)]
        if len(args) > 8:
            raise OtpuInputError(f"{len(args)} run arguments: at most 8 (R8..R15)")
        self._lib.otpu_machine_set_args(self._open().m, (ctypes.c_uint32 * 8)(*args))

    # ---------------------------------------------------------------- running
    def run(self, max_steps=DEFAULT_MAX_STEPS):
        """Run until every slice halts; OtpuError on an error (also more than max_steps
        instructions; 0: no limit). Returns the machine."""
        max_steps = uint(max_steps, "max_steps")
        o = self._running()
        self._listen(o, self.logging)
        if self._lib.otpu_machine_run(o.m, max_steps):
            raise self._sim_error(o)
        return self

    def run_to(self, pc, slice=0, max_steps=DEFAULT_MAX_STEPS):
        """Run until `slice` is about to execute the instruction at pc: True. A slice already
        there executes it first (so calls in a row stop at each pass of a loop). False: every
        slice halted first. OtpuError on an error."""
        pc, s, max_steps = uint(pc, "pc", 32), self._slice(slice), uint(max_steps, "max_steps")
        o = self._running()
        self._listen(o, self.logging)
        rc = self._lib.otpu_machine_run_to(o.m, s, pc, max_steps)
        if rc < 0:
            raise self._sim_error(o)
        return rc == 0

    def step(self, slice=None):
        """Execute one instruction: without a slice, the next one run() would (the first slice
        that can run; when none can, the machine settles). Returns a Step (iterate it for the
        retired instructions and their writes), or None when nothing could run (every slice
        halted; with a slice: that slice is halted or waits). OtpuError on an error, its log
        the failing step's records."""
        s = None if slice is None else self._slice(slice)
        o = self._running()
        lib, m = self._lib, o.m
        if not self._attached:
            self._listen(o, True)
        start = lib.otpu_logbuf_count(o.logbuf)
        if s is None:
            rc = lib.otpu_machine_step_next(m, ctypes.byref(self._which))
            s = self._which.value
        else:
            rc = lib.otpu_machine_step(m, s)
        recs = self._records(o, start)
        if not self.logging:
            lib.otpu_logbuf_clear(o.logbuf)
        if rc < 0:
            raise self._sim_error(o, recs)
        if rc == 1:
            return None
        return Step(s if s >= 0 else None, recs)

    def take_log(self):
        """With logging = True: the instructions retired since the last take_log (by run,
        run_to and step), then forgotten."""
        o = self._open()
        recs = self._records(o, 0)
        self._lib.otpu_logbuf_clear(o.logbuf)
        return recs

    @property
    def steps(self):
        """Instructions executed by the last run()."""
        return self._lib.otpu_machine_steps(self._open().m)

    @property
    def chains(self):
        return self._lib.otpu_machine_chains(self._open().m)

    # ---------------------------------------------------------------- state
    def state(self, slice=0):
        v = self._lib.otpu_machine_view(self._open().m, self._slice(slice))
        loops = [(v.loops[k].start, v.loops[k].end, v.loops[k].iteration, v.loops[k].total)
                 for k in range(v.loop_depth)]
        return SliceState(v.pc, v.icount, v.stalls, bool(v.halted), v.nprog, loops)

    def pc(self, slice=0):
        return self.state(slice).pc

    def halted(self, slice=0):
        return self.state(slice).halted

    def final_text(self, slice=0):
        """The slice's final_<s>.txt text (FORMAT.md): halted, pc, icount, registers and the
        SHA-256 of TMEM, DRAM, ACT RAM and the scales, as otpu-sim check compares it."""
        buf = ctypes.create_string_buffer(2048)
        n = _lib.golden().otpu_final_text(self._open().m, self._slice(slice), buf, len(buf))
        if n < 0 or n >= len(buf):
            raise OtpuError(f"slice {slice}: cannot write the final state")
        return buf.value.decode()

    # ---------------------------------------------------------------- memories
    def units(self, space):
        """How many units space has in one slice (16 registers, TMEM words, DRAM bytes, ...)."""
        space, _ = self._space(space)
        return self._lib.otpu_machine_space_units(self._open().m, space)

    def read(self, space, addr, count, slice=0):
        """count units of space from addr: a numpy array (uint32; DRAM uint8, ACT int8) or,
        without numpy, bytes for DRAM and array('I') / array('b') otherwise."""
        space, unit = self._space(space)
        s, addr, count = self._span(space, addr, count, slice, "read")
        if self.numpy:
            out = _np.empty(count, dtype=_NPTYPE[space])
            ptr = out.ctypes.data if count else None
        elif space == DRAM:
            out = ctypes.create_string_buffer(count)
            ptr = ctypes.addressof(out)
        else:
            out = array.array(_TYPECODE[space], bytes(count * unit))
            ptr = out.buffer_info()[0] if count else None
        if self._lib.otpu_machine_read(self._open().m, s, space, addr, count, ptr,
                                       ctypes.byref(self._err)):
            raise self._input_error()
        return out.raw if isinstance(out, ctypes.Array) else out

    def write(self, space, addr, data, slice=0):
        """Write data into space at addr (a host write: not logged). data: bytes-like (raw,
        little endian), an array.array or numpy array whose items are the space's unit size
        (any for DRAM: its bytes), or a list of ints (each a word, or for DRAM and ACT a byte,
        as program_words says) or of floats (fp32 bits, for TMEM and scales)."""
        space, unit = self._space(space)
        b = _data_bytes(data, unit)
        s, addr, count = self._span(space, addr, len(b) // unit, slice, "write")
        if self._lib.otpu_machine_write(self._open().m, s, space, addr, count, b,
                                        ctypes.byref(self._err)):
            raise self._input_error()

    def memory(self, space, slice=0):
        """Slice's whole memory of space (TMEM, DRAM, ACT, ASCALE), not a copy: a numpy array
        (a memoryview without numpy) over the model's own memory. Writing it is a host write.
        The view keeps that memory alive, also after close(): then it is no machine's any
        more, and freed when the last view goes. Take a new one after load_dram."""
        space, unit = self._space(space)
        if space == REG:
            raise OtpuInputError("memory(REG): registers are read with regs() or read(REG, ...)")
        o, s = self._open(), self._slice(slice)
        ptr = self._lib.otpu_machine_memory(o.m, s, space)
        if not ptr:
            raise OtpuError(f"slice {s}: the model has no memory {SPACE_NAMES[space]}")
        buf = (_CTYPE[space] * self.units(space)).from_address(ptr)
        buf._owner = o                  # numpy's array and the memoryview hold buf: see _Owner
        assert ctypes.sizeof(_CTYPE[space]) == unit
        if self.numpy:
            return _np.ctypeslib.as_array(buf)
        # ctypes says "<I": a memoryview indexes only native formats, reached through bytes
        return memoryview(buf).cast("B").cast(_TYPECODE[space])

    def read_tmem(self, addr, count, slice=0, f32=False):
        """TMEM words; f32: as float32 values (numpy float32, or array('f'))."""
        return self._as_f32(self.read(TMEM, addr, count, slice)) if f32 else \
            self.read(TMEM, addr, count, slice)

    def write_tmem(self, addr, values, slice=0):
        self.write(TMEM, addr, values, slice)

    def read_dram(self, addr, count, slice=0):
        return self.read(DRAM, addr, count, slice)

    def write_dram(self, addr, data, slice=0):
        self.write(DRAM, addr, data, slice)

    def act_addr(self, row, col):
        """The ACT address of (row, col = block * D + element)."""
        row, cols = self._act_row(row), self.config.ACT_BLOCKS * self.config.D
        col = uint(col, "ACT column", end=cols, why="a row has {end} (ACT_BLOCKS * D)")
        return row * cols + col

    def read_act(self, addr, count, slice=0):
        return self.read(ACT, addr, count, slice)

    def write_act(self, addr, values, slice=0):
        self.write(ACT, addr, values, slice)

    def scale_addr(self, row, block):
        """The ACT scale address of (row, block)."""
        row, blocks = self._act_row(row), self.config.ACT_BLOCKS
        block = uint(block, "ACT block", end=blocks, why="a row has {end} (ACT_BLOCKS)")
        return row * blocks + block

    def read_scales(self, addr, count, slice=0, f32=False):
        out = self.read(ASCALE, addr, count, slice)
        return self._as_f32(out) if f32 else out

    def write_scales(self, addr, values, slice=0):
        self.write(ASCALE, addr, values, slice)

    def regs(self, slice=0):
        """R0..R15 as a list of ints."""
        return [int(x) for x in self.read(REG, 0, 16, slice)]

    def set_reg(self, r, value, slice=0):
        """Set register r (0..15; R0 stays zero) to a 32-bit word (see program_words)."""
        r = uint(r, "register", 32, end=16, why="R0..R15")
        self.write(REG, r, [word(value, f"R{r}'s value")], slice)

    # ---------------------------------------------------------------- helpers
    def _act_row(self, row):
        """row checked against the ACT RAM's rows"""
        return uint(row, "ACT row", end=self.config.act_rows, why="ACT RAM has {end} rows")

    def _as_f32(self, words):
        if self.numpy:
            return words.view(_np.float32)
        return array.array("f", words.tobytes())

    def _space(self, space):
        """space, checked (0..4), and the bytes of its unit."""
        space = uint(space, "memory space", 32, end=len(SPACE_NAMES), why=_SPACES_ARE)
        return space, self._lib.otpu_machine_space_unit_bytes(space)

    def _slice(self, s):
        return uint(s, "slice", 32, end=self.S, why="the machine has {end}")

    def _span(self, space, addr, count, s, what):
        """slice, addr, count of an access to space, checked: both ends against the space's size
        (Python's ints do not overflow), before C and before a read allocates its buffer."""
        s, addr, count = self._slice(s), uint(addr, "addr"), uint(count, "count")
        units = self.units(space)
        if addr + count > units:
            raise OtpuInputError(f"slice {s}: {what} of {count} at {addr} is out of range: "
                                 f"{SPACE_NAMES[space]} has {units}",
                                 kind=_RANGE_KIND.get(space, "bounds"), slice=s, addr=addr)
        return s, addr, count

    def _listen(self, o, on):
        if on and not self._attached:
            self._lib.otpu_logbuf_attach(o.logbuf, o.m)
        elif not on and self._attached:
            self._lib.otpu_machine_set_listener(o.m, None)
        self._attached = on

    def _records(self, o, start):
        lib, b = self._lib, o.logbuf
        count = lib.otpu_logbuf_count(b)
        if count <= start:
            return []
        recs, writes = lib.otpu_logbuf_records(b), lib.otpu_logbuf_writes(b)
        out = []
        for i in range(start, count):
            r = recs[i]
            ws = [Write(w.space, w.addr, w.old, w.val, w.mask)
                  for w in writes[r.first:r.first + r.nwrites]] if r.nwrites else []
            out.append(Retired(r, ws))
        return out

    def _input_error(self):
        e = self._err
        return OtpuInputError(e.msg.decode(errors="replace"), kind=_kind(e.kind),
                              slice=e.slice if e.slice >= 0 else None,
                              addr=e.addr if e.has_addr else None)

    def _sim_error(self, o, log=()):
        e = self._lib.otpu_machine_error(o.m).contents
        instruction = words = None
        if 0 <= e.slice < self.S:
            v = self._lib.otpu_machine_view(o.m, e.slice)
            if e.pc < v.nprog:
                words = tuple(v.prog[e.pc].w)
                instruction = disasm(words)
        err = OtpuError(e.msg.decode(errors="replace"), kind=_kind(e.kind),
                        slice=e.slice if e.slice >= 0 else None, pc=e.pc, n=e.n,
                        addr=e.addr if e.has_addr else None, instruction=instruction,
                        words=words, log=log)
        if err.kind != "step-limit":   # (not the program's error: the C model runs on after it)
            self._stopped = err
        return err


def _kind(k):
    return _lib.lib().otpu_err_kind_name(k).decode()


BundleInfo = collections.namedtuple("BundleInfo", "path desc args expect_error error")
BundleInfo.__doc__ = """A run bundle's case.txt beyond its Config: desc, args (R8..R15),
expect_error (True: the run must stop with an error) and error (the reference's message)."""


def load_bundle(path, numpy=None):
    """A Machine for the run bundle at path (docs/bundle.md): its Config, programs, DRAM
    images, arguments and host steps (host.txt). Its case.txt is in machine.bundle.
    OtpuInputError when the bundle cannot be read, naming the file and line at fault."""
    lib = _lib.lib()
    raw = os.fsencode(path)
    if b"\0" in raw:
        raise OtpuInputError(f"{path!r}: a path with a NUL byte")
    msg = ctypes.create_string_buffer(1024)
    b = lib.otpu_bundle_open(raw, msg, len(msg))
    if not b:
        raise OtpuInputError(msg.value.decode(errors="replace"))
    err = _lib.ErrorC()
    m = lib.otpu_bundle_machine(b, ctypes.byref(err))
    if not m:
        lib.otpu_bundle_close(b)
        raise OtpuInputError(f"{path}: {err.msg.decode(errors='replace')}", kind=_kind(err.kind))
    machine = Machine._wrap(_Owner(lib, m, b), numpy)
    h = b.contents
    machine.bundle = BundleInfo(os.fspath(path), h.desc.decode(errors="replace"),
                                list(h.args[:h.nargs]), bool(h.expect_error),
                                h.error.decode(errors="replace"))
    return machine
