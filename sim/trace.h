/* trace.h - the golden-vector text formats (../shared/vectors/FORMAT.md): the per-slice
 * trace (changed locations only) written from the write log, and the final-state file. */
#ifndef OTPU_TRACE_H
#define OTPU_TRACE_H

#include <stdio.h>

#include "machine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct otpu_tracer otpu_tracer;

/* files[s] receives slice s's trace (a NULL entry: that slice is not traced). */
otpu_tracer *otpu_tracer_new(FILE *const *files, uint32_t nslices, const otpu_config *cfg);
void otpu_tracer_free(otpu_tracer *t);
otpu_listener otpu_tracer_listener(otpu_tracer *t);

/* final_<s>.txt: halted, pc, icount, registers and the SHA-256 of TMEM, DRAM, ACT RAM and
 * the ACT scales. Returns 0, or -1 on a write error. */
int otpu_final_write(FILE *f, const otpu_machine *m, uint32_t s);

#ifdef __cplusplus
}
#endif

#endif
