/* ops.c - random operands by opcode (ops.h). */
#include "ops.h"

#include "data.h"
#include "revision.h"

#include <string.h>

static const unsigned vfuncs[] = {
#define X(name, code, str) OTPU_V_##name,
    OTPU_VFUNCS(X)
#undef X
};
static const unsigned opcodes[] = {
#define X(NAME, name, code, unit, format) OTPU_OP_##NAME,
    OTPU_OPCODES(X)
#undef X
};

unsigned gen_next_vfunc(gen_ctx *c)
{
    const otpu_rev_desc *rev = otpu_rev_desc_of(c->cfg.revision);
    unsigned f;
    do /* the revision has ADD at least: this ends */
        f = vfuncs[c->vfunc_next++ % (sizeof vfuncs / sizeof vfuncs[0])];
    while (rev->lacks_vfunc[f]);
    return f;
}

int gen_op_allowed(const gen_ctx *c, unsigned op)
{
    return (op != OTPU_OP_DSTEP || c->cfg.DSTEP) && (op != OTPU_OP_STREAM || c->cfg.STREAM) &&
           !otpu_rev_desc_of(c->cfg.revision)->lacks_op[op];
}

unsigned gen_pick_op(gen_ctx *c)
{
    for (;;) {
        unsigned op = opcodes[gen_rng_below(&c->rng, sizeof opcodes / sizeof opcodes[0])];
        if (op != OTPU_OP_LOOP && op != OTPU_OP_HALT && op != OTPU_OP_BAR &&
            op != OTPU_OP_GATHER && gen_op_allowed(c, op))
            return op;
    }
}

static uint32_t rnd(gen_ctx *c, uint64_t lo, uint64_t hi)
{
    return (uint32_t)gen_rng_range(&c->rng, lo, hi);
}

/* The next of n choices for key (an opcode's flags, a VOP function's broadcast mode): the
 * bundle's index plus the choices key made before, mod n, so that the bundles of a family
 * go through all n. */
static unsigned turn(gen_ctx *c, unsigned key, unsigned n)
{
    return (unsigned)((c->index + c->turn[key]++) % n);
}

/* The flags (w0[31:24]) an opcode's operands read (isa.def); HALT CHAIN is the builder's. */
static unsigned flag_mask(unsigned op)
{
    return op == OTPU_OP_HALT ? 0 : otpu_flag_mask(op);
}

int gen_flags_usable(const gen_ctx *c, unsigned op, unsigned f)
{
    if (!otpu_flags_allowed(op, f) || otpu_rev_flag_lacking(c->cfg.revision, op, f))
        return 0;
    if (op == OTPU_OP_MM && (f & OTPU_F_PAIR))
        return c->cfg.PAIR && c->cfg.MCOLS >= 2;
    if (op == OTPU_OP_QACT && (f & OTPU_F_DUP))
        return c->cfg.MCOLS >= 2 && otpu_config_act_rows(&c->cfg) >= 2;
    return 1;
}

/* The subset of mask's bits that the bits of k select, lowest first. */
static unsigned subset(unsigned mask, unsigned k)
{
    unsigned f = 0;
    for (unsigned bit = 1; mask; bit <<= 1)
        if (mask & bit) {
            f |= k & 1 ? bit : 0;
            k >>= 1;
            mask &= ~bit;
        }
    return f;
}

unsigned gen_flags(gen_ctx *c, unsigned op)
{
    unsigned mask = flag_mask(op), n = 0, all = 1;
    for (unsigned m = mask; m; m &= m - 1)
        all <<= 1;
    for (unsigned k = 0; k < all; k++)
        n += gen_flags_usable(c, op, subset(mask, k));
    unsigned j = turn(c, op, n); /* n >= 1: no flags is always usable */
    for (unsigned k = 0; k < all; k++)
        if (gen_flags_usable(c, op, subset(mask, k)) && !j--)
            return subset(mask, k);
    return 0;
}

static uint32_t min32(uint64_t a, uint64_t b)
{
    return (uint32_t)(a < b ? a : b);
}

