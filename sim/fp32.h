/* fp32.h - openTPU's fp32 arithmetic, bit for bit (openTPU docs/isa.md "Arithmetic").
 *
 * Every value is raw IEEE-754 binary32 bits in a uint32_t. Semantics: round to nearest even,
 * flush to zero on inputs and outputs (a denormal becomes a zero of its sign), canonical NaN
 * 0x7FC00000 from add/sub/mul, the composite functions (exp2, log2, recip, rsqrt) as the fixed
 * add/mul sequences of the reference (opentpu/fp32.py at 42cef8ba; an older revision's below),
 * and compares in the total
 * order of sign-magnitude bits (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN); a NaN's bits
 * are kept where no arithmetic touches it (copy, abs, max, min). An older revision's
 * composites and NaN rule are below.
 *
 * All functions are pure: no global state, no rounding-mode or flag globals, thread safe.
 */
#ifndef OTPU_FP32_H
#define OTPU_FP32_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>

#include "bits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OTPU_F32_QNAN   0x7FC00000u /* the canonical NaN */
#define OTPU_F32_ONE    0x3F800000u
#define OTPU_F32_PINF   0x7F800000u
#define OTPU_F32_NINF   0xFF800000u
#define OTPU_F32_INV127 0x3C010204u /* f32(1/127) */

uint32_t otpu_f32_ftz(uint32_t a);                 /* denormal -> signed zero; NaN kept */
uint32_t otpu_f32_add(uint32_t a, uint32_t b);
uint32_t otpu_f32_sub(uint32_t a, uint32_t b);
uint32_t otpu_f32_mul(uint32_t a, uint32_t b);
uint32_t otpu_f32_key(uint32_t a);                 /* total-order key of ftz(a) */
int      otpu_f32_gt(uint32_t a, uint32_t b);      /* ftz(a) > ftz(b) in the total order */
uint32_t otpu_f32_max(uint32_t a, uint32_t b);     /* gt(a,b) ? ftz(a) : ftz(b) */
uint32_t otpu_f32_min(uint32_t a, uint32_t b);     /* gt(b,a) ? ftz(a) : ftz(b) */
uint32_t otpu_f32_abs(uint32_t a);                 /* ftz(a) with the sign cleared */
uint32_t otpu_f32_i2f(int64_t i);                  /* integer -> fp32, RNE */
int8_t otpu_f32_q8(uint32_t a); /* RNE to integer, saturate [-127,127]; NaN -> 0 */
uint32_t otpu_f32_exp2(uint32_t a);
uint32_t otpu_f32_log2(uint32_t a);
uint32_t otpu_f32_recip(uint32_t a);
uint32_t otpu_f32_rsqrt(uint32_t a);

/* The composite functions of ISA revision acf0c1c6 (its opentpu/fp32.py): exp2 as the same
 * range reduction and Horner scheme with the degree-7 Taylor coefficients ln2^k/k! rounded to
 * fp32; recip as three Newton steps y(2 - |x|y) from the seed 0x7EF311C3 - bits(|x|), with no
 * range scaling (0 for x = 0, a zero of x's sign for |x| >= 2^126); rsqrt as three steps
 * y(1.5 - h y^2), h = x/2, from 0x5F3759DF - (bits >> 1), with no range scaling (+0 for
 * x <= 0 and +inf). A NaN operand gives the canonical NaN, as that fp32.py computes it (the
 * revision leaves NaN operands undefined). */
uint32_t otpu_f32_exp2_taylor(uint32_t a);
uint32_t otpu_f32_recip_newton3(uint32_t a);
uint32_t otpu_f32_rsqrt_newton3(uint32_t a);

/* The canonical-NaN rule of ISA revision acf0c1c6 (its fp32.py flushes every operand with an
 * ftz that also makes any NaN 0x7FC00000): copy, fill, abs, max, min and the row maxima give
 * the canonical NaN for any NaN, and it orders above every number (+inf included), whatever
 * the sign and payload it came with. The functions above keep a NaN's bits instead (the
 * current revision, and openTPU's RTL of both). */
uint32_t otpu_f32_ftz_canon(uint32_t a);
uint32_t otpu_f32_key_canon(uint32_t a);
uint32_t otpu_f32_max_canon(uint32_t a, uint32_t b);
uint32_t otpu_f32_min_canon(uint32_t a, uint32_t b);
uint32_t otpu_f32_abs_canon(uint32_t a);

/* A revision's fp32 functions where revisions differ (revision.h says which has which): the
 * composites, and the flush, order, max, min and abs that its copy, fill, abs, max, min and
 * row maxima use (their NaN rule). */
typedef struct {
    uint32_t (*exp2)(uint32_t a);
    uint32_t (*recip)(uint32_t a);
    uint32_t (*rsqrt)(uint32_t a);
    uint32_t (*log2)(uint32_t a); /* NULL: the revision has no log2 */
    uint32_t (*ftz)(uint32_t a);
    uint32_t (*key)(uint32_t a);  /* the total-order key of ftz(a) */
    uint32_t (*max)(uint32_t a, uint32_t b);
    uint32_t (*min)(uint32_t a, uint32_t b);
    uint32_t (*abs)(uint32_t a);
} otpu_f32_fns;

