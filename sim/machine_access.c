/* machine_access.c - the host's reads and writes of a slice's state, and running to a pc or one
 * step at a time in the run's order (machine.h). What a binding or a debugger needs beyond
 * otpu_machine_view, built on machine.c's public calls and the slices (slice.h). */
#include "machine.h"

#include <stdio.h>
#include <string.h>

#include "slice.h"

static const char *const space_names[OTPU_SPACES] = {"registers", "TMEM", "DRAM", "ACT RAM",
                                                     "ACT scales"};

unsigned otpu_machine_space_unit_bytes(otpu_space sp)
{
    switch (sp) {
    case OTPU_SP_REG: case OTPU_SP_TMEM: case OTPU_SP_ASCALE: return 4;
    case OTPU_SP_DRAM: case OTPU_SP_ACT: return 1;
    default: return 0;
    }
}

uint64_t otpu_machine_space_units(const otpu_machine *m, otpu_space sp)
{
    const otpu_config *c = otpu_machine_config(m);
    uint64_t rows = otpu_config_act_rows(c);
    switch (sp) {
    case OTPU_SP_REG: return 16;
    case OTPU_SP_TMEM: return c->TMEM_WORDS;
    case OTPU_SP_DRAM: return c->DRAM_BYTES;
    case OTPU_SP_ACT: return rows * c->ACT_BLOCKS * c->D;
    case OTPU_SP_ASCALE: return rows * c->ACT_BLOCKS;
    default: return 0;
    }
}

static void *space_base(otpu_slice *sl, otpu_space sp)
{
    switch (sp) {
    case OTPU_SP_REG: return sl->R;
    case OTPU_SP_TMEM: return sl->tmem;
    case OTPU_SP_DRAM: return sl->dram;
    case OTPU_SP_ACT: return sl->act;
    case OTPU_SP_ASCALE: return sl->ascale;
    default: return NULL;
    }
}

/* Check a host access; 0, or -1 with err saying what is wrong. */
static int check(const otpu_machine *m, uint32_t s, otpu_space sp, uint64_t addr,
                 uint64_t count, const char *what, otpu_error *err)
{
    memset(err, 0, sizeof *err);
    err->kind = OTPU_ERR_BOUNDS;
    err->slice = -1;
    uint32_t S = otpu_machine_slices(m);
    if (s >= S) {
        snprintf(err->msg, sizeof err->msg, "host %s: no slice %u (the machine has %u)", what,
                 s, S);
        return -1;
    }
    err->slice = (int)s;
    if ((unsigned)sp >= OTPU_SPACES) {
        snprintf(err->msg, sizeof err->msg, "slice %u: host %s: no memory space %u", s, what,
                 (unsigned)sp);
        return -1;
    }
    uint64_t units = otpu_machine_space_units(m, sp);
    if (addr > units || count > units - addr) {
        err->kind = sp == OTPU_SP_DRAM ? OTPU_ERR_DRAM_ADDR
                    : sp == OTPU_SP_TMEM ? OTPU_ERR_TMEM_RANGE : OTPU_ERR_BOUNDS;
        err->has_addr = 1;
        err->addr = addr;
        snprintf(err->msg, sizeof err->msg, "slice %u: host %s of %s: %llu %s at %llu is out "
                 "of range (the slice has %llu)", s, what, space_names[sp],
                 (unsigned long long)count, otpu_machine_space_unit_bytes(sp) == 4 ? "words"
                 : "bytes", (unsigned long long)addr, (unsigned long long)units);
        return -1;
    }
    err->kind = OTPU_ERR_NONE;
    err->slice = -1;
    return 0;
}