/* A TMEM / DRAM-word operand of len units */
static otpu_ri tm(gen_ctx *c, uint64_t len)
{
    return gen_addr(c, &c->tmem, len, 1);
}

static otpu_ri dw(gen_ctx *c, uint64_t len_bytes, uint64_t align)
{
    return gen_addr(c, &c->dpool, len_bytes, align < 4 ? 4 : align);
}

static void vop(gen_ctx *c, otpu_vop_ops *v)
{
    gen_rng *g = &c->rng;
    v->func = gen_next_vfunc(c);
    v->rows = rnd(c, 1, c->max_rows);
    v->cols = gen_rng_chance(g, 30) ? rnd(c, 65, c->max_cols) : rnd(c, 1, min32(c->max_cols, 64));
    v->bmode = turn(c, GEN_TURN_VOP + v->func % 32, 4);
    if (v->func == OTPU_V_OUTER) {
        otpu_set_flags(OTPU_FMT_VOP, v, gen_flags(c, OTPU_OP_VOP));
        v->bmode = OTPU_B_ROW;
    }
    int reduce = v->func == OTPU_V_RSUM || v->func == OTPU_V_RMAX || v->func == OTPU_V_RSSQ ||
                 v->func == OTPU_V_RDOT;
    if (reduce && v->func != OTPU_V_RMAX && gen_rng_chance(g, 6))
        v->cols = 0; /* a sum of no columns: +0 */
    uint32_t dcols = reduce ? 1 : v->func == OTPU_V_ARGMAX ? 2 : v->cols;
    v->drs = dcols + rnd(c, 0, 3);
    v->ars = v->cols + rnd(c, 0, 3);
    v->brs = v->bmode == OTPU_B_ROW ? rnd(c, 1, 2) : v->cols + rnd(c, 0, 3);
    if (gen_rng_chance(g, 10)) /* rows that overlap: a row reads what the one before wrote */
        v->ars = v->drs = rnd(c, 1, v->cols);
    uint64_t dlen = (uint64_t)(v->rows - 1) * v->drs + dcols;
    uint64_t alen = (uint64_t)(v->rows - 1) * v->ars + v->cols;
    uint64_t blen = (uint64_t)(v->rows - 1) * v->brs + v->cols;
    /* keep the destination clear of the reads, or in place (same start, same stride) */
    for (int tries = 0; tries < 8; tries++) {
        v->dst = tm(c, dlen);
        v->a = tm(c, alen);
        v->b = tm(c, blen);
        if (gen_rng_chance(g, 15) && !reduce && v->func != OTPU_V_ARGMAX) {
            v->a = v->dst;
            v->ars = v->drs;
        }
        uint64_t d0 = v->dst.value, a0 = v->a.value, b0 = v->b.value;
        int clear_a = d0 + dlen <= a0 || a0 + alen <= d0 || (d0 == a0 && v->ars == v->drs);
        int clear_b = d0 + dlen <= b0 || b0 + blen <= d0;
        if (clear_a && clear_b)
            break;
    }
    if (v->func == OTPU_V_OUTER) {
        v->imm = tm(c, v->cols);       /* cv */
        v->a = tm(c, v->cols);         /* decay */
    } else if (v->func == OTPU_V_ARGMAX) {
        /* the index offset: small, or past 2^24 (the index rounds to fp32) */
        v->imm.imm = v->imm.value = gen_rng_chance(g, 25)
            ? (uint32_t)gen_rng_range(g, 1u << 24, 0x7FFF0000u) | 1u
            : (uint32_t)(int32_t)(int)gen_rng_range(g, 0, 2000) - 1000;
    } else {
        v->imm.imm = v->imm.value = gen_f32(g, c->edge_pct, c->data);
    }
}

/* An MM's scale words in the current slice's image (where its first iteration reads them): of
 * its weight format, so that the product is of data, not of scale bits read as fp32. */
static void mm_scales(gen_ctx *c, const otpu_mm_ops *a)
{
    if (a->unit || a->ascale)
        return;
    for (uint64_t n = 0; n < a->N; n++)
        for (uint64_t k = 0; k < a->KB; k++) {
            uint64_t at = a->ssa.value + n * a->srs + 4 * k;
            if (at + 4 <= c->dram_len) {
                uint32_t w = gen_scale_word(&c->rng, a->wf);
                memcpy(c->dram[c->s] + at, &w, 4);
            }
        }
}

