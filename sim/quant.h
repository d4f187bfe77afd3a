/* quant.h - the quantizer's arithmetic (openTPU docs/isa.md "Quantization of a group"). */
#ifndef OTPU_QUANT_H
#define OTPU_QUANT_H

#include <stddef.h>
#include <stdint.h>

#include "fp32.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Quantize x[0..n) (fp32 bits) as one group: amax = the largest |x| by its bits (a NaN is
 * above +inf); amax == 0 gives s = 0 and inv = 0; else s = amax * f32(1/127) and
 * inv = 127 * recip(amax), recip the ISA revision's (fp); q[i] = q8(x[i] * inv). Returns s's
 * bits. */
uint32_t otpu_quantize_group(const otpu_f32_fns *fp, const uint32_t *x, size_t n, int8_t *q);

/* The group's multiplier inv (above; 0 when amax is 0), and its scale s in *s when s is not
 * NULL: what q[i] = q8(x[i] * inv) uses. */
uint32_t otpu_quantize_inv(const otpu_f32_fns *fp, const uint32_t *x, size_t n, uint32_t *s);

#ifdef __cplusplus
}
#endif

#endif
