/* regs.c - the operand values each instruction ran with (regs.h), stepping the model one
 * instruction at a time (machine.h) and reading the registers before each. */
#include "regs.h"

#include <string.h>

#include "isa.h"
#include "machine.h"

static void record(shrink_seen *e, const uint32_t *words, const uint32_t R[16])
{
    otpu_instr in = otpu_decode(words);
    otpu_ops o = otpu_operands(&in, R);
    uint32_t v[6] = {0};
    for (unsigned k = 0; k < o.nri; k++)
        v[k] = ((const otpu_ri *)((const char *)&o + o.ri_at[k]))->value;
    if (e->state == SHRINK_NOT_RUN) {
        memcpy(e->value, v, sizeof v);
        e->state = SHRINK_RAN_ALIKE;
    } else if (memcmp(e->value, v, sizeof v)) {
        e->state = SHRINK_RAN_VARIED;
    }
}

void shrink_regs_seen(const otpu_bundle *b, uint64_t max_steps, shrink_seen **seen)
{
    otpu_error err;
    otpu_machine *m = otpu_bundle_machine(b, &err);
    if (!m)
        return;
    uint64_t steps = 0;
    for (int progressed = 1; progressed && steps < max_steps && !otpu_machine_chains(m);) {
        progressed = 0;
        for (uint32_t s = 0; s < b->cfg.S; s++)
            for (int r = 0; r == 0 && steps < max_steps && !otpu_machine_chains(m); steps++) {
                otpu_slice_view v = otpu_machine_view(m, s);
                if (v.halted || v.pc >= b->prog_words[s] / 8)
                    break;
                record(&seen[s][v.pc], b->prog[s] + 8 * (size_t)v.pc, v.R);
                r = otpu_machine_step(m, s);
                progressed |= r == 0;
                if (r < 0)
                    goto done;
            }
        if (!progressed)
            progressed = otpu_machine_settle(m) == 1;
    }
done:
    otpu_machine_free(m);
}
