/* divergence.c - the record of the first divergence: the failing instruction, its tile,
 * its inputs' producers, the loop nest and the recent events. */
#include "scoreboard.h"
#include "report_terms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

void ck_describe(const rec *r, otpu_div_instr *d)
{
    d->n = r->n;
    d->pc = r->pc;
    otpu_disasm(&r->ins, d->disasm, sizeof d->disasm);
}

void ck_remember(otpu_checker *c, const char *what, uint32_t s, uint32_t slot, uint32_t unit,
                     const rec *r)
{
    event *e = &c->hist[c->nhist++ % HISTORY];
    e->what = what;
    e->slice = s;
    e->slot = slot;
    e->unit = unit;
    e->cycle = c->cycle;
    e->has_ins = r != NULL;
    if (r) {
        e->n = r->n;
        e->pc = r->pc;
        e->ins = r->ins;
    }
}

/* An event of the ring as a report shows it. */
static void report_event(const event *e, otpu_div_event *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->what, sizeof d->what, "%s", e->what);
    d->slice = e->slice;
    d->slot = e->slot;
    d->unit = e->unit;
    d->cycle = e->cycle;
    if (e->has_ins) {
        d->ins.n = e->n;
        d->ins.pc = e->pc;
        otpu_disasm(&e->ins, d->ins.disasm, sizeof d->ins.disasm);
    }
}

/* tile (row, column) of an output word of a VOP or MM */
static void tile(const rec *r, otpu_divergence *d)
{
    uint64_t base, stride, cols, rows;
    if (d->space != OTPU_SP_TMEM)
        return;
    if (r->ops.format == OTPU_FMT_VOP) {
        base = r->ops.vop.dst.value;
        stride = r->ops.vop.drs;
        cols = r->ops.vop.cols;
        rows = r->ops.vop.rows;
    } else if (r->ops.format == OTPU_FMT_MM) {
        base = r->ops.mm.out.value;
        stride = r->ops.mm.ors;
        cols = r->ops.mm.N;
        rows = r->ops.mm.M;
    } else {
        return;
    }
    if (d->addr < base)
        return;
    uint64_t off = d->addr - base;
    if (rows <= 1 || !stride) { /* one row: its stride is not used */
        if (off < cols) {
            d->has_tile = 1;
            d->row = 0;
            d->col = (uint32_t)off;
        }
    } else if (off % stride < cols || r->ops.format == OTPU_FMT_VOP) {
        d->has_tile = 1;
        d->row = (uint32_t)(off / stride);
        d->col = (uint32_t)(off % stride);
    }
}

void ck_stray_place(const rec *r, otpu_space space, uint64_t addr, char *out, size_t n)
{
    static const char *const unit[] = {"registers", "words", "words", "bytes", "scales"};
    const char *u = (unsigned)space <= OTPU_SP_ASCALE ? unit[space] : "locations";
    uint64_t size = space == OTPU_SP_DRAM ? 4 : 1; /* DRAM: aligned words of 4 bytes */
    uint64_t lo = UINT64_MAX, hi = 0; /* the hull of its writes in this space */
    for (size_t k = 0; k < r->nfp; k++)
        if (r->fp[k].write && r->fp[k].space == space) {
            lo = r->fp[k].lo < lo ? r->fp[k].lo : lo;
            hi = r->fp[k].hi > hi ? r->fp[k].hi : hi;
            if (r->fp[k].wrap) { /* ACT, ASCALE: columns of every row */
                addr %= r->fp[k].wrap;
                u = space == OTPU_SP_ACT ? "columns (bytes of a row)" : "blocks of a row";
            }
        }
    if (lo >= hi) {
        snprintf(out, n, "it writes nothing of this memory (%s)", otpu_space_label(space));
        return;
    }
    if (addr >= hi)
        snprintf(out, n, "past the end of its %s range [%#llx, %#llx) by %llu %s",
                 otpu_space_label(space), (unsigned long long)lo, (unsigned long long)hi,
                 (unsigned long long)((addr - hi) / size + 1), u);
    else if (addr + size <= lo)
        snprintf(out, n, "before the start of its %s range [%#llx, %#llx) by %llu %s",
                 otpu_space_label(space), (unsigned long long)lo, (unsigned long long)hi,
                 (unsigned long long)((lo - addr + size - 1) / size), u);
    else
        snprintf(out, n, "inside its %s range [%#llx, %#llx), at a location it does not write "
                 "(a gap between its rows or past a row's last column)", otpu_space_label(space),
                 (unsigned long long)lo, (unsigned long long)hi);
}

