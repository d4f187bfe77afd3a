/* dot.h - exact int8 dot products for the MXU (int8 x int8 into 32-bit accumulators). */
#ifndef OTPU_DOT_H
#define OTPU_DOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sum a[i] * b[i], exact (|result| <= n * 127 * 128). */
int32_t otpu_dot_i8(const int8_t *a, const int8_t *b, size_t n);

/* The kernel otpu_dot_i8 uses on this CPU: "avx2" or "portable". */
const char *otpu_dot_path(void);

/* The portable version, for tests that hold the vectorized one against it. */
int32_t otpu_dot_i8_portable(const int8_t *a, const int8_t *b, size_t n);

/* out[j] = dot(rows_base + j * row_stride, w, n) for j < rows: one weight block against
 * several stationary rows. */
void otpu_dot_i8_rows(const int8_t *rows_base, size_t row_stride, size_t rows, const int8_t *w,
                      size_t n, int32_t *out);

#ifdef __cplusplus
}
#endif

#endif