static void mm(gen_ctx *c, otpu_mm_ops *a)
{
    gen_rng *g = &c->rng;
    const otpu_config *cfg = &c->cfg;
    uint32_t D = cfg->D, rows = otpu_config_act_rows(cfg);
    otpu_set_flags(OTPU_FMT_MM, a, gen_flags(c, OTPU_OP_MM));
    uint32_t mmax = min32(rows, 255);
    if (a->rmax || a->ascale)
        mmax = min32(mmax, cfg->MCOLS);
    if (a->pair)
        mmax = cfg->MCOLS / 2;
    a->M = rnd(c, 1, mmax < 8 ? mmax : (gen_rng_chance(g, 30) ? mmax : 8));
    a->N = rnd(c, 1, 6);
    a->KB = rnd(c, 1, min32(c->act_blocks, 4));
    a->ab = rnd(c, 0, min32(c->act_blocks - a->KB, 255));
    uint64_t bpb = a->wf ? D / 2 : D, rowb = (a->KB * bpb + D - 1) / D * D;
    a->rs = (uint32_t)(rowb + D * rnd(c, 0, 1));
    a->sa = gen_addr(c, &c->weights, (uint64_t)(a->N - 1) * a->rs + rowb, D);
    a->srs = 4 * a->KB + 4 * rnd(c, 0, 2);
    if (a->pair)
        a->srs = (a->srs + 7) / 8 * 8;
    if (a->ascale)
        a->ssa = tm(c, a->M);
    else if (!a->unit)
        a->ssa = gen_addr(c, &c->scales, (uint64_t)(a->N - 1) * a->srs + 4 * a->KB,
                          a->pair ? 8 : 4);
    a->ors = a->N + rnd(c, 0, 2);
    a->out = tm(c, (uint64_t)a->M * a->ors + (a->rmax ? a->M : 0));
    mm_scales(c, a);
}

static void qact(gen_ctx *c, otpu_qact_ops *q)
{
    gen_rng *g = &c->rng;
    const otpu_config *cfg = &c->cfg;
    uint32_t D = cfg->D;
    otpu_set_flags(OTPU_FMT_QACT, q, gen_flags(c, OTPU_OP_QACT));
    uint32_t rmax = q->dup ? min32(cfg->MCOLS, otpu_config_act_rows(cfg)) / 2
                           : min32(otpu_config_act_rows(cfg), 255);
    q->rows = rnd(c, 1, gen_rng_chance(g, 30) ? rmax : min32(rmax, 8));
    q->KB = rnd(c, 1, min32(c->act_blocks, 3));
    q->ab = rnd(c, 0, min32(c->act_blocks - q->KB, 255));
    q->srs = q->KB * D + rnd(c, 0, 2);
    q->src = tm(c, (uint64_t)(q->rows - 1) * q->srs + q->KB * D);
    if (q->has_cscale)
        q->cscale = tm(c, q->KB * D).value;
    if (q->has_rscale)
        q->rscale = tm(c, q->rows).value;
}

static void qst(gen_ctx *c, otpu_qst_ops *q)
{
    gen_rng *g = &c->rng;
    uint32_t D = c->cfg.D;
    otpu_set_flags(OTPU_FMT_QST, q, gen_flags(c, OTPU_OP_QST));
    q->rows = rnd(c, 1, c->max_rows);
    q->KB = rnd(c, 1, 2);
    q->srs = q->KB * D + rnd(c, 0, 2);
    q->src = tm(c, (uint64_t)(q->rows - 1) * q->srs + q->KB * D);
    uint64_t ne = q->half ? q->KB * D / 2 : q->KB * D;
    q->es = gen_rng_chance(g, 70) ? 1 : rnd(c, 2, 4);
    q->drs = (uint32_t)(ne * q->es) + rnd(c, 0, 5);
    uint64_t dlen = (uint64_t)(q->rows - 1) * q->drs + (ne - 1) * q->es + 1;
    uint64_t slen = 4ull * q->rows * (q->row ? 1 : q->KB);
    q->dst = gen_addr(c, &c->dpool, dlen, 1);
    /* the ISA: the data and scale ranges of one QST must not overlap (a placement that still
     * does after a few draws is refused by the model's strict run, and repaired) */
    for (int tries = 0; tries < 16; tries++) {
        q->sdst = dw(c, slen, 4);
        if (q->sdst.value + slen <= q->dst.value || q->dst.value + dlen <= q->sdst.value)
            break;
    }
}

