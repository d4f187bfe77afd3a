"""Finding libotpusim and declaring its C functions for ctypes (see the package docstring)."""
import ctypes
import ctypes.util
import glob
import os

c_u8, c_u32, c_u64, c_int, c_size = (ctypes.c_uint8, ctypes.c_uint32, ctypes.c_uint64,
                                     ctypes.c_int, ctypes.c_size_t)
P = ctypes.c_void_p

ENV = "OTPU_LIBOTPUSIM"
NAME = "libotpusim.so"


class ConfigC(ctypes.Structure):           # sim/config.h otpu_config
    _fields_ = [("S", c_u32), ("D", c_u32), ("MCOLS", c_u32), ("ACT_BLOCKS", c_u32),
                ("TMEM_WORDS", c_u64), ("DRAM_BYTES", c_u64), ("IMEM_WORDS", c_u64),
                ("LANES", c_u32), ("PAIR", c_u32), ("DSTEP", c_u32), ("STREAM", c_u32),
                ("ACT_ROWS", c_u32), ("revision", c_int)]


class ErrorC(ctypes.Structure):            # sim/error.h otpu_error
    _fields_ = [("kind", c_int), ("slice", c_int), ("pc", c_u32), ("n", c_u64),
                ("has_addr", c_int), ("addr", c_u64), ("msg", ctypes.c_char * 640)]


class InstrC(ctypes.Structure):            # sim/isa.h otpu_instr
    _fields_ = [("w", c_u32 * 8), ("op", c_u8), ("ra", c_u8), ("rb", c_u8), ("rc", c_u8),
                ("rd", c_u8), ("flags", c_u8)]


class LoopC(ctypes.Structure):
    _fields_ = [("start", c_u32), ("end", c_u32), ("iteration", c_u32), ("total", c_u32)]


class ViewC(ctypes.Structure):             # sim/machine.h otpu_slice_view
    _fields_ = [("dram", P), ("tmem", P), ("act", P), ("ascale", P),
                ("R", ctypes.POINTER(c_u32)), ("pc", c_u32), ("icount", c_u64),
                ("stalls", c_u64), ("halted", c_int), ("failed", c_int),
                ("prog", ctypes.POINTER(InstrC)),
                ("nprog", c_u32), ("loop_depth", ctypes.c_uint), ("loops", LoopC * 4)]


class WriteC(ctypes.Structure):            # sim/log.h otpu_write
    _fields_ = [("addr", c_u64), ("old", c_u32), ("val", c_u32), ("space", c_u8),
                ("mask", c_u8)]


class LoggedC(ctypes.Structure):           # sim/logbuf.h otpu_logged
    _fields_ = [("n", c_u64), ("first", c_u64), ("nwrites", c_u64), ("slice", c_u32),
                ("pc", c_u32), ("words", c_u32 * 8), ("chain_addr", c_u32),
                ("chain_count", c_u32), ("has_ins", c_u8), ("faulted", c_u8), ("chain", c_u8),
                ("pad", c_u8)]


class BundleHeadC(ctypes.Structure):       # sim/bundle.h otpu_bundle, its leading fields only
    _fields_ = [("cfg", ConfigC), ("rev_line", c_int), ("desc", ctypes.c_char * 4097),
                ("args", c_u32 * 8), ("nargs", ctypes.c_uint), ("expect_error", c_int),
                ("error", ctypes.c_char * 4097)]


def candidates(here=None):
    """The paths tried after OTPU_LIBOTPUSIM, in order (the package docstring explains them)."""
    here = here or os.path.dirname(os.path.abspath(__file__))
    out = []
    # the source tree: python/otpu beside build/sim (meson setup build)
    out.append(os.path.join(here, "..", "..", "build", "sim", NAME))
    # installed: <prefix>/share/otpu-lockstep/python/otpu, the library in <prefix>/lib*/
    prefix = os.path.join(here, "..", "..", "..", "..")
    for pattern in ("lib/*-linux-gnu*/", "lib64/", "lib/"):
        out.extend(sorted(glob.glob(os.path.join(prefix, pattern, NAME + "*"))))
    return [os.path.normpath(p) for p in out]


