/* fp32.c - openTPU's fp32 arithmetic, bit for bit (see fp32.h).
 *
 * add / sub / mul (and ftz, isum) are the inline versions in fp32.h: the host's binary32
 * arithmetic on flushed operands, round to nearest even (the default rounding mode; nothing
 * here changes it), then the result is flushed (a result is denormal iff the IEEE result,
 * rounded to the subnormal grid, is) and a NaN is made canonical. The composite functions here
 * use the inline versions too, so they make no call per step.
 *
 * Everything else (compares, i2f, q8, the exponent-field tricks) is integer arithmetic and
 * does not depend on the floating-point environment at all.
 */
#include "fp32.h"

#define SIGN_BIT 0x80000000u
#define EXP_MASK 0x7F800000u
#define FRAC_MASK 0x007FFFFFu
#define ABS_MASK 0x7FFFFFFFu

/* short names for the inline versions in fp32.h, in this file's formulas */
static inline uint32_t finish(uint32_t r)
{
    return otpu_f32_finish(r);
}

static inline uint32_t ftz(uint32_t a)
{
    return otpu_f32_ftz_inline(a);
}

static inline uint32_t add(uint32_t a, uint32_t b)
{
    return otpu_f32_add_inline(a, b);
}

static inline uint32_t sub(uint32_t a, uint32_t b)
{
    return otpu_f32_sub_inline(a, b);
}

static inline uint32_t mul(uint32_t a, uint32_t b)
{
    return otpu_f32_mul_inline(a, b);
}

/* the exported functions: the inline versions' bodies */
uint32_t otpu_f32_ftz(uint32_t a)
{
    return otpu_f32_ftz_inline(a);
}

uint32_t otpu_f32_add(uint32_t a, uint32_t b)
{
    return otpu_f32_add_inline(a, b);
}

uint32_t otpu_f32_sub(uint32_t a, uint32_t b)
{
    return otpu_f32_sub_inline(a, b);
}

uint32_t otpu_f32_mul(uint32_t a, uint32_t b)
{
    return otpu_f32_mul_inline(a, b);
}

/* ---- compares ---------------------------------------------------------------------------- */

static inline uint32_t key(uint32_t a)
{
    uint32_t u = ftz(a);
    return (u & SIGN_BIT) ? ~u : (u | SIGN_BIT);
}

uint32_t otpu_f32_key(uint32_t a)
{
    return key(a);
}

static inline int gt(uint32_t a, uint32_t b)
{
    return key(a) > key(b);
}

int otpu_f32_gt(uint32_t a, uint32_t b)
{
    return gt(a, b);
}

uint32_t otpu_f32_max(uint32_t a, uint32_t b)
{
    return gt(a, b) ? ftz(a) : ftz(b);
}

uint32_t otpu_f32_min(uint32_t a, uint32_t b)
{
    return gt(b, a) ? ftz(a) : ftz(b);
}

uint32_t otpu_f32_abs(uint32_t a)
{
    return ftz(a) & ABS_MASK;
}

/* the canonical-NaN rule (fp32.h): a NaN becomes 0x7FC00000 before anything else looks at it */
uint32_t otpu_f32_ftz_canon(uint32_t a)
{
    return (a & EXP_MASK) == EXP_MASK && (a & FRAC_MASK) ? OTPU_F32_QNAN : ftz(a);
}

uint32_t otpu_f32_key_canon(uint32_t a)
{
    return key(otpu_f32_ftz_canon(a));
}

uint32_t otpu_f32_max_canon(uint32_t a, uint32_t b)
{
    return otpu_f32_max(otpu_f32_ftz_canon(a), otpu_f32_ftz_canon(b));
}

uint32_t otpu_f32_min_canon(uint32_t a, uint32_t b)
{
    return otpu_f32_min(otpu_f32_ftz_canon(a), otpu_f32_ftz_canon(b));
}

uint32_t otpu_f32_abs_canon(uint32_t a)
{
    return otpu_f32_ftz_canon(a) & ABS_MASK;
}

/* ---- conversions ------------------------------------------------------------------------- */

