/* vecops.h - row operations shared by VOP, MM, DSTEP and STREAM, built on fp32.h. */
#ifndef OTPU_VECOPS_H
#define OTPU_VECOPS_H

#include <stddef.h>
#include <stdint.h>

#include "fp32.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RDOT of a row: isum_64 of the rounded products a[c] * b[c*bstride] (bstride 0: one b for
 * every column). tmp holds n words. */
uint32_t otpu_rdot(const uint32_t *a, const uint32_t *b, size_t bstride, size_t n,
                   uint32_t *tmp);

/* One element of a VOP elementwise function f (OTPU_V_*) of a and b; fp: the revision's
 * composites. STREAM's scalar ops are the same functions (exec_stream.c maps them). */
uint32_t otpu_vop_elementwise(const otpu_f32_fns *fp, unsigned f, uint32_t a, uint32_t b);

/* The first index of the row's maximum in the total order of `key` (np.argmax of the keys;
 * key: the revision's, otpu_f32_fns). n > 0. */
size_t otpu_argmax(uint32_t (*key)(uint32_t), const uint32_t *a, size_t n);

#ifdef __cplusplus
}
#endif

#endif