/* A STREAM descriptor with fields in range: some combinations are still refused. */
static otpu_stream_desc stream_desc(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    otpu_stream_desc d;
    memset(&d, 0, sizeof d);
    d.rows = rnd(c, 1, 6);
    d.cols = gen_rng_chance(g, 30) ? rnd(c, 65, 100) : rnd(c, 1, 64);
    d.a_en = gen_rng_chance(g, 60);
    d.a_op = (uint8_t)rnd(c, 0, 3);
    d.a_idx = (uint8_t)rnd(c, 0, 3);
    d.u_mode = (uint8_t)rnd(c, 0, 3);
    d.g_src = (uint8_t)rnd(c, 0, 3);
    d.g_idx = (uint8_t)rnd(c, 0, 3);
    d.b_src = (uint8_t)rnd(c, 0, 2);
    d.b_idx = (uint8_t)rnd(c, 0, 3);
    d.d_reg = (uint8_t)rnd(c, 0, 7);
    d.q_en = gen_rng_chance(g, 40);
    d.q_idx = (uint8_t)rnd(c, 0, 3);
    d.q_self = gen_rng_chance(g, 30);
    d.out_p2 = gen_rng_chance(g, 20);
    d.o_reg_en = !d.q_en && gen_rng_chance(g, 40);
    d.o_reg = (uint8_t)rnd(c, 0, 7);
    d.rinit = (uint8_t)rnd(c, 0, 15);
    d.rsave = (uint8_t)rnd(c, 0, 15);
    d.srs = gen_rng_chance(g, 50) ? 0 : d.cols + rnd(c, 0, 3);
    d.drs = gen_rng_chance(g, 50) ? 0 : d.cols + rnd(c, 0, 3);
    d.nops = (uint8_t)rnd(c, 0, 6);
    for (unsigned k = 0; k < d.nops; k++) {
        d.ops[k][0] = (uint8_t)rnd(c, 0, OTPU_SC_EXP2SUB);
        d.ops[k][1] = (uint8_t)rnd(c, 0, 7);
        d.ops[k][2] = (uint8_t)rnd(c, 0, 15);
        d.ops[k][3] = (uint8_t)rnd(c, 0, 15);
    }
    return d;
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4); /* little-endian host (slice.h) */
}

/* The STREAM's descriptor: written into the DRAM image, loaded into TMEM by an LD. */
/* STREAM with its descriptor loaded first. past_end: TMEM to TMEM, the destination one word
 * past the source (rows that chain: in order), and from row b on (1 <= b < rows) both run
 * past TMEM's end: the instruction stops with an error after its first b rows. */
