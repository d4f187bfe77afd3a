"""Machine: an openTPU machine of the C model (sim/machine.h), run, stepped and inspected."""
import array
import collections
import ctypes
import os

from . import _lib
from .config import Config
from .errors import OtpuError, OtpuInputError

try:
    import numpy as _np
except ImportError:            # numpy is optional: bytes and array.array then
    _np = None

REG, TMEM, DRAM, ACT, ASCALE = range(5)          # sim/protocol.h otpu_space
SPACE_NAMES = ("REG", "TMEM", "DRAM", "ACT", "ASCALE")
_TYPECODE = {REG: "I", TMEM: "I", DRAM: "B", ACT: "b", ASCALE: "I"}
_CTYPE = {TMEM: ctypes.c_uint32, DRAM: ctypes.c_uint8, ACT: ctypes.c_int8,
          ASCALE: ctypes.c_uint32}
_NPTYPE = {REG: "uint32", TMEM: "uint32", DRAM: "uint8", ACT: "int8", ASCALE: "uint32"}
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
    lib = _lib.lib()
    w = (ctypes.c_uint32 * 8)(*[int(x) & 0xFFFFFFFF for x in words])
    ins = lib.otpu_decode(w)
    buf = ctypes.create_string_buffer(256)
    lib.otpu_disasm(ctypes.byref(ins), buf, len(buf))
    return buf.value.decode()


def program_words(prog):
    """A program as an array('I') of words. prog: bytes (little-endian words), an array or numpy
    array of words, a flat list of ints, or a list of instructions, each eight words or an
    object with encode() returning them (openTPU's isa.Instr, otpu.asm's)."""
    if prog is None:
        return array.array("I")
    if isinstance(prog, (bytes, bytearray, memoryview)):
        out = array.array("I")
        out.frombytes(bytes(prog))
        return out
    if _np is not None and isinstance(prog, _np.ndarray):
        return array.array("I", _np.ascontiguousarray(prog, dtype=_np.uint32).tobytes())
    items = list(prog)
    out = array.array("I")
    for x in items:
        if hasattr(x, "encode") and not isinstance(x, str):
            x = x.encode()
        if isinstance(x, int) or (_np is not None and isinstance(x, _np.integer)):
            out.append(int(x) & 0xFFFFFFFF)
            continue
        words = [int(v) & 0xFFFFFFFF for v in x]
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
        if unit == 1:
            b = bytes(int(v) & 0xFF for v in vals)
        elif any(isinstance(v, float) for v in vals):
            b = array.array("f", [float(v) for v in vals]).tobytes()
        else:
            b = array.array("I", [int(v) & 0xFFFFFFFF for v in vals]).tobytes()
    if len(b) % unit:
        raise OtpuInputError(f"{len(b)} bytes are not a whole number of {unit}-byte units")
    return b


