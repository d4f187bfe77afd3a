/* fpvec_exh.h - the tally of an exhaustive run of a one-operand function (otpu-fpvec
 * exhaustive): inputs compared, mismatches, their histogram by input class and by ulp
 * distance, and the smallest mismatching inputs; and the text lines in which a bench process
 * hands its tallies to the tool. Shared by the tool (C) and the bench's exhaustive mode (C++),
 * so both sides classify, count and speak alike.
 *
 * Input classes (of the operand a): for the fp32 functions, by sign: zero, subnormal, normal
 * in bands of 8 exponents (e = field - 127: -126..-121, -120..-113, ..., 120..127), inf, NaN;
 * for i2f (a is an int32): zero, then by sign and bit length of |a| (|a| in [2^(k-1), 2^k)).
 * Ulp distance of a mismatch (expected vs got): the distance of the two fp32 values on the
 * ordered line of fp32 values (q8: of the two int8s), in buckets by its bit length (1, 2..3,
 * 4..7, ...); bucket 0: the same value with other bits (the sign of a zero, a NaN's payload);
 * the last bucket: a NaN against a number.
 *
 * Lines of a bench process (stdout), one tally per op:
 *   EXH op=<op> inputs=<n> skipped=<n> mismatches=<n>
 *   EXH hist op=<op> class=<c> bucket=<b> count=<n>      (its non-zero cells)
 *   EXH mm op=<op> a=<hex> exp=<hex> got=<hex>           (its first mismatches)
 * and "EXH progress done=<n>" while it runs, "EXH end" at its end.
 */
#ifndef OTPU_FPVEC_EXH_H
#define OTPU_FPVEC_EXH_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FPVEC_EXH_NCLASS 72u  /* 2 signs x (zero, subnormal, 32 bands, inf, NaN) */
#define FPVEC_EXH_NBUCKET 34u /* 0, bit lengths 1..32, NaN vs number */
#define FPVEC_EXH_FIRST 100u  /* mismatching inputs kept per op: the smallest */

typedef struct fpvec_exh_mm {
    uint32_t a, expected, got;
} fpvec_exh_mm;

typedef struct fpvec_exh_tally {
    uint64_t inputs;     /* compared */
    uint64_t skipped;    /* left out: NaN operands of a revision that leaves them undefined */
    uint64_t mismatches;
    uint64_t hist[FPVEC_EXH_NCLASS][FPVEC_EXH_NBUCKET];
    unsigned nfirst;
    fpvec_exh_mm first[FPVEC_EXH_FIRST]; /* sorted by a, no input twice */
} fpvec_exh_tally;

/* The class of op's operand a, and its name ("+normal e=0..7", "-subnormal", "+int 2^4..2^5-1",
 * "NaN" with its sign) written into buf (returned). An index the op has no class of: "?". */
unsigned fpvec_exh_class(unsigned op, uint32_t a);
const char *fpvec_exh_class_name(unsigned op, unsigned cls, char *buf, size_t n);
/* The ulp bucket of a mismatch of op, and its name ("1", "2..3", "NaN vs number"). */
unsigned fpvec_exh_bucket(unsigned op, uint32_t expected, uint32_t got);
const char *fpvec_exh_bucket_name(unsigned bucket, char *buf, size_t n);

/* Counts a mismatch of op at input a into t (histogram, the first ones). */
void fpvec_exh_mismatch(fpvec_exh_tally *t, unsigned op, uint32_t a, uint32_t expected,
                        uint32_t got);
/* Keeps m among t's first mismatches if its input is among the smallest (order-free). */
void fpvec_exh_keep(fpvec_exh_tally *t, const fpvec_exh_mm *m);
/* Adds from to into: the tally of the union of their (disjoint) inputs. */
void fpvec_exh_merge(fpvec_exh_tally *into, const fpvec_exh_tally *from);

/* Writes t's lines (above) for op. */
void fpvec_exh_print(FILE *out, unsigned op, const fpvec_exh_tally *t);
/* Reads one line of a bench process into tallies[op] (tallies: FPVEC_NOPS of them; the "EXH
 * op=" line adds its counts, a "hist" line adds to its cell). Returns 1 a tally line, 2 a
 * progress line (*done set), 3 the end line, 0 not an EXH line, -1 a malformed one. */
int fpvec_exh_parse(const char *line, fpvec_exh_tally *tallies, uint64_t *done);

#ifdef __cplusplus
}
#endif
#endif
