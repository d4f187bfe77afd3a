/* footprint.c - read and write ranges of every instruction (docs/isa.md field by field). */
#include "footprint.h"

typedef struct {
    otpu_range *r;
    size_t n;
} list;

static void add(list *l, otpu_space sp, int write, uint64_t lo, uint64_t count)
{
    if (!count || l->n >= OTPU_FOOTPRINT_MAX)
        return;
    l->r[l->n++] = (otpu_range){(uint8_t)sp, (uint8_t)write, lo, lo + count, 0};
}

/* the hull of base + r*rs + c for r < rows, c < cols (cols contiguous words) */
static void add2d(list *l, otpu_space sp, int write, uint64_t base, uint64_t rows, uint64_t rs,
                  uint64_t cols)
{
    if (rows && cols)
        add(l, sp, write, base, (rows - 1) * rs + cols);
}

/* the ACT RAM blocks [ab, ab + kb) of every row, and their scales */
static void act_blocks(list *l, const otpu_config *c, int write, uint64_t rows, uint64_t ab,
                       uint64_t kb)
{
    if (!rows || !kb || l->n + 2 > OTPU_FOOTPRINT_MAX)
        return;
    l->r[l->n++] = (otpu_range){OTPU_SP_ACT, (uint8_t)write, ab * c->D, (ab + kb) * c->D,
                                (uint64_t)c->ACT_BLOCKS * c->D};
    l->r[l->n++] = (otpu_range){OTPU_SP_ASCALE, (uint8_t)write, ab, ab + kb, c->ACT_BLOCKS};
}

static void stream(list *l, const otpu_config *c, const otpu_instr *in, const uint32_t *R,
                   const uint32_t *tmem)
{
    const uint32_t *w = in->w;
    uint64_t at = w[1] & 0xFFFF, ks = w[1] >> 16;
    add(l, OTPU_SP_TMEM, 0, at, OTPU_STREAM_DESC_FIXED + OTPU_STREAM_MAX_OPS);
    otpu_stream_desc d;
    char err[160];
    size_t avail = at < c->TMEM_WORDS ? (size_t)(c->TMEM_WORDS - at) : 0;
    if (avail > OTPU_STREAM_DESC_FIXED + OTPU_STREAM_MAX_OPS)
        avail = OTPU_STREAM_DESC_FIXED + OTPU_STREAM_MAX_OPS;
    if (!tmem || otpu_stream_desc_decode(tmem + at, avail, &d, err, sizeof err))
        return;
    uint64_t src = (uint32_t)(R[in->ra] + w[2]), dst = (uint32_t)(R[in->ra] + w[3]);
    uint64_t vec = (uint32_t)(R[in->rb] + w[4]), xa = (uint32_t)(R[in->rc] + w[5]);
    uint64_t ka = (uint32_t)(R[in->rd] + w[6]), n = (uint64_t)d.rows * d.cols;
    add(l, OTPU_SP_TMEM, 0, vec, OTPU_STREAM_SLOTS * (uint64_t)d.cols);
    add(l, OTPU_SP_TMEM, 0, xa, d.rows);
    add(l, OTPU_SP_TMEM, 0, ka, 3 * ks + 1);
    if (d.rsave)
        add(l, OTPU_SP_TMEM, 1, ka, 3 * ks + 1);
    if (!(in->flags & OTPU_F_SZERO)) {
        if (in->flags & OTPU_F_SRC_T)
            add2d(l, OTPU_SP_TMEM, 0, src, d.rows, d.srs ? d.srs : d.cols, d.cols);
        else
            add(l, OTPU_SP_DRAM, 0, src, 4 * n);
    }
    if (!(in->flags & OTPU_F_NODST)) {
        if (in->flags & OTPU_F_DST_T)
            add2d(l, OTPU_SP_TMEM, 1, dst, d.rows, d.drs ? d.drs : d.cols, d.cols);
        else
            add(l, OTPU_SP_DRAM, 1, dst, 4 * n);
    }
    if (d.q_en || d.o_reg_en)
        add(l, OTPU_SP_TMEM, 1, w[7], d.rows);
}