def find():
    """The path of libotpusim to load; raises OSError naming every place looked at."""
    path = os.environ.get(ENV)
    if path:
        if not os.path.isfile(path):
            raise OSError(f"{ENV}={path}: no such file")
        return path
    tried = candidates()
    for p in tried:
        if os.path.isfile(p):
            return p
    found = ctypes.util.find_library("otpusim")
    if found:
        return found
    raise OSError("libotpusim not found: set %s to its path (looked at %s, then the system's "
                  "library path)" % (ENV, ", ".join(tried) or "nothing"))


def _declare(lib):
    def f(name, res, *args):
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, list(args)
    E = ctypes.POINTER(ErrorC)
    cfgp = ctypes.POINTER(ConfigC)
    f("otpu_config_default", ConfigC)
    f("otpu_config_design", ConfigC)
    f("otpu_config_board", ConfigC)
    f("otpu_config_check", c_int, cfgp, ctypes.c_char_p, c_size)
    f("otpu_config_get", c_u64, cfgp, c_int)
    f("otpu_config_field_name", ctypes.c_char_p, c_int)
    f("otpu_rev_name", ctypes.c_char_p, c_int)
    f("otpu_rev_from_name", c_int, ctypes.c_char_p, ctypes.POINTER(c_int))
    f("otpu_err_kind_name", ctypes.c_char_p, c_int)
    f("otpu_op_name", ctypes.c_char_p, ctypes.c_uint)
    f("otpu_decode", InstrC, ctypes.POINTER(c_u32))
    f("otpu_disasm", c_int, ctypes.POINTER(InstrC), ctypes.c_char_p, c_size)
    f("otpu_machine_new", P, cfgp, E)
    f("otpu_machine_free", None, P)
    f("otpu_machine_config", cfgp, P)
    f("otpu_machine_load_program", c_int, P, c_u32, ctypes.POINTER(c_u32), c_size, E)
    f("otpu_machine_load_dram", c_int, P, c_u32, c_u64, ctypes.c_char_p, c_size, E)
    f("otpu_machine_set_args", None, P, ctypes.POINTER(c_u32))
    f("otpu_machine_set_listener", None, P, P)
    f("otpu_machine_run", c_int, P, c_u64)
    f("otpu_machine_step", c_int, P, c_u32)
    f("otpu_machine_settle", c_int, P)
    f("otpu_machine_steps", c_u64, P)
    f("otpu_machine_error", E, P)
    f("otpu_machine_slices", c_u32, P)
    f("otpu_machine_view", ViewC, P, c_u32)
    f("otpu_machine_chains", c_u64, P)
    f("otpu_machine_space_units", c_u64, P, c_int)
    f("otpu_machine_space_unit_bytes", ctypes.c_uint, c_int)
    f("otpu_machine_read", c_int, P, c_u32, c_int, c_u64, c_u64, P, E)
    f("otpu_machine_write", c_int, P, c_u32, c_int, c_u64, c_u64, P, E)
    f("otpu_machine_memory", P, P, c_u32, c_int)
    f("otpu_machine_run_to", c_int, P, c_u32, c_u32, c_u64)
    f("otpu_machine_clear_error", None, P)
    f("otpu_machine_step_next", c_int, P, ctypes.POINTER(c_int))
    f("otpu_bundle_open", ctypes.POINTER(BundleHeadC), ctypes.c_char_p, ctypes.c_char_p, c_size)
    f("otpu_bundle_close", None, ctypes.POINTER(BundleHeadC))
    f("otpu_bundle_machine", P, ctypes.POINTER(BundleHeadC), E)
    f("otpu_logbuf_new", P)
    f("otpu_logbuf_free", None, P)
    f("otpu_logbuf_attach", None, P, P)
    f("otpu_logbuf_clear", None, P)
    f("otpu_logbuf_count", c_size, P)
    f("otpu_logbuf_records", ctypes.POINTER(LoggedC), P)
    f("otpu_logbuf_writes", ctypes.POINTER(WriteC), P)
    f("otpu_logbuf_lost", c_int, P)


