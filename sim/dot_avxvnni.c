/* dot_avxvnni.c - the int8 dot products with AVX-VNNI: the VEX-encoded 256-bit vpdpbusd.
 *
 * vpdpbusd multiplies unsigned bytes by signed bytes, four products into each int32 lane. For
 * int8 x int8 one operand is biased by 128 (xor 0x80 turns a in -128..127 into the unsigned
 * a + 128), and 128 * sum(b), computed with the same instruction (0x80 unsigned times b), is
 * subtracted: sum (a + 128) b - 128 sum b = sum a b. The lanes wrap modulo 2^32, so the result
 * is exact whenever the true sum fits int32 (|sum| <= n * 128 * 128, n < 131072); the lanes
 * do not even wrap while n * 255 * 128 < 2^31 (n <= 65793). MM passes n <= D <= 4096. */
#include "dot_x86.h"

#ifdef OTPU_DOT_X86
#include <cpuid.h>

#define VNNI __attribute__((target("avx2,avxvnni")))

VNNI static inline __m256i load(const int8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

VNNI static int32_t dot(const int8_t *a, const int8_t *b, size_t n)
{
    const __m256i bias = _mm256_set1_epi8((char)0x80);
    __m256i acc = _mm256_setzero_si256(), corr = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i bv = load(b + i);
        acc = _mm256_dpbusd_avx_epi32(acc, _mm256_xor_si256(load(a + i), bias), bv);
        corr = _mm256_dpbusd_avx_epi32(corr, bias, bv);
    }
    return hsum256(_mm256_sub_epi32(acc, corr)) + otpu_dot_scalar(a + i, b + i, n - i);
}

/* one weight block against several rows: its correction term is computed once */
VNNI static void block_rows(const int8_t *rows, size_t stride, size_t nrows, const int8_t *w,
                            size_t n, int32_t *out, size_t out_stride)
{
    const __m256i bias = _mm256_set1_epi8((char)0x80);
    size_t full = n & ~(size_t)31;
    __m256i corr = _mm256_setzero_si256();
    for (size_t i = 0; i < full; i += 32)
        corr = _mm256_dpbusd_avx_epi32(corr, bias, load(w + i));
    const __m256i start = _mm256_sub_epi32(_mm256_setzero_si256(), corr);
    for (size_t j = 0; j < nrows; j++) {
        const int8_t *a = rows + j * stride;
        __m256i acc = start;
        for (size_t i = 0; i < full; i += 32)
            acc = _mm256_dpbusd_avx_epi32(acc, _mm256_xor_si256(load(a + i), bias), load(w + i));
        out[j * out_stride] = hsum256(acc) + otpu_dot_scalar(a + full, w + full, n - full);
    }
}

OTPU_DOT_BLOCKS(VNNI)

/* AVX-VNNI is CPUID leaf 7, sub-leaf 1, EAX bit 4 (clang 14's __builtin_cpu_supports does not
 * know its name); its registers are AVX2's, whose OS support __builtin_cpu_supports checks. */
static int supported(void)
{
    unsigned a, b, c, d;
    return __builtin_cpu_supports("avx2") && __get_cpuid_count(7, 1, &a, &b, &c, &d) &&
           (a >> 4 & 1);
}

const otpu_dot_kernel otpu_dot_kernel_avxvnni = {"avxvnni", supported, dot, blocks};
#endif