static void vop(list *l, const otpu_instr *in, const uint32_t *R)
{
    const uint32_t *w = in->w;
    uint64_t dst = (uint32_t)(R[in->ra] + w[1]), a = (uint32_t)(R[in->rb] + w[2]);
    uint64_t b = (uint32_t)(R[in->rc] + w[3]);
    uint64_t rows = w[4] & 0xFFFF, cols = w[4] >> 16, drs = w[5] & 0xFFFF, ars = w[5] >> 16;
    uint64_t brs = w[6] & 0xFFFF, func = (w[6] >> 16) & 0xFF, bmode = (w[6] >> 24) & 3;
    uint64_t imm = (uint32_t)(R[in->rd] + w[7]);
    if (func == OTPU_V_OUTER) {
        add2d(l, OTPU_SP_TMEM, 0, dst, rows, drs, cols);
        add2d(l, OTPU_SP_TMEM, 1, dst, rows, drs, cols);
        add2d(l, OTPU_SP_TMEM, 0, b, rows, brs, 1);
        add(l, OTPU_SP_TMEM, 0, imm, cols);
        if (!(in->flags & OTPU_F_DONE))
            add(l, OTPU_SP_TMEM, 0, a, (in->flags & OTPU_F_DSCALAR) ? 1 : cols);
        return;
    }
    int reduce = func >= OTPU_V_RSUM && func <= OTPU_V_ARGMAX;
    if (func != OTPU_V_FILL)
        add2d(l, OTPU_SP_TMEM, 0, a, rows, ars, cols);
    int binary = func <= OTPU_V_MIN || func == OTPU_V_FILL || func == OTPU_V_EXP2SUB;
    if ((binary || func == OTPU_V_RDOT) && bmode != OTPU_B_SCALAR) {
        if (bmode == OTPU_B_FULL)
            add2d(l, OTPU_SP_TMEM, 0, b, rows, brs, cols);
        else if (bmode == OTPU_B_ROW)
            add2d(l, OTPU_SP_TMEM, 0, b, rows, brs, 1);
        else
            add(l, OTPU_SP_TMEM, 0, b, cols);
    }
    add2d(l, OTPU_SP_TMEM, 1, dst, rows, drs, func == OTPU_V_ARGMAX ? 2 : reduce ? 1 : cols);
}

