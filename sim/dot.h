/* dot.h - exact int8 dot products for the MXU (int8 x int8 into 32-bit accumulators).
 *
 * Several implementations ("paths") give bit-identical results: "avx512vnni", "avxvnni",
 * "avx2" (x86-64, when the CPU has them) and "portable". The best one this CPU has is used
 * unless OTPU_DOT_PATH names another one or otpu_dot_select chose one. */
#ifndef OTPU_DOT_H
#define OTPU_DOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sum a[i] * b[i], exact (|result| <= n * 128 * 128, so n < 131072). */
int32_t otpu_dot_i8(const int8_t *a, const int8_t *b, size_t n);

/* out[j] = dot(rows_base + j * row_stride, w, n) for j < rows: one weight block against
 * several stationary rows. */
void otpu_dot_i8_rows(const int8_t *rows_base, size_t row_stride, size_t rows, const int8_t *w,
                      size_t n, int32_t *out);

/* out[j * nblocks + k] = dot(rows_base + j * row_stride + k * n, w + k * n, n) for j < rows,
 * k < nblocks: a streamed weight row of nblocks blocks against several rows (MM's shape: one
 * call per streamed row). */
void otpu_dot_i8_blocks(const int8_t *rows_base, size_t row_stride, size_t rows, const int8_t *w,
                        size_t n, size_t nblocks, int32_t *out);

/* The portable version, for tests that hold the others against it. */
int32_t otpu_dot_i8_portable(const int8_t *a, const int8_t *b, size_t n);

/* The path the functions above use now. */
const char *otpu_dot_path(void);

/* Every path this build knows, best first, NULL-terminated (the CPU may lack some). */
const char *const *otpu_dot_paths_known(void);

/* The paths this CPU can run, best first, NULL-terminated. */
const char *const *otpu_dot_paths(void);

/* 1 when this CPU can run the path, 0 when it cannot, -1 for a name no path has. */
int otpu_dot_available(const char *name);

/* Use the path name from now on (the whole process; not while another thread is inside a dot
 * product of a run it expects to use one path). NULL or "auto": the best this CPU has.
 * Returns 0, or -1 with a reason in err for an unknown name or one this CPU lacks (the active
 * path is then unchanged). */
int otpu_dot_select(const char *name, char *err, size_t errlen);

/* Checks $OTPU_DOT_PATH (the path a whole tool run uses; unset or empty: the best): 0 when it
 * is unset or a path this CPU has, -1 with a reason in err otherwise. The first dot product
 * of the process uses the variable's path unless otpu_dot_select chose one first;
 * otpu_machine_new refuses to build a machine while the variable is bad, so a bad value is an
 * error of the run, never silently another path. */
int otpu_dot_env_check(char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
