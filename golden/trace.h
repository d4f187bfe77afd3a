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
 * the ACT scales, of a model's slice. Returns 0, or -1 on a write error. */
int otpu_final_write(FILE *f, const otpu_machine *m, uint32_t s);
/* The same text into buf (NUL-terminated, cut to n - 1 characters): its whole length, as
 * snprintf counts it, or -1 on an error. */
int otpu_final_text(const otpu_machine *m, uint32_t s, char *buf, size_t n);

/* The same file from any slice state (an RTL's dump): memories little endian as the model
 * holds them. DRAM: the whole image, or (dram NULL) dram_piece reads it piece by piece. */
typedef struct {
    int halted;
    uint32_t pc;
    uint64_t icount;
    const uint32_t *R;
    const uint32_t *tmem;
    uint64_t tmem_words;
    const uint8_t *dram;
    uint64_t dram_bytes;
    int (*dram_piece)(void *user, uint64_t addr, uint8_t *buf, size_t len); /* 0 ok */
    void *user;
    const int8_t *act;
    uint64_t act_bytes;
    const uint32_t *ascale;
    uint64_t ascale_words;
} otpu_final_state;
int otpu_final_write_state(FILE *f, const otpu_final_state *st);

#ifdef __cplusplus
}
#endif

#endif
