/* check_events.c - the RTL's instruction events judged against the model (check.h): a dispatch
 * against the model's next instruction, a start, a completion against its expected writes, an
 * error against the model's, and the time (the hang limit). A check: it calls the scoreboard,
 * the divergence record and check_order.c below it, and nothing calls it but the checker's
 * users (checker/meson.build lists the layers). */
#include "scoreboard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cycles the started instructions may take without an event: the longest of them at
 * HANG_CYCLES_PER_STEP cycles per step of its work (a STREAM of 4095 x 4095 elements with no
 * destination runs for millions of cycles without a write, and is no hang). The hang limit:
 * no event (a dispatch, start, write, register write, completion, halt or error) for more
 * than hang_cycles + this allowance cycles while an instruction is in flight (check.h). */
enum { HANG_CYCLES_PER_STEP = 4 };

static uint64_t hang_allowance(const otpu_checker *c)
{
    uint64_t most = 0;
    for (uint32_t s = 0; s < c->cfg->S; s++)
        for (const rec *r = c->sl[s].head; r; r = r->next)
            if (r->started && r->work > most)
                most = r->work;
    return most > UINT64_MAX / HANG_CYCLES_PER_STEP ? UINT64_MAX : most * HANG_CYCLES_PER_STEP;
}

int otpu_check_cycle(otpu_checker *c, uint64_t cycle)
{
    c->cycle = cycle;
    if (c->have_first && !c->o.keep_going)
        return OTPU_CHECK_OK;
    if (cycle < c->last_progress || cycle - c->last_progress <= c->o.hang_cycles)
        return OTPU_CHECK_OK;
    if (c->allowance_for != c->last_progress) { /* once per stall past the floor */
        c->allowance_for = c->last_progress;
        c->allowance = hang_allowance(c);
    }
    if (cycle - c->last_progress - c->o.hang_cycles <= c->allowance)
        return OTPU_CHECK_OK;
    uint64_t quiet = cycle - c->last_progress;
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
                            snprintf(e->what, sizeof e->what, "%s",
                                     q->started ? "started" : "waiting");
                            e->slice = t;
                            e->slot = q->slot;
                            e->unit = q->unit;
                            ck_describe(q, &e->ins);
                        }
                c->last_progress = cycle; /* report a hang once per stall */
                return ck_diverge(c, OTPU_DIV_HANG, s, r, &d,
                               "no event for %llu cycles, more than the hang limit %llu plus "
                               "%llu for the work in flight; %zu in flight, the oldest is slice "
                               "%u slot %u", (unsigned long long)quiet,
                               (unsigned long long)c->o.hang_cycles,
                               (unsigned long long)c->allowance, d.ninflight, s, r->slot);
            }
    return OTPU_CHECK_OK;
}

