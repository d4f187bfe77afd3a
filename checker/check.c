/* check.c - the lockstep scoreboard: the model stepped in program order beside the RTL's
 * events, each in-flight instruction's expected writes, and the judgement of every event. */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "footprint.h"
#include "fp32.h"

#define HISTORY 32
#define PRODUCERS 4096 /* retired model instructions remembered for "who wrote this input" */

/* One windowed instruction (a unit's), from the model's issue to the RTL's completion. */
typedef struct rec {
    uint64_t n, seq;          /* dynamic number; dispatch order within the slice */
    uint32_t pc, slot, unit;
    otpu_instr ins;
    otpu_range fp[OTPU_FOOTPRINT_MAX];
    size_t nfp;
    int retired;              /* the model has finished it: exp holds its writes */
    int faulted;              /* the model raised its error here */
    int dispatched, started;
    otpu_expect exp;
    uint64_t diffs;           /* locations that diverged (keep-going count) */
    int early;                /* it started while `early_by` (older, writing an input) ran */
    otpu_div_instr early_by;
    struct rec *next;         /* the slice's queue, program order */
} rec;

typedef struct {
    uint32_t r, v;
    uint64_t n;
    uint32_t pc;
} regw;

typedef struct {
    rec *head, *tail;         /* issued by the model, not yet completed by the RTL */
    rec **slot;               /* dispatched, by slot */
    rec **fifo[OTPU_UNIT_COUNT]; /* started, per unit, in start order (ring) */
    uint32_t fhead[OTPU_UNIT_COUNT], flen[OTPU_UNIT_COUNT];
    regw *regq;               /* register writes the model made, awaiting the RTL's */
    uint32_t rhead, rlen;
    uint64_t seq;
    int reg_overflow;         /* the model ran more than REGQ register writes ahead */
    int rtl_halted, rtl_error, model_error;
    uint32_t model_error_pc;
} slice_state;

typedef struct {
    uint32_t slice, pc;
    uint64_t n;
    otpu_instr ins;           /* disassembled only when a report names it */
    otpu_range w[OTPU_FOOTPRINT_MAX];
    uint8_t nw;
} producer;

/* One entry of the ring of recent events; disassembled only when a report takes it. */
typedef struct {
    const char *what; /* "dispatch", "start", "complete", "halt" */
    uint32_t slice, slot, unit;
    uint64_t cycle;
    int has_ins;
    uint64_t n;
    uint32_t pc;
    otpu_instr ins;
} event;

struct otpu_checker {
    otpu_check_options o;
    otpu_machine *m;
    const otpu_config *cfg;
    slice_state *sl;
    uint64_t cycle, last_progress, count, retired, writes, regs;
    int model_stopped;        /* the model raised its error: nothing more can be judged */
    otpu_divergence first;
    int have_first;
    char message[256];
    event hist[HISTORY];
    uint64_t nhist;
    producer *prod;
    uint64_t nprod;
};

enum { REGQ = 4096 };

const char *otpu_div_kind_name(otpu_div_kind k)
{
    static const char *const names[OTPU_DIV_KINDS] = {
        "none", "wrong-value", "missing-write", "stray-write", "duplicate-write",
        "order-violation", "register-mismatch", "control-flow", "error-flag-mismatch",
        "hang", "end-state-mismatch"};
    return (unsigned)k < OTPU_DIV_KINDS ? names[k] : "?";
}

/* ------------------------------------------------------------------ small helpers */

static void describe(const rec *r, otpu_div_instr *d)
{
    d->n = r->n;
    d->pc = r->pc;
    otpu_disasm(&r->ins, d->disasm, sizeof d->disasm);
}

