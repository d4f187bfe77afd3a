/* check_writes.c - the RTL's writes judged against the expected writes of the instruction
 * they belong to (the oldest started one of their unit), and its register writes against
 * the model's, in program order. */
#include "scoreboard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int otpu_check_write(otpu_checker *c, uint32_t s, uint32_t unit, otpu_space space,
                     uint64_t addr, uint32_t data, uint32_t mask)
{
    if (ck_check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (unit >= OTPU_UNITS || space >= OTPU_SPACES)
        return ck_bad_call(c, "slice %u: write from unit %u to space %u", s, unit, space);
    slice_state *ss = &c->sl[s];
    c->writes++;
    c->last_progress = c->cycle;
    if (ss->model_error && !ss->head)
        return OTPU_CHECK_OK;
    otpu_divergence d; /* filled on a failure path */
    rec *r = ck_unit_head(ss, unit);
    if (!r)
        return ck_diverge(c, OTPU_DIV_STRAY, s, NULL, ck_written(&d, space, addr, data, mask),
                       "unit %s wrote with no started instruction in flight",
                       otpu_unit_name((otpu_unit)unit));
    ck_ensure_retired(c, s, r);
    if (!r->retired)
        return r->faulted || ss->model_error ? OTPU_CHECK_OK
               : ck_diverge(c, OTPU_DIV_STRAY, s, r, ck_written(&d, space, addr, data, mask),
                         "the model cannot complete this instruction yet");
    int rc = ck_order_violation(c, s, r, space, addr, data, mask);
    if (rc != OTPU_CHECK_OK)
        return rc;
    uint32_t want = 0, wmask = 0;
    otpu_match m = otpu_expect_take(&r->exp, space, addr, data, mask, &want, &wmask);
    if (m == OTPU_MATCH_OK)
        return OTPU_CHECK_OK;
    if (r->faulted)
        return OTPU_CHECK_OK; /* the model stopped inside it: partial writes are not judged */
    if (m == OTPU_MATCH_DUPLICATE && c->o.allow_duplicates && (data == want))
        return OTPU_CHECK_OK;
    r->diffs++;
    ck_written(&d, space, addr, data, mask);
    d.has_expected = m != OTPU_MATCH_STRAY;
    d.expected = want;
    d.expected_mask = wmask;
    if (m == OTPU_MATCH_VALUE)
        return ck_diverge(c, OTPU_DIV_VALUE, s, r, &d, "expected %08x, the RTL wrote %08x", want,
                          data);
    if (m == OTPU_MATCH_DUPLICATE)
        return ck_diverge(c, OTPU_DIV_DUPLICATE, s, r, &d,
                       "this location was already written as often as the model writes it");
    char where[160];
    ck_stray_place(r, space, addr, where, sizeof where);
    return ck_diverge(c, OTPU_DIV_STRAY, s, r, &d, "the instruction does not write this location: %s",
                      where);
}

/* The sequencer's instruction that made the model's register write w (LI, ADDI, RLD). */
static void seq_instruction(const otpu_checker *c, uint32_t s, const regw *w, otpu_divergence *d)
{
    otpu_slice_view v = otpu_machine_view(c->m, s);
    if (w->pc >= v.nprog)
        return;
    d->has_ins = 1;
    d->ins.n = w->n;
    d->ins.pc = w->pc;
    otpu_disasm(&v.prog[w->pc], d->ins.disasm, sizeof d->ins.disasm);
    d->unit = OTPU_UNIT_SEQ;
}

int otpu_check_reg(otpu_checker *c, uint32_t s, uint32_t reg, uint32_t value)
{
    if (ck_check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    if (reg > 15)
        return ck_bad_call(c, "slice %u: register %u", s, reg);
    slice_state *ss = &c->sl[s];
    c->last_progress = c->cycle;
    /* run the model's slice (the sequencer's own instructions, and any blocked collective)
     * until it writes a register, but not past a unit instruction the RTL has not dispatched:
     * the RTL's sequencer works in program order */
    while (!ss->rlen && !ss->model_error && !otpu_machine_view(c->m, s).halted) {
        rec *r = ss->head;
        while (r && r->dispatched)
            r = r->next;
        if (r || ck_model_step(c, s) != 0)
            break;
    }
    if (ss->reg_overflow)
        return OTPU_CHECK_OK;
    otpu_divergence d; /* filled on a failure path */
    if (!ss->rlen)
        return ss->model_error
            ? OTPU_CHECK_OK
            : ck_diverge(c, OTPU_DIV_REGISTER, s, NULL, ck_written(&d, OTPU_SP_REG, reg, value, 0),
                         "the RTL wrote R%u; the model writes no register here", reg);
    regw w = ss->regq[ss->rhead];
    ss->rhead = (ss->rhead + 1) % REGQ;
    ss->rlen--;
    c->regs++;
    if (w.r != reg || w.v != value) {
        ck_written(&d, OTPU_SP_REG, w.r, value, 0);
        d.has_expected = 1;
        d.expected = w.v;
        seq_instruction(c, s, &w, &d);
        ck_explain_register(c, s, &w, ss->rtl_R, &d);
        ss->rtl_R[reg] = value;
        return ck_diverge(c, OTPU_DIV_REGISTER, s, NULL, &d,
                       "pc %u (n %llu): expected R%u = %08x, the RTL wrote R%u = %08x", w.pc,
                       (unsigned long long)w.n, w.r, w.v, reg, value);
    }
    ss->rtl_R[reg] = value;
    return OTPU_CHECK_OK;
}