/* The intermediate steps of a composite function's fixed sequence, as the report shows them
 * (checker/REPORT.md "intermediates"): otpu_f32_traced calls fn (one of the functions above)
 * on a and records each step's name and fp32 bits (or integer) into t, in order. */
enum { OTPU_F32_TRACE_MAX = 24 };
typedef struct {
    struct {
        const char *name;
        uint32_t v;
    } step[OTPU_F32_TRACE_MAX];
    unsigned n;
} otpu_f32_trace;
uint32_t otpu_f32_traced(uint32_t (*fn)(uint32_t), uint32_t a, otpu_f32_trace *t);

/* isum_P (openTPU docs/isa.md "Sums") of x[0], x[stride], ..., x[(n-1)*stride]: P partials
 * p[q] = +0 + x[q] + x[q+P] + ... (left to right), then the folding tree
 * p[i] = p[i] + p[i+h] for h = P/2 .. 1. P is a power of two, at most 64.
 * pad != 0 (the VOP sums): the row is padded with +0 terms to a multiple of P and every pad
 * term is added (a -0 partial becomes +0). pad == 0 (MM): a partial adds its own terms only. */
uint32_t otpu_f32_isum(const uint32_t *x, size_t n, size_t stride, unsigned P, int pad);

#define OTPU_MM_PARTIALS  4u
#define OTPU_RED_PARTIALS 64u

/* ---- inline versions, for loops over many values (the MM's block terms and sums) --------
 * The same operations as otpu_f32_ftz / add / mul / isum above, which fp32.c defines with
 * these: one definition, no call per operation where a loop inlines them. */

static inline uint32_t otpu_f32_ftz_inline(uint32_t a)
{
    return (a & 0x7F800000u) == 0 ? (a & 0x80000000u) : a;
}

/* the result side of add/sub/mul: flush a denormal, make a NaN canonical */
static inline uint32_t otpu_f32_finish(uint32_t r)
{
    uint32_t e = r & 0x7F800000u;
    if (e == 0)
        return r & 0x80000000u;
    if (e == 0x7F800000u && (r & 0x007FFFFFu) != 0)
        return OTPU_F32_QNAN;
    return r;
}

/* The host's binary32 operation on flushed operands, round to nearest even (the default
 * rounding mode; the model never changes it). Where float expressions are evaluated wider
 * (FLT_EVAL_METHOD != 0, e.g. x87) it is done in double and rounded once to float: a product
 * of two floats is exact in double, and a sum rounded to double (53 >= 2*24 + 2 bits) and
 * then to float equals the directly rounded sum. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define OTPU_F32_RAW_(a, op, b) \
    otpu_bits_of(otpu_float_of(a) op otpu_float_of(b))
#else
static inline uint32_t otpu_f32_wide_(double r)
{
    volatile float f = (float)r; /* one rounding to float, no excess precision kept */
    return otpu_bits_of(f);
}
#define OTPU_F32_RAW_(a, op, b) \
    otpu_f32_wide_((double)otpu_float_of(a) op (double)otpu_float_of(b))
#endif

static inline uint32_t otpu_f32_add_inline(uint32_t a, uint32_t b)
{
    return otpu_f32_finish(OTPU_F32_RAW_(otpu_f32_ftz_inline(a), +, otpu_f32_ftz_inline(b)));
}

static inline uint32_t otpu_f32_sub_inline(uint32_t a, uint32_t b)
{
    return otpu_f32_finish(OTPU_F32_RAW_(otpu_f32_ftz_inline(a), -, otpu_f32_ftz_inline(b)));
}

static inline uint32_t otpu_f32_mul_inline(uint32_t a, uint32_t b)
{
    return otpu_f32_finish(OTPU_F32_RAW_(otpu_f32_ftz_inline(a), *, otpu_f32_ftz_inline(b)));
}

/* otpu_f32_i2f on an int32, by the host's int -> float conversion: that rounds to nearest
 * even under the default rounding mode (as the model's add and mul assume), an int32 is
 * never denormal, and 0 gives +0. test_fp32 compares the two on every int32. */
static inline uint32_t otpu_f32_i2f32_inline(int32_t i)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    return otpu_bits_of((float)i);
#else
    return otpu_f32_i2f(i);
#endif
}

/* otpu_f32_isum, inline: with constant P, stride and pad the compiler specializes it. */
static inline uint32_t otpu_f32_isum_inline(const uint32_t *x, size_t n, size_t stride,
                                            unsigned P, int pad)
{
    uint32_t part[OTPU_RED_PARTIALS];
    if (P == 0 || P > OTPU_RED_PARTIALS || (P & (P - 1)) != 0)
        return OTPU_F32_QNAN; /* not a valid partial count: no defined result */
    size_t rem = n % P;
    for (unsigned q = 0; q < P; q++) {
        uint32_t acc = 0; /* +0 */
        for (size_t j = q; j < n; j += P)
            acc = otpu_f32_add_inline(acc, x[j * stride]);
        /* a +0 pad term: only changes a -0 partial (to +0); adding it twice changes nothing */
        if (pad && rem != 0 && q >= rem)
            acc = otpu_f32_add_inline(acc, 0);
        part[q] = acc;
    }
    for (unsigned h = P / 2; h >= 1; h /= 2)
        for (unsigned i = 0; i < h; i++)
            part[i] = otpu_f32_add_inline(part[i], part[i + h]);
    return part[0];
}

#ifdef __cplusplus
}
#endif
#endif