static void remember(otpu_checker *c, const char *what, uint32_t s, uint32_t slot, uint32_t unit,
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

static int bad_call(otpu_checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad_call(otpu_checker *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->message, sizeof c->message, fmt, ap);
    va_end(ap);
    return OTPU_CHECK_BAD_CALL;
}

static int windowed(unsigned op)
{
    otpu_unit u = otpu_op_unit(op);
    return u != OTPU_UNIT_SEQ && u != OTPU_UNIT_COUNT;
}

/* tile (row, column) of an output word of a VOP or MM */
static void tile(const rec *r, const uint32_t *R, otpu_divergence *d)
{
    const uint32_t *w = r->ins.w;
    uint64_t base, stride, cols;
    if (d->space != OTPU_SP_TMEM)
        return;
    if (r->ins.op == OTPU_OP_VOP) {
        base = (uint32_t)(R[r->ins.ra] + w[1]);
        stride = w[5] & 0xFFFF;
        cols = w[4] >> 16;
    } else if (r->ins.op == OTPU_OP_MM) {
        base = (uint32_t)(R[r->ins.rc] + w[3]);
        stride = w[6] & 0xFFFF;
        cols = w[4] & 0xFFFF;
    } else {
        return;
    }
    if (d->addr < base || !stride)
        return;
    uint64_t off = d->addr - base;
    if (off % stride < cols || r->ins.op == OTPU_OP_VOP) {
        d->has_tile = 1;
        d->row = (uint32_t)(off / stride);
        d->col = (uint32_t)(off % stride);
    }
}

/* The producers of each input range of the failing instruction. */
static void inputs(otpu_checker *c, uint32_t s, const rec *r, otpu_divergence *d)
{
    for (size_t k = 0; k < r->nfp && d->ninputs < OTPU_DIV_INPUTS; k++) {
        const otpu_range *in = &r->fp[k];
        if (in->write || in->space == OTPU_SP_REG)
            continue;
        otpu_div_input *x = &d->inputs[d->ninputs++];
        memset(x, 0, sizeof *x);
        x->space = in->space;
        x->lo = in->lo;
        x->hi = in->hi;
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
static otpu_divergence *at_location(otpu_divergence *d, otpu_space space, uint64_t addr)
{
    memset(d, 0, sizeof *d);
    d->has_loc = 1;
    d->space = space;
    d->addr = addr;
    return d;
}

/* A divergence at the location of an RTL write event, with the bits it wrote. */
static otpu_divergence *written(otpu_divergence *d, otpu_space space, uint64_t addr,
                                uint32_t data, uint32_t mask)
{
    at_location(d, space, addr);
    d->has_actual = 1;
    d->actual = data;
    d->mask = mask;
    return d;
}

/* Record a divergence. Returns OTPU_CHECK_DIVERGED. */
static int diverge(otpu_checker *c, otpu_div_kind kind, uint32_t s, const rec *r,
                   otpu_divergence *d, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int diverge(otpu_checker *c, otpu_div_kind kind, uint32_t s, const rec *r,
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
    if (r) {
        f->has_ins = 1;
        describe(r, &f->ins);
        f->unit = r->unit;
        inputs(c, s, r, f);
        if (f->has_loc)
            tile(r, v.R, f);
    }
    f->loop_depth = v.loop_depth;
    for (unsigned k = 0; k < v.loop_depth; k++) {
        f->loops[k].iteration = v.loops[k].iteration;
        f->loops[k].total = v.loops[k].total;
        f->loops[k].start = v.loops[k].start;
        f->loops[k].end = v.loops[k].end;
    }
    uint64_t lim = c->nhist < HISTORY ? c->nhist : HISTORY;
    for (uint64_t i = 0; i < lim; i++)
        report_event(&c->hist[(c->nhist - lim + i) % HISTORY], &f->history[f->nhistory++]);
    c->have_first = 1;
    return OTPU_CHECK_DIVERGED;
}

/* ------------------------------------------------------------------ the model's side */

static rec *find_rec(slice_state *ss, uint64_t n)
{
    for (rec *r = ss->head; r; r = r->next)
        if (r->n == n)
            return r;
    return NULL;
}

static void on_issue(void *u, uint32_t s, uint64_t n, uint32_t pc, const otpu_instr *in)
{
    otpu_checker *c = u;
    slice_state *ss = &c->sl[s];
    if (!in || !windowed(in->op))
        return; /* the sequencer's own instructions write registers only */
    otpu_slice_view v = otpu_machine_view(c->m, s);
    rec *r = calloc(1, sizeof *r);
    if (!r)
        return; /* noticed by the caller: the dispatch finds no record */
    r->n = n;
    r->pc = pc;
    r->ins = *in;
    r->unit = otpu_op_unit(in->op);
    r->nfp = otpu_footprint(c->cfg, in, v.R, v.tmem, r->fp);
    if (ss->tail)
        ss->tail->next = r;
    else
        ss->head = r;
    ss->tail = r;
}

static void on_retire(void *u, const otpu_retired *rt)
{
    otpu_checker *c = u;
    slice_state *ss = &c->sl[rt->slice];
    if (rt->chain)
        return;
    rec *r = rt->ins && windowed(rt->ins->op) ? find_rec(ss, rt->n) : NULL;
    if (r) {
        /* remember what it wrote, for the producers of a later failing instruction's inputs */
        producer *p = &c->prod[c->nprod++ % PRODUCERS];
        p->slice = rt->slice;
        p->n = rt->n;
        p->pc = rt->pc;
        p->ins = r->ins;
        p->nw = 0;
        for (size_t k = 0; k < r->nfp; k++)
            if (r->fp[k].write)
                p->w[p->nw++] = r->fp[k];
        r->retired = 1;
        r->faulted = rt->faulted;
        if (otpu_expect_init(&r->exp, rt->writes, rt->nwrites))
            r->retired = 0;
        return;
    }
    for (size_t i = 0; i < rt->nwrites; i++) {
        if (rt->writes[i].space != OTPU_SP_REG)
            continue;
        if (ss->rlen == REGQ) {
            ss->reg_overflow = 1; /* register checks stop for this slice: no false alarms */
            continue;
        }
        ss->regq[(ss->rhead + ss->rlen++) % REGQ] =
            (regw){(uint32_t)rt->writes[i].addr, rt->writes[i].val, rt->n, rt->pc};
    }
}

static void on_error(void *u, uint32_t s, const otpu_error *e)
{
    otpu_checker *c = u;
    c->model_stopped = 1;
    c->sl[s].model_error = 1;
    c->sl[s].model_error_pc = e->pc;
}

/* Step the model's slice s once; when it cannot run, let the machine settle (collectives,
 * WAITW) after running the other slices up to their own blocking points. */
static int model_step(otpu_checker *c, uint32_t s)
{
    if (c->model_stopped)
        return -1;
    int r = otpu_machine_step(c->m, s);
    if (r <= 0)
        return r;
    for (uint32_t t = 0; t < c->cfg->S; t++)
        while (!c->model_stopped && otpu_machine_step(c->m, t) == 0)
            ;
    if (c->model_stopped)
        return -1;
    int st = otpu_machine_settle(c->m);
    return st < 0 ? -1 : st > 0 ? 0 : 1;
}

/* Run the model's slice s until its next windowed instruction is queued (0), it halts (1),
 * or it fails / cannot go on (-1). */
static int model_next(otpu_checker *c, uint32_t s, rec **out)
{
    slice_state *ss = &c->sl[s];
    for (;;) {
        for (rec *r = ss->head; r; r = r->next)
            if (!r->dispatched) {
                *out = r;
                return 0;
            }
        if (otpu_machine_view(c->m, s).halted)
            return 1;
        int st = model_step(c, s);
        if (st < 0)
            return -1;
        if (st > 0 && otpu_machine_view(c->m, s).halted)
            return 1;
        if (st > 0)
            return -1;
    }
}

/* ------------------------------------------------------------------ construction */

otpu_checker *otpu_checker_new(const otpu_bundle *b, const otpu_check_options *o, char *err,
                               size_t errlen)
{
    otpu_checker *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (o)
        c->o = *o;
    if (!c->o.hang_cycles)
        c->o.hang_cycles = 100000;
    if (!c->o.slots)
        c->o.slots = 64;
    otpu_error e;
    c->m = otpu_bundle_machine(b, &e);
    if (!c->m) {
        snprintf(err, errlen, "%s", e.msg);
        free(c);
        return NULL;
    }
    c->cfg = otpu_machine_config(c->m);
    uint32_t S = c->cfg->S;
    c->sl = calloc(S, sizeof *c->sl);
    c->prod = calloc(PRODUCERS, sizeof *c->prod);
    int ok = c->sl && c->prod;
    for (uint32_t s = 0; ok && s < S; s++) {
        slice_state *ss = &c->sl[s];
        ss->slot = calloc(c->o.slots, sizeof *ss->slot);
        ss->regq = calloc(REGQ, sizeof *ss->regq);
        ok = ss->slot && ss->regq;
        for (int u = 0; ok && u < OTPU_UNIT_COUNT; u++)
            ok = (ss->fifo[u] = calloc(c->o.slots, sizeof *ss->fifo[u])) != NULL;
    }
    if (!ok) {
        snprintf(err, errlen, "out of memory");
        otpu_checker_free(c);
        return NULL;
    }
    otpu_listener l = {c, on_issue, on_retire, on_error};
    otpu_machine_set_listener(c->m, &l);
    return c;
}

void otpu_checker_free(otpu_checker *c)
{
    if (!c)
        return;
    for (uint32_t s = 0; c->sl && s < c->cfg->S; s++) {
        slice_state *ss = &c->sl[s];
        for (rec *r = ss->head, *nx; r; r = nx) {
            nx = r->next;
            otpu_expect_free(&r->exp);
            free(r);
        }
        free(ss->slot);
        free(ss->regq);
        for (int u = 0; u < OTPU_UNIT_COUNT; u++)
            free(ss->fifo[u]);
    }
    free(c->sl);
    free(c->prod);
    otpu_machine_free(c->m);
    free(c);
}

/* ------------------------------------------------------------------ events */

static int check_slice(otpu_checker *c, uint32_t s)
{
    return s < c->cfg->S ? 0 : bad_call(c, "slice %u: the bundle has %u slices", s, c->cfg->S);
}

int otpu_check_cycle(otpu_checker *c, uint64_t cycle)
{
    c->cycle = cycle;
    if (c->have_first && !c->o.keep_going)
        return OTPU_CHECK_OK;
    if (cycle < c->last_progress || cycle - c->last_progress <= c->o.hang_cycles)
        return OTPU_CHECK_OK;
    for (uint32_t s = 0; s < c->cfg->S; s++)
        for (rec *r = c->sl[s].head; r; r = r->next)
            if (r->dispatched) {
                otpu_divergence d;
                memset(&d, 0, sizeof d);
                for (uint32_t t = 0; t < c->cfg->S; t++)
                    for (rec *q = c->sl[t].head; q && d.ninflight < OTPU_DIV_INFLIGHT; q = q->next)
                        if (q->dispatched) {
                            otpu_div_event *e = &d.inflight[d.ninflight++];
                            memset(e, 0, sizeof *e);
                            snprintf(e->what, sizeof e->what, "%s", q->started ? "started" : "waiting");
                            e->slice = t;
                            e->slot = q->slot;
                            e->unit = q->unit;
                            describe(q, &e->ins);
                        }
                c->last_progress = cycle; /* report a hang once per stall */
                return diverge(c, OTPU_DIV_HANG, s, r, &d,
                               "no instruction completed for %llu cycles; %zu in flight, the "
                               "oldest is slice %u slot %u",
                               (unsigned long long)c->o.hang_cycles, d.ninflight, s, r->slot);
            }
    return OTPU_CHECK_OK;
}

int otpu_check_dispatch(otpu_checker *c, uint32_t s, uint32_t slot, uint32_t pc, uint32_t op)
{
    if (check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (slot >= c->o.slots)
        return bad_call(c, "slice %u: slot %u (the window has %u)", s, slot, c->o.slots);
    slice_state *ss = &c->sl[s];
    if (ss->slot[slot])
        return bad_call(c, "slice %u: slot %u dispatched while it holds pc %u", s, slot,
                        ss->slot[slot]->pc);
    c->last_progress = c->cycle;
    if (c->model_stopped)
        return OTPU_CHECK_OK; /* past the model's error: the error event decides */
    rec *r = NULL;
    int st = model_next(c, s, &r);
    if (st != 0) {
        remember(c, "dispatch", s, slot, 0, NULL);
        if (ss->model_error)
            return OTPU_CHECK_OK; /* the model failed first; otpu_check_error judges */
        return diverge(c, OTPU_DIV_CONTROL, s, NULL, NULL,
                       "the RTL dispatched pc %u (opcode %#x) into slot %u; the model's slice %u "
                       "has %s", pc, op, slot, s, st > 0 ? "halted" : "no next instruction");
    }
    r->dispatched = 1;
    r->slot = slot;
    r->seq = ss->seq++;
    ss->slot[slot] = r;
    remember(c, "dispatch", s, slot, r->unit, r);
    if (r->pc != pc || r->ins.op != op)
        return diverge(c, OTPU_DIV_CONTROL, s, r, NULL,
                       "the RTL dispatched pc %u (opcode %#x); the model's next instruction is "
                       "pc %u (%s)", pc, op, r->pc, otpu_op_name(r->ins.op));
    return OTPU_CHECK_OK;
}

/* Does the older in-flight q write into one of r's input ranges? */
static int writes_input_of(const rec *q, const rec *r)
{
    for (size_t k = 0; k < q->nfp; k++) {
        if (!q->fp[k].write)
            continue;
        for (size_t j = 0; j < r->nfp; j++)
            if (!r->fp[j].write && r->fp[j].space == q->fp[k].space &&
                r->fp[j].lo < q->fp[k].hi && q->fp[k].lo < r->fp[j].hi)
                return 1;
    }
    return 0;
}

int otpu_check_start(otpu_checker *c, uint32_t s, uint32_t unit, uint32_t slot)
{
    if (check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (unit >= OTPU_UNIT_COUNT || slot >= c->o.slots)
        return bad_call(c, "slice %u: start of unit %u slot %u", s, unit, slot);
    slice_state *ss = &c->sl[s];
    rec *r = ss->slot[slot];
    if (!r)
        return c->model_stopped ? OTPU_CHECK_OK
                                : bad_call(c, "slice %u: start of empty slot %u", s, slot);
    remember(c, "start", s, slot, unit, r);
    if (r->started)
        return bad_call(c, "slice %u: slot %u started twice", s, slot);
    r->started = 1;
    if (ss->flen[unit] == c->o.slots)
        return bad_call(c, "slice %u: unit %u has more started instructions than slots", s, unit);
    ss->fifo[unit][(ss->fhead[unit] + ss->flen[unit]++) % c->o.slots] = r;
    for (rec *q = ss->head; q && q != r; q = q->next)
        if (q->dispatched && q->seq < r->seq && writes_input_of(q, r)) {
            r->early = 1;
            describe(q, &r->early_by);
            break;
        }
    if (unit != r->unit)
        return diverge(c, OTPU_DIV_CONTROL, s, r, NULL,
                       "unit %s started slot %u, an instruction of unit %s",
                       otpu_unit_name(unit), slot, otpu_unit_name(r->unit));
    return OTPU_CHECK_OK;
}

static rec *unit_head(slice_state *ss, uint32_t unit)
{
    return ss->flen[unit] ? ss->fifo[unit][ss->fhead[unit]] : NULL;
}

/* The model may still owe this instruction's writes (a collective, a WAITW): settle it. */
static void ensure_retired(otpu_checker *c, uint32_t s, rec *r)
{
    (void)s;
    for (int tries = 0; !r->retired && !c->model_stopped && tries < 4; tries++)
        model_step(c, s);
}

int otpu_check_write(otpu_checker *c, uint32_t s, uint32_t unit, otpu_space space,
                     uint64_t addr, uint32_t data, uint32_t mask)
{
    if (check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (unit >= OTPU_UNIT_COUNT || space > OTPU_SP_ASCALE)
        return bad_call(c, "slice %u: write from unit %u to space %u", s, unit, space);
    slice_state *ss = &c->sl[s];
    c->writes++;
    c->last_progress = c->cycle;
    if (c->model_stopped && !ss->head)
        return OTPU_CHECK_OK;
    otpu_divergence d; /* filled on a failure path */
    rec *r = unit_head(ss, unit);
    if (!r)
        return diverge(c, OTPU_DIV_STRAY, s, NULL, written(&d, space, addr, data, mask),
                       "unit %s wrote with no started instruction in flight",
                       otpu_unit_name((otpu_unit)unit));
    ensure_retired(c, s, r);
    if (!r->retired)
        return r->faulted || c->model_stopped ? OTPU_CHECK_OK
               : diverge(c, OTPU_DIV_STRAY, s, r, written(&d, space, addr, data, mask),
                         "the model cannot complete this instruction yet");
    /* an older instruction still in flight that reads or writes this location */
    for (rec *q = ss->head; q && q != r; q = q->next) {
        if (!q->dispatched || q->seq > r->seq)
            continue;
        int hit = q->retired && otpu_expect_writes(&q->exp, space, addr);
        for (size_t k = 0; !hit && k < q->nfp; k++)
            hit = !q->fp[k].write && otpu_range_hits(&q->fp[k], space, addr);
        if (hit) {
            written(&d, space, addr, data, mask);
            d.has_other = 1;
            describe(q, &d.other);
            return diverge(c, OTPU_DIV_ORDER, s, r, &d,
                           "this write landed while the older pc %u (n %llu), which %s this "
                           "location, was still in flight", q->pc, (unsigned long long)q->n,
                           otpu_expect_writes(&q->exp, space, addr) ? "writes" : "reads");
        }
    }
    uint32_t want = 0, wmask = 0;
    otpu_match m = otpu_expect_take(&r->exp, space, addr, data, mask, &want, &wmask);
    if (m == OTPU_MATCH_OK)
        return OTPU_CHECK_OK;
    if (r->faulted)
        return OTPU_CHECK_OK; /* the model stopped inside it: partial writes are not judged */
    if (m == OTPU_MATCH_DUPLICATE && c->o.allow_duplicates && (data == want))
        return OTPU_CHECK_OK;
    r->diffs++;
    written(&d, space, addr, data, mask);
    d.has_expected = m != OTPU_MATCH_STRAY;
    d.expected = want;
    if (m == OTPU_MATCH_VALUE)
        return diverge(c, OTPU_DIV_VALUE, s, r, &d, "expected %08x, the RTL wrote %08x", want, data);
    if (m == OTPU_MATCH_DUPLICATE)
        return diverge(c, OTPU_DIV_DUPLICATE, s, r, &d,
                       "this location was already written as often as the model writes it");
    return diverge(c, OTPU_DIV_STRAY, s, r, &d, "the instruction does not write this location");
}

int otpu_check_reg(otpu_checker *c, uint32_t s, uint32_t reg, uint32_t value)
{
    if (check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (reg > 15)
        return bad_call(c, "slice %u: register %u", s, reg);
    slice_state *ss = &c->sl[s];
    c->last_progress = c->cycle;
    /* run the model's slice (the sequencer's own instructions, and any blocked collective)
     * until it writes a register, but not past a unit instruction the RTL has not dispatched:
     * the RTL's sequencer works in program order */
    while (!ss->rlen && !c->model_stopped && !otpu_machine_view(c->m, s).halted) {
        rec *r = ss->head;
        while (r && r->dispatched)
            r = r->next;
        if (r || model_step(c, s) != 0)
            break;
    }
    if (ss->reg_overflow)
        return OTPU_CHECK_OK;
    otpu_divergence d; /* filled on a failure path */
    if (!ss->rlen)
        return c->model_stopped ? OTPU_CHECK_OK
               : diverge(c, OTPU_DIV_REGISTER, s, NULL, written(&d, OTPU_SP_REG, reg, value, 0),
                         "the RTL wrote R%u; the model writes no register here", reg);
    regw w = ss->regq[ss->rhead];
    ss->rhead = (ss->rhead + 1) % REGQ;
    ss->rlen--;
    c->regs++;
    if (w.r != reg || w.v != value) {
        written(&d, OTPU_SP_REG, w.r, value, 0);
        d.has_expected = 1;
        d.expected = w.v;
        return diverge(c, OTPU_DIV_REGISTER, s, NULL, &d,
                       "pc %u (n %llu): expected R%u = %08x, the RTL wrote R%u = %08x", w.pc,
                       (unsigned long long)w.n, w.r, w.v, reg, value);
    }
    return OTPU_CHECK_OK;
}

static void drop(slice_state *ss, rec *r)
{
    rec **p = &ss->head, *prev = NULL;
    while (*p && *p != r) {
        prev = *p;
        p = &(*p)->next;
    }
    if (*p)
        *p = r->next;
    if (ss->tail == r)
        ss->tail = prev;
    if (ss->slot[r->slot] == r)
        ss->slot[r->slot] = NULL;
    otpu_expect_free(&r->exp);
    free(r);
}

int otpu_check_complete(otpu_checker *c, uint32_t s, uint32_t unit)
{
    if (check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (unit >= OTPU_UNIT_COUNT)
        return bad_call(c, "slice %u: completion of unit %u", s, unit);
    slice_state *ss = &c->sl[s];
    c->last_progress = c->cycle;
    rec *r = unit_head(ss, unit);
    if (!r)
        return c->model_stopped ? OTPU_CHECK_OK
                                : bad_call(c, "slice %u: unit %s completed with nothing started",
                                           s, otpu_unit_name((otpu_unit)unit));
    ss->fhead[unit] = (ss->fhead[unit] + 1) % c->o.slots;
    ss->flen[unit]--;
    remember(c, "complete", s, r->slot, unit, r);
    c->retired++;
    ensure_retired(c, s, r);
    int rc = OTPU_CHECK_OK;
    if (r->faulted) {
        rc = diverge(c, OTPU_DIV_ERROR, s, r, NULL,
                     "the model raises an error here; the RTL completed the instruction");
    } else if (r->retired) {
        size_t left = 0;
        const otpu_write *w = otpu_expect_missing(&r->exp, &left);
        if (w) {
            otpu_divergence d;
            at_location(&d, (otpu_space)w->space, w->addr);
            d.has_expected = 1;
            d.expected = w->val;
            d.mask = w->mask;
            d.other_diffs = left - 1 + r->diffs;
            rc = diverge(c, OTPU_DIV_MISSING, s, r, &d,
                         "the instruction completed without %zu of its writes", left);
        } else if (r->diffs && c->have_first && c->first.has_ins && c->first.ins.n == r->n &&
                   c->first.slice == s) {
            c->first.other_diffs = r->diffs - 1;
        }
    } else if (!c->model_stopped) {
        rc = diverge(c, OTPU_DIV_CONTROL, s, r, NULL,
                     "the RTL completed an instruction the model cannot finish yet");
    }
    drop(ss, r);
    return rc;
}

int otpu_check_error(otpu_checker *c, uint32_t s, uint32_t pc)
{
    if (check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    slice_state *ss = &c->sl[s];
    ss->rtl_error = 1;
    c->last_progress = c->cycle;
    /* run the model's sequencer up to its next unit instruction, and that one too when it is
     * the instruction the RTL rejected: an error on the way (a loop rule, the end of the
     * program, a bad operand) is the one the RTL saw */
    for (int guard = 0; !c->model_stopped && guard < 1 << 20; guard++) {
        const otpu_slice_view v = otpu_machine_view(c->m, s);
        if (v.halted || (v.pc < v.nprog && windowed(v.prog[v.pc].op) && v.pc != pc))
            break;
        if (model_step(c, s) != 0)
            break;
    }
    if (!ss->model_error)
        return diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                       "the RTL stopped slice %u with an error at pc %u; the model runs on", s, pc);
    if (ss->model_error_pc != pc)
        return diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                       "the RTL stopped with an error at pc %u; the model's error is at pc %u: %s",
                       pc, ss->model_error_pc, otpu_machine_error(c->m)->msg);
    return OTPU_CHECK_OK;
}

/* ------------------------------------------------------------------ halt and end */

static int first_diff_words(const uint32_t *a, const uint32_t *b, uint64_t n, uint64_t *at,
                            uint64_t *count)
{
    *count = 0;
    for (uint64_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            if (!*count)
                *at = i;
            ++*count;
        }
    return *count != 0;
}

static int state_diff(otpu_checker *c, uint32_t s, otpu_space sp, uint64_t at, uint64_t count,
                      uint32_t want, uint32_t got, const char *what)
{
    otpu_divergence d;
    at_location(&d, sp, at);
    d.has_expected = d.has_actual = 1;
    d.expected = want;
    d.actual = got;
    d.other_diffs = count - 1;
    return diverge(c, OTPU_DIV_END_STATE, s, NULL, &d,
                   "%s differs at halt: %llu location%s, the first at %llu", what,
                   (unsigned long long)count, count > 1 ? "s" : "", (unsigned long long)at);
}

static int compare_state(otpu_checker *c, uint32_t s, const otpu_rtl_state *rtl)
{
    const otpu_config *cfg = c->cfg;
    otpu_slice_view v = otpu_machine_view(c->m, s);
    uint64_t at = 0, count;
    if (rtl->R && first_diff_words(v.R + 1, rtl->R + 1, 15, &at, &count))
        return state_diff(c, s, OTPU_SP_REG, at + 1, count, v.R[at + 1], rtl->R[at + 1], "a register");
    if (rtl->tmem && first_diff_words(v.tmem, rtl->tmem, cfg->TMEM_WORDS, &at, &count))
        return state_diff(c, s, OTPU_SP_TMEM, at, count, v.tmem[at], rtl->tmem[at], "TMEM");
    if (rtl->dram) {
        /* the RTL's image, then zeros to DRAM_BYTES. The model's pages it never touched are
         * zero: compared as zeros, they are not faulted in (a 32 MiB DRAM is mostly such) */
        uint64_t len = rtl->dram_len < cfg->DRAM_BYTES ? rtl->dram_len : cfg->DRAM_BYTES;
        uint8_t *touched = malloc((size_t)((cfg->DRAM_BYTES + 4095) / 4096));
        if (touched)
            otpu_machine_dram_pages(c->m, s, touched);
        count = 0;
        for (uint64_t page = 0; page < cfg->DRAM_BYTES; page += 4096) {
            uint64_t end = page + 4096 < cfg->DRAM_BYTES ? page + 4096 : cfg->DRAM_BYTES;
            static const uint8_t zero[4096];
            const uint8_t *model = touched && !touched[page / 4096] ? zero : v.dram + page;
            if (end <= len ? !memcmp(model, rtl->dram + page, (size_t)(end - page))
                           : page >= len && !memcmp(model, zero, (size_t)(end - page)))
                continue;
            for (uint64_t i = page; i < end; i += 4) {
                uint32_t want, got = 0;
                memcpy(&want, v.dram + i, 4);
                if (i < len)
                    memcpy(&got, rtl->dram + i, (size_t)(len - i < 4 ? len - i : 4));
                if (want != got && !count++)
                    at = i;
            }
        }
        free(touched);
        if (count) {
            uint32_t want, got = 0;
            memcpy(&want, v.dram + at, 4);
            if (at < len)
                memcpy(&got, rtl->dram + at, (size_t)(len - at < 4 ? len - at : 4));
            return state_diff(c, s, OTPU_SP_DRAM, at, count, want, got, "DRAM");
        }
    }
    uint64_t rows = otpu_config_act_rows(cfg);
    if (rtl->act) {
        uint64_t n = rows * cfg->ACT_BLOCKS * cfg->D;
        count = 0;
        for (uint64_t i = 0; i < n; i++)
            if (v.act[i] != rtl->act[i] && !count++)
                at = i;
        if (count)
            return state_diff(c, s, OTPU_SP_ACT, at, count, (uint8_t)v.act[at],
                              (uint8_t)rtl->act[at], "the ACT RAM");
    }
    if (rtl->ascale && first_diff_words(v.ascale, rtl->ascale, rows * cfg->ACT_BLOCKS, &at, &count))
        return state_diff(c, s, OTPU_SP_ASCALE, at, count, v.ascale[at], rtl->ascale[at],
                          "the ACT scales");
    return OTPU_CHECK_OK;
}

int otpu_check_halt(otpu_checker *c, uint32_t s, const otpu_rtl_state *rtl)
{
    if (check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    slice_state *ss = &c->sl[s];
    ss->rtl_halted = 1;
    c->last_progress = c->cycle;
    remember(c, "halt", s, 0, 0, NULL);
    if (c->model_stopped)
        return ss->model_error ? diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                                         "the RTL halted slice %u; the model stops with an error "
                                         "at pc %u: %s", s, ss->model_error_pc,
                                         otpu_machine_error(c->m)->msg)
                               : OTPU_CHECK_OK;
    rec *r = NULL;
    int st = model_next(c, s, &r);
    if (st == 0)
        return diverge(c, OTPU_DIV_CONTROL, s, r, NULL,
                       "the RTL halted; the model's slice %u goes on with pc %u", s, r->pc);
    if (st < 0)
        return ss->model_error ? diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                                         "the RTL halted; the model stops with an error at pc "
                                         "%u: %s", ss->model_error_pc,
                                         otpu_machine_error(c->m)->msg)
                               : OTPU_CHECK_OK;
    for (rec *q = ss->head; q; q = q->next)
        if (q->dispatched)
            return diverge(c, OTPU_DIV_MISSING, s, q, NULL,
                           "the RTL halted with slot %u (pc %u) still in flight", q->slot, q->pc);
    otpu_slice_view v = otpu_machine_view(c->m, s);
    if (rtl && rtl->pc != v.pc)
        return diverge(c, OTPU_DIV_CONTROL, s, NULL, NULL,
                       "the RTL halted at pc %u, the model at pc %u", rtl->pc, v.pc);
    return rtl ? compare_state(c, s, rtl) : OTPU_CHECK_OK;
}

int otpu_check_end(otpu_checker *c)
{
    for (uint32_t s = 0; s < c->cfg->S; s++) {
        slice_state *ss = &c->sl[s];
        if (ss->rtl_halted || ss->rtl_error)
            continue;
        if (ss->model_error && c->model_stopped)
            return diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                           "the model stops slice %u with an error at pc %u (%s); the RTL did "
                           "not report it", s, ss->model_error_pc, otpu_machine_error(c->m)->msg);
        if (c->model_stopped)
            continue; /* another slice failed first: this one was stopped with it */
        return diverge(c, OTPU_DIV_HANG, s, NULL, NULL,
                       "the run ended and slice %u neither halted nor stopped on an error", s);
    }
    return OTPU_CHECK_OK;
}

const otpu_divergence *otpu_check_first(const otpu_checker *c)
{
    return c->have_first ? &c->first : NULL;
}

uint64_t otpu_check_count(const otpu_checker *c) { return c->count; }
const char *otpu_check_message(const otpu_checker *c) { return c->message; }
uint64_t otpu_check_retired(const otpu_checker *c) { return c->retired; }
uint64_t otpu_check_writes(const otpu_checker *c) { return c->writes; }
uint64_t otpu_check_regs(const otpu_checker *c) { return c->regs; }

uint64_t otpu_check_instructions(const otpu_checker *c)
{
    uint64_t n = 0;
    for (uint32_t s = 0; s < c->cfg->S; s++)
        n += otpu_machine_view(c->m, s).icount;
    return n;
}
const otpu_machine *otpu_check_model(const otpu_checker *c) { return c->m; }