static int msb64(uint64_t v) /* v != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(v);
#else
    int p = 0;
    while (v >>= 1)
        p++;
    return p;
#endif
}

uint32_t otpu_f32_i2f(int64_t i)
{
    if (i == 0)
        return 0;
    uint32_t sign = i < 0 ? SIGN_BIT : 0;
    uint64_t mag = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
    int p = msb64(mag);
    uint64_t m;
    if (p <= 23) {
        m = mag << (23 - p);
    } else {
        int sh = p - 23;
        uint64_t rem = mag & ((UINT64_C(1) << sh) - 1);
        uint64_t half = UINT64_C(1) << (sh - 1);
        m = mag >> sh;
        if (rem > half || (rem == half && (m & 1)))
            m++;
        if (m == (UINT64_C(1) << 24)) {
            m >>= 1;
            p++;
        }
    }
    return sign | ((uint32_t)(p + 127) << 23) | ((uint32_t)m & FRAC_MASK);
}

int8_t otpu_f32_q8(uint32_t a)
{
    uint32_t u = ftz(a);
    uint32_t field = (u >> 23) & 0xFF;
    int neg = (u & SIGN_BIT) != 0;
    if (field == 0xFF && (u & FRAC_MASK) != 0)
        return 0;                                   /* NaN */
    if (field >= 127 + 7)                           /* |x| >= 128 (and inf): saturate */
        return (int8_t)(neg ? -127 : 127);
    if (field < 126)                                /* |x| < 0.5 (and zeros) */
        return 0;
    /* |x| = m * 2^(field - 150), field in [126, 133]: shift by 150 - field in [17, 24] */
    uint32_t m = (u & FRAC_MASK) | 0x00800000u;
    unsigned sh = 150u - field;
    uint32_t q = m >> sh;
    uint32_t rem = m & ((1u << sh) - 1u);
    uint32_t half = 1u << (sh - 1u);
    if (rem > half || (rem == half && (q & 1u)))
        q++;
    if (q > 127)
        q = 127;
    return (int8_t)(neg ? -(int32_t)q : (int32_t)q);
}

/* ---- composite functions ----------------------------------------------------------------- */

static const uint32_t EXP2_C[8] = {
    0x3F800000u, 0x3F317218u, 0x3E75FDE9u, 0x3D63593Eu,
    0x3C1D8534u, 0x3AAFE2F6u, 0x3916C07Cu, 0x37B3C7D6u,
};

/* revision acf0c1c6: ln2^k / k! rounded to fp32 */
static const uint32_t EXP2_TAYLOR_C[8] = {
    0x3F800000u, 0x3F317218u, 0x3E75FDF0u, 0x3D635847u,
    0x3C1D955Bu, 0x3AAEC3FFu, 0x39218489u, 0x377FE5FEu,
};

static const uint32_t LOG2_C[9] = {
    0x3FB8AA3Bu, 0xBF38AA38u, 0x3EF639EBu, 0xBEB8AE27u, 0x3E9369C2u,
    0xBE74ADF2u, 0x3E5CE48Eu, 0xBE543E8Eu, 0x3E00DB73u,
};

#define LOG2_SQRT2_FRAC 0x3504F3u
#define RECIP_MAGIC 0x7EF311C3u
#define RSQRT_MAGIC 0x5F3759DFu
#define F32_TWO 0x40000000u
#define F32_HALF 0x3F000000u
#define F32_ONE_HALF 0x3FC00000u
#define F32_MINUS_ONE 0xBF800000u
#define F32_M126 0xC2FC0000u /* -126.0 */
#define F32_128 0x43000000u  /* 128.0 */

/* The composite functions' bodies take the trace tr their steps go to: NULL in the exported
 * functions (the steps then compile to nothing), otpu_f32_traced's record in it. */
static inline uint32_t step(otpu_f32_trace *tr, const char *name, uint32_t v)
{
    if (tr && tr->n < OTPU_F32_TRACE_MAX) {
        tr->step[tr->n].name = name;
        tr->step[tr->n++].v = v;
    }
    return v;
}

/* x with k added to its exponent field, modulo 2^32 (the reference's int64 -> uint32 wrap). */
static inline uint32_t exp_add(uint32_t x, int32_t k)
{
    return x + ((uint32_t)k << 23);
}

/* floor of a finite fp32 value with |x| < 2^31 (the caller guarantees -126 <= x < 128). */
static int32_t floor_small(uint32_t u)
{
    uint32_t field = (u >> 23) & 0xFF;
    int neg = (u & SIGN_BIT) != 0;
    if (field < 127) /* |x| < 1 (zeros included) */
        return (neg && (u & ABS_MASK) != 0) ? -1 : 0;
    uint32_t m = (u & FRAC_MASK) | 0x00800000u;
    unsigned e = field - 127; /* 0 .. 6 here */
    uint32_t ip = m >> (23 - e);
    int frac_nonzero = (m & ((1u << (23 - e)) - 1u)) != 0;
    if (!neg)
        return (int32_t)ip;
    return -(int32_t)ip - (frac_nonzero ? 1 : 0);
}

