/* data.c - value distributions (data.h). */
#include "data.h"

#include "bits.h"

static uint32_t f32(uint32_t sign, uint32_t exp, uint32_t mant)
{
    return sign << 31 | (exp & 0xFF) << 23 | (mant & 0x7FFFFF);
}

/* the edge values GEN_DATA_FINITE leaves out (gen_f32_edge's cases) */
static int not_finite_enough(unsigned pick)
{
    return pick == 3 || pick == 4 || pick == 5 || pick == 9 || pick == 11 || pick == 12;
}

uint32_t gen_f32_edge(gen_rng *r, gen_data data)
{
    uint32_t s = gen_rng_u32(r) & 1, m = gen_rng_u32(r) & 0x7FFFFF;
    unsigned pick = (unsigned)gen_rng_below(r, 16);
    if (data == GEN_DATA_FINITE && not_finite_enough(pick))
        pick = 15;
    switch (pick) {
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
    case 9: { /* the limits of exp2: 128 and above overflow, below -126 flushes */
        uint32_t k = gen_rng_below(r, 5);
        return k < 3 ? f32(s, 127 + 7, k << 21) : f32(s, 127 + 6, k == 3 ? 0x7C0000 : 0x7E0000);
    }
    case 10: return f32(s, 127 + 6, 0x7E0000 | (m & 0x1FFFF)); /* just under 127..128 */
    case 11: /* huge: recip flushes (from exactly 2^126 up) */
        return f32(s, 250 + (uint32_t)gen_rng_below(r, 5), gen_rng_u32(r) & 1 ? m : 0);
    case 12: return f32(s, 2 + (uint32_t)gen_rng_below(r, 4), m);   /* tiny: recip overflows */
    case 13: return f32(s, 127 + (uint32_t)gen_rng_below(r, 8), m | 1) ; /* sticky bits */
    case 14: return f32(1, 127 + (uint32_t)gen_rng_below(r, 4), m);  /* negative: rsqrt, log2 */
    default: return f32(s, 126, 0x7FFFFF);              /* 0.5 - ulp/2: rounds either way */
    }
}