static int64_t stream(gen_ctx *c, int past_end)
{
    otpu_stream_desc d = stream_desc(c);
    uint32_t b = 0;
    if (past_end) {
        d.rows = rnd(c, 2, 6);
        d.cols = rnd(c, 2, 64);
        d.srs = d.drs = 0; /* (cols) */
        b = rnd(c, 1, d.rows - 1);
    }
    uint32_t words[OTPU_STREAM_DESC_FIXED + OTPU_STREAM_MAX_OPS];
    size_t n = otpu_stream_desc_encode(&d, words);
    otpu_ops ld = gen_ops(OTPU_OP_LD);
    ld.dma.n = (uint32_t)n;
    ld.dma.dram = gen_addr_in(c, c->dpool.lo, c->dpool.hi < c->dram_len ? c->dpool.hi : c->dram_len,
                              4 * n, 4);
    uint64_t at = ld.dma.dram.value;
    if (at + 4 * n <= c->dram_len)
        for (size_t k = 0; k < n; k++)
            put32(c->dram[c->s] + at + 4 * k, words[k]);
    ld.dma.tmem = gen_addr_in(c, c->tmem.lo, c->tmem.hi < 0x10000 ? c->tmem.hi : 0x10000, n, 1);
    gen_emit(c, OTPU_OP_LD, &ld);
    otpu_ops o = gen_ops(OTPU_OP_STREAM);
    otpu_stream_ops *s = &o.stream;
    s->desc = ld.dma.tmem.value;
    s->ks = rnd(c, 0, 3);
    otpu_set_flags(OTPU_FMT_STREAM, s, gen_flags(c, OTPU_OP_STREAM));
    uint32_t srs = d.srs ? d.srs : d.cols, drs = d.drs ? d.drs : d.cols;
    uint64_t tl = (uint64_t)(d.rows - 1) * srs + d.cols, dl = (uint64_t)(d.rows - 1) * drs + d.cols;
    uint64_t bytes = 4ull * d.rows * d.cols;
    /* src and dst share ra: both come from one register choice */
    s->src = s->src_t ? tm(c, tl) : dw(c, bytes, c->cfg.D);
    otpu_ri dst = s->dst_t ? tm(c, dl) : dw(c, bytes, c->cfg.D);
    if (past_end) {
        s->zero = s->nodst = 0;
        s->src_t = s->dst_t = 1;
        uint32_t top = (uint32_t)(c->cfg.TMEM_WORDS - (uint64_t)(b + 1) * d.cols + 1);
        s->src = (otpu_ri){top, top, 0};
        dst = (otpu_ri){top + 1, top + 1, 0};
    }
    s->dst = (otpu_ri){dst.value, dst.value - (s->src.value - s->src.imm), s->src.reg};
    s->vec = tm(c, 4ull * d.cols);
    s->x = tm(c, d.rows);
    s->k = tm(c, 3ull * s->ks + 1);
    s->out = tm(c, 2ull * d.rows).value;
    if (gen_rng_chance(&c->rng, 10)) /* the output rows end at TMEM's last word */
        s->out = (uint32_t)(c->cfg.TMEM_WORDS - d.rows);
    return gen_emit(c, OTPU_OP_STREAM, &o);
}

/* A start of dlen words in [lo, hi) that misses [src, src + slen), or -1 if none: below the
 * source or above it, drawn over both. */
static int64_t disjoint_start(gen_ctx *c, uint64_t lo, uint64_t hi, uint64_t src, uint64_t slen,
                              uint64_t dlen)
{
    uint64_t below = src >= lo + dlen ? src - dlen - lo + 1 : 0;
    uint64_t above = hi >= src + slen + dlen ? hi - dlen - (src + slen) + 1 : 0;
    if (!below && !above)
        return -1;
    uint64_t k = gen_rng_below(&c->rng, below + above);
    return (int64_t)(k < below ? lo + k : src + slen + (k - below));
}

/* GATHER: the ISA says its source and destination ranges must not overlap (isasim.py does not
 * check, and the RTL copies in place), so the destination is placed beside the source; a
 * shape that leaves no room shrinks to one word a slice. */
static void gather(gen_ctx *c, otpu_gather_ops *x)
{
    const otpu_config *cfg = &c->cfg;
    for (int small = 0; small < 2; small++) {
        x->rows = small ? 1 : rnd(c, 1, 3);
        x->cols = small ? 1 : rnd(c, 1, 20);
        x->srs = x->cols + (small ? 0 : rnd(c, 0, 2));
        x->drs = x->cols + (small ? 0 : rnd(c, 0, 2));
        x->seg = x->rows * x->drs + (small ? 0 : rnd(c, 0, 4));
        uint64_t slen = (uint64_t)(x->rows - 1) * x->srs + x->cols;
        uint64_t dlen = (uint64_t)(cfg->S - 1) * x->seg + (uint64_t)(x->rows - 1) * x->drs + x->cols;
        x->src = tm(c, slen);
        int64_t dst = disjoint_start(c, c->tmem.lo, c->tmem.hi, x->src.value, slen, dlen);
        if (dst >= 0 || small) {
            if (dst < 0) /* a pool of fewer than S + 1 words: the model's strict run refuses it */
                dst = (int64_t)c->tmem.lo;
            x->dst = (otpu_ri){(uint32_t)dst, (uint32_t)dst, 0}; /* slices compare dst as encoded */
            return;
        }
    }
}

