/* dot_x86.h - what the x86 dot paths share: the sum of a vector's eight int32 lanes (AVX2,
 * AVX-VNNI), and the blocks() of otpu_dot_kernel over a file's own block_rows(). Each of
 * dot_avx2.c, dot_avxvnni.c and dot_avx512vnni.c compiles them for its own target. */
#ifndef OTPU_DOT_X86_H
#define OTPU_DOT_X86_H

#include "dot_kernel.h"

#ifdef OTPU_DOT_X86
#include <immintrin.h>

/* callable (and inlined) from any target that includes AVX2 */
__attribute__((target("avx2"))) static inline int32_t hsum256(__m256i v)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

/* Defines blocks(), each weight block against the rows by the file's
 * block_rows(rows, stride, nrows, w, n, out, out_stride), compiled for TARGET (an attribute):
 * a macro, as a shared function would call block_rows through a pointer it cannot inline. */
#define OTPU_DOT_BLOCKS(TARGET)                                                                \
    TARGET static void blocks(const int8_t *rows, size_t stride, size_t nrows, const int8_t *w, \
                              size_t n, size_t nblocks, int32_t *out)                          \
    {                                                                                          \
        for (size_t k = 0; k < nblocks; k++)                                                   \
            block_rows(rows + k * n, stride, nrows, w + k * n, n, out + k, nblocks);           \
    }

#endif
#endif
