/* quant.c - quantization of a group of fp32 values to int8 and a scale. */
#include "quant.h"

#include "fp32.h"

#define F32_127 0x42FE0000u

uint32_t otpu_quantize_inv(const otpu_f32_fns *fp, const uint32_t *x, size_t n, uint32_t *s)
{
    uint32_t amax = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t m = otpu_f32_abs(x[i]);
        if (m > amax)
            amax = m;
    }
    if (s)
        *s = amax ? otpu_f32_mul(amax, OTPU_F32_INV127) : 0;
    return amax ? otpu_f32_mul(F32_127, fp->recip(amax)) : 0;
}

uint32_t otpu_quantize_group(const otpu_f32_fns *fp, const uint32_t *x, size_t n, int8_t *q)
{
    uint32_t s, inv = otpu_quantize_inv(fp, x, n, &s);
    for (size_t i = 0; i < n; i++)
        q[i] = otpu_f32_q8(otpu_f32_mul(x[i], inv));
    return s;
}
