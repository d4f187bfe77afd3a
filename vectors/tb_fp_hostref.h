// tb_fp_hostref.h - self-check of the Verilated bench against the host's IEEE float.
#ifndef TB_FP_HOSTREF_H
#define TB_FP_HOSTREF_H

#include <cstdint>

#include "Vtb_fp.h"

// Evaluates `rounds` random operand pairs (seeded) on each IEEE-defined op through the bench's
// combinational ports and compares with the host FPU (+ flush-to-zero, canonical NaN). Prints
// up to `show` "HOSTREF MISMATCH" lines and a final "HOSTREF cases=N errors=M" line; returns M.
long tb_fp_hostcheck(Vtb_fp& top, long rounds, uint64_t seed, int show);

#endif
