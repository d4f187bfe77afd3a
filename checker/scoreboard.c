/* scoreboard.c - the lockstep scoreboard (scoreboard.h): the model stepped in program order beside
 * the RTL's events, each in-flight instruction's record from the model's issue to the RTL's
 * completion, the checker made and freed, and the helpers the checks share. The bottom layer:
 * it calls none of the checker's other files but expect.c (check_events.c judges the
 * instruction events). */
#include "scoreboard.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ small helpers */

int ck_bad_call(otpu_checker *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->message, sizeof c->message, fmt, ap);
    va_end(ap);
    return OTPU_CHECK_BAD_CALL;
}

int ck_windowed(unsigned op)
{
    otpu_unit u = otpu_op_unit(op);
    return u != OTPU_UNIT_SEQ && u != OTPU_UNIT_COUNT;
}






/* ------------------------------------------------------------------ the model's side */

/* (an instruction mostly retires right after its issue: the newest record, found at once even
 * when the model runs a slice far ahead of the RTL and its list is long) */
static rec *find_rec(slice_state *ss, uint64_t n)
{
    if (ss->tail && ss->tail->n == n)
        return ss->tail;
    for (rec *r = ss->head; r; r = r->next)
        if (r->n == n)
            return r;
    return NULL;
}

static void on_issue(void *u, uint32_t s, uint64_t n, uint32_t pc, const otpu_instr *in)
{
    otpu_checker *c = u;
    slice_state *ss = &c->sl[s];
    if (!in || !ck_windowed(in->op))
        return; /* the sequencer's own instructions write registers only */
    otpu_slice_view v = otpu_machine_view(c->m, s);
    rec *r = calloc(1, sizeof *r);
    if (!r)
        return; /* noticed by the caller: the dispatch finds no record */
    r->n = n;
    r->pc = pc;
    r->ins = *in;
    r->ops = otpu_operands(in, v.R);
    memcpy(r->R, v.R, sizeof r->R);
    r->loop_depth = v.loop_depth;
    memcpy(r->loops, v.loops, sizeof r->loops);
    r->unit = otpu_op_unit(in->op);
    r->nfp = otpu_footprint_work(c->cfg, in, v.R, v.tmem, r->fp, &r->work);
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
    rec *r = rt->ins && ck_windowed(rt->ins->op) ? find_rec(ss, rt->n) : NULL;
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
    c->sl[s].model_error = 1;
    c->sl[s].model_error_pc = e->pc;
}

/* The model's error of slice s (its own, in slice-errors mode). */
const char *ck_model_error(const otpu_checker *c, uint32_t s)
{
    const otpu_error *e = otpu_machine_slice_error(c->m, s);
    return e ? e->msg : otpu_machine_error(c->m)->msg;
}

/* Step the model's slice s once; when it cannot run, let the machine settle (collectives,
 * WAITW) after running the other slices up to their own blocking points. 0 progressed, 1
 * nothing to do, -1 slice s stopped with an error (another slice's error is progress). */
int ck_model_step(otpu_checker *c, uint32_t s)
{
    slice_state *ss = &c->sl[s];
    if (ss->model_error)
        return -1;
    int r = otpu_machine_step(c->m, s);
    if (r <= 0)
        return r;
    for (uint32_t t = 0; t < c->cfg->S; t++)
        while (otpu_machine_step(c->m, t) == 0)
            ;
    if (ss->model_error)
        return -1;
    /* each of the RTL's polls takes a cycle at least: a model that polled more often than the
     * RTL had cycles is not following it (a host's `polls` past the RTL's timeout) */
    int st = otpu_machine_settle_counted(c->m, &c->model_polls, c->cycle + POLL_SLACK);
    return ss->model_error ? -1 : st != 0 ? 0 : 1;
}

/* Run the model's slice s until its next windowed instruction is queued (0), it halts (1),
 * or it fails / cannot go on (-1). */
