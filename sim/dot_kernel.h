/* dot_kernel.h - one implementation ("path") of the MXU's int8 dot products; dot.c chooses
 * among them at run time. Internal to libotpusim. */
#ifndef OTPU_DOT_KERNEL_H
#define OTPU_DOT_KERNEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct otpu_dot_kernel {
    const char *name;
    /* 1 when this CPU (and its OS, for the wider register state) can run the path */
    int (*supported)(void);
    /* sum a[i] * b[i] for i < n, exact */
    int32_t (*dot)(const int8_t *a, const int8_t *b, size_t n);
    /* out[j * nblocks + k] = dot(rows + j * stride + k * n, w + k * n, n) for j < rows,
     * k < nblocks: several weight blocks of n against several rows */
    void (*blocks)(const int8_t *rows, size_t stride, size_t nrows, const int8_t *w, size_t n,
                   size_t nblocks, int32_t *out);
} otpu_dot_kernel;

/* the scalar loop: the portable path, and the tails of the vector ones */
static inline int32_t otpu_dot_scalar(const int8_t *a, const int8_t *b, size_t n)
{
    int32_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += (int16_t)a[i] * (int16_t)b[i];
    return s;
}

extern const otpu_dot_kernel otpu_dot_kernel_portable;
#if defined(__x86_64__) && defined(__GNUC__)
#define OTPU_DOT_X86 1
extern const otpu_dot_kernel otpu_dot_kernel_avx2;
extern const otpu_dot_kernel otpu_dot_kernel_avxvnni;
extern const otpu_dot_kernel otpu_dot_kernel_avx512vnni;
#endif

#endif
