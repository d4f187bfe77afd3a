/* log.h - the model's per-instruction write log.
 *
 * A listener attached to a machine receives, for every instruction a slice executes:
 *   on_issue   the instruction started (dynamic number n = the slice's icount before it, pc);
 *   on_retire  it finished: every location it wrote, with the value before and after, in
 *              the order written (all writes, also those that do not change the value);
 *   on_error   the run stopped with an error attributed to this slice (after the failing
 *              instruction's on_retire with faulted = 1, which lists the writes it made).
 * The records point into the slice's buffer: valid during the callback only. Without a
 * listener nothing is recorded.
 */
#ifndef OTPU_LOG_H
#define OTPU_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"
#include "protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* otpu_space (the memory spaces of a write, with their addr and mask rules): protocol.h */

typedef struct {
    uint64_t addr;
    uint32_t old, val;
    uint8_t space, mask;
} otpu_write;

typedef struct {
    uint32_t slice;
    uint64_t n;       /* dynamic instruction number (icount before it) */
    uint32_t pc;
    const otpu_instr *ins; /* NULL when the pc ran past the end of the program */
    const otpu_write *writes;
    size_t nwrites;
    int faulted;      /* the instruction raised an error after these writes */
    int chain;        /* HALT CHAIN: a new program of chain_count instructions was loaded */
    uint32_t chain_addr, chain_count;
} otpu_retired;

struct otpu_error;

typedef struct {
    void *user;
    void (*on_issue)(void *user, uint32_t slice, uint64_t n, uint32_t pc, const otpu_instr *ins);
    void (*on_retire)(void *user, const otpu_retired *r);
    void (*on_error)(void *user, uint32_t slice, const struct otpu_error *e);
} otpu_listener;

#ifdef __cplusplus
}
#endif
#endif