/* the words rows x cols at a stride span (0 for an empty shape) */
static uint64_t span(uint64_t rows, uint64_t stride, uint64_t cols)
{
    return rows && cols ? (rows - 1) * stride + cols : 0;
}

void gen_gather_source(gen_ctx *c, otpu_gather_ops *x)
{
    const otpu_config *cfg = &c->cfg;
    uint64_t dst = x->dst.value, lo = c->tmem.lo, hi = c->tmem.hi;
    uint64_t dend = dst + (span(x->rows, x->drs, x->cols) ? (uint64_t)(cfg->S - 1) * x->seg : 0) +
                    span(x->rows, x->drs, x->cols);
    uint32_t srs = x->cols + rnd(c, 0, 3);
    uint64_t slen = span(x->rows, srs, x->cols);
    int below = dst >= lo + slen, above = hi >= dend + slen;
    if (!below && !above) { /* no room for another: slice 0's (absolute: the registers differ) */
        x->src = (otpu_ri){x->src.value, x->src.value, 0};
        return;
    }
    x->srs = srs;
    if (below && (!above || gen_rng_chance(&c->rng, 50)))
        x->src = gen_addr_in(c, lo, dst, slen, 1);
    else
        x->src = gen_addr_in(c, dend, hi, slen, 1);
}

/* isa.def's size rule in the programs: now and then (ZERO_PCT of the instructions) one size
 * field at 0, where the rule says a 0 there empties it (not an error). Chosen by a hash of the
 * place, not by the random stream, so that the rest of the program is the one without it. */
enum { ZERO_PCT = 4 };
static void zero_a_size(gen_ctx *c, unsigned op, otpu_ops *o)
{
    unsigned n = otpu_size_count(op);
    uint64_t h = c->rng.s[0] ^ (c->index * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)c->s << 56) ^
                 ((uint64_t)gen_pc(c) << 8) ^ op;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 29;
    if (!n || h % 100 >= ZERO_PCT)
        return;
    unsigned k = (unsigned)(h >> 32) % n;
    otpu_ops z = *o;
    otpu_size_set(&z, k, 0);
    if (otpu_size_zero(&z, k) == OTPU_ZERO_EMPTY)
        *o = z;
}

