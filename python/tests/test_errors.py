"""Errors: the simulated error's fields, and bad input that never crashes."""
import os
import shutil
import subprocess
import sys

import pytest

import otpu
from otpu import asm as A
from conftest import VECTORS


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
