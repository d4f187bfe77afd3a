"""A kernel-level test written against openTPU's isasim API: a quantized matrix-vector product
with a bias and a row softmax-style normalisation, checked against numpy.

It runs on the C model as is. On openTPU's own Python model, change the one import below to
`from opentpu.isasim import Config, Machine, SimError` (the otpu.asm instructions have the
op/ra/rb/rc/rd/flags/w fields and encode() that openTPU's isasim reads).
Run: python3 isasim_kernel.py   (or through pytest: python/tests/test_isasim_example.py)
"""
import numpy as np

from otpu.isasim import Config, Machine, SimError   # the one line to change
from otpu import asm as A


def build(x, w, ws, bias):
    """DRAM image and program for y = softmax-free normalisation of (x @ w.T * scales + bias)."""
    M, K = x.shape
    N = w.shape[0]
    D = 32
    kb = K // D
    dram = np.zeros(16384, np.uint8)
    X, W, WS, B = 0, 4096, 8192, 12288          # DRAM byte addresses
    dram[X:X + x.nbytes] = x.view(np.uint8).reshape(-1)
    dram[W:W + w.nbytes] = w.view(np.uint8).reshape(-1)
    dram[WS:WS + ws.nbytes] = ws.view(np.uint8).reshape(-1)
    dram[B:B + bias.nbytes] = bias.view(np.uint8).reshape(-1)
    TX, TY, TB, TS = 0, 1024, 2048, 3072        # TMEM word addresses
    prog = [
        A.ld(dram=X, tmem=TX, n=M * K),
        A.ld(dram=B, tmem=TB, n=N),
        A.qact(src=TX, rows=M, kb=kb, srs=K),                            # x -> int8 ACT RAM
        A.mm(sa=W, ssa=WS, out=TY, n=N, kb=kb, m=M, rs=K, ors=N, srs=4 * kb),
        A.vop(A.V_ADD, dst=TY, a=TY, b=TB, rows=M, cols=N, drs=N, ars=N, brs=0,
              bmode=A.B_COL),                                            # + bias per column
        A.vop(A.V_RMAX, dst=TS, a=TY, rows=M, cols=N, drs=1, ars=N),     # row max
        A.vop(A.V_SUB, dst=TY, a=TY, b=TS, rows=M, cols=N, drs=N, ars=N, brs=1,
              bmode=A.B_ROW),                                            # - row max
        A.halt(),
    ]
    return dram, prog, (TY, TS)


def quantize_rows(x, D=32):
    """Per-block symmetric int8 quantisation as the ISA's QACT does it, approximately."""
    blocks = x.reshape(x.shape[0], -1, D)
    scale = np.abs(blocks).max(axis=2, keepdims=True) / 127
    q = np.round(blocks / np.where(scale == 0, 1, scale))
    return (q * scale).reshape(x.shape)


def main():
    rng = np.random.default_rng(1)
    M, N, K = 4, 8, 64
    x = rng.standard_normal((M, K)).astype(np.float32)
    w = rng.integers(-127, 128, (N, K)).astype(np.int8)
    ws = rng.uniform(0.01, 0.05, (N, K // 32)).astype(np.float32)
    bias = rng.standard_normal(N).astype(np.float32)
    dram, prog, (TY, TS) = build(x, w, ws, bias)

    s = Machine(Config(S=1, D=32), [prog], [dram]).run().slices[0]
    y = s.tget(TY + np.arange(M * N)).reshape(M, N)

    wf = w.astype(np.float64).reshape(N, K // 32, 32) * ws[:, :, None]
    ref = quantize_rows(x).astype(np.float64) @ wf.reshape(N, K).T + bias
    ref -= ref.max(axis=1, keepdims=True)
    assert np.allclose(y, ref, rtol=2e-2, atol=2e-2), (y, ref)
    assert np.all(y.max(axis=1) == 0.0)                  # the row max was subtracted exactly
    assert s.halted and s.pc == len(prog) - 1 and s.icount == len(prog)

    # a bad program is a SimError naming what went wrong
    bad = [A.vop(A.V_ADD, dst=1, a=0, rows=1, cols=4, bmode=A.B_SCALAR, imm=1.0), A.halt()]
    try:
        Machine(Config(S=1), [bad], [None]).run()
        raise AssertionError("the hazard was not detected")
    except SimError as e:
        assert "hazard" in str(e)
    print("isasim kernel example: ok (y[0] = %s)" % np.array2string(y[0], precision=3))


if __name__ == "__main__":
    main()