int otpu_check_dispatch(otpu_checker *c, uint32_t s, uint32_t slot, uint32_t pc, uint32_t op)
{
    if (ck_check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (slot >= c->o.slots)
        return ck_bad_call(c, "slice %u: slot %u (the window has %u)", s, slot, c->o.slots);
    slice_state *ss = &c->sl[s];
    if (ss->slot[slot])
        return ck_bad_call(c, "slice %u: slot %u dispatched while it holds pc %u", s, slot,
                        ss->slot[slot]->pc);
    c->last_progress = c->cycle;
    /* (the model may have run ahead to this slice's error while another slice waited: the
     * instructions it issued before the error are still queued, and judged) */
    rec *r = NULL;
    int st = ck_model_next(c, s, &r);
    if (st != 0) {
        ck_remember(c, "dispatch", s, slot, 0, NULL);
        if (ss->model_error)
            return OTPU_CHECK_OK; /* past the model's error: otpu_check_error judges */
        otpu_divergence d;
        memset(&d, 0, sizeof d);
        ck_explain_split(c, s, pc, UINT32_MAX, &d);
        return ck_diverge(c, OTPU_DIV_CONTROL, s, NULL, &d,
                       "the RTL dispatched pc %u (opcode %#x) into slot %u; the model's slice %u "
                       "has %s", pc, op, slot, s, st > 0 ? "halted" : "no next instruction");
    }
    r->dispatched = 1;
    r->slot = slot;
    r->seq = ss->seq++;
    ss->slot[slot] = r;
    ck_remember(c, "dispatch", s, slot, r->unit, r);
    if (r->pc != pc || r->ins.op != op) {
        otpu_divergence d;
        memset(&d, 0, sizeof d);
        ck_explain_split(c, s, pc, r->pc, &d);
        return ck_diverge(c, OTPU_DIV_CONTROL, s, r, &d,
                       "the RTL dispatched pc %u (opcode %#x); the model's next instruction is "
                       "pc %u (%s)", pc, op, r->pc, otpu_op_name(r->ins.op));
    }
    ss->has_last = 1;
    ss->last_pc = r->pc;
    ss->last_n = r->n;
    ss->last_ins = r->ins;
    return OTPU_CHECK_OK;
}

int otpu_check_start(otpu_checker *c, uint32_t s, uint32_t unit, uint32_t slot)
{
    if (ck_check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (unit >= OTPU_UNITS || slot >= c->o.slots)
        return ck_bad_call(c, "slice %u: start of unit %u slot %u", s, unit, slot);
    slice_state *ss = &c->sl[s];
    rec *r = ss->slot[slot];
    if (!r)
        return ss->model_error ? OTPU_CHECK_OK
                               : ck_bad_call(c, "slice %u: start of empty slot %u", s, slot);
    ck_remember(c, "start", s, slot, unit, r);
    c->last_progress = c->cycle; /* (the allowance of its work runs from here: hang_allowance) */
    if (r->started)
        return ck_bad_call(c, "slice %u: slot %u started twice", s, slot);
    r->started = 1;
    if (ss->flen[unit] == c->o.slots)
        return ck_bad_call(c, "slice %u: unit %u has more started instructions than slots", s,
                           unit);
    ss->fifo[unit][(ss->fhead[unit] + ss->flen[unit]++) % c->o.slots] = r;
    ck_note_early_start(ss, r);
    if (unit != r->unit)
        return ck_diverge(c, OTPU_DIV_CONTROL, s, r, NULL,
                       "unit %s started slot %u, an instruction of unit %s",
                       otpu_unit_name(unit), slot, otpu_unit_name(r->unit));
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
    if (ck_check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (unit >= OTPU_UNITS)
        return ck_bad_call(c, "slice %u: completion of unit %u", s, unit);
    slice_state *ss = &c->sl[s];
    c->last_progress = c->cycle;
    rec *r = ck_unit_head(ss, unit);
    if (!r)
        return ss->model_error ? OTPU_CHECK_OK
                               : ck_bad_call(c, "slice %u: unit %s completed with nothing started",
                                             s, otpu_unit_name((otpu_unit)unit));
    ss->fhead[unit] = (ss->fhead[unit] + 1) % c->o.slots;
    ss->flen[unit]--;
    ck_remember(c, "complete", s, r->slot, unit, r);
    c->retired++;
    ck_ensure_retired(c, s, r);
    int rc = OTPU_CHECK_OK;
    if (r->faulted) {
        /* an error after the first phase of writes: the RTL completes the instruction, then
         * raises the error (rtl/EVENTS.md); whether it does is judged by its error record, or
         * by its halt when none comes */
    } else if (r->retired) {
        size_t left = 0;
        const otpu_write *w = otpu_expect_missing(&r->exp, &left);
        if (w) {
            otpu_divergence d;
            ck_at_location(&d, (otpu_space)w->space, w->addr);
            d.has_expected = 1;
            d.expected = w->val;
            d.mask = w->mask;
            d.other_diffs = left - 1 + r->diffs;
            rc = r->ins.op == OTPU_OP_WAITW
                     ? ck_diverge(c, OTPU_DIV_MISSING, s, r, &d,
                                  "the WAITW completed without writing its word (a timeout on "
                                  "the RTL's side only): in the model the word holds")
                     : ck_diverge(c, OTPU_DIV_MISSING, s, r, &d,
                                  "the instruction completed without %zu of its writes", left);
        } else if (r->diffs && c->have_first && c->first.has_ins && c->first.ins.n == r->n &&
                   c->first.slice == s) {
            c->first.other_diffs = r->diffs - 1;
        }
    } else if (!ss->model_error) {
        rc = ck_diverge(c, OTPU_DIV_CONTROL, s, r, NULL,
                     "the RTL completed an instruction the model cannot finish yet");
    }
    drop(ss, r);
    return rc;
}

int otpu_check_error(otpu_checker *c, uint32_t s, uint32_t pc)
{
    if (ck_check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    slice_state *ss = &c->sl[s];
    ss->rtl_error = 1;
    c->last_progress = c->cycle;
    /* run the model's sequencer up to its next unit instruction, and that one too when it is
     * the instruction the RTL rejected: an error on the way (a loop rule, the end of the
     * program, a bad operand) is the one the RTL saw */
    for (int guard = 0; !ss->model_error && guard < 1 << 20; guard++) {
        const otpu_slice_view v = otpu_machine_view(c->m, s);
        if (v.halted || (v.pc < v.nprog && ck_windowed(v.prog[v.pc].op) && v.pc != pc))
            break;
        if (ck_model_step(c, s) != 0)
            break;
    }
    if (!ss->model_error)
        return ck_diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                       "the RTL stopped slice %u with an error at pc %u; the model runs on", s, pc);
    if (ss->model_error_pc != pc)
        return ck_diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                       "the RTL stopped with an error at pc %u; the model's error is at pc %u: %s",
                       pc, ss->model_error_pc, ck_model_error(c, s));
    return OTPU_CHECK_OK;
}
