/* exec_dma.c - the DMA's data movers: LD, ST and DSTEP (WAITW's poll is in sequencer.c). */
#include "fp32.h"
#include "slice.h"
#include "vecops.h"

/* LD (load: DRAM to TMEM) and ST: n words between DRAM R[ra] + w1 and TMEM R[rb] + w2, both
 * ranges checked (DRAM first, as the reference) before anything moves. */
static int dma_move(otpu_slice *s, const otpu_ops *o, int load)
{
    uint64_t d = o->dma.dram.value, t = o->dma.tmem.value;
    if (otpu_bounds_dram_words(s, d, 1, 0, o->dma.n, 4) ||
        otpu_bounds_tmem(s, t, 1, 0, o->dma.n, 1))
        return -1;
    for (uint64_t i = 0; i < o->dma.n; i++) {
        if (load)
            otpu_tmem_put(s, t + i, otpu_m32(s, d + 4 * i));
        else
            otpu_m32_put(s, d + 4 * i, s->tmem[t + i]);
    }
    return 0;
}

int otpu_exec_ld(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    return dma_move(s, o, 1);
}

int otpu_exec_st(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    return dma_move(s, o, 0);
}

/* One Gated DeltaNet head step on a DRAM state St [rows, cols], bit for bit the VOP sequence
 * RDOT, MUL, SUB, MUL, OUTER (DSCALAR), RDOT. Every input is read first; o is written last. */
int otpu_exec_dstep(otpu_slice *s, const otpu_instr *in, const otpu_ops *ops)
{
    (void)in;
    uint64_t d = ops->dstep.dram.value, qk = ops->dstep.qk.value, v = ops->dstep.v.value;
    uint32_t rows = ops->dstep.rows, cols = ops->dstep.cols;
    uint64_t g = ops->dstep.g, o = ops->dstep.o, gs = ops->dstep.gs;
    if (!(rows > 0 && rows <= OTPU_DSTEP_MAX_ROWS) || cols % 64 || !(cols > 0 && cols <= 256))
        return otpu_fail(s, OTPU_ERR_BOUNDS, "DSTEP: rows must be 1..256, cols 64, 128, 192 or "
                                             "256 (rows %u, cols %u)", rows, cols);
    if (d % s->cfg->D)
        return otpu_fail_at(s, OTPU_ERR_BOUNDS, d,
                            "DSTEP: the state must be DRAM-chunk aligned (%#llx)",
                            (unsigned long long)d);
    if (otpu_bounds_tmem(s, qk, 1, 0, 2 * (uint64_t)cols, 1) ||
        otpu_bounds_tmem(s, v, 1, 0, rows, 1) || otpu_bounds_tmem(s, g, 1, 0, 1, 1) ||
        otpu_bounds_tmem(s, g + gs, 1, 0, 1, 1) ||
        otpu_bounds_dram_words(s, d, 1, 0, (uint64_t)rows * cols, 4))
        return -1;
    size_t n = (size_t)rows * cols;
    uint32_t *St = otpu_scratch(s, n + rows + cols);
    if (!St)
        return -1;
    uint32_t *oo = St + n, *tmp = oo + rows;
    const uint32_t *q = s->tmem + qk, *k = q + cols;
    uint32_t e = s->tmem[g], beta = s->tmem[g + gs];
    for (size_t i = 0; i < n; i++)
        St[i] = ops->dstep.zero ? 0 : otpu_m32(s, d + 4 * i);
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t *row = St + (size_t)r * cols;
        uint32_t kv = otpu_rdot(row, k, 1, cols, tmp);
        uint32_t dd = otpu_f32_mul(otpu_f32_sub(s->tmem[v + r], otpu_f32_mul(kv, e)), beta);
        for (uint32_t c = 0; c < cols; c++)
            row[c] = otpu_f32_add(otpu_f32_mul(row[c], e), otpu_f32_mul(dd, k[c]));
        oo[r] = otpu_rdot(row, q, 1, cols, tmp);
    }
    for (size_t i = 0; i < n; i++)
        otpu_m32_put(s, d + 4 * i, St[i]);
    if (otpu_bounds_tmem(s, o, 1, 0, rows, 1))
        return -1;
    for (uint32_t r = 0; r < rows; r++)
        otpu_tmem_put(s, o + r, oo[r]);
    return 0;
}
