/* fpvec.c - op codes, expected values, the level 1/2 vector generator and the line parser of
 * the fp32 conformance vectors (see fpvec.h). */
#include "fpvec.h"
#include "bits.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp32.h"

/* ---- ops ------------------------------------------------------------------------------------ */

static const char *const OP_NAMES[FPVEC_NOPS] = {
    "add", "sub", "mul", "max", "min", "exp2", "recip", "rsqrt",
    "i2f", "q8", "gt", "abs", "log2", "mm_max", "mm_min",
};

enum {
    OP_ADD, OP_SUB, OP_MUL, OP_MAX, OP_MIN, OP_EXP2, OP_RECIP, OP_RSQRT,
    OP_I2F, OP_Q8, OP_GT, OP_ABS, OP_LOG2, OP_MM_MAX, OP_MM_MIN,
};

const char *fpvec_op_name(unsigned op)
{
    return op < FPVEC_NOPS ? OP_NAMES[op] : "?";
}

int fpvec_op_unary(unsigned op)
{
    switch (op) {
    case OP_EXP2: case OP_RECIP: case OP_RSQRT: case OP_I2F: case OP_Q8: case OP_ABS:
    case OP_LOG2:
        return 1;
    default:
        return 0;
    }
}

uint32_t fpvec_expected(const otpu_f32_fns *fp, unsigned op, uint32_t a, uint32_t b)
{
    switch (op) {
    case OP_ADD: return otpu_f32_add(a, b);
    case OP_SUB: return otpu_f32_sub(a, b);
    case OP_MUL: return otpu_f32_mul(a, b);
    case OP_MAX: case OP_MM_MAX: return otpu_f32_max(a, b);
    case OP_MIN: case OP_MM_MIN: return otpu_f32_min(a, b);
    case OP_EXP2: return fp->exp2(a);
    case OP_RECIP: return fp->recip(a);
    case OP_RSQRT: return fp->rsqrt(a);
    case OP_I2F: return otpu_f32_i2f((int64_t)(int32_t)a);
    case OP_Q8: return (uint32_t)(uint8_t)otpu_f32_q8(a);
    case OP_GT: return otpu_f32_gt(a, b) ? 1u : 0u;
    case OP_ABS: return otpu_f32_abs(a);
    case OP_LOG2:
        if (fp->log2)
            return fp->log2(a);
        /* fall through */
    default: return 0xDEADBEEFu; /* tb_fp's value for an unknown op */
    }
}

uint32_t fpvec_rev_ops(const otpu_rev_desc *rev)
{
    uint32_t ops = FPVEC_ALL_OPS;
    if (!rev->fp.log2)
        ops &= ~(1u << OP_LOG2);
    if (rev->fp_no_mm_compare)
        ops &= ~(1u << OP_MM_MAX | 1u << OP_MM_MIN);
    return ops;
}

static int is_nan(uint32_t x)
{
    return (x & 0x7F800000u) == 0x7F800000u && (x & 0x007FFFFFu);
}

int fpvec_nan_operand(unsigned op, uint32_t a, uint32_t b)
{
    return op != OP_I2F && (is_nan(a) || (!fpvec_op_unary(op) && is_nan(b)));
}

