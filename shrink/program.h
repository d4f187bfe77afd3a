/* program.h - edits of one slice's program that keep it well formed: removing instructions
 * (the LOOP bodies around them shrink with them) and lowering LOOP trip counts. */
#ifndef OTPU_SHRINK_PROGRAM_H
#define OTPU_SHRINK_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

/* Copies the instructions of words (n instructions, 8 words each) whose drop[i] is 0 into out
 * (room for n instructions) and returns how many it copied. A kept LOOP's body length becomes
 * the number of kept instructions of its body; a LOOP whose body is all removed is removed too
 * (an empty body is an error of the ISA). SIZE_MAX: out of memory. */
size_t shrink_prog_remove(const uint32_t *words, size_t n, const uint8_t *drop, uint32_t *out);

/* 1 if instruction i of words (n instructions) must stay: the final HALT. */
int shrink_prog_pinned(const uint32_t *words, size_t n, size_t i);

/* 1 if instruction i is a LOOP; its trip count then in *count (the immediate; *by_reg is 1 if
 * a register is added to it). */
int shrink_prog_loop(const uint32_t *words, size_t i, uint32_t *count, int *by_reg);

/* Sets the trip count of the LOOP at instruction i to the immediate count (no register). */
void shrink_prog_set_count(uint32_t *words, size_t i, uint32_t count);

/* Makes the register-relative operands of instruction i immediates (register 0) holding
 * value[k] (otpu_ops.ri_at order). 1 if it changed the instruction, else 0 (none of them uses
 * a register, or it is a HALT, whose CHAIN operands have no immediate). */
int shrink_prog_fold(uint32_t *words, size_t i, const uint32_t value[6]);

/* 1 if instruction i is a HALT CHAIN (it loads the next program from DRAM). */
int shrink_prog_chains(const uint32_t *words, size_t i);
/* Makes the HALT at instruction i a plain HALT (no CHAIN, no registers). */
void shrink_prog_unchain(uint32_t *words, size_t i);

#endif