size_t otpu_footprint(const otpu_config *c, const otpu_instr *in, const uint32_t R[16],
                      const uint32_t *tmem, otpu_range *out)
{
    list l = {out, 0};
    const uint32_t *w = in->w;
    uint32_t r0[16];
    for (int k = 0; k < 16; k++)
        r0[k] = k ? R[k] : 0;
    R = r0;
    uint64_t D = c->D;
    switch (in->op) {
    case OTPU_OP_LI:
        add(&l, OTPU_SP_REG, 1, in->rd, 1);
        break;
    case OTPU_OP_ADDI:
        add(&l, OTPU_SP_REG, 0, in->ra, 1);
        add(&l, OTPU_SP_REG, 1, in->rd, 1);
        break;
    case OTPU_OP_LOOP:
        add(&l, OTPU_SP_REG, 0, in->ra, 1);
        break;
    case OTPU_OP_RLD:
        add(&l, OTPU_SP_TMEM, 0, (uint32_t)(R[in->ra] + w[1]), 1);
        add(&l, OTPU_SP_REG, 1, in->rd, 1);
        break;
    case OTPU_OP_HALT:
        if (in->flags & OTPU_F_CHAIN)
            add(&l, OTPU_SP_DRAM, 0, R[in->ra], 32 * (uint64_t)R[in->rb]);
        break;
    case OTPU_OP_WAITW:
        add(&l, OTPU_SP_DRAM, 0, 0, c->DRAM_BYTES); /* the scoreboard: all of DRAM */
        add(&l, OTPU_SP_TMEM, 1, (uint32_t)(R[in->rb] + w[2]), 1);
        break;
    case OTPU_OP_LD:
        add(&l, OTPU_SP_DRAM, 0, (uint32_t)(R[in->ra] + w[1]), 4 * (uint64_t)w[3]);
        add(&l, OTPU_SP_TMEM, 1, (uint32_t)(R[in->rb] + w[2]), w[3]);
        break;
    case OTPU_OP_ST:
        add(&l, OTPU_SP_TMEM, 0, (uint32_t)(R[in->rb] + w[2]), w[3]);
        add(&l, OTPU_SP_DRAM, 1, (uint32_t)(R[in->ra] + w[1]), 4 * (uint64_t)w[3]);
        break;
    case OTPU_OP_DSTEP: {
        uint64_t d = (uint32_t)(R[in->ra] + w[1]), qk = (uint32_t)(R[in->rb] + w[2]);
        uint64_t v = (uint32_t)(R[in->rc] + w[3]), rows = w[4] & 0xFFFF, cols = w[4] >> 16;
        add(&l, OTPU_SP_TMEM, 0, qk, 2 * cols);
        add(&l, OTPU_SP_TMEM, 0, v, rows);
        add(&l, OTPU_SP_TMEM, 0, w[5], 1);
        add(&l, OTPU_SP_TMEM, 0, (uint64_t)w[5] + w[7], 1);
        if (!(in->flags & OTPU_F_DZERO))
            add(&l, OTPU_SP_DRAM, 0, d, 4 * rows * cols);
        add(&l, OTPU_SP_DRAM, 1, d, 4 * rows * cols);
        add(&l, OTPU_SP_TMEM, 1, w[6], rows);
        break;
    }
    case OTPU_OP_STREAM:
        stream(&l, c, in, R, tmem);
        break;
    case OTPU_OP_MM: {
        uint64_t sa = (uint32_t)(R[in->ra] + w[1]), ssa = (uint32_t)(R[in->rb] + w[2]);
        uint64_t o = (uint32_t)(R[in->rc] + w[3]), N = w[4] & 0xFFFF, KB = w[4] >> 16;
        uint64_t rs = w[5], ors = w[6] & 0xFFFF, M = (w[6] >> 16) & 0xFF, ab = w[6] >> 24;
        uint64_t srs = w[7], wf = (in->flags >> OTPU_WF_SHIFT) & 3;
        uint64_t bpb = wf == OTPU_WF_INT8 ? D : D / 2, R2 = (in->flags & OTPU_F_PAIR) ? 2 * M : M;
        if (N)
            add(&l, OTPU_SP_DRAM, 0, sa, (N - 1) * rs + (KB * bpb + D - 1) / D * D);
        if (in->flags & OTPU_F_ASCALE)
            add(&l, OTPU_SP_TMEM, 0, ssa, M);
        else if (!(in->flags & OTPU_F_UNIT) && N && KB)
            add(&l, OTPU_SP_DRAM, 0, ssa, (N - 1) * srs + 4 * KB);
        act_blocks(&l, c, 0, R2, ab, KB);
        if (in->flags & (OTPU_F_ACC | OTPU_F_ASCALE))
            add2d(&l, OTPU_SP_TMEM, 0, o, M, ors, N);
        add2d(&l, OTPU_SP_TMEM, 1, o, M, ors, N);
        if (in->flags & OTPU_F_RMAX)
            add(&l, OTPU_SP_TMEM, 1, o + M * ors, M);
        break;
    }
    case OTPU_OP_QACT: {
        uint64_t src = (uint32_t)(R[in->ra] + w[1]), rows = w[2] & 0xFF;
        uint64_t ab = (w[2] >> 8) & 0xFF, KB = w[2] >> 16;
        add2d(&l, OTPU_SP_TMEM, 0, src, rows, w[3], KB * D);
        if (in->flags & OTPU_F_CSCALE)
            add(&l, OTPU_SP_TMEM, 0, w[4], KB * D);
        if (in->flags & OTPU_F_RSCALE)
            add(&l, OTPU_SP_TMEM, 0, w[5], rows);
        act_blocks(&l, c, 1, (in->flags & OTPU_F_DUP) ? 2 * rows : rows, ab, KB);
        break;
    }
    case OTPU_OP_QST: {
        uint64_t src = (uint32_t)(R[in->ra] + w[1]), dst = (uint32_t)(R[in->rb] + w[2]);
        uint64_t sdst = (uint32_t)(R[in->rc] + w[3]), rows = w[4] & 0xFFFF, KB = w[4] >> 16;
        uint64_t ne = (in->flags & OTPU_F_HALF) ? KB * D / 2 : KB * D;
        add2d(&l, OTPU_SP_TMEM, 0, src, rows, w[5], KB * D);
        if (rows && ne)
            add(&l, OTPU_SP_DRAM, 1, dst, (rows - 1) * w[6] + (ne - 1) * w[7] + 1);
        add(&l, OTPU_SP_DRAM, 1, sdst, 4 * rows * ((in->flags & OTPU_F_ROW) ? 1 : KB));
        break;
    }
    case OTPU_OP_VOP:
        vop(&l, in, R);
        break;
    case OTPU_OP_GATHER: {
        uint64_t src = (uint32_t)(R[in->ra] + w[1]), dst = (uint32_t)(R[in->rb] + w[2]);
        uint64_t rows = w[3] & 0xFFFF, cols = w[3] >> 16;
        add2d(&l, OTPU_SP_TMEM, 0, src, rows, w[4], cols);
        if (rows && cols)
            add(&l, OTPU_SP_TMEM, 1, dst, (c->S - 1) * (uint64_t)w[6] + (rows - 1) * w[5] + cols);
        break;
    }
    default:
        break;
    }
    return l.n;
}

int otpu_range_hits(const otpu_range *r, otpu_space space, uint64_t addr)
{
    if (r->space != space)
        return 0;
    if (space == OTPU_SP_DRAM)
        return addr + 4 > r->lo && addr < r->hi;
    if (r->wrap)
        addr %= r->wrap;
    return addr >= r->lo && addr < r->hi;
}
