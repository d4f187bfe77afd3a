/* lockstep.c - EVENTS.md records onto the checker. */
#include "lockstep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct otpu_ls {
    otpu_ls_options o;
    otpu_checker *c;
    char bad[256];
    uint32_t *halt_pc;        /* per slice: the HALT's pc, judged at the end (UINT32_MAX: none) */
    uint32_t nslices;
};

static otpu_ls *attached;

otpu_ls *otpu_ls_open_bundle(const otpu_bundle *b, const otpu_ls_options *o, char *err,
                             size_t errlen)
{
    otpu_ls *ls = calloc(1, sizeof *ls);
    if (!ls) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (o)
        ls->o = *o;
    ls->c = otpu_checker_new(b, &ls->o.check, err, errlen);
    ls->nslices = b->cfg.S;
    ls->halt_pc = malloc(b->cfg.S * sizeof *ls->halt_pc);
    if (!ls->c || !ls->halt_pc) {
        if (ls->c && !ls->halt_pc)
            snprintf(err, errlen, "out of memory");
        otpu_ls_close(ls);
        return NULL;
    }
    for (uint32_t s = 0; s < b->cfg.S; s++)
        ls->halt_pc[s] = UINT32_MAX;
    return ls;
}

otpu_ls *otpu_ls_open(const char *bundle, const otpu_ls_options *o, char *err, size_t errlen)
{
    otpu_bundle b;
    otpu_ls *ls =
        otpu_bundle_read(bundle, &b, err, errlen) ? NULL : otpu_ls_open_bundle(&b, o, err, errlen);
    otpu_bundle_free(&b);
    return ls;
}

void otpu_ls_close(otpu_ls *ls)
{
    if (!ls)
        return;
    if (attached == ls)
        attached = NULL;
    otpu_checker_free(ls->c);
    free(ls->halt_pc);
    free(ls);
}

otpu_checker *otpu_ls_checker(otpu_ls *ls) { return ls->c; }
void otpu_ls_attach(otpu_ls *ls) { attached = ls; }
otpu_ls *otpu_ls_attached(void) { return attached; }
const char *otpu_ls_bad_call(const otpu_ls *ls) { return ls->bad[0] ? ls->bad : NULL; }

static int note(otpu_ls *ls, int rc)
{
    if (rc == OTPU_CHECK_BAD_CALL && !ls->bad[0])
        strncpy(ls->bad, otpu_check_message(ls->c), sizeof ls->bad - 1);
    return rc;
}

int otpu_ls_ins(otpu_ls *ls, uint32_t slice, int kind, int unit, uint32_t slot, uint32_t pc,
                uint32_t op)
{
    otpu_unit u = (unit >= 0 && unit < OTPU_UNITS) ? (otpu_unit)unit : OTPU_UNIT_COUNT;
    switch (kind) {
    case OTPU_EV_DISPATCH:
        return note(ls, otpu_check_dispatch(ls->c, slice, slot, pc, op));
    case OTPU_EV_EXEC:
        return OTPU_CHECK_OK; /* the sequencer's own instructions show in their register writes */
    case OTPU_EV_START:
        return note(ls, otpu_check_start(ls->c, slice, u, slot));
    case OTPU_EV_COMPLETE:
        return note(ls, otpu_check_complete(ls->c, slice, u));
    }
    return note(ls, OTPU_CHECK_BAD_CALL);
}

int otpu_ls_wr(otpu_ls *ls, uint32_t slice, uint32_t port, uint32_t space, uint32_t addr,
               uint32_t data, uint32_t mask)
{
    if (port >= OTPU_PORTS)
        return note(ls, otpu_check_write(ls->c, slice, OTPU_UNIT_COUNT, (otpu_space)space, addr,
                                         data, mask));
    if (otpu_port_unit[port] == OTPU_UNIT_SEQ)
        return note(ls, otpu_check_reg(ls->c, slice, addr, data));
    if (space == OTPU_SP_ACT)
        data &= 0xFF; /* the int8 in data[7:0] */
    return note(ls, otpu_check_write(ls->c, slice, otpu_port_unit[port], (otpu_space)space, addr,
                                     data, mask));
}

int otpu_ls_state(otpu_ls *ls, uint32_t slice, int kind, uint32_t a, uint32_t b)
{
    (void)b;
    if (kind == OTPU_SS_ERROR)
        return note(ls, otpu_check_error(ls->c, slice, a));
    if (kind == OTPU_SS_CHAIN)
        return OTPU_CHECK_OK; /* HALT CHAIN: the model reloads at its own HALT */
    if (kind != OTPU_SS_HALTED || slice >= ls->nslices)
        return note(ls, otpu_check_halt(ls->c, slice, NULL)); /* (a bad call, named there) */
    ls->halt_pc[slice] = a; /* judged at the end, when the RTL's memories can be read */
    return OTPU_CHECK_OK;
}

/* A halted slice against the model, with the RTL's state if the bridge can read it. */
static int judge_halt(otpu_ls *ls, uint32_t slice)
{
    otpu_rtl_state st;
    memset(&st, 0, sizeof st);
    int have = ls->o.read_state && ls->o.read_state(ls->o.user, slice, &st) == 0;
    st.pc = ls->halt_pc[slice]; /* the HALT's pc, as the RTL reported it */
    return note(ls, otpu_check_halt(ls->c, slice, have ? &st : NULL));
}

int otpu_ls_cycle(otpu_ls *ls, uint64_t cycle)
{
    return note(ls, otpu_check_cycle(ls->c, cycle));
}

int otpu_ls_end(otpu_ls *ls, int timed_out)
{
    /* after the first divergence nothing more is judged, unless every one is counted */
    if (otpu_check_count(ls->c) && !ls->o.check.keep_going)
        return OTPU_CHECK_DIVERGED;
    for (uint32_t s = 0; s < ls->nslices; s++)
        if (ls->halt_pc[s] != UINT32_MAX)
            judge_halt(ls, s);
    /* a slice still running when time ran out is the timeout's, not a divergence */
    return timed_out ? OTPU_CHECK_OK : note(ls, otpu_check_end(ls->c));
}