int ck_model_next(otpu_checker *c, uint32_t s, rec **out)
{
    slice_state *ss = &c->sl[s];
    for (;;) {
        for (rec *r = ss->head; r; r = r->next)
            if (!r->dispatched) {
                *out = r;
                return 0;
            }
        /* (a host script may run a halted slice again: its host acts when no slice can run) */
        if (otpu_machine_view(c->m, s).halted && !otpu_machine_host(c->m))
            return 1;
        int st = ck_model_step(c, s);
        if (st < 0) {
            /* the instruction the model failed in, when it got that far: the RTL dispatches
             * one that fails after its first phase of writes (rtl/EVENTS.md) */
            for (rec *r = ss->head; r; r = r->next)
                if (!r->dispatched && r->faulted) {
                    *out = r;
                    return 0;
                }
            return -1;
        }
        if (st > 0 && otpu_machine_view(c->m, s).halted)
            return 1;
        if (st > 0)
            return -1;
    }
}

/* ------------------------------------------------------------------ construction */

enum { RULE_CHECK_STEPS = 10000000 }; /* the reference's step limit */

/* A program whose GATHER reads a source word it also writes breaks a rule of the ISA the
 * reference does not check: the model (isasim.py: every source read first) and an RTL that
 * copies in place may both be right and differ. The model runs it once in strict mode first;
 * such a bundle is bad input, not a run to judge. (A QST whose data meet its scales, also
 * forbidden, is judged as isasim.py defines it: every byte, then the scales.) 0, or -1. */
static int breaks_rule(const otpu_bundle *b, char *err, size_t errlen)
{
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(b, &e);
    if (!m)
        return 0; /* (the checker's own machine says why) */
    otpu_machine_set_strict(m, OTPU_STRICT_GATHER);
    int bad = otpu_machine_run(m, RULE_CHECK_STEPS) &&
              otpu_machine_error(m)->kind == OTPU_ERR_RULE;
    if (bad)
        snprintf(err, errlen, "the program breaks a rule of the ISA that the reference does not "
                 "check, so its result is undefined: %s", otpu_machine_error(m)->msg);
    otpu_machine_free(m);
    return bad ? -1 : 0;
}

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
    if (breaks_rule(b, err, errlen)) {
        free(c);
        return NULL;
    }
    if (!c->o.hang_cycles)
        c->o.hang_cycles = 100000;
    if (!c->o.slots)
        c->o.slots = 64;
    c->allowance_for = UINT64_MAX; /* (no allowance computed yet) */
    otpu_error e;
    c->m = otpu_bundle_machine(b, &e);
    if (!c->m) {
        snprintf(err, errlen, "%s", e.msg);
        free(c);
        return NULL;
    }
    c->cfg = otpu_machine_config(c->m);
    c->bundle = b;
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
    for (uint32_t s = 0; s < S; s++) /* the RTL starts from the bundle's registers too */
        memcpy(c->sl[s].rtl_R, otpu_machine_view(c->m, s).R, sizeof c->sl[s].rtl_R);
    otpu_listener l = {c, on_issue, on_retire, on_error};
    otpu_machine_set_listener(c->m, &l);
    otpu_machine_set_slice_errors(c->m, 1); /* each slice judged to its own end */
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
    free(c->facts);
    otpu_machine_free(c->m);
    free(c);
}

/* ------------------------------------------------------------------ the checks' helpers */

int ck_check_slice(otpu_checker *c, uint32_t s)
{
    return s < c->cfg->S ? 0 : ck_bad_call(c, "slice %u: the bundle has %u slices", s, c->cfg->S);
}

rec *ck_unit_head(slice_state *ss, uint32_t unit)
{
    return ss->flen[unit] ? ss->fifo[unit][ss->fhead[unit]] : NULL;
}

/* The model may still owe this instruction's writes (a collective, a WAITW): settle it, for
 * as many host rounds as the host's steps take (polls, cycles) while the model progresses. */
void ck_ensure_retired(otpu_checker *c, uint32_t s, rec *r)
{
    for (int tries = 0; !r->retired && !c->sl[s].model_error && tries < 1 << 20; tries++)
        if (ck_model_step(c, s) && tries >= 4)
            break;
}

/* ------------------------------------------------------------------ what the checks counted */

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
