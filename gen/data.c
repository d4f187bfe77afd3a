/* data.c - value distributions (data.h). */
#include "data.h"

#include <string.h>

static uint32_t f32(uint32_t sign, uint32_t exp, uint32_t mant)
{
    return sign << 31 | (exp & 0xFF) << 23 | (mant & 0x7FFFFF);
}

uint32_t gen_f32_edge(gen_rng *r)
{
    uint32_t s = gen_rng_u32(r) & 1, m = gen_rng_u32(r) & 0x7FFFFF;
    switch (gen_rng_below(r, 16)) {
    case 0: return f32(s, 0, 0);                        /* +-0 */
    case 1: return f32(s, 0, m | 1);                    /* a subnormal: flushes */
    case 2: return f32(s, 1, gen_rng_below(r, 4));      /* the smallest normals */
    case 3: return f32(s, 254, 0x7FFFFF - gen_rng_below(r, 4)); /* the largest */
    case 4: return f32(s, 255, 0);                      /* +-inf */
    case 5: return f32(s, 255, m | 1);                  /* NaN, any payload */
    case 6: return f32(s, 127, gen_rng_below(r, 3)) - (gen_rng_u32(r) & 1); /* 1 +- ulp */
    case 7: return f32(s, 127 + (uint32_t)gen_rng_below(r, 24), 0x400000 >> gen_rng_below(r, 23));
    case 8: /* 2^-24 and near: half an ulp of 1 */
        return f32(s, 127 - 24 + (uint32_t)gen_rng_below(r, 3), 0);
    case 9: /* 128 and above: the limits of exp2 */
        return f32(s, 127 + 7, (uint32_t)gen_rng_below(r, 3) << 21);
    case 10: return f32(s, 127 + 6, 0x7E0000 | (m & 0x1FFFF)); /* just under 127..128 */
    case 11: return f32(s, 250 + (uint32_t)gen_rng_below(r, 5), m); /* huge: recip flushes */
    case 12: return f32(s, 2 + (uint32_t)gen_rng_below(r, 4), m);   /* tiny: recip overflows */
    case 13: return f32(s, 127 + (uint32_t)gen_rng_below(r, 8), m | 1) ; /* sticky bits */
    case 14: return f32(1, 127 + (uint32_t)gen_rng_below(r, 4), m);  /* negative: rsqrt, log2 */
    default: return f32(s, 126, 0x7FFFFF);              /* 0.5 - ulp/2: rounds either way */
    }
}

uint32_t gen_f32(gen_rng *r, unsigned edge_pct)
{
    if (gen_rng_chance(r, edge_pct))
        return gen_f32_edge(r);
    uint32_t s = gen_rng_u32(r) & 1;
    float v;
    switch (gen_rng_below(r, 4)) {
    case 0: /* a small integer or a half: ties in every rounding */
        v = (float)((int)gen_rng_below(r, 511) - 255) * 0.5f;
        if (v == 0.0f)
            v = 0.5f;
        break;
    default: {
        uint32_t e = 127 - 10 + (uint32_t)gen_rng_below(r, 20);
        uint32_t w = f32(s, e, gen_rng_u32(r));
        memcpy(&v, &w, 4);
        break;
    }
    }
    uint32_t w;
    memcpy(&w, &v, 4);
    return w;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

void gen_fill_words(gen_rng *r, uint8_t *p, size_t n, unsigned edge_pct)
{
    for (size_t i = 0; i < n;) {
        int tie = gen_rng_chance(r, 15);
        /* a tie row is long enough to hold a quantization block or a whole QACT/QST row */
        size_t run = tie ? 32 + (size_t)gen_rng_below(r, 97) : 1 + (size_t)gen_rng_below(r, 64);
        if (run > n - i)
            run = n - i;
        for (size_t k = 0; k < run; k++, i++) {
            uint32_t v = gen_f32(r, edge_pct);
            if (tie) { /* 127 every 16 words (in every block), else k + 0.5, random signs */
                float x = k % 16 == 0 ? 127.0f : (float)gen_rng_below(r, 127) + 0.5f;
                if (gen_rng_u32(r) & 1)
                    x = -x;
                memcpy(&v, &x, 4);
            }
            put32(p + 4 * i, v);
        }
    }
}

void gen_fill_bytes(gen_rng *r, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t k = (uint32_t)gen_rng_below(r, 16);
        p[i] = k == 0 ? 0x80 : k == 1 ? 0x7F : k == 2 ? 0x88 : (uint8_t)(gen_rng_u32(r) | 1);
    }
}