int fpvec_parse_ops(const char *list, uint32_t *mask, char *bad, size_t badlen)
{
    uint32_t m = 0;
    const char *p = list;
    if (!list || !*list) {
        snprintf(bad, badlen, "%s", "(empty list)");
        return -1;
    }
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char item[32];
        if (n == 0 || n >= sizeof item) {
            snprintf(bad, badlen, "%.*s", (int)(n < 40 ? n : 40), p);
            return -1;
        }
        memcpy(item, p, n);
        item[n] = '\0';
        int found = -1;
        if (strcmp(item, "all") == 0) {
            m |= FPVEC_ALL_OPS;
            found = 0;
        } else {
            for (unsigned k = 0; k < FPVEC_NOPS; k++)
                if (strcmp(item, OP_NAMES[k]) == 0)
                    found = (int)k;
            if (found < 0 && strspn(item, "0123456789") == n && n <= 2 &&
                (n == 1 || item[0] != '0')) { /* (one number grammar: no leading zero) */
                unsigned v = (unsigned)atoi(item);
                if (v < FPVEC_NOPS)
                    found = (int)v;
            }
            if (found >= 0)
                m |= 1u << found;
        }
        if (found < 0) {
            snprintf(bad, badlen, "%s", item);
            return -1;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    *mask = m;
    return 0;
}

/* ---- boundary operands --------------------------------------------------------------------- */

/* Positive fp32 magnitudes at level 1; each is used with both signs. */
static const uint32_t L1_MAGS[] = {
    0x00000000u, 0x00000001u, 0x00000002u, 0x00400000u, 0x007FFFFFu, /* zero, denormals */
    0x00800000u, 0x00800001u, 0x00FFFFFFu, 0x01000000u, 0x01000001u, /* min normal, fields 1,2 */
    0x017FFFFFu, 0x01800000u, 0x0C800000u,                           /* field 3 (rsqrt) */
    0x33800000u, 0x34000000u, 0x3C010204u,                           /* 2^-24, 2^-23, 1/127 */
    0x3EFFFFFFu, 0x3F000000u, 0x3F000001u, 0x3F3504F2u, 0x3F3504F3u, 0x3F7FFFFFu,
    0x3F800000u, 0x3F800001u, 0x3FB504F2u, 0x3FB504F3u, 0x3FC00000u, 0x3FFFFFFFu,
    0x40000000u, 0x40200000u, 0x40400000u,                           /* 2, 2.5, 3 */
    0x42FBFFFFu, 0x42FC0000u, 0x42FC0001u, 0x42FD0000u, 0x42FE0000u, /* 126, 126.5, 127 */
    0x42FF0000u, 0x42FFFFFFu, 0x43000000u, 0x43000001u,              /* 127.5, 128 */
    0x4B000000u, 0x4B7FFFFFu, 0x4B800000u, 0x4B800001u,              /* 2^23, 2^24 */
    0x4EFFFFFFu, 0x4F000000u, 0x5F3759DFu,                           /* 2^31, rsqrt magic */
    0x7CFFFFFFu, 0x7D000000u, 0x7E7311C3u, 0x7E7311C4u, 0x7E7FFFFFu, /* fields 249/250, */
    0x7E800000u, 0x7EF311C3u, 0x7F000000u, 0x7F7FFFFEu, 0x7F7FFFFFu, /* 2^126, max */
    0x7F800000u, 0x7F800001u, 0x7FBFFFFFu, 0x7FC00000u, 0x7FFFFFFFu, /* inf, NaNs */
};

/* Level 2 adds every exponent field of this list with every fraction pattern (both signs). */
static const uint8_t L2_FIELDS[] = {
    0, 1, 2, 3, 4, 5, 22, 23, 24, 25, 26, 63, 64, 100, 103, 104, 110, 118, 119, 120, 121,
    125, 126, 127, 128, 129, 130, 131, 133, 134, 135, 149, 150, 151, 152, 157, 158, 159,
    160, 190, 230, 249, 250, 251, 252, 253, 254, 255,
};
static const uint32_t L2_FRACS[] = {
    0x000000u, 0x000001u, 0x000002u, 0x7FFFFFu, 0x7FFFFEu, 0x400000u, 0x3FFFFFu,
    0x400001u, 0x7FFF00u, 0x3504F3u,
};

/* i2f works on int32 operands: its own sets (each value also negated). */
static const uint32_t L1_INTS[] = {
    0u, 1u, 2u, 3u, 7u, 127u, 128u, 255u, 0x7FFFFFu, 0x800000u, 0xFFFFFFu, 0x1000000u,
    0x1000001u, 0x1000002u, 0x1000003u, 0x1FFFFFFu, 0x2000001u, 0x2000002u, 0x2000006u,
    0x3FFFFFFu, 0x40000000u, 0x40000040u, 0x40000041u, 0x400000C0u, 0x7FFFFF7Fu,
    0x7FFFFF80u, 0x7FFFFFBFu, 0x7FFFFFC0u, 0x7FFFFFFFu,
};

#define NELEM(x) (sizeof(x) / sizeof((x)[0]))
#define L1_FLOAT_N (2 * NELEM(L1_MAGS))
#define L2_FLOAT_N (L1_FLOAT_N + 2 * NELEM(L2_FIELDS) * NELEM(L2_FRACS))
#define L1_INT_N (2 * NELEM(L1_INTS))
#define L2_INT_N (L1_INT_N + 2 * 32 * 9)

/* Writes the boundary operands of (level, i2f or not) into set; returns how many. */
static size_t fill_set(uint32_t *set, int level, int ints)
{
    size_t n = 0;
    if (ints) {
        for (size_t i = 0; i < NELEM(L1_INTS); i++) {
            set[n++] = L1_INTS[i];
            set[n++] = i == 0 ? 0x80000000u : 0u - L1_INTS[i]; /* INT_MIN for -0 */
        }
        if (level > 1)
            for (unsigned k = 0; k < 32; k++)
                for (int d = -4; d <= 4; d++) {
                    uint32_t v = (uint32_t)((UINT64_C(1) << k) + (uint64_t)(int64_t)d);
                    set[n++] = (k & 1) ? 0u - v : v;
                }
        return n;
    }
    for (size_t i = 0; i < NELEM(L1_MAGS); i++) {
        set[n++] = L1_MAGS[i];
        set[n++] = L1_MAGS[i] | 0x80000000u;
    }
    if (level > 1)
        for (size_t i = 0; i < NELEM(L2_FIELDS); i++)
            for (size_t j = 0; j < NELEM(L2_FRACS); j++) {
                uint32_t v = ((uint32_t)L2_FIELDS[i] << 23) | L2_FRACS[j];
                set[n++] = v;
                set[n++] = v | 0x80000000u;
            }
    return n;
}

_Static_assert(L2_FLOAT_N <= FPVEC_SET_MAX && L2_INT_N <= FPVEC_SET_MAX, "FPVEC_SET_MAX");

/* ---- random numbers (splitmix64) ------------------------------------------------------------- */

static uint64_t next64(fpvec_gen *g)
{
    uint64_t z = (g->rng += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint32_t next32(fpvec_gen *g)
{
    return (uint32_t)(next64(g) >> 32);
}

static uint32_t below(fpvec_gen *g, uint32_t n) /* uniform in [0, n) */
{
    return (uint32_t)(((uint64_t)next32(g) * n) >> 32);
}

static int32_t between(fpvec_gen *g, int32_t lo, int32_t hi) /* uniform in [lo, hi] */
{
    return lo + (int32_t)below(g, (uint32_t)(hi - lo + 1));
}

static uint32_t mk(uint32_t sign, uint32_t field, uint32_t frac)
{
    return (sign << 31) | ((field & 0xFFu) << 23) | (frac & 0x7FFFFFu);
}

static uint32_t field_of(uint32_t x)
{
    return (x >> 23) & 0xFFu;
}

static uint32_t clamp_field(int32_t f)
{
    return (uint32_t)(f < 1 ? 1 : f > 254 ? 254 : f);
}

/* A fraction in TestFloat's shapes: uniform, a run of ones, its complement, one or two bits,
 * or a value next to an edge. */
static uint32_t rand_frac(fpvec_gen *g)
{
    static const uint32_t EDGES[] = {0u, 1u, 2u, 0x7FFFFFu, 0x7FFFFEu, 0x400000u, 0x3FFFFFu,
                                     0x400001u};
    switch (below(g, 6)) {
    case 0: case 1:
        return next32(g) & 0x7FFFFFu;
    case 2: case 3: {
        uint32_t p = below(g, 23), len = 1 + below(g, 23 - p);
        uint32_t run = (uint32_t)(((UINT64_C(1) << len) - 1) << p);
        return below(g, 2) ? run : (~run & 0x7FFFFFu);
    }
    case 4:
        return ((1u << below(g, 23)) | (below(g, 2) ? (1u << below(g, 23)) : 0u)) & 0x7FFFFFu;
    default:
        return EDGES[below(g, (uint32_t)NELEM(EDGES))];
    }
}

/* A value with a random sign (or the given one, sign >= 0), a field in [lo, hi]. */
static uint32_t rand_float(fpvec_gen *g, int sign, uint32_t lo, uint32_t hi)
{
    uint32_t s = sign < 0 ? below(g, 2) : (uint32_t)sign;
    return mk(s, lo + below(g, hi - lo + 1), rand_frac(g));
}

static uint32_t from_set(fpvec_gen *g)
{
    return g->set[below(g, (uint32_t)g->nset)];
}

static uint32_t nudge(fpvec_gen *g, uint32_t x, int32_t r) /* x's bits plus [-r, r] */
{
    return x + (uint32_t)between(g, -r, r);
}



/* ---- random vectors, per op ----------------------------------------------------------------- */

static void rand_addsub(fpvec_gen *g, uint32_t *a, uint32_t *b)
{
    switch (below(g, 8)) {
    case 0: *a = next32(g); *b = next32(g); break;
    case 1: *a = rand_float(g, -1, 0, 255); *b = rand_float(g, -1, 0, 255); break;
    case 2: *a = rand_float(g, -1, 100, 154); *b = rand_float(g, -1, 100, 154); break;
    case 3: /* close exponents: alignment shifts of 0..26 */
        *a = rand_float(g, -1, 1, 254);
        *b = mk(below(g, 2), clamp_field((int32_t)field_of(*a) + between(g, -26, 26)),
                rand_frac(g));
        break;
    case 4: /* cancellation: b is (+-)a give or take a few ulps */
        *a = rand_float(g, -1, 1, 254);
        *b = nudge(g, g->op == OP_ADD ? *a ^ 0x80000000u : *a, 8);
        break;
    case 5:
        *a = from_set(g);
        *b = rand_float(g, -1, 0, 255);
        if (below(g, 2)) { uint32_t t = *a; *a = *b; *b = t; }
        break;
    case 6: *a = rand_float(g, -1, 0, 30); *b = rand_float(g, -1, 0, 30); break;
    default: *a = rand_float(g, -1, 225, 255); *b = rand_float(g, -1, 225, 255); break;
    }
}

static void rand_mul(fpvec_gen *g, uint32_t *a, uint32_t *b)
{
    switch (below(g, 8)) {
    case 0: *a = next32(g); *b = next32(g); break;
    case 1: *a = rand_float(g, -1, 0, 255); *b = rand_float(g, -1, 0, 255); break;
    case 2: *a = rand_float(g, -1, 100, 154); *b = rand_float(g, -1, 100, 154); break;
    case 3: /* products next to the underflow boundary (result field about -25 .. 3) */
        *a = rand_float(g, -1, 1, 254);
        *b = mk(below(g, 2), clamp_field(between(g, -25, 3) + 127 - (int32_t)field_of(*a)),
                rand_frac(g));
        break;
    case 4: /* products next to overflow (result field about 250 .. 256) */
        *a = rand_float(g, -1, 1, 254);
        *b = mk(below(g, 2), clamp_field(between(g, 250, 256) + 127 - (int32_t)field_of(*a)),
                rand_frac(g));
        break;
    case 5:
        *a = from_set(g);
        *b = rand_float(g, -1, 0, 255);
        if (below(g, 2)) { uint32_t t = *a; *a = *b; *b = t; }
        break;
    case 6: /* products next to 1: b is about 1/a */
        *a = rand_float(g, -1, 100, 154);
        *b = nudge(g, otpu_bits_of(1.0f / otpu_float_of(*a)), 2);
        break;
    default: /* a denormal (flushed) or a zero against anything */
        *a = mk(below(g, 2), 0, below(g, 4) ? rand_frac(g) : 0u);
        *b = rand_float(g, -1, 0, 255);
        if (below(g, 2)) { uint32_t t = *a; *a = *b; *b = t; }
        break;
    }
}

static void rand_compare(fpvec_gen *g, uint32_t *a, uint32_t *b)
{
    switch (below(g, 7)) {
    case 0: *a = next32(g); *b = next32(g); break;
    case 1: *a = rand_float(g, -1, 0, 255); *b = rand_float(g, -1, 0, 255); break;
    case 2: *a = rand_float(g, -1, 0, 255); *b = nudge(g, *a, 3); break;
    case 3: *a = rand_float(g, -1, 0, 255); *b = *a ^ 0x80000000u; break;
    case 4:
        *a = from_set(g);
        *b = below(g, 2) ? from_set(g) : rand_float(g, -1, 0, 255);
        if (below(g, 2)) { uint32_t t = *a; *a = *b; *b = t; }
        break;
    case 5: *a = rand_float(g, -1, 0, 1); *b = rand_float(g, -1, 0, 1); break;
    default: /* infinities and NaNs of both signs against anything */
        *a = mk(below(g, 2), 255, below(g, 3) ? rand_frac(g) : 0u);
        *b = below(g, 2) ? rand_float(g, -1, 0, 255) : mk(below(g, 2), 255, rand_frac(g));
        if (below(g, 2)) { uint32_t t = *a; *a = *b; *b = t; }
        break;
    }
}

static uint32_t rand_exp2(fpvec_gen *g)
{
    switch (below(g, 6)) {
    case 0: return next32(g);
    case 1: return rand_float(g, -1, 0, 134);                  /* |x| < 256 */
    case 2: return nudge(g, otpu_bits_of((float)between(g, -130, 130)), 4); /* next to an integer */
    case 3: return rand_float(g, -1, 100, 126);                /* |x| < 1 */
    case 4: return nudge(g, from_set(g), 4);
    default: return rand_float(g, -1, 120, 133);
    }
}

/* recip (sign -1: either) and rsqrt (mostly positive) */
static uint32_t rand_inverse(fpvec_gen *g, int rsqrt)
{
    static const uint32_t FRACS[] = {0u, 0x7FFFFFu, 0x7311C3u, 0x3759DFu, 0x400000u};
    int sign = rsqrt ? (below(g, 4) ? 0 : 1) : -1;
    switch (below(g, 5)) {
    case 0: return next32(g);
    case 1: return rand_float(g, sign, 0, 255);
    case 2: return below(g, 2) ? rand_float(g, sign, 0, 6) : rand_float(g, sign, 245, 255);
    case 3: {
        uint32_t f = FRACS[below(g, (uint32_t)NELEM(FRACS))];
        uint32_t s = sign < 0 ? below(g, 2) : (uint32_t)sign;
        return mk(s, 1 + below(g, 254), f + (uint32_t)between(g, -16, 16));
    }
    default: return rand_float(g, sign, 100, 154);
    }
}

static uint32_t rand_i2f(fpvec_gen *g)
{
    switch (below(g, 4)) {
    case 0: return next32(g);
    case 1: { /* a random bit length 1..31 */
        uint32_t len = 1 + below(g, 31);
        uint32_t v = (next32(g) & (uint32_t)((UINT64_C(1) << len) - 1)) | (1u << (len - 1));
        return below(g, 2) ? 0u - v : v;
    }
    case 2: { /* ties and near-ties of the 24-bit rounding */
        uint32_t s = 1 + below(g, 7);
        uint32_t m = 0x800000u | (next32(g) & 0x7FFFFFu);
        uint32_t half = 1u << (s - 1);
        uint32_t low = below(g, 3) == 0 ? half - 1u : below(g, 2) ? half : half + 1u;
        uint32_t v = (m << s) | (low & ((1u << s) - 1u));
        if (s == 1 && low > 1)
            v = m << s;
        v &= 0x7FFFFFFFu;
        return below(g, 2) ? 0u - v : v;
    }
    default: return nudge(g, from_set(g), 4);
    }
}

static uint32_t rand_q8(fpvec_gen *g)
{
    switch (below(g, 5)) {
    case 0: return next32(g);
    case 1: return rand_float(g, -1, 100, 134);
    case 2:
        return nudge(g, otpu_bits_of((float)between(g, -130, 130) + 0.5f), 2); /* half-integers */
    case 3: return rand_float(g, -1, 0, 125);
    default: return nudge(g, from_set(g), 4);
    }
}

static uint32_t rand_abs(fpvec_gen *g)
{
    switch (below(g, 4)) {
    case 0: return next32(g);
    case 1: return rand_float(g, -1, 0, 255);
    case 2: return nudge(g, from_set(g), 4);
    default: return rand_float(g, -1, 0, 2);
    }
}

static uint32_t rand_log2(fpvec_gen *g)
{
    switch (below(g, 6)) {
    case 0: return next32(g);
    case 1: return rand_float(g, 0, 0, 255);
    case 2: { /* next to 1 */
        int32_t r = (int32_t)(1u << below(g, 23));
        return 0x3F800000u + (uint32_t)between(g, -r, r);
    }
    case 3: /* fraction next to sqrt(2)'s: the range reduction's edge */
        return mk(0, 1 + below(g, 254), 0x3504F3u + (uint32_t)between(g, -64, 64));
    case 4: return from_set(g);
    default: return rand_float(g, 0, 100, 154);
    }
}

static void rand_vector(fpvec_gen *g, uint32_t *a, uint32_t *b)
{
    *b = 0;
    switch (g->op) {
    case OP_ADD: case OP_SUB: rand_addsub(g, a, b); break;
    case OP_MUL: rand_mul(g, a, b); break;
    case OP_MAX: case OP_MIN: case OP_GT: case OP_MM_MAX: case OP_MM_MIN:
        rand_compare(g, a, b);
        break;
    case OP_EXP2: *a = rand_exp2(g); break;
    case OP_RECIP: *a = rand_inverse(g, 0); break;
    case OP_RSQRT: *a = rand_inverse(g, 1); break;
    case OP_I2F: *a = rand_i2f(g); break;
    case OP_Q8: *a = rand_q8(g); break;
    case OP_ABS: *a = rand_abs(g); break;
    default: *a = rand_log2(g); break;
    }
}

/* ---- the generator -------------------------------------------------------------------------- */

/* Unary ops: every boundary operand, then its neighbours within NEIGHBOURS(level) ulps. */
#define NEIGHBOURS(level) ((level) == 1 ? 16u : 64u)

uint64_t fpvec_level_count(int level)
{
    return level == 1 ? FPVEC_LEVEL1_COUNT : level == 2 ? FPVEC_LEVEL2_COUNT : 0;
}

int fpvec_gen_init(fpvec_gen *g, unsigned op, int level, uint64_t seed, uint64_t count,
                   int skip_nan)
{
    if (op >= FPVEC_NOPS || level < 1 || level > FPVEC_MAX_LEVEL)
        return -1;
    memset(g, 0, sizeof *g);
    g->op = op;
    g->level = level;
    g->skip_nan = skip_nan;
    g->count = count ? count : fpvec_level_count(level);
    g->rng = seed * UINT64_C(0x2545F4914F6CDD1D) ^ ((uint64_t)(op + 1) << 40) ^
             ((uint64_t)level << 56);
    (void)next64(g);
    g->nset = fill_set(g->set, level, op == OP_I2F);
    uint64_t n = g->nset;
    g->nboundary = fpvec_op_unary(op) ? n * (1 + 2 * NEIGHBOURS(level)) : n * n;
    return 0;
}

static void boundary_vector(const fpvec_gen *g, uint64_t i, uint32_t *a, uint32_t *b)
{
    uint64_t n = g->nset;
    if (!fpvec_op_unary(g->op)) {
        *a = g->set[i / n];
        *b = g->set[i % n];
        return;
    }
    *b = 0;
    if (i < n) {
        *a = g->set[i];
        return;
    }
    i -= n;
    uint64_t per = 2 * NEIGHBOURS(g->level);
    uint32_t x = g->set[i / per];
    uint32_t r = (uint32_t)(i % per);
    uint32_t d = r / 2 + 1;
    *a = (r & 1) ? x - d : x + d;
}

size_t fpvec_gen_fill(fpvec_gen *g, uint32_t *a, uint32_t *b, size_t max)
{
    size_t k = 0;
    while (k < max && g->done < g->count) {
        if (g->pos < g->nboundary)
            boundary_vector(g, g->pos, &a[k], &b[k]);
        else
            rand_vector(g, &a[k], &b[k]);
        g->pos++;
        if (g->skip_nan && fpvec_nan_operand(g->op, a[k], b[k]))
            continue;
        g->done++;
        k++;
    }
    return k;
}

/* ---- lines ---------------------------------------------------------------------------------- */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int fpvec_parse_line(const char *line, size_t len, fpvec_vec *v, char *why, size_t whylen)
{
    uint32_t f[4] = {0, 0, 0, 0};
    unsigned nf = 0;
    size_t i = 0;
    if (len > 0 && line[len - 1] == '\r')
        len--;
    while (i < len) {
        char c = line[i];
        if (c == ' ' || c == '\t') {
            i++;
            continue;
        }
        if (nf == 4) {
            snprintf(why, whylen, "more than 4 fields (expected: op a b expected)");
            return -1;
        }
        uint32_t val = 0;
        unsigned nd = 0;
        while (i < len && line[i] != ' ' && line[i] != '\t') {
            c = line[i];
            int h = hexval(c);
            if (h < 0) {
                if (c >= 0x21 && c <= 0x7E)
                    snprintf(why, whylen, "field %u: '%c' is not a hex digit", nf + 1, c);
                else
                    snprintf(why, whylen, "field %u: byte 0x%02x is not a hex digit", nf + 1,
                             (unsigned)(unsigned char)c);
                return -1;
            }
            if (nd == 8) {
                snprintf(why, whylen, "field %u: more than 8 hex digits", nf + 1);
                return -1;
            }
            val = (val << 4) | (uint32_t)h;
            nd++;
            i++;
        }
        f[nf++] = val;
    }
    if (nf == 0) {
        snprintf(why, whylen, "empty line");
        return -1;
    }
    if (nf != 4) {
        snprintf(why, whylen, "%u field(s), expected 4 (op a b expected)", nf);
        return -1;
    }
    if (f[0] >= FPVEC_NOPS) {
        snprintf(why, whylen, "unknown op %x (ops are 0..e)", (unsigned)f[0]);
        return -1;
    }
    v->op = f[0];
    v->a = f[1];
    v->b = f[2];
    v->expected = f[3];
    return 0;
}

static char *hex8(char *p, uint32_t x)
{
    static const char D[] = "0123456789abcdef";
    for (int s = 28; s >= 0; s -= 4)
        *p++ = D[(x >> s) & 0xFu];
    return p;
}

size_t fpvec_format_line(char *buf, unsigned op, uint32_t a, uint32_t b, uint32_t expected)
{
    static const char D[] = "0123456789abcdef";
    char *p = buf;
    if (op >= 16)
        *p++ = D[(op >> 4) & 0xFu];
    *p++ = D[op & 0xFu];
    *p++ = ' ';
    p = hex8(p, a);
    *p++ = ' ';
    p = hex8(p, b);
    *p++ = ' ';
    p = hex8(p, expected);
    *p++ = '\n';
    return (size_t)(p - buf);
}

/* ---- reports -------------------------------------------------------------------------------- */

void fpvec_report(FILE *out, const char *who, uint32_t mask, const uint64_t cases[FPVEC_NOPS],
                  const uint64_t errors[FPVEC_NOPS])
{
    uint64_t n = 0, e = 0;
    fprintf(out, "op  name     vectors  mismatches\n");
    for (unsigned op = 0; op < FPVEC_NOPS; op++) {
        if (!(mask & (1u << op)))
            continue;
        fprintf(out, "%2u  %-6s %9" PRIu64 "  %10" PRIu64 "%s\n", op, fpvec_op_name(op),
                cases[op], errors[op], errors[op] ? "  FAIL" : "");
        n += cases[op];
        e += errors[op];
    }
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if (errors[op])
            fprintf(out, "%s: op %u (%s): %" PRIu64 " of %" PRIu64 " vectors mismatch\n", who, op,
                    fpvec_op_name(op), errors[op], cases[op]);
    fprintf(out, "FPTEST cases=%" PRIu64 " errors=%" PRIu64 "\n", n, e);
}

void fpvec_print_mismatch(FILE *out, unsigned op, uint32_t a, uint32_t b, uint32_t expected,
                          uint32_t got, uint64_t line)
{
    fprintf(out, "MISMATCH op=%u a=%08" PRIx32 " b=%08" PRIx32 " exp=%08" PRIx32 " got=%08" PRIx32
            " line=%" PRIu64 "\n", op, a, b, expected, got, line);
}
