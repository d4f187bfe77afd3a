"""Errors: the simulated error's fields, its stickiness, and bad input: refused by name, never
wrapped, never a crash; a closed machine refuses every call."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import otpu
from otpu import asm as A
from conftest import VECTORS, run_python


def test_simulated_error_carries_slice_pc_instruction_address():
    m = otpu.load_bundle(os.path.join(VECTORS, "isa", "err_vop_hazard"))
    with pytest.raises(otpu.OtpuError) as e:
        m.run()
    err = e.value
    assert (err.kind, err.slice, err.pc, err.n) == ("hazard", 0, 0, 0)
    assert err.addr is not None and f"TMEM {err.addr}" in str(err)
    assert err.instruction.startswith("VOP") and len(err.words) == 8
    assert str(err).startswith("slice 0: pc 0 (n 0) VOP")


def test_error_of_a_later_instruction_and_its_step_log():
    prog = [A.li(1, 1), A.ld(dram=2, tmem=0, n=1), A.halt()]       # misaligned DRAM word
    m = otpu.Machine(otpu.Config(), [prog])
    m.step()
    with pytest.raises(otpu.OtpuError) as e:
        m.step()
    err = e.value
    assert (err.kind, err.slice, err.pc, err.n, err.addr) == ("dram-address", 0, 1, 1, 2)
    assert err.instruction.startswith("LD") and err.words == tuple(prog[1].encode())
    assert len(err.log) == 1 and err.log[0].faulted


def test_past_end_has_no_instruction():
    with pytest.raises(otpu.OtpuError) as e:
        otpu.Machine(otpu.Config(), [[A.nop()]]).run()
    assert e.value.kind == "past-end" and e.value.instruction is None and e.value.pc == 1


@pytest.mark.parametrize("path,why", [
    ("/nonexistent/bundle", "not a bundle folder"),
    (__file__, "not a directory"),
    ("bad\0path", "NUL")])
def test_bad_bundle_path(path, why):
    with pytest.raises(otpu.OtpuInputError, match=why):
        otpu.load_bundle(path)


def test_bad_bundle_contents(tmp_path):
    (tmp_path / "case.txt").write_text("S=1\nD=banana\n")
    with pytest.raises(otpu.OtpuInputError) as e:
        otpu.load_bundle(tmp_path)
    assert "case.txt" in str(e.value)
    copy = tmp_path / "copy"
    shutil.copytree(os.path.join(VECTORS, "isa", "ld_st"), copy)
    (copy / "prog_0.hex").write_text("0000000\n")                   # 7 digits, 1 word
    with pytest.raises(otpu.OtpuInputError, match="prog_0.hex"):
        otpu.load_bundle(copy)


def test_bad_config_and_programs():
    with pytest.raises(otpu.OtpuInputError, match="Config"):
        otpu.Machine(otpu.Config(S=0))
    with pytest.raises(otpu.OtpuInputError, match="revision"):
        otpu.Config(rev="nope").to_c()
    with pytest.raises(TypeError, match="no field"):
        otpu.Config(BOGUS=1)
    with pytest.raises(otpu.OtpuInputError, match="whole number of instructions"):
        otpu.Machine(otpu.Config(), [[1, 2, 3]])
    with pytest.raises(otpu.OtpuInputError, match="DRAM image"):
        otpu.Machine(otpu.Config(DRAM_BYTES=4096), [], [bytes(8192)])
    with pytest.raises(otpu.OtpuInputError, match="2 programs for a machine of 1"):
        otpu.Machine(otpu.Config(), [[], []])


def test_missing_library_is_a_clear_error():
    env = dict(os.environ, OTPU_LIBOTPUSIM="/nonexistent/libotpusim.so")
    r = subprocess.run([sys.executable, "-c", "import otpu; otpu.Config()"], env=env,
                       cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       capture_output=True, text=True)
    assert r.returncode == 1 and "OTPU_LIBOTPUSIM=/nonexistent/libotpusim.so: no such file" \
        in r.stderr


def test_installed_layout_is_found(tmp_path):
    """The package under <prefix>/share/otpu-lockstep/python finds <prefix>/lib/<triplet>/."""
    pkg = tmp_path / "share" / "otpu-lockstep" / "python"
    shutil.copytree(os.path.dirname(otpu.__file__), pkg / "otpu")
    libdir = tmp_path / "lib" / "x86_64-linux-gnu"
    libdir.mkdir(parents=True)
    shutil.copy(otpu.library_path(), libdir / "libotpusim.so")
    env = {k: v for k, v in os.environ.items() if k != "OTPU_LIBOTPUSIM"}
    r = subprocess.run([sys.executable, "-c", "import otpu; print(otpu.library_path())"],
                       env=env, cwd=pkg, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(libdir / "libotpusim.so")


# ---------------------------------------------------------------- a simulated error is sticky

def _stopped_machine():
    """A machine stopped by an error at pc 1 (a misaligned LD), after a step that wrote R1."""
    m = otpu.Machine(otpu.Config(), [[A.li(1, 1), A.ld(dram=2, tmem=0, n=1), A.halt()]])
    m.write_tmem(0, [7])
    m.step()
    with pytest.raises(otpu.OtpuError) as e:
        m.step()
    return m, e.value


def _snapshot(m):
    return m.state(), m.regs(), list(m.read_tmem(0, 16)), bytes(m.read_dram(0, 64)), m.steps


@pytest.mark.parametrize("again", [lambda m: m.step(), lambda m: m.step(0), lambda m: m.run(),
                                   lambda m: m.run(0), lambda m: m.run_to(2),
                                   lambda m: m.run_to(0, max_steps=0)],
                         ids=["step", "step(0)", "run", "run(0)", "run_to", "run_to(0)"])
def test_an_error_is_sticky(again):
    m, first = _stopped_machine()
    before = _snapshot(m)
    for _ in range(2):
        with pytest.raises(otpu.OtpuError) as e:
            again(m)
        err = e.value
        assert err is not first                                    # a fresh exception ...
        assert (err.kind, err.slice, err.pc, err.n, err.addr, str(err), err.words) == \
            (first.kind, first.slice, first.pc, first.n, first.addr, str(first), first.words)
        assert [r.pc for r in err.log] == [r.pc for r in first.log] == [1]   # ... the same one
        assert _snapshot(m) == before                              # and nothing changed


def test_an_error_of_run_is_sticky_and_the_model_agrees():
    m = otpu.load_bundle(os.path.join(VECTORS, "isa", "err_vop_hazard"))
    with pytest.raises(otpu.OtpuError) as first:
        m.run()
    with pytest.raises(otpu.OtpuError, match="hazard"):
        m.step()
    m.load_program(0, [A.halt()])                      # a new program does not restart it
    before = _snapshot(m)
    with pytest.raises(otpu.OtpuError, match="hazard"):
        m.run()
    # the C model keeps the error too: past the binding's own check, it refuses to run
    m._stopped = None
    with pytest.raises(otpu.OtpuError) as again:
        m.step()
    assert str(again.value) == str(first.value) and _snapshot(m) == before


def test_a_step_limit_is_not_sticky():
    m = otpu.Machine(otpu.Config(), [[A.loop(1, 100), A.nop(), A.halt()]])
    with pytest.raises(otpu.OtpuError) as e:
        m.run(max_steps=10)
    assert e.value.kind == "step-limit"
    m.run()                                            # as in C: a later call runs on
    assert m.halted()


# ---------------------------------------------------------------- bad values never wrap

M = dict(S=2, DRAM_BYTES=1 << 16)
BAD = [   # (call on a machine of Config(**M), the exception, words its message holds)
    # Config fields: checked when set, against their C types
    (lambda m: otpu.Config(D=2**64 + 32), OverflowError, "Config.D 18446744073709551648 uint32_t"),
    (lambda m: otpu.Config(DRAM_BYTES=2**64), OverflowError, "Config.DRAM_BYTES uint64_t"),
    (lambda m: otpu.Config(S=-1), otpu.OtpuInputError, "Config.S -1 negative"),
    (lambda m: otpu.Config(D=32.0), TypeError, "Config.D integer float"),
    (lambda m: otpu.Config(S=True), TypeError, "Config.S integer bool"),
    (lambda m: setattr(m.config, "TMEM_WORDS", -1), otpu.OtpuInputError, "TMEM_WORDS negative"),
    (lambda m: otpu.Machine(otpu.Config(PAIR=2)), otpu.OtpuInputError, "PAIR 0 or 1"),
    (lambda m: otpu.Config(rev=None), TypeError, "Config.rev str"),
    (lambda m: otpu.Config(rev="current\0x").to_c(), otpu.OtpuInputError, "unknown revision"),
    (lambda m: otpu.Machine({"S": 1}), TypeError, "otpu.Config dict"),
    # programs and DRAM images: one per slice, or none (a slice left out is no run)
    (lambda m: otpu.Machine(otpu.Config(S=2), [[A.halt()]]), otpu.OtpuInputError,
     "1 programs for a machine of 2 slices"),
    (lambda m: otpu.Machine(otpu.Config(S=3), [None, [A.halt()]], []), ValueError,
     "2 programs for a machine of 3 slices"),
    (lambda m: otpu.Machine(otpu.Config(S=2), [], [b"\0" * 4]), otpu.OtpuInputError,
     "1 DRAM images for a machine of 2 slices"),
    (lambda m: otpu.Machine(otpu.Config(S=2), [None, None], [None] * 3), ValueError,
     "3 DRAM images for a machine of 2 slices"),
    # an address and a count: each fits uint64_t, both ends within the space, before C
    (lambda m: m.write_tmem(2**64, [5]), OverflowError, "addr 18446744073709551616 uint64_t"),
    (lambda m: m.read_dram(2**64 - 1, 2), otpu.OtpuInputError,
     "slice 0: read of 2 at 18446744073709551615 out of range: DRAM has 65536"),
    (lambda m: m.read_tmem(0, 2**40), otpu.OtpuInputError, "read of 1099511627776 out of range"),
    (lambda m: m.read_act(0, 2**64), OverflowError, "count 18446744073709551616"),
    (lambda m: m.read(otpu.TMEM, -1, 1), otpu.OtpuInputError, "addr -1 negative"),
    (lambda m: m.read(otpu.TMEM, 0, -1), otpu.OtpuInputError, "count -1 negative"),
    (lambda m: m.read(otpu.TMEM, 1.0, 1), TypeError, "addr integer float"),
    (lambda m: m.write_scales(4095, [1, 2], 1), otpu.OtpuInputError,
     "slice 1: write of 2 at 4095 out of range: ASCALE has 512"),
    (lambda m: m.load_dram(0, b"abcd", 2**16 - 2), otpu.OtpuInputError,
     "DRAM image of 4 at 65534 out of range"),
    (lambda m: m.load_dram(0, b"abcd", 2**64), OverflowError, "addr uint64_t"),
    # slices, memory spaces, registers, ACT rows, columns and blocks
    (lambda m: m.read_tmem(0, 1, slice=2), otpu.OtpuInputError, "no slice 2: the machine has 2"),
    (lambda m: m.step(2**32), OverflowError, "slice 4294967296 uint32_t"),
    (lambda m: m.state(-1), otpu.OtpuInputError, "slice -1 negative"),
    (lambda m: m.final_text(True), TypeError, "slice bool"),
    (lambda m: m.load_program(1.0, []), TypeError, "slice float"),
    (lambda m: m.read(5, 0, 1), otpu.OtpuInputError, "no memory space 5"),
    (lambda m: m.units(True), TypeError, "memory space bool"),
    (lambda m: m.memory(otpu.REG), otpu.OtpuInputError, "memory(REG) regs()"),
    (lambda m: m.set_reg(16, 0), otpu.OtpuInputError, "no register 16: R0..R15"),
    (lambda m: m.act_addr(8, 0), otpu.OtpuInputError, "no ACT row 8: 8 rows"),
    (lambda m: m.act_addr(0, 2048), otpu.OtpuInputError, "no ACT column 2048"),
    (lambda m: m.scale_addr(0, 64), otpu.OtpuInputError, "no ACT block 64"),
    # running
    (lambda m: m.run(-1), otpu.OtpuInputError, "max_steps -1 negative"),
    (lambda m: m.run(2**64), OverflowError, "max_steps uint64_t"),
    (lambda m: m.run(1e6), TypeError, "max_steps float"),
    (lambda m: m.run_to(2**32), OverflowError, "pc 4294967296 uint32_t"),
    (lambda m: m.run_to(0, max_steps=None), TypeError, "max_steps NoneType"),
    # values: 32-bit words and bytes (two's complement down to -2**31, -128), never wrapped
    (lambda m: m.set_reg(1, 2**32), OverflowError, "R1's value 4294967296 32 bits"),
    (lambda m: m.set_reg(1, -2**31 - 1), OverflowError, "R1's value -2147483649"),
    (lambda m: m.set_args([0, 2**32]), OverflowError, "run argument 1"),
    (lambda m: m.set_args([0] * 9), otpu.OtpuInputError, "9 run arguments"),
    (lambda m: m.write_dram(0, [256]), OverflowError, "data[0] 256 8 bits"),
    (lambda m: m.write_act(0, [0, -129]), OverflowError, "data[1] -129"),
    (lambda m: m.write_tmem(0, [True]), TypeError, "data[0] bool"),
    (lambda m: m.write_tmem(0, [1.0, "x"]), TypeError, "data of floats"),
    (lambda m: m.load_program(0, [[1] * 7 + [2**32]]), OverflowError, "program word 7"),
    (lambda m: m.load_program(0, [1.5] * 8), TypeError, "program word 0 float"),
    (lambda m: m.load_program(0, "abcdefgh"), TypeError, "program word 0 str"),
    (lambda m: m.load_program(0, np.full(8, 2**32)), OverflowError, "program words 32 bits"),
    (lambda m: m.load_program(0, np.ones(8, bool)), TypeError, "program word 0 bool"),
    (lambda m: m.load_program(0, b"abc"), otpu.OtpuInputError, "3 bytes whole number"),
    (lambda m: otpu.disasm([0] * 7), otpu.OtpuInputError, "8 words, not 7"),
    (lambda m: otpu.disasm([2**32] + [0] * 7), OverflowError, "instruction word 0"),
    (lambda m: A.li(1, 2**32), OverflowError, "immediate w1 4294967296 32 bits"),
    (lambda m: A.ld(dram=0, tmem=0.5, n=1), TypeError, "immediate w2 float"),
]


@pytest.mark.parametrize("call,exc,words", BAD, ids=[w for _, _, w in BAD])
def test_bad_values_are_refused_by_name(call, exc, words):
    m = otpu.Machine(otpu.Config(**M))
    with pytest.raises(exc) as e:
        call(m)
    for w in words.split():
        assert w in str(e.value)


def test_one_program_and_image_per_slice_or_none():
    m = otpu.Machine(otpu.Config(S=2), [[A.halt()], None], [None, b"\1\2\3\4"])
    assert list(m.read_dram(0, 4, slice=1)) == [1, 2, 3, 4] and m.halted(0) is False
    otpu.Machine(otpu.Config(S=2))                     # none: each slice's is empty
    otpu.Machine(otpu.Config(S=2), [], [])


def test_good_values_at_the_edges():
    m = otpu.Machine(otpu.Config(**M))
    m.set_reg(1, -1)                                   # two's complement
    m.set_reg(2, np.uint32(2**32 - 1))                 # numpy's integers are integers
    m.set_args([-2**31])
    assert m.regs()[1:3] == [2**32 - 1] * 2 and m.regs()[8] == 2**31
    m.write_dram(2**16 - 2, [-1, 255])                 # the last two bytes
    assert bytes(m.read_dram(2**16 - 2, 2)) == b"\xff\xff" and len(m.read_dram(2**16, 0)) == 0
    m.write_scales(m.scale_addr(7, 63), [0.5])         # the last row and block
    assert m.scale_addr(7, 63) == 511 and m.act_addr(7, 2047) == 8 * 2048 - 1
    assert otpu.Config(PAIR=True, DSTEP=False).PAIR == 1   # the flags take a bool
    for s in range(2):
        m.load_program(s, np.array([A.halt().encode()], np.int64))   # one row per instruction
    m.run(np.uint64(2**64 - 1))


CLOSED = [lambda m: m.run(), lambda m: m.run_to(0), lambda m: m.step(), lambda m: m.step(0),
          lambda m: m.state(), lambda m: m.final_text(), lambda m: m.units(otpu.TMEM),
          lambda m: m.read_tmem(0, 1), lambda m: m.write_tmem(0, [1]), lambda m: m.regs(),
          lambda m: m.memory(otpu.TMEM), lambda m: m.set_reg(1, 1), lambda m: m.set_args([]),
          lambda m: m.load_program(0, []), lambda m: m.load_dram(0, b"x"),
          lambda m: m.take_log(), lambda m: m.steps, lambda m: m.chains]


@pytest.mark.parametrize("call", CLOSED)
def test_a_closed_machine_refuses_everything(call):
    m = otpu.Machine(otpu.Config(), [[A.halt()]])
    m.logging = True                                   # run() and step() would attach the log
    with m:
        pass
    with pytest.raises(otpu.OtpuInputError, match="the machine is closed"):
        call(m)
    m.close()                                          # closing twice is fine


@pytest.mark.parametrize("numpy", ["numpy", "hidden"])
def test_no_bad_value_crashes(numpy):
    """Every entry point with values near 0, 2**31, 2**32, 2**63, 2**64, negative, huge, of the
    wrong type, on a fresh, a closed and a stopped machine: in a subprocess (a crash is a
    signal there, not the end of this run)."""
    r = run_python(os.path.join(os.path.dirname(__file__), "sweep_bad_values.py"), numpy)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-3000:]}"
    assert r.stdout.startswith("ok ") and int(r.stdout.split()[1]) > 1000
