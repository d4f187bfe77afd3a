/* passes.h - the reduction passes, coarse to fine: slices, register operands made immediates
 * (so the instructions that set the registers can go), instructions (delta debugging over each
 * slice's program), LOOP trip counts, HALT CHAINs, DRAM image ranges. Each edits the bundle in
 * place, keeping only candidates the oracle finds failing the same way. */
#ifndef OTPU_SHRINK_PASSES_H
#define OTPU_SHRINK_PASSES_H

#include <stddef.h>
#include <stdint.h>

#include "bundle.h"
#include "oracle.h"

typedef struct {
    shrink_oracle *oracle;
    otpu_bundle *b;
    uint64_t max_tries;  /* stop after this many candidates (0: no limit) */
    int out_of_tries;    /* set when a pass stopped at max_tries */
    char *err;           /* the one line of a pass that returns -1 */
    size_t errlen;
} shrink_state;

/* Each: 1 if it kept a smaller candidate, 0 if none, -1 on an error (err). */
int shrink_slices(shrink_state *st);
int shrink_fold_registers(shrink_state *st); /* R[reg] + imm operands made immediates */
int shrink_instructions(shrink_state *st);
int shrink_loop_counts(shrink_state *st);
int shrink_unchain(shrink_state *st); /* a HALT CHAIN made a plain HALT */
int shrink_dram(shrink_state *st);

/* The bundle's size: instructions over all slices, non-zero DRAM bytes. */
size_t shrink_instr_count(const otpu_bundle *b);
size_t shrink_dram_bytes(const otpu_bundle *b);

#endif