int otpu_machine_read(const otpu_machine *m, uint32_t s, otpu_space sp, uint64_t addr,
                      uint64_t count, void *buf, otpu_error *err)
{
    if (check(m, s, sp, addr, count, "read", err))
        return -1;
    /* reading changes nothing: the slice is reached through the non-const accessor only */
    otpu_slice *sl = otpu_machine_slice((otpu_machine *)m, s);
    unsigned u = otpu_machine_space_unit_bytes(sp);
    if (count)
        memcpy(buf, (const uint8_t *)space_base(sl, sp) + addr * u, count * u);
    if (sp == OTPU_SP_REG && addr == 0 && count)
        memset(buf, 0, 4); /* R0 is zero whatever its slot holds */
    return 0;
}

int otpu_machine_write(otpu_machine *m, uint32_t s, otpu_space sp, uint64_t addr,
                       uint64_t count, const void *buf, otpu_error *err)
{
    if (check(m, s, sp, addr, count, "write", err))
        return -1;
    otpu_slice *sl = otpu_machine_slice(m, s);
    unsigned u = otpu_machine_space_unit_bytes(sp);
    const uint8_t *src = buf;
    if (sp == OTPU_SP_REG && addr == 0 && count) { /* R0 stays zero */
        addr++, count--, src += 4;
    }
    if (count)
        memcpy((uint8_t *)space_base(sl, sp) + addr * u, src, count * u);
    return 0;
}

void *otpu_machine_memory(otpu_machine *m, uint32_t s, otpu_space sp)
{
    otpu_slice *sl = otpu_machine_slice(m, s);
    if (!sl || sp == OTPU_SP_REG || (unsigned)sp >= OTPU_SPACES)
        return NULL;
    return space_base(sl, sp);
}

/* ------------------------------------------------------------------ running */

int otpu_machine_step_next(otpu_machine *m, int *slice)
{
    uint32_t S = otpu_machine_slices(m);
    for (uint32_t s = 0; s < S; s++)
        if (otpu_slice_runnable(otpu_machine_slice(m, s))) {
            *slice = (int)s;
            return otpu_machine_step(m, s) < 0 ? -1 : 0;
        }
    *slice = -1;
    int r = otpu_machine_settle(m);
    return r < 0 ? -1 : r > 0 ? 0 : 1;
}

int otpu_machine_run_to(otpu_machine *m, uint32_t target, uint32_t pc, uint64_t max_steps)
{
    uint32_t S = otpu_machine_slices(m);
    if (otpu_machine_stopped(m))
        return -1; /* (the error stands, in its slot) */
    if (target >= S) {
        otpu_error *e = otpu_machine_error_slot(m);
        memset(e, 0, sizeof *e);
        e->kind = OTPU_ERR_BOUNDS;
        e->slice = -1;
        snprintf(e->msg, sizeof e->msg, "run to pc %u of slice %u: the machine has %u slice%s",
                 pc, target, S, S > 1 ? "s" : "");
        return -1;
    }
    otpu_slice *t = otpu_machine_slice(m, target);
    int leave = otpu_slice_runnable(t) && t->pc == pc; /* there already: run past it first */
    uint64_t steps = 0;
    for (;;) {
        /* otpu_machine_run's order: each slice until it blocks, then the machine settles */
        for (uint32_t s = 0; s < S; s++) {
            otpu_slice *sl = otpu_machine_slice(m, s);
            while (otpu_slice_runnable(sl)) {
                if (sl == t && sl->pc == pc && !leave)
                    return 0;
                if (sl == t)
                    leave = 0;
                if (otpu_machine_step(m, s) < 0)
                    return -1;
                if (max_steps && ++steps > max_steps)
                    return otpu_fail(sl, OTPU_ERR_STEP_LIMIT, "step limit exceeded (%llu steps "
                                     "while running to pc %u of slice %u)",
                                     (unsigned long long)max_steps, pc, target);
            }
        }
        int r = otpu_machine_settle_counted(m, &steps, max_steps);
        if (r < 0)
            return -1;
        if (r == 0)
            return 1;
        /* a collective that completed moved the target slice on: its arrival counts */
        leave = 0;
    }
}
