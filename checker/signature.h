/* signature.h - a divergence's signature: the bucket a night groups its failures by
 * (checker/REPORT.md, "Signature"). One cause gives one signature however the program, its
 * addresses, data and seed differ; two causes that differ in kind, unit, instruction, memory
 * or the shape of the difference give two. */
#ifndef OTPU_SIGNATURE_H
#define OTPU_SIGNATURE_H

#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    /* KIND/UNIT/OPCODE/SPACE/SHAPE, "-" for a part that does not apply; e.g.
     * "wrong-value/VPU/VOP/TMEM/1-ulp", "order-violation/-/LD/TMEM/-" */
    char key[160];
    /* the same in words: "wrong-value: VPU VOP, TMEM, off by one ulp" */
    char words[320];
} otpu_signature;

void otpu_div_signature(const otpu_divergence *d, otpu_signature *sig);

#ifdef __cplusplus
}
#endif
#endif