uint32_t gen_f32(gen_rng *r, unsigned edge_pct, gen_data data)
{
    if (gen_rng_chance(r, edge_pct))
        return gen_f32_edge(r, data);
    uint32_t s = gen_rng_u32(r) & 1;
    if (gen_rng_chance(r, 20)) { /* a small integer or a half: ties in every rounding */
        float v = (float)((int)gen_rng_below(r, 511) - 255) * 0.5f;
        return otpu_bits_of(v == 0.0f ? 0.5f : v);
    }
    /* a random mantissa, exponents 2^-10 .. 2^9: sums and products round */
    return f32(s, 127 - 10 + (uint32_t)gen_rng_below(r, 20), gen_rng_u32(r));
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

enum { RUN_PLAIN, RUN_Q8_TIE, RUN_ONE_MAGNITUDE, RUN_NEAR_TIE, RUN_CANCEL, RUN_TINY, RUNS };

/* the k-th word of a run of kind `kind` (state: the run's sign and magnitude) */
static uint32_t run_word(gen_rng *r, unsigned kind, size_t k, uint32_t sign, uint32_t mag,
                         unsigned edge_pct, gen_data data)
{
    switch (kind) {
    case RUN_Q8_TIE: { /* 127 every 16 words (in every block), else k + 0.5, random signs */
        float x = k % 16 == 0 ? 127.0f : (float)gen_rng_below(r, 127) + 0.5f;
        return otpu_bits_of(gen_rng_u32(r) & 1 ? -x : x);
    }
    case RUN_ONE_MAGNITUDE: /* sign 2: random per word */
        return (sign == 2 ? (gen_rng_u32(r) & 1) : sign) << 31 | mag;
    case RUN_NEAR_TIE: /* 1 + k ulp, and a half ulp of 1 (times an odd number) */
        return k % 2 ? f32(gen_rng_u32(r) & 1, 127 - 24, (uint32_t)gen_rng_below(r, 4) << 21)
                     : f32(gen_rng_u32(r) & 1, 127, gen_rng_u32(r) & 0xFF);
    case RUN_CANCEL: /* a, then -a one ulp larger */
        return k % 2 ? (mag ^ 0x80000000u) + 1 : mag;
    case RUN_TINY: /* zeros, one tiny value (2^-126 .. 2^-122) in every 32 */
        return k % 32 == 7 ? f32(sign & 1, 1 + (uint32_t)gen_rng_below(r, 4), gen_rng_u32(r)) : 0;
    default: return gen_f32(r, edge_pct, data);
    }
}

void gen_fill_words(gen_rng *r, uint8_t *p, size_t n, unsigned edge_pct, gen_data data)
{
    static const unsigned pct[RUNS] = {64, 12, 10, 6, 6, 2}; /* of the runs */
    for (size_t i = 0; i < n;) {
        unsigned kind = 0, x = (unsigned)gen_rng_below(r, 100);
        while (kind + 1 < RUNS && x >= pct[kind])
            x -= pct[kind++];
        /* a special run is long enough to hold a quantization block or a whole QACT row */
        size_t run = kind == RUN_TINY ? 32 + (size_t)gen_rng_below(r, 33)
                     : kind         ? 32 + (size_t)gen_rng_below(r, 97)
                                    : 1 + (size_t)gen_rng_below(r, 64);
        if (run > n - i)
            run = n - i;
        if (kind == RUN_TINY && data == GEN_DATA_FINITE)
            kind = RUN_PLAIN; /* (with a special run's length) */
        uint32_t sign = (uint32_t)gen_rng_below(r, 3), mag = gen_f32(r, 0, data) & 0x7FFFFFFFu;
        if (kind == RUN_CANCEL)
            mag = f32(sign & 1, 127 + (uint32_t)gen_rng_below(r, 8), gen_rng_u32(r) | 1);
        for (size_t k = 0; k < run; k++, i++)
            put32(p + 4 * i, run_word(r, kind, k, sign, mag, edge_pct, data));
    }
}

void gen_fill_weights(gen_rng *r, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t run = 16 + (size_t)gen_rng_below(r, 113);
        if (run > n - i)
            run = n - i;
        unsigned kind = (unsigned)gen_rng_below(r, 100);
        uint8_t sign = gen_rng_u32(r) & 1, step = (uint8_t)(1 + 2 * gen_rng_below(r, 40));
        for (size_t k = 0; k < run; k++, i++) {
            uint8_t b;
            if (kind < 50) /* every byte value: every sign, -128, 127, both nibbles */
                b = (uint8_t)gen_rng_u32(r);
            else if (kind < 65) /* +-127 (int4 +-7 in both nibbles), one sign */
                b = sign ? (gen_rng_chance(r, 50) ? 0x81 : 0x99) : (gen_rng_chance(r, 50) ? 0x7F : 0x77);
            else if (kind < 75) /* signs alternating by element */
                b = k % 2 ? 0x83 : 0x7D;
            else if (kind < 90) /* a ramp: every element differs */
                b = (uint8_t)(k * step);
            else /* sparse: mostly zero, a few large */
                b = gen_rng_chance(r, 15) ? (uint8_t)(0x70 | gen_rng_below(r, 16)) : 0;
            p[i] = b;
        }
    }
}

uint32_t gen_scale_word(gen_rng *r, unsigned wf)
{
    uint32_t s = gen_rng_chance(r, 15);
    if (!wf) /* an fp32 scale in [2^-5, 2^3) */
        return f32(s, 127 - 5 + (uint32_t)gen_rng_below(r, 8), gen_rng_u32(r));
    uint32_t bf16 = f32(s, 127 - 6 + (uint32_t)gen_rng_below(r, 8), gen_rng_u32(r)) >> 16;
    uint32_t m = 0;
    for (int b = 0; b < 4; b++)
        m |= (uint32_t)(1 + gen_rng_below(r, 15)) << (4 * b);
    return m << 16 | bf16;
}

void gen_fill_scales(gen_rng *r, uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i += 4)
        put32(p + i, gen_scale_word(r, (unsigned)(i / 4) & 1));
}