/* The producers of each input range of the failing instruction. */
static void inputs(otpu_checker *c, uint32_t s, const rec *r, otpu_divergence *d)
{
    for (size_t k = 0; k < r->nfp && d->ninputs < OTPU_DIV_INPUTS; k++) {
        const otpu_range *in = &r->fp[k];
        int seen = 0; /* (a VOP's a and b may be one range) */
        for (size_t j = 0; j < d->ninputs; j++)
            seen |= d->inputs[j].space == in->space && d->inputs[j].lo == in->lo &&
                    d->inputs[j].hi == in->hi;
        if (in->write || in->space == OTPU_SP_REG || seen)
            continue;
        otpu_div_input *x = &d->inputs[d->ninputs++];
        *x = (otpu_div_input){.space = in->space, .lo = in->lo, .hi = in->hi};
        uint64_t lim = c->nprod < PRODUCERS ? c->nprod : PRODUCERS;
        for (uint64_t i = 0; i < lim && !x->found; i++) {
            const producer *p = &c->prod[(c->nprod - 1 - i) % PRODUCERS];
            if (p->slice != s || p->n >= r->n)
                continue;
            for (unsigned j = 0; j < p->nw; j++)
                if (p->w[j].space == in->space && p->w[j].lo < in->hi && in->lo < p->w[j].hi) {
                    x->found = 1;
                    x->writer.n = p->n;
                    x->writer.pc = p->pc;
                    otpu_disasm(&p->ins, x->writer.disasm, sizeof x->writer.disasm);
                    break;
                }
        }
    }
}

/* A divergence at one location (the rest filled by the caller). The struct is large (the
 * history, the in-flight list): it is filled on the failure paths only. */
otpu_divergence *ck_at_location(otpu_divergence *d, otpu_space space, uint64_t addr)
{
    memset(d, 0, sizeof *d);
    d->has_loc = 1;
    d->space = space;
    d->addr = addr;
    return d;
}

/* A divergence at the location of an RTL write event, with the bits it wrote. */
otpu_divergence *ck_written(otpu_divergence *d, otpu_space space, uint64_t addr,
                                uint32_t data, uint32_t mask)
{
    ck_at_location(d, space, addr);
    d->has_actual = 1;
    d->actual = data;
    d->mask = mask;
    return d;
}

/* Record a divergence. Returns OTPU_CHECK_DIVERGED. */
int ck_diverge(otpu_checker *c, otpu_div_kind kind, uint32_t s, const rec *r,
                   otpu_divergence *d, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
int ck_diverge(otpu_checker *c, otpu_div_kind kind, uint32_t s, const rec *r,
                   otpu_divergence *d, const char *fmt, ...)
{
    c->count++;
    if (c->have_first)
        return OTPU_CHECK_DIVERGED;
    otpu_divergence *f = &c->first;
    if (d)
        *f = *d;
    else
        memset(f, 0, sizeof *f);
    /* an instruction that started before an older writer of its inputs completed: the
     * root cause is the ordering, whatever its symptom */
    if (r && r->early && (kind == OTPU_DIV_VALUE || kind == OTPU_DIV_MISSING)) {
        kind = OTPU_DIV_ORDER;
        f->has_other = 1;
        f->other = r->early_by;
    }
    f->kind = kind;
    f->slice = s;
    f->cycle = c->cycle;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
    otpu_slice_view v = otpu_machine_view(c->m, s);
    /* the loop nest the failing instruction issued in, not the model's now: it runs ahead */
    unsigned depth = r ? r->loop_depth : v.loop_depth;
    for (unsigned k = 0; k < depth; k++) {
        f->loops[k].iteration = r ? r->loops[k].iteration : v.loops[k].iteration;
        f->loops[k].total = r ? r->loops[k].total : v.loops[k].total;
        f->loops[k].start = r ? r->loops[k].start : v.loops[k].start;
        f->loops[k].end = r ? r->loops[k].end : v.loops[k].end;
    }
    f->loop_depth = depth;
    if (r) {
        f->has_ins = 1;
        ck_describe(r, &f->ins);
        f->unit = r->unit;
        f->has_regs = 1;
        memcpy(f->regs, r->R, sizeof f->regs);
        inputs(c, s, r, f);
        if (f->has_loc && kind != OTPU_DIV_STRAY) { /* (a stray is no element of the tile) */
            tile(r, f);
            ck_explain(c, s, r, f);
        }
    }
    uint64_t lim = c->nhist < HISTORY ? c->nhist : HISTORY;
    for (uint64_t i = 0; i < lim; i++)
        report_event(&c->hist[(c->nhist - lim + i) % HISTORY], &f->history[f->nhistory++]);
    c->have_first = 1;
    return OTPU_CHECK_DIVERGED;
}
