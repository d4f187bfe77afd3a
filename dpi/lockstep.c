/* lockstep.c - EVENTS.md records onto the checker. */
#include "lockstep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* EVENTS.md write ports -> the unit that owns them (otpu_unit) */
static const otpu_unit port_unit[] = {
    OTPU_UNIT_SEQ, OTPU_UNIT_DMA, OTPU_UNIT_DMA, OTPU_UNIT_MXU, OTPU_UNIT_QUANT, OTPU_UNIT_QUANT,
    OTPU_UNIT_QUANT, OTPU_UNIT_QUANT, OTPU_UNIT_QUANT, OTPU_UNIT_VPU, OTPU_UNIT_COLL};
enum { NPORTS = sizeof port_unit / sizeof port_unit[0], NUNITS = 5 };

struct otpu_ls {
    otpu_ls_options o;
    otpu_checker *c;
    char bad[256];
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
    if (!ls->c) {
        free(ls);
        return NULL;
    }
    return ls;
}

otpu_ls *otpu_ls_open(const char *bundle, const otpu_ls_options *o, char *err, size_t errlen)
{
    otpu_bundle b;
    otpu_ls *ls = otpu_bundle_read(bundle, &b, err, errlen) ? NULL
                                                            : otpu_ls_open_bundle(&b, o, err, errlen);
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
    otpu_unit u = (unit >= 0 && unit < NUNITS) ? (otpu_unit)(unit + 1) : OTPU_UNIT_COUNT;
    switch (kind) {
    case 0:
        return note(ls, otpu_check_dispatch(ls->c, slice, slot, pc, op));
    case 1:
        return OTPU_CHECK_OK; /* the sequencer's own instructions show in their register writes */
    case 2:
        return note(ls, otpu_check_start(ls->c, slice, u, slot));
    case 3:
        return note(ls, otpu_check_complete(ls->c, slice, u));
    }
    return note(ls, OTPU_CHECK_BAD_CALL);
}

int otpu_ls_wr(otpu_ls *ls, uint32_t slice, uint32_t port, uint32_t space, uint32_t addr,
               uint32_t data, uint32_t mask)
{
    if (port >= NPORTS)
        return note(ls, otpu_check_write(ls->c, slice, OTPU_UNIT_COUNT, (otpu_space)space, addr,
                                         data, mask));
    if (port_unit[port] == OTPU_UNIT_SEQ)
        return note(ls, otpu_check_reg(ls->c, slice, addr, data));
    if (space == OTPU_SP_ACT)
        data &= 0xFF; /* the int8 in data[7:0] */
    return note(ls, otpu_check_write(ls->c, slice, port_unit[port], (otpu_space)space, addr,
                                     data, mask));
}

int otpu_ls_state(otpu_ls *ls, uint32_t slice, int kind, uint32_t a, uint32_t b)
{
    (void)b;
    if (kind == 1)
        return note(ls, otpu_check_error(ls->c, slice, a));
    if (kind == 2)
        return OTPU_CHECK_OK; /* HALT CHAIN: the model reloads at its own HALT */
    otpu_rtl_state st;
    memset(&st, 0, sizeof st);
    int have = ls->o.read_state && ls->o.read_state(ls->o.user, slice, &st) == 0;
    st.pc = a; /* the HALT's pc, as the RTL reports it */
    return note(ls, otpu_check_halt(ls->c, slice, have ? &st : NULL));
}

int otpu_ls_cycle(otpu_ls *ls, uint64_t cycle)
{
    return note(ls, otpu_check_cycle(ls->c, cycle));
}

int otpu_ls_end(otpu_ls *ls)
{
    return note(ls, otpu_check_end(ls->c));
}