/* 2^x = 2^i * p(f), x = i + f, i = floor(x): p by Horner's rule over the coefficients c. */
static inline uint32_t exp2_poly(uint32_t a, const uint32_t c[8], otpu_f32_trace *tr)
{
    uint32_t x = finish(ftz(a)); /* ftz, NaN canonical */
    int lo = gt(F32_M126, x);
    int hi = !gt(F32_128, x);
    if (lo)
        return 0;
    if (hi)
        return OTPU_F32_PINF;
    int32_t i = (int32_t)step(tr, "i = floor(x) (integer)", (uint32_t)floor_small(x));
    uint32_t f = step(tr, "f = x - i2f(i)", sub(x, otpu_f32_i2f(i)));
    static const char *const horner[7] = {"p = p*f + C0", "p = p*f + C1", "p = p*f + C2",
                                          "p = p*f + C3", "p = p*f + C4", "p = p*f + C5",
                                          "p = p*f + C6"};
    uint32_t p = c[7];
    for (int k = 6; k >= 0; k--)
        p = step(tr, horner[k], add(mul(p, f), c[k]));
    return exp_add(p, i);
}

uint32_t otpu_f32_exp2(uint32_t a)
{
    return exp2_poly(a, EXP2_C, NULL);
}

uint32_t otpu_f32_exp2_taylor(uint32_t a)
{
    return exp2_poly(a, EXP2_TAYLOR_C, NULL);
}

static inline uint32_t log2_steps(uint32_t a, otpu_f32_trace *tr)
{
    uint32_t b = ftz(a);
    uint32_t frac = b & FRAC_MASK;
    uint32_t ex = (b >> 23) & 0xFF;
    if ((b & ABS_MASK) == 0)
        return OTPU_F32_NINF;
    if (b & SIGN_BIT)
        return OTPU_F32_QNAN;               /* x < 0, -inf, NaN with the sign set */
    if (ex == 0xFF)
        return frac ? OTPU_F32_QNAN : OTPU_F32_PINF;
    int ge = frac >= LOG2_SQRT2_FRAC;
    int32_t e = (int32_t)step(tr, "e (integer)", (uint32_t)((int32_t)ex - 127 + ge));
    uint32_t m = step(tr, "m", ((ge ? 126u : 127u) << 23) | frac);
    uint32_t t = step(tr, "t = m - 1", add(m, F32_MINUS_ONE));
    static const char *const horner[8] = {"q = q*t + C1", "q = q*t + C2", "q = q*t + C3",
                                          "q = q*t + C4", "q = q*t + C5", "q = q*t + C6",
                                          "q = q*t + C7", "q = q*t + C8"};
    uint32_t q = LOG2_C[8];
    for (int k = 7; k >= 0; k--)
        q = step(tr, horner[k], add(mul(q, t), LOG2_C[k]));
    return ftz(add(step(tr, "q*t", mul(q, t)), otpu_f32_i2f(e)));
}

static inline uint32_t recip_steps(uint32_t a, otpu_f32_trace *tr)
{
    uint32_t x = ftz(a);
    uint32_t sign = x & SIGN_BIT;
    uint32_t ab = x & ABS_MASK;
    if (ab == 0)
        return 0;                            /* +0 for either zero */
    if (ab >= 0x7E800000u)
        return sign;                         /* |x| >= 2^126, inf, NaN: a zero with x's sign */
    uint32_t s = step(tr, "s (significand of |x|)", (127u << 23) | (ab & FRAC_MASK));
    uint32_t y = step(tr, "y0 = 0x7EF311C3 - s", RECIP_MAGIC - s);
    static const char *const newton[2] = {"y1 = y0*(2 - s*y0)", "y2 = y1*(2 - s*y1)"};
    for (int n = 0; n < 2; n++)
        y = step(tr, newton[n], mul(y, sub(F32_TWO, mul(s, y))));
    y = step(tr, "y3 = y2*(1 - s*y2) + y2", add(mul(y, sub(OTPU_F32_ONE, mul(s, y))), y));
    int32_t k = (int32_t)step(tr, "k = 127 - exponent field (integer)",
                              (uint32_t)(127 - (int32_t)(ab >> 23)));
    return exp_add(y, k) | sign;
}

