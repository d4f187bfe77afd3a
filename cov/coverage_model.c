/* coverage_model.c - the functional coverage model (the bins: coverage.h). */
#include "coverage.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "coverage_bins.h"
#include "coverage_data.h"
#include "footprint.h"
#include "input.h"
#include "json_input.h"
#include "fp32.h"
#include "quant.h"
#include "revision.h"

/* ------------------------------------------------------------------ bins */

enum { G_OPFLAGS, G_VOP, G_HAZARD, G_HAZARD_EDGE, G_RTL, G_LOOP, G_ERROR, G_FP, G_SIZE,
       G_FIXED };
static const char *const group_names[G_FIXED] = {"opcode-flags", "vop-bmode", "hazard",
                                                 "hazard-edge", "rtl", "loop-depth", "error",
                                                 "fp-class", "size-zero"};

static const char *const kind_names[KINDS] = {"RAW", "WAR", "WAW"};
static const char *const mem_names[MEMS] = {"TMEM", "DRAM", "ACT"};
static const char *const edge_names[EDGES] = {"meets the first word", "meets the last word",
                                              "misses by one word"};
enum { C_ZERO, C_SUBNORMAL, C_NORMAL, C_INF, C_NAN, CLASSES };
static const char *const class_names[CLASSES] = {"zero", "subnormal", "normal", "inf", "nan"};

/* What each unit's window instructions may read (1) and write (2) per memory (the table in
 * coverage.h, from sim/footprint.c's functions). */
static const uint8_t unit_mem[OTPU_UNITS][MEMS] = {
    [OTPU_UNIT_DMA] = {3, 3, 0}, [OTPU_UNIT_MXU] = {3, 1, 1}, [OTPU_UNIT_QUANT] = {1, 2, 2},
    [OTPU_UNIT_VPU] = {3, 0, 0}, [OTPU_UNIT_COLL] = {3, 0, 0}};

/* ---- opcode x flags: the flags each operand format defines (isa.def, as isa_table.c's
 * otpu_format_flag_table) */

static unsigned flag_radix(const otpu_flag_desc *f)
{
    return f->nvals ? f->nvals : 2;
}

/* The name of combination `combo` (mixed radix, first flag lowest) of format fmt. */
static void combo_name(unsigned fmt, unsigned combo, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    unsigned nf = fmt < OTPU_FORMATS ? otpu_format_flag_table[fmt].n : 0, x = combo;
    for (unsigned k = 0; k < nf; k++) {
        const otpu_flag_desc *f = &otpu_format_flag_table[fmt].f[k];
        unsigned d = x % flag_radix(f);
        x /= flag_radix(f);
        if (!f->nvals && d)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "+" : "", f->name);
    }
    if (!len)
        len += (size_t)snprintf(buf, n, "-");
    x = combo;
    for (unsigned k = 0; k < nf && len < n; k++) {
        const otpu_flag_desc *f = &otpu_format_flag_table[fmt].f[k];
        unsigned d = x % flag_radix(f);
        x /= flag_radix(f);
        if (f->nvals)
            len += (size_t)snprintf(buf + len, n - len, " %s=%s", f->name, f->vals[d]);
    }
}

static unsigned combo_count(unsigned fmt)
{
    unsigned n = 1, nf = fmt < OTPU_FORMATS ? otpu_format_flag_table[fmt].n : 0;
    for (unsigned k = 0; k < nf; k++)
        n *= flag_radix(&otpu_format_flag_table[fmt].f[k]);
    return n;
}

/* The flags byte of combination `combo` of format fmt (combo_of's inverse). */
static unsigned flags_of(unsigned fmt, unsigned combo)
{
    unsigned flags = 0, nf = fmt < OTPU_FORMATS ? otpu_format_flag_table[fmt].n : 0;
    for (unsigned k = 0; k < nf; k++) {
        const otpu_flag_desc *f = &otpu_format_flag_table[fmt].f[k];
        unsigned d = combo % flag_radix(f);
        combo /= flag_radix(f);
        flags |= f->nvals ? d << f->shift : d ? f->mask : 0;
    }
    return flags;
}

static unsigned combo_of(unsigned fmt, unsigned flags)
{
    unsigned combo = 0, mul = 1, nf = fmt < OTPU_FORMATS ? otpu_format_flag_table[fmt].n : 0;
    for (unsigned k = 0; k < nf; k++) {
        const otpu_flag_desc *f = &otpu_format_flag_table[fmt].f[k];
        unsigned d = f->nvals ? (flags & f->mask) >> f->shift : !!(flags & f->mask);
        combo += d * mul;
        mul *= flag_radix(f);
    }
    return combo;
}