otpu_ops gen_random_ops(gen_ctx *c, unsigned op)
{
    gen_rng *g = &c->rng;
    otpu_ops o = gen_ops(op);
    const otpu_config *cfg = &c->cfg;
    switch (op) {
    case OTPU_OP_LI:
        o.li.rd = (uint8_t)(GEN_SCRATCH_REG + gen_rng_below(g, 2));
        o.li.imm = gen_rng_u32(g);
        break;
    case OTPU_OP_ADDI:
        o.addi.rd = (uint8_t)(GEN_SCRATCH_REG + gen_rng_below(g, 2));
        o.addi.sum.reg = (uint8_t)gen_rng_below(g, 16);
        o.addi.sum.imm = gen_rng_chance(g, 50) ? 0u - rnd(c, 1, 70000) : gen_rng_u32(g);
        break;
    case OTPU_OP_RLD:
        o.rld.rd = (uint8_t)(GEN_SCRATCH_REG + gen_rng_below(g, 2));
        o.rld.tmem = tm(c, 1);
        otpu_set_flags(OTPU_FMT_RLD, &o.rld, gen_flags(c, OTPU_OP_RLD));
        o.rld.mul.reg = (uint8_t)gen_rng_below(g, 16);
        o.rld.mul.imm = gen_rng_chance(g, 50) ? 0u - rnd(c, 1, 9) : rnd(c, 0, 9);
        break;
    case OTPU_OP_WAITW: {
        o.waitw.dram = dw(c, 4, 4);
        o.waitw.tmem = tm(c, 1);
        uint32_t v = 0, a = o.waitw.dram.value;
        if ((uint64_t)a + 4 <= c->dram_len)
            memcpy(&v, c->dram[c->s] + a, 4);
        otpu_set_flags(OTPU_FMT_WAITW, &o.waitw, gen_flags(c, OTPU_OP_WAITW));
        o.waitw.mask = gen_rng_chance(g, 50) ? 0xFFFFFFFFu : gen_rng_u32(g);
        uint32_t x = v & o.waitw.mask; /* a compare that holds on the initial word */
        o.waitw.ref.imm = o.waitw.ref.value =
            o.waitw.cmp == OTPU_CMP_EQ ? x : o.waitw.cmp == OTPU_CMP_NE ? x ^ 1 : x - rnd(c, 0, 5);
        o.waitw.interval = rnd(c, 1, 16);
        o.waitw.timeout = rnd(c, 1, 1000);
        break;
    }
    case OTPU_OP_LD:
    case OTPU_OP_ST: {
        uint32_t n = gen_rng_chance(g, 5) ? 0 : rnd(c, 1, gen_rng_chance(g, 20) ? 160 : 24);
        o.dma.n = n;
        /* an LD mostly of fp32 words (the data a VOP or QACT then runs on) */
        o.dma.dram = op == OTPU_OP_LD && gen_rng_chance(g, 70) ? gen_addr(c, &c->words, 4ull * n, 4)
                                                               : dw(c, 4ull * n, 4);
        o.dma.tmem = tm(c, n);
        break;
    }
    case OTPU_OP_DSTEP: {
        otpu_dstep_ops *d = &o.dstep;
        d->rows = rnd(c, 1, 4);
        d->cols = 64 * rnd(c, 1, 4);
        otpu_set_flags(OTPU_FMT_DSTEP, d, gen_flags(c, OTPU_OP_DSTEP));
        d->dram = dw(c, 4ull * d->rows * d->cols, cfg->D);
        d->qk = tm(c, 2ull * d->cols);
        d->v = tm(c, d->rows);
        d->gs = rnd(c, 1, 4);
        d->g = tm(c, d->gs + 1).value;
        d->o = tm(c, d->rows).value;
        break;
    }
    case OTPU_OP_MM: mm(c, &o.mm); break;
    case OTPU_OP_QACT: qact(c, &o.qact); break;
    case OTPU_OP_QST: qst(c, &o.qst); break;
    case OTPU_OP_VOP: vop(c, &o.vop); break;
    case OTPU_OP_GATHER: gather(c, &o.gather); break;
    default: /* NOP, BAR, HALT (plain), LOOP (the builder's) */
        break;
    }
    zero_a_size(c, op, &o);
    return o;
}

/* An RSUM of one row of 191 columns whose 64 partial sums are all -0 (lane q: -1.5 x 2^-126,
 * then +2^-126, flushed to -0, then -0): only the +0 padding of lane 63 makes the sum +0. The
 * row is written into the DRAM image and loaded just before. 0: done, -1: no room. */
static int64_t signed_zero_sum(gen_ctx *c, otpu_vop_ops *v)
{
    enum { COLS = 3 * 64 - 1 };
    if (c->words.hi - c->words.lo < 4 * COLS || c->tmem.hi - c->tmem.lo < 2 * COLS)
        return -1;
    otpu_ri row = gen_addr(c, &c->words, 4 * COLS, 4);
    uint64_t d = v->dst.value;
    v->rows = 1;
    v->cols = COLS;
    v->a = tm(c, COLS);
    uint64_t a = v->a.value;
    if ((uint64_t)row.value + 4 * COLS > c->dram_len || (d >= a && d < a + COLS))
        return -1;
    for (uint32_t k = 0; k < COLS; k++)
        put32(c->dram[c->s] + row.value + 4 * k, k < 64 ? 0x80C00000u : k < 128 ? 0x00800000u
                                                                               : 0x80000000u);
    otpu_ops ld = gen_ops(OTPU_OP_LD);
    ld.dma.n = COLS;
    ld.dma.dram = row;
    ld.dma.tmem = v->a;
    return gen_emit(c, OTPU_OP_LD, &ld) < 0 ? -1 : 0;
}

