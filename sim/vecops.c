/* vecops.c - row operations shared by several instructions. */
#include "vecops.h"

#include "fp32.h"

uint32_t otpu_rdot(const uint32_t *a, const uint32_t *b, size_t bstride, size_t n,
                   uint32_t *tmp)
{
    for (size_t c = 0; c < n; c++)
        tmp[c] = otpu_f32_mul(a[c], b[c * bstride]);
    return otpu_f32_isum(tmp, n, 1, OTPU_RED_PARTIALS, 1);
}

size_t otpu_argmax(uint32_t (*key)(uint32_t), const uint32_t *a, size_t n)
{
    size_t best = 0;
    uint32_t bk = key(a[0]);
    for (size_t c = 1; c < n; c++) {
        uint32_t k = key(a[c]);
        if (k > bk) {
            bk = k;
            best = c;
        }
    }
    return best;
}
