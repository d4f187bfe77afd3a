/* fpvec.h - the fp32 conformance vectors: op codes, expected values (sim/fp32.c), the vector
 * generator and the vector-file line parser. Shared by the otpu-fpvec tool (C) and the DPI
 * driver of the Verilated bench (C++), so a DPI run and `otpu-fpvec gen` with the same
 * level, seed and ops see the same vectors in the same order.
 *
 * Vector files: one vector a line, "<op> <a> <b> <expected>" in hex (FORMAT.md of the golden
 * vectors; tb_fp's format). Op codes:
 *   0 add   1 sub   2 mul   3 max   4 min   5 exp2   6 recip   7 rsqrt   8 i2f (a: int32)
 *   9 q8 (the int8's byte)   10 gt (0 or 1)   11 abs   12 log2   13 mm_max   14 mm_min
 * Unary ops have b = 0.
 *
 * Levels (as TestFloat's): every op gets a fixed sequence of vectors made from its seed:
 *   level 1: every pair of a set of special and boundary operands (binary ops; for unary ops
 *            every operand and its neighbours) then random operands of several shapes;
 *            FPVEC_LEVEL1_COUNT vectors per op.
 *   level 2: the same from a much larger boundary set, FPVEC_LEVEL2_COUNT vectors per op.
 * An op's sequence depends only on (op, level, seed, count), not on the other ops chosen.
 */
#ifndef OTPU_FPVEC_H
#define OTPU_FPVEC_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "revision.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FPVEC_NOPS 15u
#define FPVEC_ALL_OPS 0x7FFFu /* a bit per op */
#define FPVEC_LEVEL1_COUNT 50000u
#define FPVEC_LEVEL2_COUNT 2000000u
#define FPVEC_MAX_LEVEL 2
#define FPVEC_SET_MAX 2048u /* boundary operands of a level, at most */

/* ---- ops ----------------------------------------------------------------------------------- */

const char *fpvec_op_name(unsigned op);  /* "add", ..., "mm_min"; "?" for op >= FPVEC_NOPS */
int fpvec_op_unary(unsigned op);         /* 1 for exp2 recip rsqrt i2f q8 abs log2 */
/* sim/fp32.c's result, with the composite functions (exp2 recip rsqrt log2) of an ISA
 * revision's fp32 unit (revision.h); log2 of a revision without it: as an unknown op. */
uint32_t fpvec_expected(const otpu_f32_fns *fp, unsigned op, uint32_t a, uint32_t b);
/* The ops a revision's fp32 unit has: every op, less log2 without one and the MXU compare
 * (mm_max, mm_min) without one. */
uint32_t fpvec_rev_ops(const otpu_rev_desc *rev);
/* Is an operand of the vector a NaN (i2f's int32 operand never is)? A revision that leaves
 * NaN operands undefined has no such vectors. */
int fpvec_nan_operand(unsigned op, uint32_t a, uint32_t b);

/* Parses a comma-separated list of op names or numbers (decimal) into a bit mask; "all" is
 * every op. Returns 0 and sets *mask, or -1 with the offending item copied into bad. */
int fpvec_parse_ops(const char *list, uint32_t *mask, char *bad, size_t badlen);

/* ---- generator ----------------------------------------------------------------------------- */

typedef struct fpvec_gen {
    unsigned op;
    int level;
    int skip_nan;     /* leave out vectors with a NaN operand */
    uint64_t count;   /* vectors this op yields */
    uint64_t done;    /* vectors yielded so far */
    uint64_t pos;     /* vectors of the sequence made so far (yielded or left out) */
    uint64_t rng;     /* splitmix64 state */
    size_t nset;
    uint32_t set[FPVEC_SET_MAX]; /* the boundary operands */
    uint64_t nboundary;   /* how many of the vectors come from the boundary set */
} fpvec_gen;

/* The number of vectors per op at a level (1 or 2); 0 for another level. */
uint64_t fpvec_level_count(int level);

/* Prepares op's sequence. count 0: the level's count. skip_nan: the sequence less its vectors
 * with a NaN operand (the op still yields count vectors). Returns 0, or -1 for a bad
 * op/level. */
int fpvec_gen_init(fpvec_gen *g, unsigned op, int level, uint64_t seed, uint64_t count,
                   int skip_nan);

/* Writes up to max operand pairs (b = 0 for unary ops); returns how many (0: the end). */
size_t fpvec_gen_fill(fpvec_gen *g, uint32_t *a, uint32_t *b, size_t max);

/* ---- vector-file lines --------------------------------------------------------------------- */

typedef struct fpvec_vec {
    uint32_t op, a, b, expected;
} fpvec_vec;

/* Parses one line (without its newline; a trailing CR is accepted) with tb_fp.sv's rules:
 * exactly four blank-separated fields of 1..8 hex digits, op < FPVEC_NOPS. Returns 0, or -1
 * with the reason written to why. */
int fpvec_parse_line(const char *line, size_t len, fpvec_vec *v, char *why, size_t whylen);

/* Formats "<op> <a> <b> <expected>\n" (op without padding, words as 8 lowercase hex digits,
 * as the golden file) into buf (at least 40 bytes); returns the length. */
size_t fpvec_format_line(char *buf, unsigned op, uint32_t a, uint32_t b, uint32_t expected);

/* ---- reports ------------------------------------------------------------------------------ */

/* Prints the per-op table of the ops in mask ("op name vectors mismatches"), a line
 * "<who>: op <n> (<name>): <m> of <c> vectors mismatch" per failing op, and
 * "FPTEST cases=<n> errors=<m>" (tb_fp's summary line). */
void fpvec_report(FILE *out, const char *who, uint32_t mask, const uint64_t cases[FPVEC_NOPS],
                  const uint64_t errors[FPVEC_NOPS]);

/* The MISMATCH line of tb_fp: "MISMATCH op=<op> a=<a> b=<b> exp=<e> got=<g> line=<n>". */
void fpvec_print_mismatch(FILE *out, unsigned op, uint32_t a, uint32_t b, uint32_t expected,
                          uint32_t got, uint64_t line);

#ifdef __cplusplus
}
#endif
#endif
