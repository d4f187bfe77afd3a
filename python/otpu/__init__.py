"""otpu: Python binding of libotpusim, the bit-exact C model of the openTPU ISA.

Standard library only (ctypes); numpy is optional: with it, memory reads return numpy arrays
and Machine.memory() maps the model's memory without a copy; without it, reads return bytes
(DRAM) and array.array objects.

    import otpu
    m = otpu.load_bundle("../shared/vectors/isa/vop_chain_1")   # or otpu.Machine(cfg, progs, drams)
    m.run()                                                     # OtpuError on a simulated error
    print(m.read_tmem(0, 4, f32=True), m.regs(), m.final_text())
    for rec in otpu.Machine(otpu.Config(), [prog]).step(): print(rec, rec.writes)

The machine (Machine): load_bundle(path) or Machine(config, programs, drams, args); run(),
step(slice=None) (returns the Step's retired instructions and their writes), run_to(pc,
slice); read/write of TMEM, DRAM, ACT RAM, scales and registers (read_tmem, write_tmem,
read_dram, ..., regs, set_reg; or read(space, addr, count) with the spaces REG, TMEM, DRAM,
ACT, ASCALE); state(slice) (pc, icount, halted, loops); final_text(slice) (the golden
final_<s>.txt). Errors: OtpuError (slice, pc, n, instruction, words, addr, kind), sticky: a
machine stopped by one raises it again; OtpuInputError for bad input (a bundle that cannot be
read, an access out of range, a closed machine); every integer is checked before it reaches C
(TypeError for a float or a bool, OverflowError when too big for its C type).
otpu.isasim is a thin layer with the public surface of openTPU's isasim (Config, Machine,
slices with tget/tput, SimError) over the same model; otpu.asm builds instructions.

Finding libotpusim.so, first match wins:
  1. the environment variable OTPU_LIBOTPUSIM: its full path (an error if it is not a file);
  2. beside this package: the source tree's build/sim/libotpusim.so (python/otpu here, meson's
     build folder named build at the top), then the installed layout: this package under
     <prefix>/share/otpu-lockstep/python/otpu and the library in <prefix>/lib/<triplet>/,
     <prefix>/lib64/ or <prefix>/lib/;
  3. ctypes.util.find_library("otpusim") (the system's library path, ldconfig).
otpu.library_path() tells which one was loaded. final_text() also loads libotpugolden (the
golden formats, beside the model) from that library's folder (in a meson build: build/golden
beside build/sim), else the system's library path.
"""
from . import _lib
from .config import Config
from .errors import OtpuError, OtpuInputError
from .machine import (ACT, ASCALE, DEFAULT_MAX_STEPS, DRAM, REG, SPACE_NAMES, TMEM, BundleInfo,
                      Machine, Retired, SliceState, Step, Write, disasm, load_bundle,
                      program_words)

__all__ = ["Config", "Machine", "load_bundle", "OtpuError", "OtpuInputError", "Step", "Retired",
           "Write", "SliceState", "BundleInfo", "REG", "TMEM", "DRAM", "ACT", "ASCALE",
           "SPACE_NAMES", "DEFAULT_MAX_STEPS", "disasm", "program_words", "library_path"]


def library_path():
    """The path of the libotpusim this package loaded (loading it if not yet)."""
    return _lib.lib().path
