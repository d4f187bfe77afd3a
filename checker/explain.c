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

/* the exact integer of one MM block for int8 weights: sum_i ACT[j][(ab+k)D + i] * w[i] */
static int64_t mm_block(const otpu_config *cfg, const otpu_slice_view *v, const otpu_mm_ops *o,
                        uint32_t j, uint32_t n, uint32_t k)
{
    uint64_t row = (uint64_t)j * cfg->ACT_BLOCKS * cfg->D + (uint64_t)(o->ab + k) * cfg->D;
    uint64_t w = o->sa.value + (uint64_t)n * o->rs + (uint64_t)k * cfg->D;
    int64_t sum = 0;
    for (uint32_t i = 0; i < cfg->D && w + i < cfg->DRAM_BYTES; i++)
        sum += (int64_t)v->act[row + i] * (int8_t)v->dram[w + i];
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
    if (o->wf != 0) {
        fact(ops, "weights", "4-bit (format %u): the block integers are not expanded here", o->wf);
        return;
    }
    uint32_t t[4] = {0}; /* the isum_4 partials */
    char name[64];
    for (uint32_t k = 0; k < o->KB; k++) {
        int64_t isum = mm_block(cfg, v, o, j, n, k);
        uint64_t sa = o->ssa.value + (uint64_t)n * o->srs + 4ull * k;
        uint32_t ws = 0x3F800000u; /* UNIT: 1.0 */
        if (!o->unit) {
            ws = 0;
            if (sa + 4 <= cfg->DRAM_BYTES)
                memcpy(&ws, v->dram + sa, 4); /* little endian, as the host */
        }
        uint64_t as = (uint64_t)j * cfg->ACT_BLOCKS + o->ab + k;
        uint32_t act_scale = v->ascale[as];
        uint32_t term = otpu_f32_mul(otpu_f32_mul(otpu_f32_i2f(isum), ws), act_scale);
        if (k < 8) {
            snprintf(name, sizeof name, "block %u: exact integer dot product", k);
            fact(ops, name, "%" PRId64, isum);
            snprintf(name, sizeof name, "block %u: weight scale%s", k, o->unit ? " (UNIT)" : "");
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
    uint64_t src;
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
        fact(ops, "element", "row %u, element %u: DRAM byte %#" PRIx64, row, col,
             o->dst.value + (uint64_t)row * o->drs + (uint64_t)col * o->es);
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
    }
    free(x);
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

int ck_explain(otpu_checker *c, uint32_t s, const rec *r, otpu_divergence *d)
{
    d->noperands = d->nintermediates = 0;
    if (!c->facts && !(c->facts = calloc(2 * OTPU_DIV_FACTS, sizeof *c->facts)))
        return -1;
    facts ops = {c->facts, 0}, steps = {c->facts + OTPU_DIV_FACTS, 0};
    otpu_machine *m = c->bundle ? replay_to(c->bundle, s, r->n) : NULL;
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
    default: break;
    }
    otpu_machine_free(m);
    d->operands = ops.f;
    d->noperands = ops.n;
    d->intermediates = steps.f;
    d->nintermediates = steps.n;
    return 0;
}
