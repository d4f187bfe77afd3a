/* dot.c - int8 dot products for the MXU.
 *
 * A portable C version, and on x86-64 an AVX2 version (sign-extend to int16, vpmaddwd into
 * int32 lanes) chosen at run time when the CPU has AVX2. The arithmetic is exact integer
 * arithmetic, so both give the same results; tests compare them. */
#include "dot.h"

static int32_t dot_portable(const int8_t *a, const int8_t *b, size_t n)
{
    int32_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += (int16_t)a[i] * (int16_t)b[i];
    return s;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("avx2"))) static int32_t dot_avx2(const int8_t *a, const int8_t *b,
                                                        size_t n)
{
    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i a0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + i)));
        __m256i b0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(b + i)));
        __m256i a1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + i + 16)));
        __m256i b1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(b + i + 16)));
        acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(a0, b0));
        acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(a1, b1));
    }
    __m256i acc = _mm256_add_epi32(acc0, acc1);
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s) + dot_portable(a + i, b + i, n - i);
}

/* One weight block against several rows: the block is widened to int16 once. */
__attribute__((target("avx2"))) static void rows_avx2(const int8_t *base, size_t stride,
                                                      size_t rows, const int8_t *w, size_t n,
                                                      int32_t *out)
{
    enum { MAXV = 16 }; /* up to 256 elements held in registers/stack as int16 */
    size_t nv = n / 16;
    if (nv > MAXV || n % 16) {
        for (size_t j = 0; j < rows; j++)
            out[j] = dot_avx2(base + j * stride, w, n);
        return;
    }
    __m256i wv[MAXV];
    for (size_t v = 0; v < nv; v++)
        wv[v] = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + 16 * v)));
    for (size_t j = 0; j < rows; j++) {
        const int8_t *a = base + j * stride;
        __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
        size_t v = 0;
        for (; v + 2 <= nv; v += 2) {
            __m256i a0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + 16 * v)));
            __m256i a1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + 16 * v + 16)));
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(a0, wv[v]));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(a1, wv[v + 1]));
        }
        if (v < nv) {
            __m256i a0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + 16 * v)));
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(a0, wv[v]));
        }
        __m256i acc = _mm256_add_epi32(acc0, acc1);
        __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
        out[j] = _mm_cvtsi128_si32(s);
    }
}

static int have_avx2(void)
{
    static int known = -1; /* benign race: every thread computes the same value */
    if (known < 0)
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
    return known;
}
#define DOT(a, b, n) (have_avx2() ? dot_avx2(a, b, n) : dot_portable(a, b, n))
#else
#define DOT(a, b, n) dot_portable(a, b, n)
#endif

const char *otpu_dot_path(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_avx2())
        return "avx2";
#endif
    return "portable";
}

int32_t otpu_dot_i8(const int8_t *a, const int8_t *b, size_t n)
{
    return DOT(a, b, n);
}

int32_t otpu_dot_i8_portable(const int8_t *a, const int8_t *b, size_t n)
{
    return dot_portable(a, b, n);
}

void otpu_dot_i8_rows(const int8_t *rows_base, size_t row_stride, size_t rows, const int8_t *w,
                      size_t n, int32_t *out)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_avx2()) {
        rows_avx2(rows_base, row_stride, rows, w, n, out);
        return;
    }
#endif
    for (size_t j = 0; j < rows; j++)
        out[j] = dot_portable(rows_base + j * row_stride, w, n);
}
