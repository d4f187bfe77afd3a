/* data.h - the values generated programs run on, chosen for the datapaths they exercise
 * (gen/README.md, "Data"): fp32 words whose results round (random mantissas over a range of
 * exponents, near-ties, cancellation), quantization groups that saturate, tie and round every
 * way, fp32 edge values; int8 and 4-bit weights over their whole range with signs that differ
 * per column, runs that drive a K-block's integer past 2^17; scale words of each format. */
#ifndef OTPU_GEN_DATA_H
#define OTPU_GEN_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

/* The data's kind. GEN_DATA_FINITE (otpu-gen --data finite) leaves out of the data the values
 * that make a NaN or an infinity by themselves or in one step: NaNs, infinities, the largest
 * and huge values, tiny ones whose reciprocal overflows, the limits of exp2, and the runs of
 * zeros with one tiny value. It is for an RTL whose reference leaves what a quantization
 * group with a NaN scale gives undefined (openTPU acf0c1c6: docs/opentpu.md, difference 1):
 * on such data most programs get past their quantizations, so the rest of them is checked;
 * arithmetic (a reciprocal of zero, a product that overflows) can still make a NaN group.
 * GEN_DATA_ALL's data are what they always were; a seed's finite programs are other ones. */
typedef enum { GEN_DATA_ALL = 0, GEN_DATA_FINITE = 1 } gen_data;

/* One fp32 word: an edge value with probability edge_pct percent, else an ordinary one:
 * mostly a random mantissa with an exponent around 1 (its sums and products round), now and
 * then a small integer or a half (ties). */
uint32_t gen_f32(gen_rng *r, unsigned edge_pct, gen_data data);
/* An fp32 edge value: signed zeros, subnormals (which flush), the largest and smallest
 * normals, infinities, NaNs, one ulp around 1 and around rounding ties, exponents at the
 * limits of exp2, recip, rsqrt and log2 (of data's kind). */
uint32_t gen_f32_edge(gen_rng *r, gen_data data);
/* n fp32 words (little endian) at p, in runs of one kind each: ordinary words (gen_f32);
 * q8-tie rows (127 every 16 words, the rest k + 0.5: exactly halfway when quantized); rows of
 * one magnitude with random or equal signs (every element quantizes to +-127: a K-block's
 * integer near D x 127 x 127); near-ties (values a half ulp of 1 apart from 1 + k ulp: their
 * sums tie); cancellation pairs (a and -a(1 + ulp): their sum is tiny and exact, its
 * neighbours inexact); blocks of zeros with one tiny value (the quantizer's inverse scale
 * overflows: the group clamps). */
void gen_fill_words(gen_rng *r, uint8_t *p, size_t n, unsigned edge_pct, gen_data data);
/* n bytes of int8 (and 4-bit) weights in runs: uniform over every byte (every sign, -128 and
 * 127), +-127 (int4: +-7) with one sign (with such activations a block's integer passes 2^17),
 * signs alternating by element, a ramp that differs per element, sparse (mostly zero, a few
 * large). */
void gen_fill_weights(gen_rng *r, uint8_t *p, size_t n);
/* n bytes of scale words: for int8 weights an fp32 scale in [2^-5, 2^3) with a random
 * mantissa, for 4-bit ones a bf16 block scale in the low half and four multipliers 1..15 in
 * the high half (isa.md "Weight formats"), in turn. */
void gen_fill_scales(gen_rng *r, uint8_t *p, size_t n);
/* One scale word for weights of format wf (0 int8, else 4-bit), as gen_fill_scales writes. */
uint32_t gen_scale_word(gen_rng *r, unsigned wf);

#endif
