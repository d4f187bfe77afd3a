/* dot_avx512vnni.c - the int8 dot products with AVX-512 VNNI: 512-bit vpdpbusd, with the
 * same sign correction as dot_avxvnni.c (bias one operand by 128, subtract 128 * sum of the
 * other; exact whenever the true sum fits int32, and MM passes n <= D <= 4096). Tails are
 * masked loads (AVX-512BW): the masked-off bytes load as 0, and a biased 0 (128) times a 0
 * weight adds nothing, nor does a 0 weight to the correction. */
#include "dot_x86.h"

#ifdef OTPU_DOT_X86

#define VNNI512 __attribute__((target("avx512f,avx512bw,avx512vnni")))

/* the first r < 64 bytes */
static inline __mmask64 first(size_t r)
{
    return ((__mmask64)1 << r) - 1;
}

VNNI512 static inline __m512i load(const int8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}

VNNI512 static int32_t dot(const int8_t *a, const int8_t *b, size_t n)
{
    const __m512i bias = _mm512_set1_epi8((char)0x80);
    __m512i acc = _mm512_setzero_si512(), corr = _mm512_setzero_si512();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i bv = load(b + i);
        acc = _mm512_dpbusd_epi32(acc, _mm512_xor_si512(load(a + i), bias), bv);
        corr = _mm512_dpbusd_epi32(corr, bias, bv);
    }
    if (i < n) {
        __mmask64 m = first(n - i);
        __m512i bv = _mm512_maskz_loadu_epi8(m, b + i);
        __m512i av = _mm512_maskz_loadu_epi8(m, a + i);
        acc = _mm512_dpbusd_epi32(acc, _mm512_xor_si512(av, bias), bv);
        corr = _mm512_dpbusd_epi32(corr, bias, bv);
    }
    return _mm512_reduce_add_epi32(_mm512_sub_epi32(acc, corr));
}

/* one weight block against several rows: its correction term is computed once */
VNNI512 static void block_rows(const int8_t *rows, size_t stride, size_t nrows, const int8_t *w,
                               size_t n, int32_t *out, size_t out_stride)
{
    const __m512i bias = _mm512_set1_epi8((char)0x80);
    size_t full = n & ~(size_t)63;
    __mmask64 m = first(n - full);
    __m512i corr = _mm512_setzero_si512();
    for (size_t i = 0; i < full; i += 64)
        corr = _mm512_dpbusd_epi32(corr, bias, load(w + i));
    __m512i wtail = _mm512_maskz_loadu_epi8(m, w + full);
    corr = _mm512_dpbusd_epi32(corr, bias, wtail);
    const __m512i start = _mm512_sub_epi32(_mm512_setzero_si512(), corr);
    for (size_t j = 0; j < nrows; j++) {
        const int8_t *a = rows + j * stride;
        __m512i acc = start;
        for (size_t i = 0; i < full; i += 64)
            acc = _mm512_dpbusd_epi32(acc, _mm512_xor_si512(load(a + i), bias), load(w + i));
        if (m) {
            __m512i av = _mm512_maskz_loadu_epi8(m, a + full);
            acc = _mm512_dpbusd_epi32(acc, _mm512_xor_si512(av, bias), wtail);
        }
        out[j * out_stride] = _mm512_reduce_add_epi32(acc);
    }
}

OTPU_DOT_BLOCKS(VNNI512)

/* __builtin_cpu_supports reports the AVX-512 features only when the OS saves their register
 * state (libgcc checks XCR0). */
static int supported(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vnni");
}

const otpu_dot_kernel otpu_dot_kernel_avx512vnni = {"avx512vnni", supported, dot, blocks};
#endif
