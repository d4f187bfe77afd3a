/* coverage_data.c - the values the datapath ran on (coverage.h: the groups data, mm-data,
 * quant-data, vop-data, gather-data and idle): not which instructions ran, but whether their
 * data could show a wrong MAC column, a narrowed accumulator, a rounding or summation-order
 * bug, or a GATHER that reads the wrong slice's source. Measured at issue, from the state the
 * instruction reads (the model has not executed it yet), and at retire, from its writes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coverage_data.h"
#include "fp32.h"
#include "quant.h"
#include "revision.h"

enum {
    LONG_COLS = 64,        /* a row past one isum_64 partial set */
    MM_COLS = 8,           /* MAC columns (an MM's ACT row m runs on column m mod MCOLS) with
                            * a bin each */
    MM_OUTS = 4,           /* output columns (weight rows n) with a bin each */
    BIG_BLOCK = 1 << 17,   /* a K-block's exact integer past 17 bits */
    VOP_SAMPLE = 8192,     /* VOP elements looked at per instruction (the first ones) */
};
enum { WF_INT8, WF_INT4, WF_FP4, WFS };
static const char *const wf_names[WFS] = {"int8", "int4", "fp4"};

/* q8(x * inv) of one element: how it rounded */
enum { Q_TOWARD, Q_AWAY, Q_TIE_TOWARD, Q_TIE_AWAY, Q_POS127, Q_NEG127, Q_CLAMPED, QCLASSES };
static const char *const q_names[QCLASSES] = {
    "rounds toward zero", "rounds away from zero", "tie to even toward zero",
    "tie to even away from zero", "reaches +127", "reaches -127", "clamped (|x*inv| > 127)"};
enum { QACT, QST, QOPS };
static const char *const q_ops[QOPS] = {"QACT", "QST"};

enum { IDLE_MM, IDLE_QACT, IDLE_QST, IDLE_VOP, IDLES };
static const char *const idle_names[IDLES] = {"MM", "QACT", "QST", "VOP"};

enum { NRED = 5 };
static const unsigned reductions[NRED] = {OTPU_V_RSUM, OTPU_V_RMAX, OTPU_V_RSSQ, OTPU_V_RDOT,
                                          OTPU_V_ARGMAX};

/* slice 0's GATHERs, in turn: their source and stride, which the other slices' are compared
 * with (the model runs slice 0 to its GATHER first) */
typedef struct {
    uint64_t src, srs;
} gather_src;

struct cov_data {
    size_t addi_neg, nested_reg, vop_long, red_long[NRED];
    size_t mm_mac[WFS][MM_COLS], mm_out[WFS][MM_OUTS], mm_changed[WFS], mm_big[WFS];
    size_t q_class[QOPS][QCLASSES], q_vary[QOPS];
    size_t v_inexact[MAX_VFUNC], v_tie[MAX_VFUNC], v_order[MAX_VFUNC];
    size_t g_src, g_srs, g_reg;
    size_t idle[IDLES];
    otpu_ops *pending;      /* per slice: the MM issued last (the model retires it next) */
    gather_src *g0;
    size_t ng0, capg0;
    uint64_t *ngather;      /* per slice: GATHERs issued */
};

