"""Reading and writing TMEM, DRAM, ACT RAM, scales and registers, with and without numpy."""
import array

import numpy as np
import pytest

import otpu
from otpu import asm as A
from conftest import run_python


@pytest.fixture(params=[True, False], ids=["numpy", "stdlib"])
def m(request):
    return otpu.Machine(otpu.Config(S=2, DRAM_BYTES=1 << 16), numpy=request.param)


def test_round_trips(m):
    m.write_tmem(10, [1, 2, 0xFFFFFFFF], slice=1)
    assert list(m.read_tmem(9, 5, slice=1)) == [0, 1, 2, 0xFFFFFFFF, 0]
    assert list(m.read_tmem(10, 3, slice=0)) == [0, 0, 0]          # slices are apart
    m.write_tmem(0, [1.5, -2.0])                                   # floats: fp32 bits
    assert list(m.read_tmem(0, 2, f32=True)) == [1.5, -2.0]
    m.write_dram(100, b"\x01\x02\xff")
    got = m.read_dram(99, 5)
    assert bytes(got) == b"\x00\x01\x02\xff\x00"
    assert isinstance(got, np.ndarray) == m.numpy and (m.numpy or isinstance(got, bytes))
    a = m.act_addr(1, 3)
    m.write_act(a, [-1, 127, -128])
    assert list(m.read_act(a, 3)) == [-1, 127, -128]
    m.write_scales(m.scale_addr(2, 1), array.array("f", [0.25]))
    assert list(m.read_scales(m.scale_addr(2, 1), 1, f32=True)) == [0.25]
    m.set_reg(3, 0x12345678)
    m.set_reg(0, 99)                                               # R0 stays zero
    assert m.regs()[:4] == [0, 0, 0, 0x12345678]


def test_numpy_arrays_write_their_bits():
    m = otpu.Machine(otpu.Config())
    m.write_tmem(0, np.array([1.0, 2.0], np.float32))
    assert list(m.read_tmem(0, 2)) == [0x3F800000, 0x40000000]
    with pytest.raises(otpu.OtpuInputError, match="dtype"):
        m.write_tmem(0, np.zeros(2, np.float64))


def test_written_state_is_what_the_program_sees():
    prog = [A.ld(dram=64, tmem=0, n=2, ra=1),
            A.vop(A.V_ADD, dst=2, a=0, b=1, rows=1, cols=1), A.st(dram=0, tmem=2, n=1), A.halt()]
    m = otpu.Machine(otpu.Config(), [prog])
    m.write_dram(64 + 8, np.array([1.25, 2.5], np.float32).tobytes())
    m.set_reg(1, 8)                                                # LD reads at 64 + R1
    m.run()
    assert list(m.read_dram(0, 4)) == list(np.array([3.75], np.float32).view(np.uint8))


def test_memory_views_are_the_model():
    m = otpu.Machine(otpu.Config())
    t = m.memory(otpu.TMEM)
    assert t.shape == (m.config.TMEM_WORDS,)
    t[5] = 7
    assert m.read_tmem(5, 1)[0] == 7
    m.write_tmem(6, [8])
    assert t[6] == 8
    del m                                                          # the view keeps it alive
    assert t[5] == 7


@pytest.mark.parametrize("space,addr,count,kind", [
    (otpu.TMEM, 65535, 2, "tmem-range"), (otpu.DRAM, 1 << 20, 1, "dram-address"),
    (otpu.REG, 15, 2, "bounds"), (otpu.ACT, 0, 1 << 30, "bounds")])
def test_out_of_range_is_an_error_naming_it(space, addr, count, kind):
    m = otpu.Machine(otpu.Config())
    for op in ("read", "write"):
        with pytest.raises(otpu.OtpuInputError) as e:
            if op == "read":
                m.read(space, addr, count)
            else:
                m.write(space, addr, bytes(count * (1 if space in (otpu.DRAM, otpu.ACT) else 4)))
        assert e.value.kind == kind and e.value.slice == 0 and e.value.addr == addr
        assert "slice 0" in str(e.value) and "out of range" in str(e.value)


def test_bad_slice_and_space():
    m = otpu.Machine(otpu.Config(S=2))
    with pytest.raises(otpu.OtpuInputError, match="no slice 2"):
        m.read_tmem(0, 1, slice=2)
    with pytest.raises(otpu.OtpuInputError, match="no memory space"):
        m.read(7, 0, 1)


VIEWS_AFTER_CLOSE = """
import gc, sys, weakref
if sys.argv[1] == "hidden":
    sys.modules["numpy"] = None                      # "import numpy" fails: the stdlib path
import otpu
assert (otpu.machine._np is None) == (sys.argv[1] == "hidden")
make = lambda: otpu.Machine(otpu.Config(TMEM_WORDS=4096))
m = make()
t = m.memory(otpu.TMEM)
part = t[8:16]
t[5] = 7
owner = weakref.ref(m._owner)
m.close()
try:
    m.read_tmem(5, 1)
    raise AssertionError("a closed machine was read")
except otpu.OtpuInputError as e:
    assert "the machine is closed" in str(e)
assert t[5] == 7 and len(t) == 4096                  # the memory it showed, still there
t[6] = 8
part[0] = 9
assert t[6] == 8 and t[8] == 9 and part[0] == 9
with make() as m2:                                   # a view taken in a with block
    d = m2.memory(otpu.DRAM)
d[100] = 1
assert d[100] == 1 and len(d) == 1 << 20
a = make().memory(otpu.ACT)                          # its Machine is collected at once
a[0] = -1
assert a[0] == -1
del t
gc.collect()
assert owner() is not None                           # part still shows that memory
del part
gc.collect()
assert owner() is None                               # freed with the last view
print("ok")
"""


@pytest.mark.parametrize("numpy", ["numpy", "hidden"])
def test_views_outlive_close_and_never_read_freed_memory(numpy):
    """memory() views after close(), a with block or the Machine's collection: the memory stays
    until the last view goes (with numpy: arrays; without: memoryviews). In a subprocess: a
    use of freed memory would crash it, not this run."""
    r = run_python("-c", VIEWS_AFTER_CLOSE, numpy)
    assert r.returncode == 0 and r.stdout == "ok\n", f"exit {r.returncode}: {r.stderr[-3000:]}"


def test_memoryviews_without_numpy():
    m = otpu.Machine(otpu.Config(), numpy=False)
    t, act = m.memory(otpu.TMEM), m.memory(otpu.ACT)
    assert isinstance(t, memoryview) and t.format == "I" and act.format == "b"
    t[3] = 0xFFFFFFFF
    act[1] = -5
    assert m.read_tmem(3, 1)[0] == 0xFFFFFFFF and m.read_act(1, 1)[0] == -5
