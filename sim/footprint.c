/* footprint.c - read and write ranges of every instruction (openTPU docs/isa.md field by field). */
#include "footprint.h"

typedef struct {
    otpu_range *r;
    size_t n;
    uint64_t work; /* otpu_work: every location added, and the extra terms of work() */
} list;

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static void work(list *l, uint64_t steps)
{
    l->work = sat_add(l->work, steps);
}

static void add(list *l, otpu_space sp, int write, uint64_t lo, uint64_t count)
{
    work(l, count);
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

/* One function per instruction (the rows of OTPU_OPCODES), reading its decoded operands. */
typedef struct {
    list *l;
    const otpu_config *c;
    const otpu_ops *o;
    const uint32_t *tmem; /* for STREAM's descriptor, or NULL */
} fp_args;

static void fp_nop(const fp_args *a) { (void)a; }
static void fp_bar(const fp_args *a) { (void)a; }

static void fp_halt(const fp_args *a)
{
    const otpu_halt_ops *o = &a->o->halt;
    if (o->chain)
        add(a->l, OTPU_SP_DRAM, 0, o->addr.value, 32 * (uint64_t)o->count.value);
}

static void fp_li(const fp_args *a)
{
    add(a->l, OTPU_SP_REG, 1, a->o->li.rd, 1);
}

static void fp_addi(const fp_args *a)
{
    add(a->l, OTPU_SP_REG, 0, a->o->addi.sum.reg, 1);
    add(a->l, OTPU_SP_REG, 1, a->o->addi.rd, 1);
}

static void fp_loop(const fp_args *a)
{
    add(a->l, OTPU_SP_REG, 0, a->o->loop.count.reg, 1);
}

static void fp_rld(const fp_args *a)
{
    const otpu_rld_ops *o = &a->o->rld;
    add(a->l, OTPU_SP_TMEM, 0, o->tmem.value, 1);
    if (o->has_mul)
        add(a->l, OTPU_SP_REG, 0, o->mul.reg, 1);
    add(a->l, OTPU_SP_REG, 1, o->rd, 1);
}

static void fp_waitw(const fp_args *a)
{
    const otpu_waitw_ops *o = &a->o->waitw;
    add(a->l, OTPU_SP_DRAM, 0, 0, a->c->DRAM_BYTES); /* the scoreboard: all of DRAM */
    add(a->l, OTPU_SP_TMEM, 1, o->tmem.value, 1);
    a->l->work = sat_add(o->timeout ? o->timeout : 65536, o->interval); /* not DRAM's size */
}

static void fp_ld(const fp_args *a)
{
    const otpu_dma_ops *o = &a->o->dma;
    add(a->l, OTPU_SP_DRAM, 0, o->dram.value, 4 * (uint64_t)o->n);
    add(a->l, OTPU_SP_TMEM, 1, o->tmem.value, o->n);
}

static void fp_st(const fp_args *a)
{
    const otpu_dma_ops *o = &a->o->dma;
    add(a->l, OTPU_SP_TMEM, 0, o->tmem.value, o->n);
    add(a->l, OTPU_SP_DRAM, 1, o->dram.value, 4 * (uint64_t)o->n);
}

static void fp_dstep(const fp_args *a)
{
    const otpu_dstep_ops *o = &a->o->dstep;
    uint64_t n = 4 * (uint64_t)o->rows * o->cols;
    add(a->l, OTPU_SP_TMEM, 0, o->qk.value, 2 * (uint64_t)o->cols);
    add(a->l, OTPU_SP_TMEM, 0, o->v.value, o->rows);
    add(a->l, OTPU_SP_TMEM, 0, o->g, 1);
    add(a->l, OTPU_SP_TMEM, 0, (uint64_t)o->g + o->gs, 1);
    if (!o->zero)
        add(a->l, OTPU_SP_DRAM, 0, o->dram.value, n);
    add(a->l, OTPU_SP_DRAM, 1, o->dram.value, n);
    add(a->l, OTPU_SP_TMEM, 1, o->o, o->rows);
    work(a->l, 8 * (uint64_t)o->rows * o->cols); /* two dots and the update per element */
}

static void fp_stream(const fp_args *a)
{
    const otpu_stream_ops *o = &a->o->stream;
    list *l = a->l;
    const otpu_config *c = a->c;
    uint64_t at = o->desc, ks = o->ks;
    add(l, OTPU_SP_TMEM, 0, at, OTPU_STREAM_DESC_FIXED + OTPU_STREAM_MAX_OPS);
    otpu_stream_desc d;
    char err[160];
    size_t avail = at < c->TMEM_WORDS ? (size_t)(c->TMEM_WORDS - at) : 0;
    if (avail > OTPU_STREAM_DESC_FIXED + OTPU_STREAM_MAX_OPS)
        avail = OTPU_STREAM_DESC_FIXED + OTPU_STREAM_MAX_OPS;
    if (!a->tmem || otpu_stream_desc_decode(a->tmem + at, avail, &d, err, sizeof err))
        return;
    uint64_t src = o->src.value, dst = o->dst.value, ka = o->k.value;
    uint64_t n = (uint64_t)d.rows * d.cols;
    /* per element: A's dot, the map, Q's dot; per row: the scalar ops */
    work(l, sat_add(sat_mul(n, 4), sat_mul(d.rows, 8 * (uint64_t)(d.nops + 4))));
    add(l, OTPU_SP_TMEM, 0, o->vec.value, OTPU_STREAM_SLOTS * (uint64_t)d.cols);
    add(l, OTPU_SP_TMEM, 0, o->x.value, d.rows);
    add(l, OTPU_SP_TMEM, 0, ka, 3 * ks + 1);
    if (d.rsave)
        add(l, OTPU_SP_TMEM, 1, ka, 3 * ks + 1);
    if (!o->zero) {
        if (o->src_t)
            add2d(l, OTPU_SP_TMEM, 0, src, d.rows, d.srs ? d.srs : d.cols, d.cols);
        else
            add(l, OTPU_SP_DRAM, 0, src, 4 * n);
    }
    if (!o->nodst) {
        if (o->dst_t)
            add2d(l, OTPU_SP_TMEM, 1, dst, d.rows, d.drs ? d.drs : d.cols, d.cols);
        else
            add(l, OTPU_SP_DRAM, 1, dst, 4 * n);
    }
    if (d.q_en || d.o_reg_en)
        add(l, OTPU_SP_TMEM, 1, o->out, d.rows);
}

static void fp_mm(const fp_args *a)
{
    const otpu_mm_ops *o = &a->o->mm;
    list *l = a->l;
    uint64_t D = a->c->D, N = o->N, KB = o->KB, M = o->M, out = o->out.value;
    uint64_t bpb = o->wf == OTPU_WF_INT8 ? D : D / 2, rows = o->pair ? 2 * M : M;
    /* an output reads its row's weights, scales and activations: none without outputs (N 0) */
    if (N && KB)
        add(l, OTPU_SP_DRAM, 0, o->sa.value, (N - 1) * o->rs + (KB * bpb + D - 1) / D * D);
    if (o->ascale && N)
        add(l, OTPU_SP_TMEM, 0, o->ssa.value, M);
    else if (!o->unit && N && KB)
        add(l, OTPU_SP_DRAM, 0, o->ssa.value, (N - 1) * o->srs + 4 * KB);
    act_blocks(l, a->c, 0, N ? rows : 0, o->ab, KB);
    /* a K-block per cycle for each group of MCOLS rows, an output per cycle */
    work(l, sat_mul(N, sat_add(sat_mul(KB, rows / a->c->MCOLS + 1), M)));
    if (o->acc || o->ascale)
        add2d(l, OTPU_SP_TMEM, 0, out, M, o->ors, N);
    add2d(l, OTPU_SP_TMEM, 1, out, M, o->ors, N);
    if (o->rmax)
        add(l, OTPU_SP_TMEM, 1, out + M * o->ors, M);
}

static void fp_qact(const fp_args *a)
{
    const otpu_qact_ops *o = &a->o->qact;
    uint64_t n = (uint64_t)o->KB * a->c->D;
    add2d(a->l, OTPU_SP_TMEM, 0, o->src.value, o->rows, o->srs, n);
    /* a scale is read with the elements it scales: none when there are none */
    if (o->has_cscale && o->rows)
        add(a->l, OTPU_SP_TMEM, 0, o->cscale, n);
    if (o->has_rscale && n)
        add(a->l, OTPU_SP_TMEM, 0, o->rscale, o->rows);
    uint64_t rows = o->dup ? 2 * (uint64_t)o->rows : o->rows, act_rows = otpu_config_act_rows(a->c);
    act_blocks(a->l, a->c, 1, rows < act_rows ? rows : act_rows, o->ab, o->KB);
}

static void fp_qst(const fp_args *a)
{
    const otpu_qst_ops *o = &a->o->qst;
    uint64_t rows = o->rows, KB = o->KB, n = KB * a->c->D, ne = o->half ? n / 2 : n;
    add2d(a->l, OTPU_SP_TMEM, 0, o->src.value, rows, o->srs, n);
    if (rows && ne)
        add(a->l, OTPU_SP_DRAM, 1, o->dst.value, (rows - 1) * o->drs + (ne - 1) * o->es + 1);
    add(a->l, OTPU_SP_DRAM, 1, o->sdst.value, 4 * rows * (o->row ? 1 : KB));
}

static void fp_vop(const fp_args *a)
{
    const otpu_vop_ops *o = &a->o->vop;
    list *l = a->l;
    uint64_t dst = o->dst.value, b = o->b.value, rows = o->rows, cols = o->cols;
    unsigned func = o->func, bmode = o->bmode;
    /* a broadcast operand is read with the elements it meets: rows x cols of them (isa.def's
     * size rule: a 0 in either reads none) */
    uint64_t any_rows = rows ? 1 : 0, any_cols = cols ? 1 : 0;
    if (func == OTPU_V_OUTER) {
        add2d(l, OTPU_SP_TMEM, 0, dst, rows, o->drs, cols);
        add2d(l, OTPU_SP_TMEM, 1, dst, rows, o->drs, cols);
        add2d(l, OTPU_SP_TMEM, 0, b, rows, o->brs, any_cols);
        add(l, OTPU_SP_TMEM, 0, o->imm.value, any_rows * cols);
        if (!o->done)
            add(l, OTPU_SP_TMEM, 0, o->a.value, any_rows * (o->dscalar ? any_cols : cols));
        return;
    }
    int reduce = func >= OTPU_V_RSUM && func <= OTPU_V_ARGMAX;
    if (func != OTPU_V_FILL)
        add2d(l, OTPU_SP_TMEM, 0, o->a.value, rows, o->ars, cols);
    int binary = func <= OTPU_V_MIN || func == OTPU_V_FILL || func == OTPU_V_EXP2SUB;
    if ((binary || func == OTPU_V_RDOT) && bmode != OTPU_B_SCALAR) {
        if (bmode == OTPU_B_FULL)
            add2d(l, OTPU_SP_TMEM, 0, b, rows, o->brs, cols);
        else if (bmode == OTPU_B_ROW)
            add2d(l, OTPU_SP_TMEM, 0, b, rows, o->brs, any_cols);
        else
            add(l, OTPU_SP_TMEM, 0, b, any_rows * cols);
    }
    add2d(l, OTPU_SP_TMEM, 1, dst, rows, o->drs, func == OTPU_V_ARGMAX ? 2 : reduce ? 1 : cols);
}

static void fp_gather(const fp_args *a)
{
    const otpu_gather_ops *o = &a->o->gather;
    uint64_t rows = o->rows, cols = o->cols;
    add2d(a->l, OTPU_SP_TMEM, 0, o->src.value, rows, o->srs, cols);
    if (rows && cols)
        add(a->l, OTPU_SP_TMEM, 1, o->dst.value,
            (a->c->S - 1) * (uint64_t)o->seg + (rows - 1) * o->drs + cols);
}

static void (*const footprint_of[256])(const fp_args *) = {
#define X(NAME, name, code, unit, format) [code] = fp_##name,
    OTPU_OPCODES(X)
#undef X
};

static list footprint(const otpu_config *c, const otpu_instr *in, const uint32_t R[16],
                      const uint32_t *tmem, otpu_range *out)
{
    list l = {out, 0, 0};
    otpu_ops o = otpu_operands(in, R);
    fp_args a = {&l, c, &o, tmem};
    if (footprint_of[in->op])
        footprint_of[in->op](&a);
    return l;
}

size_t otpu_footprint(const otpu_config *c, const otpu_instr *in, const uint32_t R[16],
                      const uint32_t *tmem, otpu_range *out)
{
    return footprint(c, in, R, tmem, out).n;
}

size_t otpu_footprint_work(const otpu_config *c, const otpu_instr *in, const uint32_t R[16],
                           const uint32_t *tmem, otpu_range *out, uint64_t *work)
{
    list l = footprint(c, in, R, tmem, out);
    *work = l.work;
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