static int is_reduction(unsigned f)
{
    for (unsigned k = 0; k < NRED; k++)
        if (reductions[k] == f)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ bins */

/* Why a VOP function cannot be inexact or tie (NULL: it can). */
static const char *exact_always(unsigned f)
{
    if (f == OTPU_V_MAX || f == OTPU_V_MIN || f == OTPU_V_COPY || f == OTPU_V_ABS ||
        f == OTPU_V_FILL || f == OTPU_V_RMAX || f == OTPU_V_ARGMAX)
        return "its result is one of its inputs: nothing is rounded";
    return NULL;
}

static int rounds_once(unsigned f) /* one rounded add or mul: a tie is measured */
{
    return f == OTPU_V_ADD || f == OTPU_V_SUB || f == OTPU_V_RSUB || f == OTPU_V_MUL ||
           f == OTPU_V_OUTER;
}

int cov_data_build(otpu_coverage *c)
{
    cov_data *d = calloc(1, sizeof *d);
    if (!(c->data = d) || !(d->pending = calloc(c->cfg.S, sizeof *d->pending)) ||
        !(d->ngather = calloc(c->cfg.S, sizeof *d->ngather)))
        return -1;
    const otpu_config *cfg = &c->cfg;
    size_t g = cov_add_group(c, "data");
    d->addi_neg = cov_add_bin(c, g, NULL, "ADDI negative imm");
    d->nested_reg = cov_add_bin(c, g, NULL, "nested loop reg operand");
    d->vop_long = cov_add_bin(c, g, NULL, "VOP cols>%d", LONG_COLS);
    for (unsigned k = 0; k < NRED; k++)
        d->red_long[k] = cov_add_bin(c, g, NULL, "%s cols>%d", otpu_vfunc_name(reductions[k]),
                                     LONG_COLS);

    g = cov_add_group(c, "mm-data");
    uint32_t rows = otpu_config_act_rows(cfg);
    for (unsigned w = 0; w < WFS; w++) {
        const char *no4 = w && otpu_rev_flag_lacking(cfg->revision, OTPU_OP_MM,
                                                     w << OTPU_WF_SHIFT)
                              ? "the ISA revision has no 4-bit weights" : NULL;
        for (unsigned j = 0; j < MM_COLS; j++)
            d->mm_mac[w][j] = cov_add_bin(c, g, no4 ? no4 : j < rows && j < cfg->MCOLS ? NULL :
                                          "the Config's MXU has fewer columns (or ACT RAM rows)",
                                          "wf=%s MAC column %u result nonzero", wf_names[w], j);
        for (unsigned n = 0; n < MM_OUTS; n++)
            d->mm_out[w][n] = cov_add_bin(c, g, no4, "wf=%s output column %u nonzero",
                                          wf_names[w], n);
        d->mm_changed[w] = cov_add_bin(c, g, no4, "wf=%s result changed by the weights",
                                       wf_names[w]);
        d->mm_big[w] = cov_add_bin(c, g, no4, "wf=%s block integer >= 2^17", wf_names[w]);
    }

    g = cov_add_group(c, "quant-data");
    for (unsigned q = 0; q < QOPS; q++) {
        for (unsigned k = 0; k < QCLASSES; k++)
            d->q_class[q][k] = cov_add_bin(c, g, NULL, "%s %s", q_ops[q], q_names[k]);
        d->q_vary[q] = cov_add_bin(c, g, NULL, "%s bytes vary", q_ops[q]);
    }

    g = cov_add_group(c, "vop-data");
#define X(NAME, code, str)                                                                    \
    d->v_inexact[code] = d->v_tie[code] = d->v_order[code] = COV_NONE;                        \
    if (!otpu_rev_desc_of(cfg->revision)->lacks_vfunc[code]) {                               \
        d->v_inexact[code] = cov_add_bin(c, g, exact_always(code), "%s inexact", str);        \
        if (rounds_once(code))                                                                \
            d->v_tie[code] = cov_add_bin(c, g, NULL, "%s tie", str);                          \
        if (code == OTPU_V_RSUM || code == OTPU_V_RSSQ || code == OTPU_V_RDOT)                \
            d->v_order[code] = cov_add_bin(c, g, NULL, "%s order matters", str);              \
    }
    OTPU_VFUNCS(X)
#undef X

    g = cov_add_group(c, "gather-data");
    const char *one = cfg->S == 1 ? "S=1: a GATHER has no other slice" : NULL;
    d->g_src = cov_add_bin(c, g, one, "GATHER distinct sources per slice");
    d->g_srs = cov_add_bin(c, g, one, "GATHER distinct strides per slice");
    d->g_reg = cov_add_bin(c, g, NULL, "GATHER register source");

    g = cov_add_group(c, "idle");
    for (unsigned k = 0; k < IDLES; k++)
        d->idle[k] = cov_add_bin(c, g, "count: an instruction whose inputs were all zero (not a "
                                 "goal: the fewer the better)", "%s ran on nothing",
                                 idle_names[k]);
    return 0;
}

void cov_data_free(otpu_coverage *c)
{
    if (!c->data)
        return;
    free(c->data->pending);
    free(c->data->ngather);
    free(c->data->g0);
    free(c->data);
    c->data = NULL;
}

/* ------------------------------------------------------------------ MM */

static int wf_index(uint32_t wf)
{
    return wf < WFS ? (int)wf : -1;
}

/* The largest |exact block integer| of the MM (exec_mm.c's isum), and whether every ACT byte or
 * every weight it reads is zero. 0 when the MM fails its checks (it raises, nothing to see). */
static int mm_blocks(const otpu_coverage *c, const otpu_mm_ops *a, const otpu_slice_view *v,
                     int64_t *most, int *idle)
{
    const otpu_config *cfg = &c->cfg;
    uint64_t D = cfg->D, R = a->pair ? 2 * (uint64_t)a->M : a->M;
    uint64_t bpb = a->wf == OTPU_WF_INT8 ? D : D / 2, row = (uint64_t)cfg->ACT_BLOCKS * D;
    if (!R || R > otpu_config_act_rows(cfg) || a->ab + (uint64_t)a->KB > cfg->ACT_BLOCKS ||
        wf_index(a->wf) < 0 || !a->N || !a->KB ||
        a->sa.value + (a->N - 1) * (uint64_t)a->rs + a->KB * bpb > cfg->DRAM_BYTES ||
        (!a->unit && a->ssa.value + (a->N - 1) * (uint64_t)a->srs + 4 * (uint64_t)a->KB >
                         cfg->DRAM_BYTES))
        return 0;
    int act_zero = 1, w_zero = 1;
    *most = 0;
    for (uint64_t n = 0; n < a->N; n++)
        for (uint64_t k = 0; k < a->KB; k++) {
            const uint8_t *w = v->dram + a->sa.value + n * a->rs + k * bpb;
            uint32_t sw = 0;
            if (!a->unit)
                memcpy(&sw, v->dram + a->ssa.value + n * a->srs + 4 * k, 4);
            for (uint64_t r = 0; r < R; r++) {
                const int8_t *x = v->act + r * row + (a->ab + k) * D;
                int64_t s = 0;
                for (uint64_t i = 0; i < D; i++) {
                    int wi = a->wf == OTPU_WF_INT8 ? (int8_t)w[i]
                             : (a->wf == OTPU_WF_INT4 ? otpu_dec_int4 : otpu_dec_fp4)
                                   [(w[i / 2] >> (4 * (i & 1))) & 15];
                    if (a->wf != OTPU_WF_INT8 && !a->unit)
                        wi *= (int)((sw >> (16 + 4 * (i / (D / OTPU_NSUB)))) & 15);
                    act_zero &= x[i] == 0;
                    w_zero &= wi == 0;
                    s += (int64_t)x[i] * wi;
                }
                if (llabs(s) > *most)
                    *most = llabs(s);
            }
        }
    *idle = act_zero || w_zero;
    return 1;
}

static void mm_issue(otpu_coverage *c, uint32_t s, const otpu_ops *o, const otpu_slice_view *v)
{
    cov_data *d = c->data;
    int64_t most;
    int idle, w = wf_index(o->mm.wf);
    d->pending[s] = *o;
    if (w < 0 || !mm_blocks(c, &o->mm, v, &most, &idle))
        return;
    if (most >= BIG_BLOCK)
        cov_hit(c, d->mm_big[w]);
    if (idle)
        cov_hit(c, d->idle[IDLE_MM]);
}

/* Its outputs (not its RMAX words): which rows are nonzero, and whether the weights changed a
 * value (ACC: the old value; ASCALE: counted as ACC). */
static void mm_retire(otpu_coverage *c, uint32_t s, const otpu_retired *r)
{
    cov_data *d = c->data;
    const otpu_mm_ops *a = &d->pending[s].mm;
    int w = wf_index(a->wf);
    if (w < 0 || !a->ors)
        return;
    uint64_t out = a->out.value, end = out + (a->M - 1) * (uint64_t)a->ors + a->N;
    uint32_t macs = 0, outs = 0; /* the columns hit (a bin counts once an instruction) */
    int changed = 0;
    for (size_t i = 0; i < r->nwrites; i++) {
        const otpu_write *x = &r->writes[i];
        if (x->space != OTPU_SP_TMEM || x->addr < out || x->addr >= end ||
            (x->addr - out) % a->ors >= a->N)
            continue;
        uint64_t m = (x->addr - out) / a->ors, n = (x->addr - out) % a->ors;
        if (x->val & 0x7FFFFFFF) {
            macs |= m % c->cfg.MCOLS < MM_COLS ? 1u << m % c->cfg.MCOLS : 0;
            outs |= n < MM_OUTS ? 1u << n : 0;
        }
        changed |= a->acc || a->ascale ? x->val != x->old : (x->val & 0x7FFFFFFF) != 0;
    }
    for (unsigned j = 0; j < MM_COLS; j++)
        if (macs >> j & 1)
            cov_hit(c, d->mm_mac[w][j]);
    for (unsigned n = 0; n < MM_OUTS; n++)
        if (outs >> n & 1)
            cov_hit(c, d->mm_out[w][n]);
    if (changed)
        cov_hit(c, d->mm_changed[w]);
}

/* ------------------------------------------------------------------ QACT, QST */

static double f64(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    return (double)f;
}

/* How q8 rounded p = x * inv (its classes as bits). */
static unsigned q_class(uint32_t p)
{
    double v = f64(p), m = fabs(v);
    if (isnan(v))
        return 0;
    if (m > 127.0)
        return 1u << Q_CLAMPED;
    unsigned bits = 0;
    double fl = floor(m), frac = m - fl;
    if (frac == 0.5)
        bits |= 1u << (fmod(fl, 2.0) == 0.0 ? Q_TIE_TOWARD : Q_TIE_AWAY);
    else if (frac > 0.0)
        bits |= 1u << (frac < 0.5 ? Q_TOWARD : Q_AWAY);
    if (rint(v) == 127.0)
        bits |= 1u << Q_POS127;
    if (rint(v) == -127.0)
        bits |= 1u << Q_NEG127;
    return bits;
}

/* The classes of a group x[0..n) of the quantizer (quant.h), over its first `stored` elements;
 * *zero: every element is zero. */
static unsigned group_classes(const otpu_coverage *c, const uint32_t *x, size_t n,
                              size_t stored, int *zero)
{
    uint32_t inv = otpu_quantize_inv(&otpu_rev_desc_of(c->cfg.revision)->fp, x, n, NULL);
    unsigned bits = 0;
    for (size_t i = 0; i < n; i++) {
        *zero &= (x[i] & 0x7FFFFFFF) == 0;
        if (i < stored)
            bits |= q_class(otpu_f32_mul(x[i], inv));
    }
    return bits;
}

/* QACT / QST: how their elements round (exec_quant.c's quant_row, scaled as it scales). */
static void quant_issue(otpu_coverage *c, const otpu_instr *in, const otpu_ops *o,
                        const otpu_slice_view *v)
{
    cov_data *d = c->data;
    uint64_t W = c->cfg.TMEM_WORDS, D = c->cfg.D;
    int qact = in->op == OTPU_OP_QACT;
    uint64_t src = qact ? o->qact.src.value : o->qst.src.value;
    uint64_t rows = qact ? o->qact.rows : o->qst.rows, KB = qact ? o->qact.KB : o->qst.KB;
    uint64_t srs = qact ? o->qact.srs : o->qst.srs, n = KB * D;
    int row_mode = qact ? o->qact.row : o->qst.row;
    uint64_t stored = !qact && o->qst.half ? n / 2 : n;
    int64_t cs = qact && o->qact.has_cscale ? (int64_t)o->qact.cscale : -1;
    int64_t rsc = qact && o->qact.has_rscale ? (int64_t)o->qact.rscale : -1;
    if (!rows || !n || src + (rows - 1) * srs + n > W || (cs >= 0 && (uint64_t)cs + n > W) ||
        (rsc >= 0 && (uint64_t)rsc + rows > W))
        return; /* the instruction fails its range check */
    uint32_t *x = cov_scratch(c, n);
    if (!x)
        return;
    unsigned bits = 0;
    int zero = 1;
    for (uint64_t r = 0; r < rows; r++) {
        for (uint64_t k = 0; k < n; k++) {
            uint32_t e = v->tmem[src + r * srs + k];
            if (rsc >= 0)
                e = otpu_f32_mul(e, v->tmem[(uint64_t)rsc + r]);
            if (cs >= 0)
                e = otpu_f32_mul(e, v->tmem[(uint64_t)cs + k]);
            x[k] = e;
        }
        if (row_mode)
            bits |= group_classes(c, x, n, stored, &zero);
        else
            for (uint64_t b = 0; b < KB; b++)
                bits |= group_classes(c, x + b * D, D, b * D < stored ? stored - b * D : 0,
                                      &zero);
    }
    int q = qact ? QACT : QST;
    for (unsigned k = 0; k < QCLASSES; k++)
        if (bits & (1u << k))
            cov_hit(c, d->q_class[q][k]);
    if (zero)
        cov_hit(c, d->idle[qact ? IDLE_QACT : IDLE_QST]);
}

/* The bytes it wrote take more than one value. */
static void quant_retire(otpu_coverage *c, const otpu_retired *r)
{
    int qact = r->ins->op == OTPU_OP_QACT, have = 0;
    uint8_t first = 0;
    for (size_t i = 0; i < r->nwrites; i++) {
        const otpu_write *x = &r->writes[i];
        uint8_t byte;
        if (qact && x->space == OTPU_SP_ACT)
            byte = (uint8_t)x->val;
        else if (!qact && x->space == OTPU_SP_DRAM && x->mask && !(x->mask & (x->mask - 1)))
            byte = (uint8_t)(x->val >> (8 * __builtin_ctz(x->mask)));
        else
            continue; /* (QST's scale words are whole words) */
        if (have && byte != first) {
            cov_hit(c, c->data->q_vary[qact ? QACT : QST]);
            return;
        }
        first = byte;
        have = 1;
    }
}

/* ------------------------------------------------------------------ VOP */

/* the exact value of a finite composite (libm, in double), or NAN when it is not measured */
static double exact_of(unsigned f, double a)
{
    switch (f) {
    case OTPU_V_EXP2:
    case OTPU_V_EXP2SUB: return exp2(a);
    case OTPU_V_RECIP: return a != 0.0 ? 1.0 / a : NAN;
    case OTPU_V_RSQRT: return a > 0.0 ? 1.0 / sqrt(a) : NAN;
    case OTPU_V_LOG2: return a > 0.0 ? log2(a) : NAN;
    default: return NAN;
    }
}

/* res rounds exact: inexact (1), and exactly halfway between res and a neighbour (*tie) */
static int rounded(double exact, uint32_t res, int *tie)
{
    double r = f64(res);
    *tie = 0;
    if (isnan(exact) || !isfinite(r) || r == exact)
        return 0;
    int e = (int)((res >> 23) & 0xFF);
    if (e) /* a normal result: its ulp is 2^(e - 150) */
        *tie = fabs(exact - r) == ldexp(0.5, e - 150);
    return 1;
}

typedef struct {
    const otpu_vop_ops *o;
    const otpu_slice_view *v;
    uint64_t W;
} vop_in;

static int elem(const vop_in *x, uint64_t at, uint32_t *out)
{
    if (at >= x->W)
        return 0;
    *out = otpu_f32_ftz(x->v->tmem[at]);
    return 1;
}

static int b_of(const vop_in *x, uint64_t r, uint64_t c, uint32_t *out)
{
    const otpu_vop_ops *o = x->o;
    switch (o->bmode) {
    case OTPU_B_FULL: return elem(x, o->b.value + r * o->brs + c, out);
    case OTPU_B_ROW: return elem(x, o->b.value + r * o->brs, out);
    case OTPU_B_COL: return elem(x, o->b.value + c, out);
    default: *out = otpu_f32_ftz(o->imm.value); return 1;
    }
}

/* an elementwise function's result of a and b, and its exact value (NAN: not measured) */
static uint32_t elementwise(const otpu_f32_fns *fp, unsigned f, uint32_t a, uint32_t b,
                            double *exact)
{
    double x = f64(a), y = f64(b);
    switch (f) {
    case OTPU_V_ADD: *exact = x + y; return otpu_f32_add(a, b);
    case OTPU_V_SUB: *exact = x - y; return otpu_f32_sub(a, b);
    case OTPU_V_RSUB: *exact = y - x; return otpu_f32_sub(b, a);
    case OTPU_V_MUL: *exact = x * y; return otpu_f32_mul(a, b);
    case OTPU_V_EXP2SUB: {
        uint32_t s = otpu_f32_sub(a, b);
        *exact = exact_of(f, f64(s));
        return fp->exp2(s);
    }
    case OTPU_V_EXP2: *exact = exact_of(f, x); return fp->exp2(a);
    case OTPU_V_RECIP: *exact = exact_of(f, x); return fp->recip(a);
    case OTPU_V_RSQRT: *exact = exact_of(f, x); return fp->rsqrt(a);
    case OTPU_V_LOG2: *exact = exact_of(f, x); return fp->log2 ? fp->log2(a) : 0;
    default: *exact = NAN; return 0;
    }
}

/* a reduction's row: rounded (the exact sum in double differs), order matters (a left to
 * right fp32 sum differs from isum_64's) */
static void reduction_row(otpu_coverage *cov, const vop_in *x, uint64_t r, int *inexact,
                          int *order)
{
    const otpu_vop_ops *o = x->o;
    unsigned f = o->func;
    uint32_t seq = 0;
    double exact = 0.0;
    uint64_t n = o->cols < VOP_SAMPLE ? o->cols : VOP_SAMPLE;
    uint32_t *t = cov_scratch(cov, n ? n : 1);
    if (!t)
        return;
    for (uint64_t c = 0; c < n; c++) {
        uint32_t a, b = 0;
        if (!elem(x, o->a.value + r * o->ars + c, &a) || (f == OTPU_V_RDOT && !b_of(x, r, c, &b)))
            return;
        uint32_t term = f == OTPU_V_RSUM ? a : otpu_f32_mul(a, f == OTPU_V_RSSQ ? a : b);
        exact += f == OTPU_V_RSUM ? f64(a) : f64(a) * (f == OTPU_V_RSSQ ? f64(a) : f64(b));
        t[c] = term;
        seq = otpu_f32_add(seq, term);
    }
    uint32_t res = otpu_f32_isum(t, n, 1, 64, 1);
    int tie;
    *inexact |= rounded(exact, res, &tie);
    *order |= isfinite(f64(res)) && res != otpu_f32_add(seq, 0);
}

static void vop_issue(otpu_coverage *c, const otpu_ops *ops, const otpu_slice_view *v)
{
    cov_data *d = c->data;
    const otpu_vop_ops *o = &ops->vop;
    unsigned f = o->func;
    if (f >= MAX_VFUNC || d->v_inexact[f] == COV_NONE)
        return;
    if (o->cols > LONG_COLS) {
        for (unsigned k = 0; k < NRED; k++)
            if (reductions[k] == f)
                cov_hit(c, d->red_long[k]);
        if (!is_reduction(f))
            cov_hit(c, d->vop_long);
    }
    const otpu_f32_fns *fp = &otpu_rev_desc_of(c->cfg.revision)->fp;
    vop_in x = {o, v, c->cfg.TMEM_WORDS};
    int inexact = 0, tie = 0, order = 0, zero = 1;
    uint64_t seen = 0;
    for (uint64_t r = 0; r < o->rows && seen < VOP_SAMPLE; r++) {
        if (f == OTPU_V_RSUM || f == OTPU_V_RSSQ || f == OTPU_V_RDOT) {
            reduction_row(c, &x, r, &inexact, &order);
            seen += o->cols;
        }
        for (uint64_t col = 0; col < o->cols && seen < VOP_SAMPLE && !is_reduction(f);
             col++, seen++) {
            uint32_t a = 0, b = 0;
            if (f == OTPU_V_OUTER) { /* dst * Dv(c) + B(r) * Cv(c): the final add */
                uint32_t dv = OTPU_F32_ONE, cv, bv, t;
                if (!elem(&x, o->dst.value + r * o->drs + col, &t) ||
                    !elem(&x, o->b.value + r * o->brs, &bv) || !elem(&x, o->imm.value + col, &cv) ||
                    (!o->done && !elem(&x, o->a.value + (o->dscalar ? 0 : col), &dv)))
                    return;
                a = otpu_f32_mul(t, dv);
                b = otpu_f32_mul(bv, cv);
                int ti;
                inexact |= rounded(f64(a) + f64(b), otpu_f32_add(a, b), &ti);
                tie |= ti;
                zero &= !(t & 0x7FFFFFFF) && !(bv & 0x7FFFFFFF);
                continue;
            }
            if ((f != OTPU_V_FILL && !elem(&x, o->a.value + r * o->ars + col, &a)) ||
                !b_of(&x, r, col, &b))
                return;
            zero &= !(a & 0x7FFFFFFF) && (!otpu_vfunc_is_binary(f) || !(b & 0x7FFFFFFF));
            double exact;
            uint32_t res = elementwise(fp, f, a, b, &exact);
            int ti;
            inexact |= rounded(exact, res, &ti);
            tie |= ti && rounds_once(f);
        }
    }
    if (inexact)
        cov_hit(c, d->v_inexact[f]);
    if (tie)
        cov_hit(c, d->v_tie[f]);
    if (order)
        cov_hit(c, d->v_order[f]);
    if (zero && !is_reduction(f) && f != OTPU_V_FILL)
        cov_hit(c, d->idle[IDLE_VOP]);
}

/* ------------------------------------------------------------------ GATHER */

static void gather_issue(otpu_coverage *c, uint32_t s, const otpu_gather_ops *g)
{
    cov_data *d = c->data;
    if (g->src.reg)
        cov_hit(c, d->g_reg);
    uint64_t k = d->ngather[s]++;
    if (s == 0) {
        if (d->ng0 == d->capg0) {
            size_t cap = d->capg0 ? 2 * d->capg0 : 16;
            gather_src *p = realloc(d->g0, cap * sizeof *p);
            if (!p)
                return;
            d->g0 = p;
            d->capg0 = cap;
        }
        d->g0[d->ng0++] = (gather_src){g->src.value, g->srs};
    } else if (k < d->ng0) {
        if (d->g0[k].src != g->src.value)
            cov_hit(c, d->g_src);
        if (d->g0[k].srs != g->srs)
            cov_hit(c, d->g_srs);
    }
}

/* ------------------------------------------------------------------ the listener's calls */

void cov_data_issue(otpu_coverage *c, uint32_t s, const otpu_instr *in, const otpu_ops *o,
                    const otpu_slice_view *v)
{
    cov_data *d = c->data;
    if (v->loop_depth >= 2)
        for (unsigned k = 0; k < o->nri; k++)
            if (((const otpu_ri *)((const char *)o + o->ri_at[k]))->reg) {
                cov_hit(c, d->nested_reg);
                break;
            }
    switch (in->op) {
    case OTPU_OP_ADDI:
        if ((int32_t)o->addi.sum.imm < 0)
            cov_hit(c, d->addi_neg);
        break;
    case OTPU_OP_MM: mm_issue(c, s, o, v); break;
    case OTPU_OP_QACT:
    case OTPU_OP_QST: quant_issue(c, in, o, v); break;
    case OTPU_OP_VOP: vop_issue(c, o, v); break;
    case OTPU_OP_GATHER: gather_issue(c, s, &o->gather); break;
    default: break;
    }
}

void cov_data_retire(otpu_coverage *c, const otpu_retired *r)
{
    if (!r->ins || r->slice >= c->cfg.S || r->faulted)
        return;
    if (r->ins->op == OTPU_OP_MM)
        mm_retire(c, r->slice, r);
    else if (r->ins->op == OTPU_OP_QACT || r->ins->op == OTPU_OP_QST)
        quant_retire(c, r);
}
