/* fpvec_exh.c - the tally of an exhaustive run: input classes, ulp buckets, the bench's lines
 * (see fpvec_exh.h). */
#include "fpvec_exh.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fpvec.h"

enum { OP_I2F = 8, OP_Q8 = 9 };    /* fpvec.h's op codes whose operand or result is no fp32 */
enum { KINDS = 36 };               /* classes per sign */
enum { K_ZERO = 0, K_SUB = 1, K_BAND0 = 2, K_INF = 34, K_NAN = 35 };
enum { B_NAN = FPVEC_EXH_NBUCKET - 1 };

static unsigned bit_length(uint64_t v)
{
    unsigned n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

unsigned fpvec_exh_class(unsigned op, uint32_t a)
{
    unsigned s = a >> 31;
    if (op == OP_I2F) { /* an int32: zero, or sign and bit length 1..32 of |a| */
        uint32_t mag = s ? 0u - a : a;
        return a == 0 ? K_ZERO : s * KINDS + K_SUB + bit_length(mag) - 1;
    }
    uint32_t field = (a >> 23) & 0xFFu, frac = a & 0x7FFFFFu;
    unsigned kind = field == 0 ? (frac ? K_SUB : K_ZERO)
                  : field == 255 ? (frac ? K_NAN : K_INF)
                  : K_BAND0 + (unsigned)(((int)field - 127 + 128) / 8);
    return s * KINDS + kind;
}

const char *fpvec_exh_class_name(unsigned op, unsigned cls, char *buf, size_t n)
{
    if (cls >= FPVEC_EXH_NCLASS) {
        snprintf(buf, n, "?");
        return buf;
    }
    char sign = cls / KINDS ? '-' : '+';
    unsigned kind = cls % KINDS;
    if (op == OP_I2F) {
        if (kind == K_ZERO)
            snprintf(buf, n, "int 0");
        else if (kind < K_SUB + 32)
            snprintf(buf, n, "%cint 2^%u..2^%u-1", sign, kind - K_SUB, kind - K_SUB + 1);
        else
            snprintf(buf, n, "?");
        return buf;
    }
    if (kind == K_ZERO)
        snprintf(buf, n, "%czero", sign);
    else if (kind == K_SUB)
        snprintf(buf, n, "%csubnormal", sign);
    else if (kind == K_INF)
        snprintf(buf, n, "%cinf", sign);
    else if (kind == K_NAN)
        snprintf(buf, n, "%cNaN", sign);
    else {
        int lo = -128 + 8 * (int)(kind - K_BAND0), hi = lo + 7;
        snprintf(buf, n, "%cnormal e=%d..%d", sign, lo < -126 ? -126 : lo, hi);
    }
    return buf;
}

static int is_nan(uint32_t x)
{
    return (x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu);
}

/* The place of an fp32 on the ordered line of values (-0 and +0 at 0). */
static int64_t ordinal(uint32_t x)
{
    return (x >> 31) ? -(int64_t)(x & 0x7FFFFFFFu) : (int64_t)x;
}

unsigned fpvec_exh_bucket(unsigned op, uint32_t expected, uint32_t got)
{
    int64_t d;
    if (op == OP_Q8) {
        d = (int64_t)(int8_t)(uint8_t)expected - (int64_t)(int8_t)(uint8_t)got;
    } else {
        int ne = is_nan(expected), ng = is_nan(got);
        if (ne != ng)
            return B_NAN;
        d = ne ? 0 : ordinal(expected) - ordinal(got);
    }
    return bit_length((uint64_t)(d < 0 ? -d : d));
}

const char *fpvec_exh_bucket_name(unsigned bucket, char *buf, size_t n)
{
    if (bucket == 0)
        snprintf(buf, n, "0 (same value, other bits)");
    else if (bucket == 1)
        snprintf(buf, n, "1");
    else if (bucket < B_NAN)
        snprintf(buf, n, "%" PRIu64 "..%" PRIu64, UINT64_C(1) << (bucket - 1),
                 (UINT64_C(1) << bucket) - 1);
    else if (bucket == B_NAN)
        snprintf(buf, n, "NaN vs number");
    else
        snprintf(buf, n, "?");
    return buf;
}

void fpvec_exh_keep(fpvec_exh_tally *t, const fpvec_exh_mm *m)
{
    unsigned i = t->nfirst;
    while (i > 0 && t->first[i - 1].a > m->a)
        i--;
    if ((i > 0 && t->first[i - 1].a == m->a) || i >= FPVEC_EXH_FIRST)
        return;
    unsigned last = t->nfirst < FPVEC_EXH_FIRST ? t->nfirst : FPVEC_EXH_FIRST - 1;
    memmove(&t->first[i + 1], &t->first[i], (last - i) * sizeof t->first[0]);
    t->first[i] = *m;
    if (t->nfirst < FPVEC_EXH_FIRST)
        t->nfirst++;
}

void fpvec_exh_mismatch(fpvec_exh_tally *t, unsigned op, uint32_t a, uint32_t expected,
                        uint32_t got)
{
    t->mismatches++;
    t->hist[fpvec_exh_class(op, a)][fpvec_exh_bucket(op, expected, got)]++;
    fpvec_exh_mm m = {a, expected, got};
    fpvec_exh_keep(t, &m);
}

void fpvec_exh_merge(fpvec_exh_tally *into, const fpvec_exh_tally *from)
{
    into->inputs += from->inputs;
    into->skipped += from->skipped;
    into->mismatches += from->mismatches;
    for (unsigned c = 0; c < FPVEC_EXH_NCLASS; c++)
        for (unsigned b = 0; b < FPVEC_EXH_NBUCKET; b++)
            into->hist[c][b] += from->hist[c][b];
    for (unsigned i = 0; i < from->nfirst; i++)
        fpvec_exh_keep(into, &from->first[i]);
}

void fpvec_exh_print(FILE *out, unsigned op, const fpvec_exh_tally *t)
{
    fprintf(out, "EXH op=%u inputs=%" PRIu64 " skipped=%" PRIu64 " mismatches=%" PRIu64 "\n",
            op, t->inputs, t->skipped, t->mismatches);
    for (unsigned c = 0; c < FPVEC_EXH_NCLASS; c++)
        for (unsigned b = 0; b < FPVEC_EXH_NBUCKET; b++)
            if (t->hist[c][b])
                fprintf(out, "EXH hist op=%u class=%u bucket=%u count=%" PRIu64 "\n", op, c, b,
                        t->hist[c][b]);
    for (unsigned i = 0; i < t->nfirst; i++)
        fprintf(out, "EXH mm op=%u a=%08" PRIx32 " exp=%08" PRIx32 " got=%08" PRIx32 "\n", op,
                t->first[i].a, t->first[i].expected, t->first[i].got);
}

int fpvec_exh_parse(const char *line, fpvec_exh_tally *tallies, uint64_t *done)
{
    unsigned op, c, b;
    unsigned long long x, y, z;
    unsigned ua, ue, ug;
    int end = 0;
    if (strncmp(line, "EXH ", 4) != 0)
        return 0;
    if (sscanf(line, "EXH progress done=%llu %n", &x, &end) == 1 && !line[end]) {
        *done = x;
        return 2;
    }
    if (strcmp(line, "EXH end") == 0)
        return 3;
    if (sscanf(line, "EXH op=%u inputs=%llu skipped=%llu mismatches=%llu %n", &op, &x, &y, &z,
               &end) == 4 && !line[end] && op < FPVEC_NOPS) {
        tallies[op].inputs += x;
        tallies[op].skipped += y;
        tallies[op].mismatches += z;
        return 1;
    }
    if (sscanf(line, "EXH hist op=%u class=%u bucket=%u count=%llu %n", &op, &c, &b, &x,
               &end) == 4 && !line[end] && op < FPVEC_NOPS && c < FPVEC_EXH_NCLASS &&
        b < FPVEC_EXH_NBUCKET) {
        tallies[op].hist[c][b] += x;
        return 1;
    }
    if (sscanf(line, "EXH mm op=%u a=%x exp=%x got=%x %n", &op, &ua, &ue, &ug, &end) == 4 &&
        !line[end] && op < FPVEC_NOPS) {
        fpvec_exh_mm m = {ua, ue, ug};
        fpvec_exh_keep(&tallies[op], &m);
        return 1;
    }
    return -1;
}