def config_keys(lib):
    """Config's keys as the library reads them (sim/config.c, the one list), in case.txt's
    order."""
    keys = []
    while (name := lib.otpu_config_field_name(len(keys))) is not None:
        keys.append(name.decode())
    return keys


def _check_layout(lib):
    """The ctypes mirror of otpu_config must match the library's: its fields are the library's
    Config keys, in order, and hold the same values."""
    c = lib.otpu_config_design()
    names = [n for n, _ in ConfigC._fields_ if n != "revision"]
    keys = config_keys(lib)
    if names != keys:
        raise OSError("libotpusim's Config keys (%s) do not match this binding's (%s)"
                      % (" ".join(keys), " ".join(names)))
    for i, name in enumerate(names):
        if lib.otpu_config_get(ctypes.byref(c), i) != getattr(c, name):
            raise OSError(f"libotpusim's otpu_config does not match this binding (field {name})")


def _check_view(lib):
    """The mirror of otpu_slice_view must match too (a field added in C shifts the pointers
    after it, and reading through one would crash): a machine of one HALT, its view compared
    with what the library says elsewhere."""
    c, err = lib.otpu_config_default(), ErrorC()
    m = lib.otpu_machine_new(ctypes.byref(c), ctypes.byref(err))
    if not m:
        return                  # (Machine() will report why: a bad $OTPU_DOT_PATH, no memory)
    try:
        halt = (c_u32 * 8)(1)
        lib.otpu_machine_load_program(m, 0, halt, 8, ctypes.byref(err))
        v = lib.otpu_machine_view(m, 0)
        # the pointers and counts first: prog is read only once they are right
        ok = ([v.tmem, v.dram, v.act, v.ascale] == [lib.otpu_machine_memory(m, 0, sp)
                                                    for sp in (1, 2, 3, 4)]
              and (v.pc, v.icount, v.halted, v.failed, v.nprog, v.loop_depth) == (0, 0, 0, 0, 1, 0)
              and v.prog[0].w[0] == 1)
    finally:
        lib.otpu_machine_free(m)
    if not ok:
        raise OSError("libotpusim's otpu_slice_view does not match this binding")


def load():
    path = find()
    lib = ctypes.CDLL(path)
    try:
        _declare(lib)
    except AttributeError as e:
        raise OSError(f"{path}: not a libotpusim this binding can use ({e})") from None
    _check_layout(lib)
    _check_view(lib)
    lib.path = path
    return lib


_lib = None
_golden = None


def lib():
    """The loaded library (loaded on first use)."""
    global _lib
    if _lib is None:
        _lib = load()
    return _lib


def golden():
    """libotpugolden (the golden formats: final_text), beside the loaded libotpusim (installed)
    or in its own folder of the meson build the loaded build/sim/libotpusim belongs to
    (build/golden), loaded on first use. libotpudigest (build/digest), which it needs, is
    loaded from there first: installed, neither may be on the loader's path."""
    global _golden
    if _golden is None:
        here = os.path.dirname(lib().path)
        for name, folder in (("libotpudigest.so", "digest"), ("libotpugolden.so", "golden")):
            # (a file: a build folder made before the libraries had folders of their own may
            # hold dangling links of theirs beside libotpusim)
            found = [p for p in sorted(glob.glob(os.path.join(here, name + "*")))
                     if os.path.isfile(p)]
            if not found and os.path.basename(here) == "sim":
                found = sorted(glob.glob(os.path.join(os.path.dirname(here), folder, name + "*")))
            path = found[0] if found else ctypes.util.find_library(name[3:-3])
            if not path:
                raise OSError(f"{name} not found beside {lib().path} nor on the system's "
                              "library path")
            loaded = ctypes.CDLL(path)
        loaded.otpu_final_text.restype = c_int
        loaded.otpu_final_text.argtypes = [P, c_u32, ctypes.c_char_p, c_size]
        _golden = loaded
    return _golden