static inline uint32_t rsqrt_steps(uint32_t a, otpu_f32_trace *tr)
{
    uint32_t x = ftz(a);
    if ((x & SIGN_BIT) || x == 0 || x == OTPU_F32_PINF)
        return 0;
    uint32_t field = (x >> 23) & 0xFF;
    int32_t k = (int32_t)step(tr, "k: field change (integer)",
                              (uint32_t)(field <= 2 ? 4 : (field >= 250 && field < 255) ? -4 : 0));
    uint32_t xs = step(tr, "x' = x scaled", exp_add(x, k));
    uint32_t y = step(tr, "y0 = 0x5F3759DF - (x' >> 1)", RSQRT_MAGIC - (xs >> 1));
    uint32_t h = step(tr, "h = 0.5*x'", mul(F32_HALF, xs));
    static const char *const newton[2] = {"y1 = y0*(1.5 - h*y0*y0)", "y2 = y1*(1.5 - h*y1*y1)"};
    for (int n = 0; n < 2; n++)
        y = step(tr, newton[n], mul(y, sub(F32_ONE_HALF, mul(h, mul(y, y)))));
    y = step(tr, "y3 = y2*(0.5 - h*y2*y2) + y2", add(mul(y, sub(F32_HALF, mul(h, mul(y, y)))), y));
    return exp_add(y, k / 2);
}

/* revision acf0c1c6: three Newton steps on |x| itself; the seed is flushed like any value */
static inline uint32_t recip_newton3_steps(uint32_t a, otpu_f32_trace *tr)
{
    uint32_t x = finish(ftz(a)); /* ftz, NaN canonical (that revision's ftz) */
    uint32_t ab = x & ABS_MASK;
    if (ab == 0)
        return 0;                            /* +0 for either zero */
    uint32_t y = step(tr, "y0 = 0x7EF311C3 - |x|", ftz(RECIP_MAGIC - ab));
    static const char *const newton[3] = {"y1 = y0*(2 - |x|*y0)", "y2 = y1*(2 - |x|*y1)",
                                          "y3 = y2*(2 - |x|*y2)"};
    for (int n = 0; n < 3; n++)
        y = step(tr, newton[n], mul(y, sub(F32_TWO, mul(ab, y))));
    if (ab >= 0x7E800000u && ab <= OTPU_F32_PINF)
        y = 0;                               /* 1/|x| <= 2^-126 flushes (inf included) */
    return y ^ (x & SIGN_BIT);
}

/* revision acf0c1c6: three Newton steps on x itself (h = x/2 flushes for x < 2^-125) */
static inline uint32_t rsqrt_newton3_steps(uint32_t a, otpu_f32_trace *tr)
{
    uint32_t x = finish(ftz(a)); /* a NaN is positive here: it runs the steps */
    if ((x & SIGN_BIT) || x == 0 || x == OTPU_F32_PINF)
        return 0;
    uint32_t y = step(tr, "y0 = 0x5F3759DF - (x >> 1)", RSQRT_MAGIC - (x >> 1));
    uint32_t h = step(tr, "h = 0.5*x", mul(F32_HALF, x));
    static const char *const newton[3] = {"y1 = y0*(1.5 - h*y0*y0)", "y2 = y1*(1.5 - h*y1*y1)",
                                          "y3 = y2*(1.5 - h*y2*y2)"};
    for (int n = 0; n < 3; n++)
        y = step(tr, newton[n], mul(y, sub(F32_ONE_HALF, mul(h, mul(y, y)))));
    return y;
}

/* ---- the exported composite functions, and otpu_f32_traced ------------------------------- */

uint32_t otpu_f32_log2(uint32_t a)
{
    return log2_steps(a, NULL);
}

uint32_t otpu_f32_recip(uint32_t a)
{
    return recip_steps(a, NULL);
}

uint32_t otpu_f32_rsqrt(uint32_t a)
{
    return rsqrt_steps(a, NULL);
}

uint32_t otpu_f32_recip_newton3(uint32_t a)
{
    return recip_newton3_steps(a, NULL);
}

uint32_t otpu_f32_rsqrt_newton3(uint32_t a)
{
    return rsqrt_newton3_steps(a, NULL);
}

uint32_t otpu_f32_traced(uint32_t (*fn)(uint32_t), uint32_t a, otpu_f32_trace *t)
{
    t->n = 0;
    if (fn == otpu_f32_exp2)
        return exp2_poly(a, EXP2_C, t);
    if (fn == otpu_f32_exp2_taylor)
        return exp2_poly(a, EXP2_TAYLOR_C, t);
    if (fn == otpu_f32_log2)
        return log2_steps(a, t);
    if (fn == otpu_f32_recip)
        return recip_steps(a, t);
    if (fn == otpu_f32_rsqrt)
        return rsqrt_steps(a, t);
    if (fn == otpu_f32_recip_newton3)
        return recip_newton3_steps(a, t);
    if (fn == otpu_f32_rsqrt_newton3)
        return rsqrt_newton3_steps(a, t);
    return fn(a); /* not a composite function of this file: no steps */
}

/* ---- sums -------------------------------------------------------------------------------- */

uint32_t otpu_f32_isum(const uint32_t *x, size_t n, size_t stride, unsigned P, int pad)
{
    return otpu_f32_isum_inline(x, n, stride, P, pad);
}
