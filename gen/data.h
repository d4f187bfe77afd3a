/* data.h - value distributions for DRAM images: fp32 words that are rarely zero, with ties
 * for q8 quantization and fp32 rounding, and fp32 edge values; bytes for int8 and 4-bit
 * weights. */
#ifndef OTPU_GEN_DATA_H
#define OTPU_GEN_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

/* One fp32 word: an edge value with probability edge_pct percent, else an ordinary one
 * (exponents around 1, small integers, halves that tie when rounded). */
uint32_t gen_f32(gen_rng *r, unsigned edge_pct);
/* An fp32 edge value: signed zeros, subnormals (which flush), the largest and smallest
 * normals, infinities, NaNs, one ulp around 1 and around rounding ties, exponents at the
 * limits of exp2, recip, rsqrt and log2. */
uint32_t gen_f32_edge(gen_rng *r);
/* n fp32 words (little endian) at p: runs of gen_f32, and now and then a q8-tie row of 32 to
 * 128 words (127 every 16 words, so every block's largest magnitude is 127, the rest k + 0.5,
 * which quantize exactly on a rounding tie). */
void gen_fill_words(gen_rng *r, uint8_t *p, size_t n, unsigned edge_pct);
/* n bytes: int8 weights (including -128 and 127) and 4-bit codes, rarely zero. */
void gen_fill_bytes(gen_rng *r, uint8_t *p, size_t n);

#endif