/* ---- VOP functions */

/* the functions with an operand b */
static int vop_reads_b(unsigned f)
{
    return otpu_vfunc_is_binary(f) || f == OTPU_V_RDOT;
}

static const char *const bmode_names[4] = {"full", "row", "col", "scalar"};

/* Result classes a function cannot produce (sim/fp32.c), with the reason; NULL: it can. */
static const char *fp_never(unsigned f, unsigned cls)
{
    if ((f == OTPU_V_EXP2 || f == OTPU_V_EXP2SUB) && cls == C_NAN)
        return "exp2 of NaN is +inf (fp32.c: NaN is not below 128)";
    if (f == OTPU_V_RECIP && (cls == C_INF || cls == C_NAN))
        return "recip of 0 is +0 and of |x| >= 2^126, inf or NaN a signed zero (fp32.c)";
    if (f == OTPU_V_RSQRT && cls == C_INF)
        return "rsqrt of 0 (and of a flushed subnormal) is 0 (fp32.c)";
    return NULL;
}

/* ------------------------------------------------------------------ construction */

static void build(otpu_coverage *c)
{
    const otpu_config *cfg = &c->cfg;
    size_t g;
    char name[80];

    g = cov_add_group(c, group_names[G_OPFLAGS]);
    size_t ncombos = 0;
    for (unsigned i = 0; i < 256; i++)
        c->op_base[i] = COV_NONE;
#define X(NAME, lname, code, unit, format) ncombos += combo_count(format);
    OTPU_OPCODES(X)
#undef X
    c->opflag = malloc(ncombos * sizeof *c->opflag);
    if (!c->opflag) {
        c->oom = 1;
        return;
    }
    ncombos = 0;
#define X(NAME, lname, code, unit, format)                                   \
    c->op_base[code] = ncombos;                                              \
    for (unsigned k = 0; k < combo_count(format); k++) {                     \
        combo_name(format, k, name, sizeof name);                            \
        c->opflag[ncombos++] = otpu_flags_allowed(code, flags_of(format, k)) \
                                   ? cov_add_bin(c, g, NULL, "%s %s", #NAME, name) \
                                   : COV_NONE;                                   \
    }
    OTPU_OPCODES(X)
#undef X

    g = cov_add_group(c, group_names[G_VOP]);
    for (unsigned f = 0; f < MAX_VFUNC; f++)
        c->vop_base[f] = c->fp_base[f] = COV_NONE;
#define X(NAME, code, str)                                                   \
    c->vop_base[code] = c->nbins;                                            \
    if (code == OTPU_V_OUTER)                                                \
        for (unsigned k = 0; k < 4; k++) {                                   \
            combo_name(OTPU_FMT_VOP, k, name, sizeof name);                  \
            cov_add_bin(c, g, NULL, "%s %s", str, name);                         \
        }                                                                    \
    else if (vop_reads_b(code))                                              \
        for (unsigned k = 0; k < 4; k++)                                     \
            cov_add_bin(c, g, NULL, "%s %s", str, bmode_names[k]);               \
    else                                                                     \
        cov_add_bin(c, g, NULL, "%s", str);
    OTPU_VFUNCS(X)
#undef X

    g = cov_add_group(c, group_names[G_HAZARD]);
    for (unsigned i = 0; i < OTPU_UNITS; i++)
        for (unsigned j = 0; j < OTPU_UNITS; j++)
            for (unsigned k = 0; k < KINDS; k++)
                for (unsigned mem = 0; mem < MEMS; mem++) {
                    unsigned wi = unit_mem[i][mem] & 2, ri = unit_mem[i][mem] & 1;
                    unsigned wj = unit_mem[j][mem] & 2, rj = unit_mem[j][mem] & 1;
                    int ok = k == K_RAW ? wi && rj : k == K_WAR ? ri && wj : wi && wj;
                    c->hz[i][j][k][mem] =
                        ok ? cov_add_bin(c, g, NULL, "%s->%s %s %s", otpu_unit_name(i),
                                     otpu_unit_name(j), kind_names[k], mem_names[mem])
                           : COV_NONE;
                }

    g = cov_add_group(c, group_names[G_HAZARD_EDGE]);
    for (unsigned k = 0; k < KINDS; k++)
        for (unsigned e = 0; e < EDGES; e++)
            c->edge[k][e] = cov_add_bin(c, g, NULL, "%s %s", kind_names[k], edge_names[e]);

    g = cov_add_group(c, group_names[G_LOOP]);
    c->loop_base = c->nbins;
    for (unsigned d = 0; d <= 4; d++)
        cov_add_bin(c, g, NULL, "depth %u", d);

    g = cov_add_group(c, group_names[G_ERROR]);
    c->err_base = c->nbins;
    for (int k = OTPU_ERR_NONE + 1; k < OTPU_ERR_KINDS; k++) {
        const char *why = NULL;
        if (k == OTPU_ERR_NOMEM)
            why = "the host's allocation failed: no program causes it";
        else if (k == OTPU_ERR_DEADLOCK)
            why = "settle always completes a collective or polls a WAITW when no slice can run";
        else if (k == OTPU_ERR_STEP_LIMIT)
            why = "the tool's --max-steps, not the bundle: a bundle that hits it is a hang";
        else if (k == OTPU_ERR_RULE)
            why = "strict mode only (the generator's check); the reference runs such programs";
        else if (k == OTPU_ERR_COLLECTIVE && cfg->S == 1)
            why = "S=1: a collective has no other slice to disagree with or to have halted";
        cov_add_bin(c, g, why, "%s", otpu_err_kind_name((otpu_err_kind)k));
    }

    g = cov_add_group(c, group_names[G_FP]);
#define X(NAME, code, str)                                                   \
    c->fp_base[code] = c->nbins;                                             \
    for (unsigned k = 0; k < CLASSES; k++)                                   \
        cov_add_bin(c, g, fp_never(code, k), "%s %s", str, class_names[k]);
    OTPU_VFUNCS(X)
#undef X

    /* a bin per size line whose 0 is not always an error (isa.def: the rule with every flag and
     * field clear, which the conditions can only turn into an error) */
    g = cov_add_group(c, group_names[G_SIZE]);
    const otpu_rev_desc *rev = otpu_rev_desc_of(cfg->revision);
    for (unsigned op = 0; op < 256; op++) {
        for (unsigned k = 0; k < MAX_SIZES; k++)
            c->size_bin[op][k] = COV_NONE;
        if (!otpu_op_name(op))
            continue;
        otpu_ops zero = {.format = otpu_op_format(op)};
        for (unsigned k = 0; k < otpu_size_count(op) && k < MAX_SIZES; k++) {
            int rule = otpu_size_zero(&zero, k);
            const char *why = rev->lacks_op[op] ? "the Config's ISA revision lacks the opcode"
                              : (op == OTPU_OP_DSTEP && !cfg->DSTEP) ||
                                      (op == OTPU_OP_STREAM && !cfg->STREAM)
                                  ? "the Config does not enable the opcode"
                                  : NULL;
            if (rule == OTPU_ZERO_EMPTY || rule == OTPU_ZERO_SKIP)
                c->size_bin[op][k] = cov_add_bin(c, g, why, "%s %s=0", otpu_op_name(op),
                                                 otpu_size_name(op, k));
        }
    }

    if (cov_data_build(c))
        c->oom = 1;
}

void otpu_coverage_free(otpu_coverage *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nbins; i++) {
        free(c->bins[i].name);
        free(c->bins[i].reason);
    }
    for (size_t i = 0; i < c->ngroups; i++)
        free(c->groups[i]);
    free(c->opflag);
    cov_data_free(c);
    for (size_t i = 0; i < c->nconfigs; i++)
        free(c->configs[i]);
    free(c->bins);
    free(c->groups);
    free(c->configs);
    free(c->win);
    free(c->rtl);
    free(c->scratch);
    free(c);
}

