/* dot_avx2.c - the int8 dot products with AVX2: sign-extend to int16, vpmaddwd into int32
 * lanes (each lane adds pairs of products, at most 2 * 128 * 128, so nothing saturates). */
#include "dot_x86.h"

#ifdef OTPU_DOT_X86

#define AVX2 __attribute__((target("avx2")))

AVX2 static inline __m256i widen(const int8_t *p)
{
    return _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)p));
}

AVX2 static int32_t dot(const int8_t *a, const int8_t *b, size_t n)
{
    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(widen(a + i), widen(b + i)));
        acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(widen(a + i + 16), widen(b + i + 16)));
    }
    for (; i + 16 <= n; i += 16)
        acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(widen(a + i), widen(b + i)));
    return hsum256(_mm256_add_epi32(acc0, acc1)) + otpu_dot_scalar(a + i, b + i, n - i);
}

/* One weight block against several rows: the block is widened to int16 once. */
AVX2 static void block_rows(const int8_t *rows, size_t stride, size_t nrows, const int8_t *w,
                            size_t n, int32_t *out, size_t out_stride)
{
    enum { MAXV = 16 }; /* up to 256 elements held as int16 */
    size_t nv = n / 16;
    if (nv > MAXV || n % 16) {
        for (size_t j = 0; j < nrows; j++)
            out[j * out_stride] = dot(rows + j * stride, w, n);
        return;
    }
    __m256i wv[MAXV];
    for (size_t v = 0; v < nv; v++)
        wv[v] = widen(w + 16 * v);
    for (size_t j = 0; j < nrows; j++) {
        const int8_t *a = rows + j * stride;
        __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
        size_t v = 0;
        for (; v + 2 <= nv; v += 2) {
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(widen(a + 16 * v), wv[v]));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(widen(a + 16 * v + 16), wv[v + 1]));
        }
        if (v < nv)
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(widen(a + 16 * v), wv[v]));
        out[j * out_stride] = hsum256(_mm256_add_epi32(acc0, acc1));
    }
}

OTPU_DOT_BLOCKS(AVX2)

static int supported(void)
{
    return __builtin_cpu_supports("avx2");
}

const otpu_dot_kernel otpu_dot_kernel_avx2 = {"avx2", supported, dot, blocks};
#endif
