/* explain.c - the values that explain a divergence (checker/REPORT.md "operands" and
 * "intermediates"): what a person computes by hand to decide who is right. They are read from
 * a replay of the model up to the failing instruction (the checker's own model has run ahead),
 * at the diverging location: the element's operands, and the model's steps from them. */
#include "scoreboard.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "quant.h"
#include "revision.h"

typedef struct {
    otpu_div_fact *f;
    size_t n;
} facts;

static void fact(facts *l, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fact(facts *l, const char *name, const char *fmt, ...)
{
    if (l->n >= OTPU_DIV_FACTS)
        return;
    otpu_div_fact *x = &l->f[l->n++];
    snprintf(x->name, sizeof x->name, "%s", name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->value, sizeof x->value, fmt, ap);
    va_end(ap);
}

/* fp32 bits with their value: "3f800000 (1)" */
static void f32(facts *l, const char *name, uint32_t b)
{
    fact(l, name, "%08x (%.9g)", b, (double)otpu_float_of(b));
}

static const char *cls(uint32_t b)
{
    uint32_t e = b >> 23 & 0xFF, m = b & 0x7FFFFF;
    return e == 0xFF ? (m ? "NaN" : "inf") : e == 0 ? (m ? "subnormal (flushed)" : "zero")
                                                    : "normal";
}

/* ---- the model at the failing instruction: a replay of the bundle up to it ---- */

static otpu_machine *replay_to(const otpu_bundle *b, uint32_t s, uint64_t n)
{
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(b, &e);
    if (!m)
        return NULL;
    uint32_t S = otpu_machine_slices(m);
    for (uint64_t guard = 0; otpu_machine_view(m, s).icount < n; guard++) {
        int r = otpu_machine_step(m, s);
        if (r > 0) { /* s waits: the other slices up to their own waits, then the machine */
            for (uint32_t t = 0; t < S; t++)
                while (t != s && otpu_machine_step(m, t) == 0)
                    ;
            r = otpu_machine_settle(m) > 0 ? 0 : -1;
        }
        if (r < 0 || guard > (uint64_t)1 << 40) {
            otpu_machine_free(m);
            return NULL;
        }
    }
    return m;
}

/* ---- per family ---- */

static uint32_t tm(const otpu_slice_view *v, const otpu_config *c, uint64_t a)
{
    return a < c->TMEM_WORDS ? v->tmem[a] : 0;
}

static void composite(facts *steps, const otpu_f32_fns *fp, unsigned func, uint32_t x)
{
    uint32_t (*fn)(uint32_t) = func == OTPU_V_RECIP ? fp->recip : func == OTPU_V_RSQRT ? fp->rsqrt
                             : func == OTPU_V_LOG2  ? fp->log2  : fp->exp2;
    if (!fn)
        return;
    otpu_f32_trace t;
    uint32_t r = otpu_f32_traced(fn, x, &t);
    f32(steps, "input", x);
    for (unsigned k = 0; k < t.n; k++) {
        if (strstr(t.step[k].name, "(integer)"))
            fact(steps, t.step[k].name, "%d", (int32_t)t.step[k].v);
        else
            f32(steps, t.step[k].name, t.step[k].v);
    }
    f32(steps, "result", r);
}

static void vop(const otpu_checker *c, const rec *r, const otpu_divergence *d,
                const otpu_slice_view *v, facts *ops, facts *steps)
{
    const otpu_vop_ops *o = &r->ops.vop;
    const otpu_config *cfg = c->cfg;
    const otpu_f32_fns *fp = &otpu_rev_desc_of(cfg->revision)->fp;
    uint32_t row = d->row, col = d->col;
    if (o->func >= OTPU_V_RSUM) { /* a reduction of row `row` */
        uint64_t a = o->a.value + (uint64_t)row * o->ars;
        fact(ops, "row", "%u of %u, %u columns from T[%#" PRIx64 "]", row, o->rows, o->cols, a);
        unsigned n[5] = {0};
        static const char *const names[5] = {"zero", "subnormal (flushed)", "normal", "inf",
                                             "NaN"};
        for (uint32_t k = 0; k < o->cols; k++) {
            const char *x = cls(tm(v, cfg, a + k));
            for (int j = 0; j < 5; j++)
                n[j] += !strcmp(x, names[j]);
        }
        fact(ops, "input classes", "%u zero, %u subnormal (flushed), %u normal, %u inf, %u NaN",
             n[0], n[1], n[2], n[3], n[4]);
        if (o->func == OTPU_V_RMAX || o->func == OTPU_V_ARGMAX)
            return; /* a total order: any evaluation order gives the same bits */
        /* isum_64: the 64 partials (each a left-to-right chain over its columns), then the
         * folding tree; the product of RSSQ and RDOT is rounded first */
        uint32_t p[64];
        for (unsigned q = 0; q < 64; q++) {
            uint32_t acc = 0;
            for (uint32_t k = q; k < o->cols; k += 64) {
                uint32_t x = tm(v, cfg, a + k), y = x;
                if (o->func == OTPU_V_RDOT) {
                    uint64_t b = o->b.value + (o->bmode == OTPU_B_COL ? k : (uint64_t)row * o->brs);
                    b += o->bmode == OTPU_B_FULL ? k : 0;
                    y = o->bmode == OTPU_B_SCALAR ? o->imm.value : tm(v, cfg, b);
                }
                acc = otpu_f32_add(acc, o->func == OTPU_V_RSUM ? x : otpu_f32_mul(x, y));
            }
            if (o->cols % 64 && q >= o->cols % 64)
                acc = otpu_f32_add(acc, 0); /* a +0 pad term */
            p[q] = acc;
        }
        char name[48];
        for (unsigned q = 0; q < 64 && q < o->cols; q++) {
            snprintf(name, sizeof name, "partial p[%u]", q);
            f32(steps, name, p[q]);
        }
        for (unsigned h = 32; h >= 1; h /= 2) {
            for (unsigned i = 0; i < h; i++)
                p[i] = otpu_f32_add(p[i], p[i + h]);
            snprintf(name, sizeof name, "fold %u: p[0] = p[0] + p[%u]", h, h);
            f32(steps, name, p[0]);
        }
        return;
    }
    uint64_t a = o->a.value + (uint64_t)row * o->ars + col;
    uint32_t av = tm(v, cfg, a), bv;
    if (o->func == OTPU_V_OUTER) {
        uint64_t dst = o->dst.value + (uint64_t)row * o->drs + col;
        uint32_t x = tm(v, cfg, dst), dv = o->done ? 0x3F800000u
                                            : tm(v, cfg, o->a.value + (o->dscalar ? 0 : col));
        uint32_t b = tm(v, cfg, o->b.value + (uint64_t)row * o->brs);
        uint32_t cv = tm(v, cfg, o->imm.value + col);
        f32(ops, "T[dst] before", x);
        f32(ops, "Dv(c) (decay)", dv);
        f32(ops, "B(r)", b);
        f32(ops, "Cv(c)", cv);
        f32(steps, "T[dst]*Dv(c)", otpu_f32_mul(x, dv));
        f32(steps, "B(r)*Cv(c)", otpu_f32_mul(b, cv));
        f32(steps, "sum", otpu_f32_add(otpu_f32_mul(x, dv), otpu_f32_mul(b, cv)));
        return;
    }
    uint64_t b = o->b.value + (o->bmode == OTPU_B_COL ? col : (uint64_t)row * o->brs +
                                                             (o->bmode == OTPU_B_FULL ? col : 0));
    bv = o->bmode == OTPU_B_SCALAR ? o->imm.value : tm(v, cfg, b);
    char name[48];
    snprintf(name, sizeof name, "a = T[%#" PRIx64 "]", a);
    if (o->func != OTPU_V_FILL)
        f32(ops, name, av);
    static const char *const bm[4] = {"full", "per row", "per column", "scalar imm"};
    if (o->bmode == OTPU_B_SCALAR)
        snprintf(name, sizeof name, "b = imm (%s)", bm[3]);
    else
        snprintf(name, sizeof name, "b = T[%#" PRIx64 "] (%s)", b, bm[o->bmode & 3]);
    if (o->func <= OTPU_V_MIN || o->func == OTPU_V_FILL || o->func == OTPU_V_EXP2SUB)
        f32(ops, name, bv);
    if (o->func == OTPU_V_EXP2SUB) {
        uint32_t diff = otpu_f32_sub(av, bv);
        f32(steps, "a - b", diff);
        composite(steps, fp, OTPU_V_EXP2, diff);
    } else if (o->func == OTPU_V_EXP2 || o->func == OTPU_V_RECIP || o->func == OTPU_V_RSQRT ||
               o->func == OTPU_V_LOG2) {
        composite(steps, fp, o->func, av);
    }
}

/* The exact integer of one MM block of output (j, n): sum_i ACT[j][(ab+k)D + i] * w[i], its
 * OTPU_NSUB sub-block sums in sub[] (4-bit weights: decoded, each sub-block times its
 * multiplier from the scale word sw; int8: sub[] are plain partial sums). */
static int64_t mm_block(const otpu_config *cfg, const otpu_slice_view *v, const otpu_mm_ops *o,
                        uint32_t j, uint32_t n, uint32_t k, uint32_t sw, int64_t sub[OTPU_NSUB])
{
    uint64_t row = (uint64_t)j * cfg->ACT_BLOCKS * cfg->D + (uint64_t)(o->ab + k) * cfg->D;
    int four = o->wf != OTPU_WF_INT8;
    uint64_t w = o->sa.value + (uint64_t)n * o->rs + (uint64_t)k * (four ? cfg->D / 2 : cfg->D);
    const int8_t *dec = o->wf == OTPU_WF_INT4 ? otpu_dec_int4 : otpu_dec_fp4;
    uint32_t per = cfg->D / OTPU_NSUB;
    int64_t sum = 0;
    for (int b = 0; b < OTPU_NSUB; b++)
        sub[b] = 0;
    for (uint32_t i = 0; i < cfg->D; i++) {
        uint64_t at = four ? w + i / 2 : w + i;
        if (at >= cfg->DRAM_BYTES)
            break;
        int wi = four ? dec[(i & 1 ? v->dram[at] >> 4 : v->dram[at]) & 15] : (int8_t)v->dram[at];
        sub[i / per] += (int64_t)v->act[row + i] * wi;
    }
    for (int b = 0; b < OTPU_NSUB; b++) {
        if (four) /* each sub-block times its multiplier (1 with UNIT) */
            sub[b] *= o->unit ? 1 : (sw >> (16 + 4 * b)) & 15;
        sum += sub[b];
    }
    return sum;
}

static void mm(const otpu_checker *c, const rec *r, const otpu_divergence *d,
               const otpu_slice_view *v, facts *ops, facts *steps)
{
    const otpu_mm_ops *o = &r->ops.mm;
    const otpu_config *cfg = c->cfg;
    uint32_t j = d->row, n = d->col;
    if (n >= o->N) { /* the RMAX word of row j */
        fact(ops, "output", "the RMAX word of row %u (a total order: any order, the same bits)",
             j);
        return;
    }
    uint64_t out = o->out.value + (uint64_t)j * o->ors + n;
    fact(ops, "output element", "row j = %u, column n = %u (T[%#" PRIx64 "])", j, n, out);
    fact(ops, "K", "%u (%u blocks of %u)", o->KB * cfg->D, o->KB, cfg->D);
    if (o->acc)
        f32(ops, "ACC: T[out] before the MM", tm(v, cfg, out));
    static const char *const wf[] = {"int8", "int4", "fp4"};
    fact(ops, "weights", "%s (streamed row n = %u from DRAM %#" PRIx64 ")", wf[o->wf % 3], n,
         o->sa.value + (uint64_t)n * o->rs);
    uint32_t t[4] = {0}; /* the isum_4 partials */
    char name[64];
    for (uint32_t k = 0; k < o->KB; k++) {
        uint64_t sa = o->ssa.value + (uint64_t)n * o->srs + 4ull * k;
        uint32_t sw = 0, ws = 0x3F800000u; /* UNIT: 1.0 */
        if (!o->unit && sa + 4 <= cfg->DRAM_BYTES)
            memcpy(&sw, v->dram + sa, 4); /* little endian, as the host */
        if (!o->unit) /* int8: an fp32 scale; 4-bit: the bf16 block scale in the low half */
            ws = o->wf == OTPU_WF_INT8 ? sw : otpu_f32_ftz(sw << 16);
        int64_t sub[OTPU_NSUB];
        int64_t isum = mm_block(cfg, v, o, j, n, k, sw, sub);
        uint64_t as = (uint64_t)j * cfg->ACT_BLOCKS + o->ab + k;
        uint32_t act_scale = v->ascale[as];
        uint32_t term = otpu_f32_mul(otpu_f32_mul(otpu_f32_i2f(isum), ws), act_scale);
        if (k < 8) {
            snprintf(name, sizeof name, "block %u: sub-block sums", k);
            fact(ops, name, "%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "%s", sub[0], sub[1],
                 sub[2], sub[3], o->wf == OTPU_WF_INT8 ? "" : " (each times its multiplier)");
            snprintf(name, sizeof name, "block %u: exact integer dot product", k);
            fact(ops, name, "%" PRId64, isum);
            snprintf(name, sizeof name, "block %u: weight scale%s", k,
                     o->unit ? " (UNIT)" : o->wf == OTPU_WF_INT8 ? "" : " (bf16)");
            f32(ops, name, ws);
            snprintf(name, sizeof name, "block %u: ACT scale [%u][%u]", k, j, o->ab + k);
            f32(ops, name, act_scale);
            snprintf(name, sizeof name, "block %u: (i2f(isum) * ws) * ascale", k);
            f32(steps, name, term);
        }
        t[k % 4] = otpu_f32_add(t[k % 4], term);
    }
    for (unsigned q = 0; q < 4 && q < o->KB; q++) {
        snprintf(name, sizeof name, "partial p[%u] (blocks %u, %u, ...)", q, q, q + 4);
        f32(steps, name, t[q]);
    }
    uint32_t acc = otpu_f32_add(otpu_f32_add(t[0], t[2]), otpu_f32_add(t[1], t[3]));
    f32(steps, "acc = (p0 + p2) + (p1 + p3)", acc);
    if (o->ascale) { /* the flash-attention step: the old accumulator rescaled first */
        uint32_t alpha = tm(v, cfg, o->ssa.value + j);
        f32(ops, "ASCALE factor T[ssa + j]", alpha);
        f32(steps, "T[out] * factor + acc",
            otpu_f32_add(otpu_f32_mul(tm(v, cfg, out), alpha), acc));
    } else if (o->acc) {
        f32(steps, "T[out] + acc", otpu_f32_add(tm(v, cfg, out), acc));
    }
}

/* QACT / QST: the element's group (a block, or the row in ROW mode), its amax, scale and inv,
 * and the element's value before rounding */
static void quant(const otpu_checker *c, const rec *r, const otpu_divergence *d,
                  const otpu_slice_view *v, facts *ops, facts *steps)
{
    const otpu_config *cfg = c->cfg;
    const otpu_f32_fns *fp = &otpu_rev_desc_of(cfg->revision)->fp;
    uint32_t row = UINT32_MAX, col = 0, rows, KB, srs;
    uint64_t src, quant_byte = d->addr; /* QST: the element's DRAM byte */
    int row_mode;
    if (r->ops.format == OTPU_FMT_QST) {
        const otpu_qst_ops *o = &r->ops.qst;
        src = o->src.value, rows = o->rows, KB = o->KB, srs = o->srs, row_mode = o->row;
        uint32_t ne = o->half ? KB * cfg->D / 2 : KB * cfg->D;
        for (uint32_t q = 0; q < rows && row == UINT32_MAX; q++) /* which element is here */
            for (uint32_t e = 0; e < ne; e++) {
                uint64_t at = o->dst.value + (uint64_t)q * o->drs + (uint64_t)e * o->es;
                if (at >= d->addr && at < d->addr + 4 && (d->mask >> (at - d->addr) & 1)) {
                    row = q, col = e;
                    break;
                }
            }
        if (row == UINT32_MAX) {
            fact(ops, "location", "a scale word of the QST (its bytes: none here)");
            return;
        }
        quant_byte = o->dst.value + (uint64_t)row * o->drs + (uint64_t)col * o->es;
        fact(ops, "element", "row %u, element %u: DRAM byte %#" PRIx64, row, col, quant_byte);
    } else {
        const otpu_qact_ops *o = &r->ops.qact;
        src = o->src.value, rows = o->rows, KB = o->KB, srs = o->srs, row_mode = o->row;
        uint64_t per = (uint64_t)cfg->ACT_BLOCKS * cfg->D, blk, at;
        int scale = d->space == OTPU_SP_ASCALE;
        row = (uint32_t)(d->addr / (scale ? cfg->ACT_BLOCKS : per));
        at = d->addr % (scale ? cfg->ACT_BLOCKS : per); /* a block, or a byte of the row */
        blk = scale ? at : at / cfg->D;
        if (o->dup && row >= rows && row < 2 * rows) /* DUP: the copy of row - rows */
            row -= rows;
        if (blk < o->ab || blk >= (uint64_t)o->ab + KB || row >= rows) {
            fact(ops, "location", "outside the QACT's rows and blocks");
            return;
        }
        col = (uint32_t)((blk - o->ab) * cfg->D + (scale ? 0 : at % cfg->D));
        if (scale)
            fact(ops, "location", "the scale of row %u, block %u", row, (unsigned)blk);
        else
            fact(ops, "element", "row %u, element %u (ACT byte %#" PRIx64 ")", row, col, d->addr);
    }
    uint32_t glen = row_mode ? KB * cfg->D : cfg->D, g0 = row_mode ? 0 : col / cfg->D * cfg->D;
    uint32_t *x = calloc(glen, sizeof *x);
    if (!x)
        return;
    for (uint32_t k = 0; k < glen; k++) {
        uint32_t e = tm(v, cfg, src + (uint64_t)row * srs + g0 + k);
        if (r->ops.format == OTPU_FMT_QACT && r->ops.qact.has_rscale)
            e = otpu_f32_mul(e, tm(v, cfg, r->ops.qact.rscale + row));
        if (r->ops.format == OTPU_FMT_QACT && r->ops.qact.has_cscale)
            e = otpu_f32_mul(e, tm(v, cfg, r->ops.qact.cscale + g0 + k));
        x[k] = e;
    }
    uint32_t amax = 0;
    for (uint32_t k = 0; k < glen; k++)
        if ((otpu_f32_ftz(x[k]) & 0x7FFFFFFFu) > amax)
            amax = otpu_f32_ftz(x[k]) & 0x7FFFFFFFu;
    uint32_t s = 0, inv = otpu_quantize_inv(fp, x, glen, &s);
    fact(ops, "group", "%s: elements %u..%u of row %u",
         row_mode ? "the whole row (ROW)" : "a block", g0, g0 + glen - 1, row);
    int element = d->space != OTPU_SP_ASCALE && col - g0 < glen; /* (else: a scale) */
    const otpu_qact_ops *qa = r->ops.format == OTPU_FMT_QACT ? &r->ops.qact : NULL;
    if (element && qa && (qa->has_rscale || qa->has_cscale)) {
        /* CSCALE/RSCALE: x is the input times its factors (the group's amax is taken of x) */
        f32(ops, "input x0", tm(v, cfg, src + (uint64_t)row * srs + col));
        if (qa->has_rscale)
            f32(ops, "row factor r (RSCALE)", tm(v, cfg, qa->rscale + row));
        if (qa->has_cscale)
            f32(ops, "column factor c (CSCALE)", tm(v, cfg, qa->cscale + col));
        f32(steps, qa->has_rscale && qa->has_cscale ? "x = (x0 * r) * c"
                   : qa->has_rscale ? "x = x0 * r" : "x = x0 * c", x[col - g0]);
    } else if (element) {
        f32(ops, "x", x[col - g0]);
    }
    f32(steps, "amax = max |x|", amax);
    f32(steps, "scale s = amax * f32(1/127)", s);
    f32(steps, "inv = 127 * recip(amax)", inv);
    if (element) {
        uint32_t pre = otpu_f32_mul(x[col - g0], inv);
        f32(steps, "x * inv (before rounding)", pre);
        fact(steps, "q8 (round half to even, saturate to +-127)", "%d", otpu_f32_q8(pre));
        /* the RTL's byte: QACT's ACT byte, or QST's byte of the DRAM word at its lane */
        int lane = d->space == OTPU_SP_DRAM ? (int)(quant_byte - d->addr) : 0;
        if (d->has_actual && lane >= 0 && lane < 4 &&
            (d->space == OTPU_SP_ACT || (d->mask >> lane & 1)))
            fact(steps, "the RTL's q8 (its byte)", "%d", (int)(int8_t)(d->actual >> (8 * lane)));
    } else if (d->space == OTPU_SP_ASCALE && d->has_actual) {
        f32(steps, "the scale the RTL wrote", d->actual);
    }
    free(x);
}

static int at_gather(otpu_machine *m, uint32_t t)
{
    otpu_slice_view v = otpu_machine_view(m, t);
    return v.pc < v.nprog && v.prog[v.pc].op == OTPU_OP_GATHER;
}

/* GATHER: the destination element's segment names the source slice; its source address and
 * row stride are that slice's own (its registers): the element it read, from its TMEM. The
 * replay stopped the failing slice at the GATHER; the others are run to their own (m). */
static void gather(const otpu_checker *c, uint32_t s, const rec *r, otpu_machine *m,
                   const otpu_divergence *d, facts *ops)
{
    const otpu_gather_ops g = r->ops.gather;
    uint32_t S = c->cfg->S;
    if (d->space != OTPU_SP_TMEM || d->addr < g.dst.value || !g.seg)
        return;
    uint64_t off = d->addr - g.dst.value, k = off / g.seg, in = off % g.seg;
    uint64_t row = g.drs ? in / g.drs : 0, col = g.drs ? in % g.drs : in;
    if (k >= S || row >= g.rows || col >= g.cols) {
        fact(ops, "destination", "T[%#" PRIx64 "] is in no slice's segment (dst %#x, seg %u, rows "
             "%u, drs %u, cols %u)", d->addr, g.dst.value, g.seg, g.rows, g.drs, g.cols);
        return;
    }
    fact(ops, "destination", "slice %llu's segment (dst + %llu x seg %u), row %llu, column %llu",
         (unsigned long long)k, (unsigned long long)k, g.seg, (unsigned long long)row,
         (unsigned long long)col);
    /* every slice up to its GATHER, not into it (a BAR before it: released by settling) */
    for (int round = 0, all = 0; round < 8 && !all; round++) {
        all = 1;
        for (uint32_t t = 0; t < S; t++) {
            while (!at_gather(m, t) && otpu_machine_step(m, t) == 0)
                ;
            all &= at_gather(m, t);
        }
        if (!all && otpu_machine_settle(m) < 0)
            break;
    }
    otpu_slice_view src = otpu_machine_view(m, (uint32_t)k);
    if (!at_gather(m, (uint32_t)k)) {
        fact(ops, "source slice", "%llu (its GATHER not reached in the replay)",
             (unsigned long long)k);
        return;
    }
    otpu_gather_ops sg = otpu_operands(&src.prog[src.pc], src.R).gather;
    char name[64];
    fact(ops, "source slice", "%llu: its GATHER at pc %u reads src = R%u + %#x = %#x, row stride "
         "srs %u", (unsigned long long)k, src.pc, sg.src.reg, sg.src.imm, sg.src.value, sg.srs);
    uint64_t at = sg.src.value + row * sg.srs + col;
    snprintf(name, sizeof name, "the element read: slice %llu's T[%#llx]", (unsigned long long)k,
             (unsigned long long)at);
    f32(ops, name, at < c->cfg->TMEM_WORDS ? src.tmem[at] : 0);
}

static void dma(const otpu_checker *c, const rec *r, const otpu_divergence *d,
                const otpu_slice_view *v, facts *ops)
{
    const otpu_dma_ops *o = &r->ops.dma;
    int ld = r->ins.op == OTPU_OP_LD;
    uint64_t i = ld ? d->addr - o->tmem.value : (d->addr - o->dram.value) / 4;
    fact(ops, "element", "%" PRIu64 " of %u (%s)", i, o->n, ld ? "DRAM word -> TMEM word"
                                                                 : "TMEM word -> DRAM word");
    fact(ops, "source", ld ? "DRAM %#" PRIx64 " (= dram + 4i)" : "T[%#" PRIx64 "] (= tmem + i)",
         ld ? o->dram.value + 4 * i : o->tmem.value + i);
    fact(ops, "destination", ld ? "T[%#" PRIx64 "]" : "DRAM %#" PRIx64, d->addr);
    uint32_t w = 0;
    uint64_t a = o->dram.value + 4 * i;
    if (ld && a + 4 <= c->cfg->DRAM_BYTES)
        memcpy(&w, v->dram + a, 4);
    else if (!ld)
        w = tm(v, c->cfg, o->tmem.value + i);
    f32(ops, "the source word before the instruction", w);
}

/* The facts' storage (the checker's), emptied for a new divergence. */
static int facts_begin(otpu_checker *c, facts *ops, facts *steps)
{
    if (!c->facts && !(c->facts = calloc(2 * OTPU_DIV_FACTS, sizeof *c->facts)))
        return -1;
    *ops = (facts){c->facts, 0};
    *steps = (facts){c->facts + OTPU_DIV_FACTS, 0};
    return 0;
}

/* facts_begin, then the model replayed up to instruction n of slice s (NULL on failure) */
static otpu_machine *begin_at(otpu_checker *c, uint32_t s, uint64_t n, facts *ops, facts *steps)
{
    if (facts_begin(c, ops, steps) || !c->bundle)
        return NULL;
    return replay_to(c->bundle, s, n);
}

static void facts_end(const facts *ops, const facts *steps, otpu_divergence *d)
{
    d->operands = ops->f;
    d->noperands = ops->n;
    d->intermediates = steps->f;
    d->nintermediates = steps->n;
}

/* "R3 = 0x100 (the model) / 0x104 (the RTL)" for a register operand */
static void reg_operand(facts *ops, const char *what, const otpu_ri *x, const uint32_t *model_R,
                        const uint32_t *rtl_R)
{
    char name[64];
    snprintf(name, sizeof name, "%s = R%u + %#x", what, x->reg, x->imm);
    if (!x->reg)
        fact(ops, name, "%#x (R0 is 0)", x->imm);
    else
        fact(ops, name, "R%u = %#x in the model, %#x in the RTL%s", x->reg, model_R[x->reg],
             rtl_R[x->reg], model_R[x->reg] == rtl_R[x->reg] ? " (the same)" : " (they differ)");
}

int ck_explain_register(otpu_checker *c, uint32_t s, const regw *w, const uint32_t rtl_R[16],
                        otpu_divergence *d)
{
    facts ops, steps;
    otpu_machine *m = begin_at(c, s, w->n, &ops, &steps);
    if (!m)
        return -1;
    otpu_slice_view v = otpu_machine_view(m, s);
    if (w->pc < v.nprog) {
        const otpu_instr *in = &v.prog[w->pc];
        otpu_ops mo = otpu_operands(in, v.R), ro = otpu_operands(in, rtl_R);
        switch (in->op) {
        case OTPU_OP_LI:
            fact(&ops, "imm", "%#x (no register read)", mo.li.imm);
            fact(&steps, "the model: rd = imm", "R%u = %08x", mo.li.rd, mo.li.imm);
            break;
        case OTPU_OP_ADDI:
            reg_operand(&ops, "sum", &mo.addi.sum, v.R, rtl_R);
            fact(&steps, "the model: R[rs] + imm", "R%u = %08x", mo.addi.rd, mo.addi.sum.value);
            fact(&steps, "the same with the RTL's registers", "R%u = %08x", ro.addi.rd,
                 ro.addi.sum.value);
            break;
        case OTPU_OP_RLD: {
            reg_operand(&ops, "tmem address", &mo.rld.tmem, v.R, rtl_R);
            f32(&ops, "T[the model's address] before", tm(&v, c->cfg, mo.rld.tmem.value));
            if (ro.rld.tmem.value != mo.rld.tmem.value)
                f32(&ops, "T[the RTL's address] before", tm(&v, c->cfg, ro.rld.tmem.value));
            if (mo.rld.has_mul)
                reg_operand(&ops, "mul", &mo.rld.mul, v.R, rtl_R);
            fact(&steps, "the model", "R%u = %08x (%s%s)", mo.rld.rd, w->v,
                 mo.rld.raw ? "the word's raw bits" : "float to int", mo.rld.has_mul ? ", times mul" : "");
            break;
        }
        default:
            break;
        }
    }
    otpu_machine_free(m);
    facts_end(&ops, &steps, d);
    return 0;
}

/* Only the sequencer's own instructions (no unit's) in pcs [from, to)? */
static int sequencer_only(const otpu_slice_view *v, int64_t from, int64_t to)
{
    for (int64_t pc = from < 0 ? 0 : from; pc < to && pc < (int64_t)v->nprog; pc++)
        if (ck_windowed(v->prog[pc].op))
            return 0;
    return 1;
}

/* The LOOP that explains the two sides going on at a and b from last (the pc both dispatched
 * last; -1: none yet): one side to its body's start, the other past its end, either at the end
 * of its body (last inside it) or at the LOOP itself (reached from last through the sequencer's
 * own instructions: its count decides). The innermost; -1 if none. *entering: at the LOOP. */
static int64_t split_loop(const otpu_slice_view *v, int64_t last, uint32_t a, uint32_t b,
                          int *entering)
{
    int64_t best = -1;
    uint32_t best_len = UINT32_MAX;
    for (uint32_t l = 0; l < v->nprog; l++) {
        if (v->prog[l].op != OTPU_OP_LOOP)
            continue;
        uint32_t body = otpu_operands(&v->prog[l], v->R).loop.body;
        uint64_t start = (uint64_t)l + 1, after = start + body;
        int inside = last >= (int64_t)l && last < (int64_t)after;
        int enters = last < (int64_t)l && sequencer_only(v, last + 1, l);
        int two = (a == start && b == after) || (b == start && a == after);
        if ((inside || enters) && two && body < best_len) {
            best = l, best_len = body;
            *entering = enters;
        }
    }
    return best;
}

static void next_fact(facts *ops, const char *name, const otpu_slice_view *v, uint32_t pc)
{
    char dis[200];
    if (pc == UINT32_MAX) {
        fact(ops, name, "it halts");
        return;
    }
    if (pc < v->nprog)
        otpu_disasm(&v->prog[pc], dis, sizeof dis);
    else
        snprintf(dis, sizeof dis, "past the program's end");
    fact(ops, name, "pc %u: %s", pc, dis);
}

void ck_explain_split(otpu_checker *c, uint32_t s, uint32_t rtl_pc, uint32_t model_pc,
                      otpu_divergence *d)
{
    facts ops, steps;
    if (facts_begin(c, &ops, &steps))
        return;
    slice_state *ss = &c->sl[s];
    otpu_slice_view v = otpu_machine_view(c->m, s);
    char dis[200];
    int64_t last = ss->has_last ? (int64_t)ss->last_pc : -1;
    if (ss->has_last) {
        otpu_disasm(&ss->last_ins, dis, sizeof dis);
        fact(&ops, "the last instruction both sides dispatched", "n=%llu pc=%u %s",
             (unsigned long long)ss->last_n, ss->last_pc, dis);
    } else {
        fact(&ops, "the last instruction both sides dispatched", "none (the program's start)");
    }
    next_fact(&ops, "the RTL's next", &v, rtl_pc);
    next_fact(&ops, "the model's next", &v, model_pc);
    int entering = 0;
    int64_t l = split_loop(&v, last, rtl_pc, model_pc, &entering);
    if (l >= 0) {
        otpu_loop_ops lo = otpu_operands(&v.prog[l], v.R).loop;
        otpu_disasm(&v.prog[l], dis, sizeof dis);
        uint32_t start = (uint32_t)l + 1, end = (uint32_t)l + lo.body;
        int rtl_back = rtl_pc == start;
        fact(&steps, "the paths split at", "pc %lld: %s (body pc %u..%u)", (long long)l, dis,
             start, end);
        fact(&steps, "how", entering ? "%s" : "at the end of its body, %s",
             entering ? (rtl_back ? "the RTL ran the body, the model skipped it (count 0)"
                                  : "the RTL skipped the body, the model ran it")
                      : (rtl_back ? "the RTL went back for another iteration, the model left "
                                    "the loop"
                                  : "the RTL left the loop, the model went back for another "
                                    "iteration"));
        reg_operand(&ops, "the LOOP's count", &lo.count, v.R, ss->rtl_R);
    } else {
        /* the sequencer's own instructions on the model's path since the last dispatch */
        uint32_t from = last < 0 ? 0 : (uint32_t)last + 1, k = 0;
        for (uint32_t pc = from; pc < v.nprog && pc != model_pc && k < 8; pc++, k++) {
            char name[64];
            snprintf(name, sizeof name, "between: pc %u", pc);
            otpu_disasm(&v.prog[pc], dis, sizeof dis);
            fact(&steps, name, "%s", dis);
        }
        fact(&steps, "the paths split at", "after pc %lld (the last instruction both sides "
             "dispatched): no LOOP explains the two next pcs; the instructions above are "
             "the model's path to its next", (long long)last);
    }
    facts_end(&ops, &steps, d);
}

int ck_explain(otpu_checker *c, uint32_t s, const rec *r, otpu_divergence *d)
{
    d->noperands = d->nintermediates = 0;
    facts ops, steps;
    otpu_machine *m = begin_at(c, s, r->n, &ops, &steps);
    if (!m)
        return -1;
    otpu_slice_view v = otpu_machine_view(m, s);
    switch (r->ops.format) {
    case OTPU_FMT_VOP:
        if (d->has_tile)
            vop(c, r, d, &v, &ops, &steps);
        break;
    case OTPU_FMT_MM:
        if (d->has_tile)
            mm(c, r, d, &v, &ops, &steps);
        break;
    case OTPU_FMT_QACT:
    case OTPU_FMT_QST: quant(c, r, d, &v, &ops, &steps); break;
    case OTPU_FMT_DMA: dma(c, r, d, &v, &ops); break;
    case OTPU_FMT_GATHER: gather(c, s, r, m, d, &ops); break;
    default: break;
    }
    otpu_machine_free(m);
    facts_end(&ops, &steps, d);
    return 0;
}