otpu_coverage *otpu_coverage_new(const otpu_config *cfg)
{
    otpu_coverage *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->observing = 1;
    c->cfg = *cfg;
    char buf[512];
    c->configs = malloc(sizeof *c->configs);
    if (c->configs)
        c->configs[c->nconfigs++] = cov_dup_str(c, otpu_config_str(cfg, buf, sizeof buf));
    c->win = calloc(cfg->S ? cfg->S : 1, sizeof *c->win);
    if (!c->configs || !c->win)
        c->oom = 1;
    build(c);
    if (c->oom) {
        otpu_coverage_free(c);
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------------ observation */

static int subnormal(uint32_t x)
{
    return (x & 0x7F800000u) == 0 && (x & 0x7FFFFFu) != 0;
}

/* Is any TMEM word base + r*rs + c*cs (r < rows, c < cols) inside TMEM and subnormal? */
static int any_subnormal(const otpu_slice_view *v, uint64_t words, uint64_t base, uint64_t rows,
                         uint64_t rs, uint64_t cols, uint64_t cs)
{
    for (uint64_t r = 0; r < rows; r++)
        for (uint64_t c = 0; c < cols; c++) {
            uint64_t x = base + r * rs + c * cs;
            if (x < words && subnormal(v->tmem[x]))
                return 1;
        }
    return 0;
}

/* An fp32 input element of the VOP was subnormal (the elements exec_vop.c reads). */
static int vop_subnormal_input(const otpu_coverage *c, const otpu_slice_view *v,
                               const otpu_vop_ops *o)
{
    uint64_t W = c->cfg.TMEM_WORDS, rows = o->rows, cols = o->cols;
    if (o->func == OTPU_V_OUTER)
        return any_subnormal(v, W, o->dst.value, rows, o->drs, cols, 1) ||
               any_subnormal(v, W, o->b.value, rows, o->brs, 1, 0) ||
               any_subnormal(v, W, o->imm.value, 1, 0, cols, 1) ||
               (!o->done && any_subnormal(v, W, o->a.value, 1, 0, o->dscalar ? 1 : cols, 1));
    if (o->func != OTPU_V_FILL && any_subnormal(v, W, o->a.value, rows, o->ars, cols, 1))
        return 1;
    if (!vop_reads_b(o->func))
        return 0;
    switch (o->bmode) {
    case OTPU_B_FULL: return any_subnormal(v, W, o->b.value, rows, o->brs, cols, 1);
    case OTPU_B_ROW: return any_subnormal(v, W, o->b.value, rows, o->brs, 1, 0);
    case OTPU_B_COL: return any_subnormal(v, W, o->b.value, 1, 0, cols, 1);
    default: return subnormal(o->imm.value);
    }
}

static int mem_of(unsigned space)
{
    switch (space) {
    case OTPU_SP_TMEM: return M_TMEM;
    case OTPU_SP_DRAM: return M_DRAM;
    case OTPU_SP_ACT:
    case OTPU_SP_ASCALE: return M_ACT;
    default: return -1;
    }
}

static int ranges_meet(const otpu_range *a, const otpu_range *b)
{
    return a->space == b->space && a->lo < b->hi && b->lo < a->hi;
}

/* How j's range touches the older i's at i's edges (TMEM words, DRAM words of 4 bytes): they
 * share exactly i's first word, exactly its last word, or j ends or starts one word away
 * (the off-by-one a dependency check may have). -1: none of these. */
static int edge_of(const otpu_range *i, const otpu_range *j)
{
    uint64_t u = i->space == OTPU_SP_DRAM ? 4 : 1;
    if (i->space != j->space || (i->space != OTPU_SP_TMEM && i->space != OTPU_SP_DRAM) ||
        i->hi - i->lo < 2 * u)
        return -1; /* (a one-word range has no first and last word apart) */
    if (j->hi == i->lo || j->lo == i->hi)
        return EDGE_MISS;
    if (j->hi == i->lo + u && j->lo <= i->lo)
        return EDGE_FIRST;
    if (j->lo + u == i->hi && j->hi >= i->hi)
        return EDGE_LAST;
    return -1;
}

/* The hazard window: j against the in-flight older instructions, then j joins the window. */
static void hazards(otpu_coverage *c, window *w, const otpu_instr *in, unsigned unit,
                    const otpu_slice_view *v)
{
    if (in->op == OTPU_OP_STREAM || in->op == OTPU_OP_WAITW || in->op == OTPU_OP_BAR ||
        in->op == OTPU_OP_HALT) {
        w->nw = w->head = 0; /* runs alone / drains the window */
        return;
    }
    if (unit >= OTPU_UNITS)
        return; /* the sequencer's own instructions are not dispatched */
    win_entry j;
    j.unit = (uint8_t)unit;
    j.n = (uint8_t)otpu_footprint(&c->cfg, in, v->R, v->tmem, j.r);
    for (unsigned e = 0; e < w->nw; e++) {
        const win_entry *i = &w->w[(w->head + e) % (OTPU_COV_WIN - 1)];
        uint8_t seen[KINDS][MEMS] = {{0}};
        for (unsigned a = 0; a < i->n; a++)
            for (unsigned b = 0; b < j.n; b++) {
                const otpu_range *ri = &i->r[a], *rj = &j.r[b];
                int mem = mem_of(ri->space);
                if (mem < 0 || (!ri->write && !rj->write))
                    continue;
                int k = ri->write ? (rj->write ? K_WAW : K_RAW) : K_WAR, ed = edge_of(ri, rj);
                if (ed >= 0)
                    cov_hit(c, c->edge[k][ed]);
                if (ranges_meet(ri, rj))
                    seen[k][mem] = 1;
            }
        for (unsigned k = 0; k < KINDS; k++)
            for (unsigned mem = 0; mem < MEMS; mem++)
                if (seen[k][mem])
                    cov_hit(c, c->hz[i->unit][j.unit][k][mem]);
    }
    if (w->nw == OTPU_COV_WIN - 1) {
        w->w[w->head] = j;
        w->head = (w->head + 1) % (OTPU_COV_WIN - 1);
    } else {
        w->w[(w->head + w->nw++) % (OTPU_COV_WIN - 1)] = j;
    }
}

/* its size fields at 0 where that empties them (or skips a body) */
static void size_hits(otpu_coverage *c, unsigned op, const otpu_ops *o)
{
    for (unsigned k = 0; k < otpu_size_count(op) && k < MAX_SIZES; k++) {
        int rule = otpu_size_zero(o, k);
        if (c->size_bin[op][k] != COV_NONE && otpu_size_get(o, k) == 0 &&
            (rule == OTPU_ZERO_EMPTY || rule == OTPU_ZERO_SKIP))
            cov_hit(c, c->size_bin[op][k]);
    }
}

static void on_issue(void *user, uint32_t s, uint64_t n, uint32_t pc, const otpu_instr *in)
{
    otpu_coverage *c = user;
    if (c->next.on_issue)
        c->next.on_issue(c->next.user, s, n, pc, in);
    if (!in || s >= c->cfg.S)
        return;
    otpu_slice_view v = otpu_machine_view(c->m, s);
    cov_hit(c, c->loop_base + (v.loop_depth <= 4 ? v.loop_depth : 4));
    unsigned unit = otpu_op_unit(in->op);
    if (unit == OTPU_UNIT_COUNT)
        return; /* not an opcode: counted as the error it raises */
    unsigned fmt = otpu_op_format(in->op);
    cov_hit(c, c->opflag[c->op_base[in->op] + combo_of(fmt, in->flags)]);
    otpu_ops o = otpu_operands(in, v.R);
    cov_data_issue(c, s, in, &o, &v);
    if (in->op == OTPU_OP_VOP && o.vop.func < MAX_VFUNC && c->vop_base[o.vop.func] != COV_NONE) {
        unsigned f = o.vop.func;
        if (f == OTPU_V_OUTER)
            cov_hit(c, c->vop_base[f] + combo_of(OTPU_FMT_VOP, in->flags));
        else
            cov_hit(c, c->vop_base[f] + (vop_reads_b(f) ? o.vop.bmode : 0));
        if (vop_subnormal_input(c, &v, &o.vop))
            cov_hit(c, c->fp_base[f] + C_SUBNORMAL);
    }
    size_hits(c, in->op, &o);
    hazards(c, &c->win[s], in, unit, &v);
}

static void on_retire(void *user, const otpu_retired *r)
{
    otpu_coverage *c = user;
    if (c->next.on_retire)
        c->next.on_retire(c->next.user, r);
    cov_data_retire(c, r);
    if (!r->ins || r->ins->op != OTPU_OP_VOP)
        return;
    unsigned f = otpu_operands(r->ins, NULL).vop.func;
    if (f >= MAX_VFUNC || c->fp_base[f] == COV_NONE)
        return;
    uint8_t seen[CLASSES] = {0};
    for (size_t i = 0; i < r->nwrites; i++) {
        if (r->writes[i].space != OTPU_SP_TMEM)
            continue;
        uint32_t x = r->writes[i].val, e = (x >> 23) & 0xFF, m = x & 0x7FFFFF;
        seen[e == 0 ? (m ? C_SUBNORMAL : C_ZERO) : e == 255 ? (m ? C_NAN : C_INF) : C_NORMAL] = 1;
    }
    seen[C_SUBNORMAL] = 0; /* the subnormal class is of the inputs (at issue) */
    for (unsigned k = 0; k < CLASSES; k++)
        if (seen[k])
            cov_hit(c, c->fp_base[f] + k);
}

static void on_error(void *user, uint32_t s, const otpu_error *e)
{
    otpu_coverage *c = user;
    if (c->next.on_error)
        c->next.on_error(c->next.user, s, e);
    if (e->kind > OTPU_ERR_NONE && e->kind < OTPU_ERR_KINDS)
        cov_hit(c, c->err_base + (size_t)e->kind - 1);
}

void otpu_coverage_attach(otpu_coverage *c, otpu_machine *m, const otpu_listener *next)
{
    c->m = m;
    c->next = next ? *next : (otpu_listener){0};
    for (uint32_t s = 0; s < c->cfg.S; s++)
        c->win[s].nw = c->win[s].head = 0;
    otpu_listener l = {c, on_issue, on_retire, on_error};
    otpu_machine_set_listener(m, &l);
}

/* ------------------------------------------------------------------ the RTL's events */

static int add_rtl_bins(otpu_coverage *c)
{
    size_t g = cov_add_group(c, group_names[G_RTL]);
    for (unsigned u = 0; u < OTPU_UNITS; u++)
        for (unsigned v = 0; v < OTPU_UNITS; v++) {
            c->ooo[u][v] = c->ovl[u][v] = COV_NONE;
            if (u != v)
                c->ooo[u][v] = cov_add_bin(c, g, NULL, "ooo %s before %s", otpu_unit_name(u),
                                       otpu_unit_name(v));
        }
    for (unsigned u = 0; u < OTPU_UNITS; u++)
        for (unsigned v = u + 1; v < OTPU_UNITS; v++)
            c->ovl[u][v] = c->ovl[v][u] =
                cov_add_bin(c, g, NULL, "overlap %s+%s", otpu_unit_name(u), otpu_unit_name(v));
    c->rtl = calloc(c->cfg.S, sizeof *c->rtl);
    if (!c->rtl || c->oom)
        return -1;
    c->has_rtl = 1;
    return 0;
}

int otpu_coverage_rtl_event(otpu_coverage *c, uint32_t s, int kind, int unit, uint32_t slot,
                            uint64_t cycle)
{
    if (!c->observing || s >= c->cfg.S || slot >= SLOTS)
        return -1;
    if (!c->has_rtl && add_rtl_bins(c))
        return -1;
    rtl_slice *r = &c->rtl[s];
    if (kind != OTPU_EV_DISPATCH && kind != OTPU_EV_START && kind != OTPU_EV_COMPLETE)
        return 0;
    if (unit < 0 || unit >= OTPU_UNITS)
        return -1;
    if (kind == OTPU_EV_DISPATCH) {
        r->valid[slot] = 1;
        r->started[slot] = 0;
        r->unit[slot] = (uint8_t)unit;
        r->seq[slot] = r->nseq++;
        return 0;
    }
    if (kind == OTPU_EV_START) {
        if (!r->valid[slot] || r->started[slot] || r->unit[slot] != unit)
            return -1;
        r->started[slot] = 1;
        r->start_cycle[slot] = cycle;
        return 0;
    }
    /* a unit can start its next instruction at the edge it completes one: the complete
     * record names its own slot */
    if (!r->valid[slot] || !r->started[slot] || r->unit[slot] != unit)
        return -1;
    unsigned done = slot;
    uint8_t ooo[OTPU_UNITS] = {0}, ovl[OTPU_UNITS] = {0};
    for (unsigned k = 0; k < SLOTS; k++) {
        unsigned v = r->unit[k];
        if (!r->valid[k] || k == done || v == (unsigned)unit)
            continue;
        if (r->seq[k] < r->seq[done])
            ooo[v] = 1;
        if (r->started[k] && r->start_cycle[k] < cycle)
            ovl[v] = 1;
    }
    for (unsigned v = 0; v < OTPU_UNITS; v++) {
        if (ooo[v])
            cov_hit(c, c->ooo[unit][v]);
        if (ovl[v])
            cov_hit(c, c->ovl[unit][v]);
    }
    r->valid[done] = 0;
    return 0;
}

/* ------------------------------------------------------------------ files, merge, report */


static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static size_t find_bin(const otpu_coverage *c, const char *group, const char *name)
{
    for (size_t i = 0; i < c->nbins; i++)
        if (!strcmp(c->bins[i].name, name) && !strcmp(c->groups[c->bins[i].group], group))
            return i;
    return COV_NONE;
}

int64_t otpu_coverage_count(const otpu_coverage *c, const char *group, const char *name)
{
    size_t i = find_bin(c, group, name);
    return i == COV_NONE ? -1 : (int64_t)c->bins[i].count;
}

size_t otpu_coverage_nbins(const otpu_coverage *c)
{
    return c->nbins;
}

void otpu_coverage_bin(const otpu_coverage *c, size_t i, const char **group, const char **name,
                       uint64_t *count, const char **reason)
{
    const cov_bin *b = &c->bins[i];
    *group = c->groups[b->group];
    *name = b->name;
    *count = b->count;
    *reason = b->reason;
}

static int add_config(otpu_coverage *c, const char *cfg)
{
    for (size_t i = 0; i < c->nconfigs; i++)
        if (!strcmp(c->configs[i], cfg))
            return 0;
    char **p = realloc(c->configs, (c->nconfigs + 1) * sizeof *p);
    if (!p)
        return -1;
    c->configs = p;
    p[c->nconfigs] = cov_dup_str(c, cfg);
    return p[c->nconfigs++] ? 0 : -1;
}

int otpu_coverage_merge(otpu_coverage *dst, const otpu_coverage *src, char *err, size_t errlen)
{
    for (size_t k = 0; k < src->nconfigs; k++)
        if (add_config(dst, src->configs[k]))
            goto oom;
    for (size_t i = 0; i < src->nbins; i++) {
        const cov_bin *b = &src->bins[i];
        const char *group = src->groups[b->group];
        size_t j = find_bin(dst, group, b->name);
        if (j == COV_NONE) {
            j = cov_add_bin(dst, cov_add_group(dst, group), b->reason, "%s", b->name);
            if (j == COV_NONE || dst->oom)
                goto oom;
        } else if (!b->reason && dst->bins[j].reason) {
            free(dst->bins[j].reason); /* reachable on one of the Configs */
            dst->bins[j].reason = NULL;
        }
        /* (saturating: a count is written as a signed 64-bit JSON integer) */
        uint64_t sum = dst->bins[j].count + b->count;
        dst->bins[j].count = sum < dst->bins[j].count || sum > INT64_MAX ? INT64_MAX : sum;
    }
    return 0;
oom:
    set_err(err, errlen, "out of memory merging coverage");
    return -1;
}

int otpu_coverage_write_json(const otpu_coverage *c, const char *path, char *err, size_t errlen)
{
    json_t *root = json_object(), *configs = json_array(), *groups = json_array();
    int rc = -1;
    if (!root || !configs || !groups)
        goto out;
    json_object_set_new(root, "model", json_string("otpu-coverage"));
    json_object_set_new(root, "version", json_integer(OTPU_COVERAGE_VERSION));
    for (size_t k = 0; k < c->nconfigs; k++)
        json_array_append_new(configs, json_string(c->configs[k]));
    for (size_t g = 0; g < c->ngroups; g++) {
        json_t *grp = json_object(), *bins = json_array();
        for (size_t i = 0; i < c->nbins; i++) {
            if (c->bins[i].group != g)
                continue;
            json_t *b = json_object();
            json_object_set_new(b, "name", json_string(c->bins[i].name));
            json_object_set_new(b, "count", json_integer((json_int_t)c->bins[i].count));
            if (c->bins[i].reason)
                json_object_set_new(b, "unreachable", json_string(c->bins[i].reason));
            json_array_append_new(bins, b);
        }
        json_object_set_new(grp, "name", json_string(c->groups[g]));
        json_object_set_new(grp, "bins", bins);
        json_array_append_new(groups, grp);
    }
    json_object_set(root, "configs", configs);
    json_object_set(root, "groups", groups);
    if (json_dump_file(root, path, JSON_INDENT(1)) == 0)
        rc = 0;
out:
    if (rc)
        set_err(err, errlen, "%s: cannot write the coverage file", path);
    json_decref(configs);
    json_decref(groups);
    json_decref(root);
    return rc;
}

otpu_coverage *otpu_coverage_read_json(const char *path, char *err, size_t errlen)
{
    json_t *root = otpu_json_read(path, OTPU_JSON_MAX_BYTES, err, errlen);
    if (!root)
        return NULL;
    otpu_coverage *c = otpu_coverage_from_json(root, path, err, errlen);
    json_decref(root);
    return c;
}

otpu_coverage *otpu_coverage_from_json(const json_t *root, const char *path, char *err,
                                       size_t errlen)
{
    otpu_coverage *c = calloc(1, sizeof *c);
    const char *what = NULL;
    json_t *model = json_object_get(root, "model"), *ver = json_object_get(root, "version");
    json_t *configs = json_object_get(root, "configs"), *groups = json_object_get(root, "groups");
    if (!c)
        what = "out of memory";
    else if (!json_is_string(model) || strcmp(json_string_value(model), "otpu-coverage") ||
             !json_is_integer(ver) || !json_is_array(configs) || !json_is_array(groups))
        what = "not an otpu coverage file (model, version, configs, groups)";
    else if (json_integer_value(ver) != OTPU_COVERAGE_VERSION) {
        set_err(err, errlen, "%s: coverage model version %lld, this tool reads version %d", path,
                (long long)json_integer_value(ver), OTPU_COVERAGE_VERSION);
        otpu_coverage_free(c);
        return NULL;
    }
    size_t k, i;
    json_t *x, *g, *b;
    if (!what)
        json_array_foreach(configs, k, x) {
            if (!json_is_string(x) || add_config(c, json_string_value(x))) {
                what = "a config that is not a string";
                break;
            }
        }
    if (!what)
        json_array_foreach(groups, k, g) {
            json_t *gname = json_object_get(g, "name"), *bins = json_object_get(g, "bins");
            if (!json_is_string(gname) || !json_is_array(bins)) {
                what = "a group without a name or bins";
                break;
            }
            size_t gi = cov_add_group(c, json_string_value(gname));
            json_array_foreach(bins, i, b) {
                json_t *name = json_object_get(b, "name"), *count = json_object_get(b, "count");
                json_t *why = json_object_get(b, "unreachable");
                if (!json_is_string(name) || !json_is_integer(count) ||
                    json_integer_value(count) < 0 || (why && !json_is_string(why))) {
                    what = "a bin without a name or a count";
                    break;
                }
                if (find_bin(c, json_string_value(gname), json_string_value(name)) != COV_NONE) {
                    what = "a bin named twice";
                    break;
                }
                size_t j = cov_add_bin(c, gi, why ? json_string_value(why) : NULL, "%s",
                                   json_string_value(name));
                if (j == COV_NONE)
                    break;
                c->bins[j].count = (uint64_t)json_integer_value(count);
            }
            if (what)
                break;
        }
    if (!what && c->oom)
        what = "out of memory";
    if (what) {
        set_err(err, errlen, "%s: %s", path, what);
        otpu_coverage_free(c);
        return NULL;
    }
    return c;
}

/* s as printable text (a coverage file is input: no byte of it reaches a terminal raw) */
#define SHOWN(s, k) otpu_escape((s), strlen(s), q[k], sizeof q[0])

/* A bin that is a figure, not a goal (its reason starts "count:"; coverage.h). */
static int is_count(const cov_bin *b)
{
    return b->reason && !strncmp(b->reason, "count:", 6);
}

void otpu_coverage_report(const otpu_coverage *c, FILE *f)
{
    char q[3][512];
    size_t all_hit = 0, all_reach = 0;
    fprintf(f, "coverage model version %d, %zu Config(s):\n", OTPU_COVERAGE_VERSION, c->nconfigs);
    for (size_t k = 0; k < c->nconfigs; k++)
        fprintf(f, "  %s\n", SHOWN(c->configs[k], 0));
    for (size_t g = 0; g < c->ngroups; g++) {
        size_t hitn = 0, reach = 0, unreach = 0, counts = 0;
        for (size_t i = 0; i < c->nbins; i++)
            if (c->bins[i].group == g) {
                counts += is_count(&c->bins[i]);
                reach += !c->bins[i].reason;
                unreach += c->bins[i].reason && !is_count(&c->bins[i]);
                hitn += !c->bins[i].reason && c->bins[i].count;
            }
        all_hit += hitn;
        all_reach += reach;
        if (counts && !reach && !unreach) { /* a group of figures (the idle group) */
            fprintf(f, "%-14s  counted:", SHOWN(c->groups[g], 0));
            for (size_t i = 0, k = 0; i < c->nbins; i++)
                if (c->bins[i].group == g)
                    fprintf(f, "%s %s %llu", k++ ? "," : "", SHOWN(c->bins[i].name, 0),
                            (unsigned long long)c->bins[i].count);
            fputc('\n', f);
            continue;
        }
        fprintf(f, "%-14s %6.1f%%  %zu of %zu bins hit", SHOWN(c->groups[g], 0),
                reach ? 100.0 * (double)hitn / (double)reach : 100.0, hitn, reach);
        if (unreach)
            fprintf(f, " (%zu unreachable)", unreach);
        fputc('\n', f);
    }
    fprintf(f, "%-14s %6.1f%%  %zu of %zu bins hit\n", "overall",
            all_reach ? 100.0 * (double)all_hit / (double)all_reach : 100.0, all_hit, all_reach);
    for (size_t g = 0; g < c->ngroups; g++) {
        int first = 1;
        for (size_t i = 0; i < c->nbins; i++)
            if (c->bins[i].group == g && !c->bins[i].reason && !c->bins[i].count) {
                if (first)
                    fprintf(f, "never hit in %s:\n", SHOWN(c->groups[g], 0));
                first = 0;
                fprintf(f, "  %s\n", SHOWN(c->bins[i].name, 0));
            }
    }
    int first = 1;
    for (size_t i = 0; i < c->nbins; i++)
        if (c->bins[i].reason && !is_count(&c->bins[i])) {
            if (first)
                fprintf(f, "unreachable on these Configs:\n");
            first = 0;
            fprintf(f, "  %s: %s (%s)%s\n", SHOWN(c->groups[c->bins[i].group], 0),
                    SHOWN(c->bins[i].name, 1), SHOWN(c->bins[i].reason, 2),
                    c->bins[i].count ? " [hit anyway]" : "");
        }
}

#undef SHOWN