class Machine:
    """An openTPU machine of config.S slices (see the package docstring for a tour).

    Machine(config, programs, drams, args): config a Config (None: the default); programs[s]
    slice s's program (see program_words); drams[s] its initial DRAM image from address 0
    (bytes-like or numpy; None: zeros); args R8..R15 at the start (up to 8 words).
    numpy: True/False to return numpy arrays from reads or not (None: when numpy is there).
    """

    def __init__(self, config=None, programs=(), drams=(), args=None, numpy=None):
        lib = _lib.lib()
        cfg = config if config is not None else Config()
        c = cfg.to_c()
        err = _lib.ErrorC()
        m = lib.otpu_machine_new(ctypes.byref(c), ctypes.byref(err))
        if not m:
            raise OtpuInputError(err.msg.decode(errors="replace"), kind=_kind(err.kind))
        self._setup(m, None, numpy)
        programs, drams = list(programs or ()), list(drams or ())
        for what, seq in (("programs", programs), ("DRAM images", drams)):
            if len(seq) > self.S:
                raise OtpuInputError(f"{len(seq)} {what} for a machine of {self.S} slices")
        if args is not None:
            self.set_args(args)
        for s, p in enumerate(programs):
            if p is not None:
                self.load_program(s, p)
        for s, d in enumerate(drams):
            if d is not None:
                self.load_dram(s, d)

    def _setup(self, handle, bundle, numpy):
        lib = _lib.lib()
        self._lib, self._m, self._bundle = lib, handle, bundle
        self._logbuf = lib.otpu_logbuf_new()
        self._attached = False
        self.logging = False
        self.bundle = None
        self.numpy = (_np is not None) if numpy is None else bool(numpy)
        if self.numpy and _np is None:
            raise ImportError("numpy=True but numpy cannot be imported")
        self._err = _lib.ErrorC()
        self._which = ctypes.c_int()
        self.config = Config.from_c(lib.otpu_machine_config(handle).contents)
        self.S = self.config.S

    @classmethod
    def _wrap(cls, handle, bundle, numpy):
        self = cls.__new__(cls)
        self._setup(handle, bundle, numpy)
        return self

    # ---------------------------------------------------------------- lifetime
    def close(self):
        """Free the machine (also when the object goes away; memory() views keep it alive)."""
        lib, m = getattr(self, "_lib", None), getattr(self, "_m", None)
        if lib is None or not m:
            return
        lib.otpu_machine_set_listener(m, None)
        lib.otpu_machine_free(m)
        lib.otpu_logbuf_free(self._logbuf)
        if self._bundle:
            lib.otpu_bundle_close(self._bundle)
        self._m = self._bundle = self._logbuf = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if not self._m:
            raise OtpuInputError("the machine was closed")
        return self._m

    # ---------------------------------------------------------------- loading
    def load_program(self, s, prog):
        """Load slice s's program and restart it (pc 0, R8..R15 the run's arguments)."""
        words = program_words(prog)
        ptr = (ctypes.c_uint32 * len(words)).from_buffer(words) if words else None
        if self._lib.otpu_machine_load_program(self._handle(), self._slice(s), ptr, len(words),
                                               ctypes.byref(self._err)):
            raise self._input_error()

    def load_dram(self, s, data, addr=0):
        """Copy an image into slice s's DRAM at a byte address."""
        b = _data_bytes(data, 1)
        if addr < 0:
            raise OtpuInputError(f"slice {s}: DRAM address {addr} is negative")
        if self._lib.otpu_machine_load_dram(self._handle(), self._slice(s), addr, b, len(b),
                                            ctypes.byref(self._err)):
            raise self._input_error()

    def set_args(self, args):
        """The run's arguments: R8..R15 (every slice, now and at each HALT CHAIN)."""
        args = [int(a) & 0xFFFFFFFF for a in args]
        if len(args) > 8:
            raise OtpuInputError(f"{len(args)} run arguments: at most 8 (R8..R15)")
        self._lib.otpu_machine_set_args(self._handle(), (ctypes.c_uint32 * 8)(*args))

    # ---------------------------------------------------------------- running
    def run(self, max_steps=DEFAULT_MAX_STEPS):
        """Run until every slice halts; OtpuError on an error (also more than max_steps
        instructions; 0: no limit). Returns the machine."""
        self._listen(self.logging)
        if self._lib.otpu_machine_run(self._handle(), max_steps):
            raise self._sim_error()
        return self

    def run_to(self, pc, slice=0, max_steps=DEFAULT_MAX_STEPS):
        """Run until `slice` is about to execute the instruction at pc: True. A slice already
        there executes it first (so calls in a row stop at each pass of a loop). False: every
        slice halted first. OtpuError on an error."""
        self._listen(self.logging)
        if pc < 0:
            raise OtpuInputError(f"run to pc {pc}: a pc is not negative")
        rc = self._lib.otpu_machine_run_to(self._handle(), self._slice(slice), pc, max_steps)
        if rc < 0:
            raise self._sim_error()
        return rc == 0

    def step(self, slice=None):
        """Execute one instruction: without a slice, the next one run() would (the first slice
        that can run; when none can, the machine settles). Returns a Step (iterate it for the
        retired instructions and their writes), or None when nothing could run (every slice
        halted; with a slice: that slice is halted or waits). OtpuError on an error, its log
        the failing step's records."""
        lib, m = self._lib, self._handle()
        if not self._attached:
            self._listen(True)
        start = lib.otpu_logbuf_count(self._logbuf)
        if slice is None:
            rc = lib.otpu_machine_step_next(m, ctypes.byref(self._which))
            which = self._which.value
        else:
            rc = lib.otpu_machine_step(m, self._slice(slice))
            which = slice
        recs = self._records(start)
        if not self.logging:
            lib.otpu_logbuf_clear(self._logbuf)
        if rc < 0:
            raise self._sim_error(recs)
        if rc == 1:
            return None
        return Step(which if which >= 0 else None, recs)

    def take_log(self):
        """With logging = True: the instructions retired since the last take_log (by run,
        run_to and step), then forgotten."""
        recs = self._records(0)
        self._lib.otpu_logbuf_clear(self._logbuf)
        return recs

    @property
    def steps(self):
        """Instructions executed by the last run()."""
        return self._lib.otpu_machine_steps(self._handle())

    @property
    def chains(self):
        return self._lib.otpu_machine_chains(self._handle())

    # ---------------------------------------------------------------- state
    def state(self, slice=0):
        v = self._lib.otpu_machine_view(self._handle(), self._slice(slice))
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
        n = self._lib.otpu_final_text(self._handle(), self._slice(slice), buf, len(buf))
        if n < 0 or n >= len(buf):
            raise OtpuError(f"slice {slice}: cannot write the final state")
        return buf.value.decode()

    # ---------------------------------------------------------------- memories
    def units(self, space):
        """How many units space has in one slice (16 registers, TMEM words, DRAM bytes, ...)."""
        return self._lib.otpu_machine_space_units(self._handle(), space)

    def read(self, space, addr, count, slice=0):
        """count units of space from addr: a numpy array (uint32; DRAM uint8, ACT int8) or,
        without numpy, bytes for DRAM and array('I') / array('b') otherwise."""
        unit = self._unit(space)
        if addr < 0 or count < 0:
            raise OtpuInputError(f"slice {slice}: read of {count} at {addr}: negative")
        if self.numpy:
            out = _np.empty(count, dtype=_NPTYPE[space])
            ptr = out.ctypes.data if count else None
        elif space == DRAM:
            out = ctypes.create_string_buffer(count)
            ptr = ctypes.addressof(out)
        else:
            out = array.array(_TYPECODE[space], bytes(count * unit))
            ptr = out.buffer_info()[0] if count else None
        if self._lib.otpu_machine_read(self._handle(), self._slice(slice), space, addr, count,
                                       ptr, ctypes.byref(self._err)):
            raise self._input_error()
        return out.raw if isinstance(out, ctypes.Array) else out

    def write(self, space, addr, data, slice=0):
        """Write data into space at addr (a host write: not logged). data: bytes-like (raw,
        little endian), an array.array or numpy array whose items are the space's unit size
        (any for DRAM: its bytes), or a list of ints (of floats: fp32 bits, for TMEM and
        scales)."""
        unit = self._unit(space)
        b = _data_bytes(data, unit)
        if addr < 0:
            raise OtpuInputError(f"slice {slice}: write at {addr}: negative")
        if self._lib.otpu_machine_write(self._handle(), self._slice(slice), space, addr,
                                        len(b) // unit, b, ctypes.byref(self._err)):
            raise self._input_error()

    def memory(self, space, slice=0):
        """Slice's whole memory of space (TMEM, DRAM, ACT, ASCALE), not a copy: a numpy array
        (a memoryview without numpy) over the model's own memory. Writing it is a host write.
        The view keeps the machine alive; take a new one after load_dram."""
        unit = self._unit(space)
        if space == REG:
            raise OtpuInputError("memory(REG): registers are read with regs() or read(REG, ...)")
        ptr = self._lib.otpu_machine_memory(self._handle(), self._slice(slice), space)
        n = self.units(space)
        buf = (_CTYPE[space] * n).from_address(ptr)
        buf._machine = self             # the memory lives as long as the view
        assert ctypes.sizeof(_CTYPE[space]) == unit
        return _np.ctypeslib.as_array(buf) if self.numpy else memoryview(buf)

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
        return row * self.config.ACT_BLOCKS * self.config.D + col

    def read_act(self, addr, count, slice=0):
        return self.read(ACT, addr, count, slice)

    def write_act(self, addr, values, slice=0):
        self.write(ACT, addr, values, slice)

    def scale_addr(self, row, block):
        return row * self.config.ACT_BLOCKS + block

    def read_scales(self, addr, count, slice=0, f32=False):
        out = self.read(ASCALE, addr, count, slice)
        return self._as_f32(out) if f32 else out

    def write_scales(self, addr, values, slice=0):
        self.write(ASCALE, addr, values, slice)

    def regs(self, slice=0):
        """R0..R15 as a list of ints."""
        return [int(x) for x in self.read(REG, 0, 16, slice)]

    def set_reg(self, r, value, slice=0):
        self.write(REG, r, [int(value) & 0xFFFFFFFF], slice)

    # ---------------------------------------------------------------- helpers
    def _as_f32(self, words):
        if self.numpy:
            return words.view(_np.float32)
        return array.array("f", words.tobytes())

    def _unit(self, space):
        unit = self._lib.otpu_machine_space_unit_bytes(space) if 0 <= space < 5 else 0
        if not unit:
            raise OtpuInputError(f"no memory space {space!r} (REG, TMEM, DRAM, ACT, ASCALE)")
        return unit

    def _slice(self, s):
        if not isinstance(s, int) or not 0 <= s < self.S:
            raise OtpuInputError(f"no slice {s!r}: the machine has {self.S}")
        return s

    def _listen(self, on):
        if on and not self._attached:
            self._lib.otpu_logbuf_attach(self._logbuf, self._m)
        elif not on and self._attached:
            self._lib.otpu_machine_set_listener(self._m, None)
        self._attached = on

    def _records(self, start):
        lib, b = self._lib, self._logbuf
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

    def _sim_error(self, log=()):
        e = self._lib.otpu_machine_error(self._m).contents
        instruction = words = None
        if 0 <= e.slice < self.S:
            v = self._lib.otpu_machine_view(self._m, e.slice)
            if e.pc < v.nprog:
                words = tuple(v.prog[e.pc].w)
                instruction = disasm(words)
        return OtpuError(e.msg.decode(errors="replace"), kind=_kind(e.kind),
                         slice=e.slice if e.slice >= 0 else None, pc=e.pc, n=e.n,
                         addr=e.addr if e.has_addr else None, instruction=instruction,
                         words=words, log=log)


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
    machine = Machine._wrap(m, b, numpy)
    h = b.contents
    machine.bundle = BundleInfo(os.fspath(path), h.desc.decode(errors="replace"),
                                list(h.args[:h.nargs]), bool(h.expect_error),
                                h.error.decode(errors="replace"))
    return machine
