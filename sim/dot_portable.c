/* dot_portable.c - the int8 dot products in plain C: the reference every other path is held
 * against, and the path on CPUs without a vectorized one. */
#include "dot_kernel.h"

static int32_t dot(const int8_t *a, const int8_t *b, size_t n)
{
    return otpu_dot_scalar(a, b, n);
}

static void blocks(const int8_t *rows, size_t stride, size_t nrows, const int8_t *w, size_t n,
                   size_t nblocks, int32_t *out)
{
    for (size_t j = 0; j < nrows; j++)
        for (size_t k = 0; k < nblocks; k++)
            out[j * nblocks + k] = dot(rows + j * stride + k * n, w + k * n, n);
}

static int supported(void)
{
    return 1;
}

const otpu_dot_kernel otpu_dot_kernel_portable = {"portable", supported, dot, blocks};