int64_t gen_random_op(gen_ctx *c, unsigned op)
{
    if (op == OTPU_OP_STREAM)
        return stream(c, 0);
    otpu_ops o = gen_random_ops(c, op);
    if (op == OTPU_OP_VOP && o.vop.func == OTPU_V_RSUM && gen_rng_chance(&c->rng, 15)) {
        otpu_ops keep = o;
        if (signed_zero_sum(c, &o.vop))
            o = keep;
    }
    return gen_emit(c, op, &o);
}

int64_t gen_stream_past_end(gen_ctx *c)
{
    return stream(c, 1);
}

/* One instruction of the opcode pick chooses (gen_pick_op when NULL). */
static void pick_op(gen_ctx *c, unsigned (*pick)(gen_ctx *c))
{
    gen_random_op(c, pick ? pick(c) : gen_pick_op(c));
}

/* A LOOP of count 0 (now and then register-relative): the LOOP jumps past its body, one or
 * two LDs/STs of at least a word that would write memory if they ran (and that change no
 * register, so the generator's view of the registers holds). */
static void skipped_loop(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    gen_prog *p = gen_cur(c);
    unsigned body = 1 + (unsigned)gen_rng_below(g, 2);
    if (p->depth == GEN_MAX_DEPTH || c->cfg.IMEM_WORDS / 8 - p->n <= GEN_RESERVE + 1 + body)
        return;
    otpu_ops l = gen_ops(OTPU_OP_LOOP);
    unsigned r = (unsigned)gen_rng_below(g, 16);
    if (r && p->reg[r].known && p->reg[r].lo == p->reg[r].hi && gen_rng_chance(g, 50)) {
        l.loop.count.reg = (uint8_t)r;
        l.loop.count.imm = 0u - (uint32_t)p->reg[r].lo;
    }
    int64_t at = gen_emit(c, OTPU_OP_LOOP, &l);
    if (at < 0)
        return;
    for (unsigned i = 0; i < body; i++) {
        unsigned op = gen_rng_chance(g, 50) ? OTPU_OP_LD : OTPU_OP_ST;
        otpu_ops o = gen_random_ops(c, op);
        if (!o.dma.n)
            o.dma.n = 1;
        gen_emit(c, op, &o); /* (room was checked above) */
    }
    p->ins[at].w[1] = body;
    p->last_end = (int64_t)p->n - 1;
}

void gen_body(gen_ctx *c, unsigned n, unsigned (*pick)(gen_ctx *c))
{
    gen_rng *g = &c->rng;
    for (unsigned i = 0; i < n; i++) {
        gen_prog *p = gen_cur(c);
        if (gen_rng_chance(g, 3))
            skipped_loop(c);
        if (gen_rng_chance(g, 12)) {
            unsigned ptr = gen_rng_chance(g, 70) ? gen_free_ptr(c) : 0;
            int32_t step = 0;
            if (ptr) { /* a stride of words, chunks or rows, up or down */
                static const int32_t strides[] = {1, 4, 8, 32, 64, 128, 3, 260};
                step = strides[gen_rng_below(g, 8)];
                if (gen_rng_chance(g, 35))
                    step = -step;
            }
            gen_loop_open(c, (uint32_t)gen_rng_range(g, 1, 4), ptr, step);
        } else if (p->depth && gen_rng_chance(g, 15)) {
            gen_loop_close(c);
        }
        pick_op(c, pick);
    }
    gen_loop_close_all(c);
}

void gen_nest(gen_ctx *c, unsigned n, unsigned (*pick)(gen_ctx *c))
{
    gen_rng *g = &c->rng;
    while (gen_cur(c)->depth < GEN_MAX_DEPTH) {
        unsigned ptr = gen_rng_chance(g, 50) ? gen_free_ptr(c) : 0;
        if (gen_loop_open(c, 1 + (uint32_t)gen_rng_below(g, 2), ptr, ptr ? 4 : 0))
            break; /* the program or the iteration budget is full */
        pick_op(c, pick);
    }
    for (unsigned i = 1; i < n; i++)
        pick_op(c, pick);
    gen_loop_close_all(c);
}
