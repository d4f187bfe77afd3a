/* regs.h - the values of the register-relative operands (R[reg] + imm) each instruction of a
 * bundle ran with, from a run of the model: what lets an operand become its immediate alone, so
 * that the LI and ADDI instructions that set its register can go. */
#ifndef OTPU_SHRINK_REGS_H
#define OTPU_SHRINK_REGS_H

#include <stddef.h>
#include <stdint.h>

#include "bundle.h"

enum { SHRINK_NOT_RUN, SHRINK_RAN_ALIKE, SHRINK_RAN_VARIED };

typedef struct {
    uint8_t state;     /* SHRINK_*: never ran; every run with the same values; with others */
    uint32_t value[6]; /* the R[reg] + imm operands' values, in otpu_ops.ri_at order */
} shrink_seen;

/* Runs b in the model (at most max_steps instructions, stopping at the first HALT CHAIN: the
 * next program is another) and fills seen[s][i] for instruction i of slice s (seen[s] has
 * prog_words[s] / 8 entries, zeroed by the caller). */
void shrink_regs_seen(const otpu_bundle *b, uint64_t max_steps, shrink_seen **seen);

#endif
