/* logbuf.h - a write-log listener that keeps what it receives: the records of the instructions
 * retired since it was last cleared, and their writes, in two flat arrays. For callers that read
 * the log after a call instead of during it (the Python binding reads a step's writes this way,
 * with no call back into Python per instruction).
 *
 *     otpu_logbuf *b = otpu_logbuf_new();
 *     otpu_logbuf_attach(b, m);          // the machine's listener from now on
 *     otpu_machine_step(m, 0);
 *     for (size_t i = 0; i < otpu_logbuf_count(b); i++) {
 *         const otpu_logged *r = &otpu_logbuf_records(b)[i];
 *         const otpu_write *w = otpu_logbuf_writes(b) + r->first;   // r->nwrites of them
 *     }
 *     otpu_logbuf_clear(b);
 *     otpu_logbuf_free(b);               // after detaching it (otpu_machine_set_listener NULL)
 */
#ifndef OTPU_LOGBUF_H
#define OTPU_LOGBUF_H

#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One retired instruction (otpu_retired, log.h, with its instruction's words copied; has_ins 0:
 * the pc was past the end of the program, or a HALT CHAIN's reload record). */
typedef struct {
    uint64_t n;           /* dynamic instruction number */
    uint64_t first;       /* its first write in otpu_logbuf_writes */
    uint64_t nwrites;
    uint32_t slice, pc;
    uint32_t words[8];    /* the instruction's words (zero without one: has_ins 0) */
    uint32_t chain_addr, chain_count;
    uint8_t has_ins, faulted, chain, pad;
} otpu_logged;

typedef struct otpu_logbuf otpu_logbuf;

otpu_logbuf *otpu_logbuf_new(void);              /* NULL: out of memory */
void otpu_logbuf_free(otpu_logbuf *b);
void otpu_logbuf_attach(otpu_logbuf *b, otpu_machine *m);
void otpu_logbuf_clear(otpu_logbuf *b);
size_t otpu_logbuf_count(const otpu_logbuf *b);
const otpu_logged *otpu_logbuf_records(const otpu_logbuf *b);
const otpu_write *otpu_logbuf_writes(const otpu_logbuf *b);
/* 1 when a record or write was dropped for want of memory since the last clear. */
int otpu_logbuf_lost(const otpu_logbuf *b);

#ifdef __cplusplus
}
#endif
#endif
