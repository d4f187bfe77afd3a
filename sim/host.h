/* host.h - the host's part of a run bundle (host.txt, docs/bundle.md): an ordered list of
 * steps the host takes while the machine runs, replayed the same way by the model (its host
 * hook), the RTL (rtl_bridge's driver, every cycle) and lockstep (which compares the two
 * sides' records of the steps).
 *
 * Grammar (one step a line; '#' starts a comment; numbers are decimal or 0x hex, words 1 to 8
 * hex digits):
 *   await <slice> waitw              until that slice is stalled polling a WAITW
 *   await <slice> halted             until that slice has halted (or stopped with an error)
 *   await all halted                 until every slice has
 *   write <slice> <addr> <word>...   the host writes DRAM words (a 4-aligned byte address)
 *   expect <slice> <addr> <word>...  the host reads DRAM words and checks them
 *   args <slice> <r8> ... <r15>      the arguments of the slice's next run (1 to 8 values)
 *   load <slice> <file.hex>          the program of the slice's next run (a file of the bundle)
 *   run <slice>                      restart a halted slice at pc 0, memories kept
 *   cycles <n>                       let n cycles pass (the model is untimed: one poll round)
 *   polls <n>                        until every slice polling a WAITW has polled n more times
 *   barrier                          until every slice is stopped: halted, polling a WAITW, or
 *                                    waiting at a BAR/GATHER
 *
 * The executor runs steps in order until one must wait; a failed expect is recorded and the
 * steps go on; a step that cannot be done (run of a slice that is not halted, a write out of
 * DRAM) stops the host with a message naming host.txt's line. */
#ifndef OTPU_HOST_H
#define OTPU_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    OTPU_HS_AWAIT_WAITW, OTPU_HS_AWAIT_HALTED, OTPU_HS_AWAIT_ALL, OTPU_HS_WRITE, OTPU_HS_EXPECT,
    OTPU_HS_ARGS, OTPU_HS_LOAD, OTPU_HS_RUN, OTPU_HS_CYCLES, OTPU_HS_POLLS, OTPU_HS_BARRIER
} otpu_host_kind;

typedef struct {
    otpu_host_kind kind;
    int line;           /* in host.txt */
    uint32_t slice;
    uint64_t addr;      /* write, expect */
    uint64_t n;         /* cycles, polls */
    uint32_t *words;    /* write, expect, args; load: the program (filled by the bundle reader) */
    size_t nwords;
    char *file;         /* load */
} otpu_host_step;

typedef struct {
    otpu_host_step *steps;
    size_t n;
} otpu_host_script;

/* Parses host.txt (len bytes; path names it in messages) against Config c: 0, or -1 with
 * "PATH:LINE: why" in err. load steps get their file name; the caller reads the program. */
int otpu_host_parse(const char *text, size_t len, const char *path, const otpu_config *c,
                    otpu_host_script *out, char *err, size_t errlen);
void otpu_host_script_free(otpu_host_script *s);
/* One step as written in host.txt ("await 0 waitw", "write 0 0x100 ..."), into out. */
char *otpu_host_step_text(const otpu_host_step *st, char *out, size_t len);

/* ---- the executor ---------------------------------------------------------------------- */

/* What a device's run answers for a slice that cannot run again (the model and the RTL say
 * the same): it stopped with its own error; the machine stopped at another slice's. */
#define OTPU_HOST_RUN_FAILED "the slice stopped with an error: it does not run again"
#define OTPU_HOST_RUN_STOPPED "the machine stopped at an error: no slice runs again"

/* The machine the steps act on: the model, or the RTL through its driver. */
typedef struct {
    int (*polling)(void *dev, uint32_t s);   /* stalled on a WAITW whose word does not hold */
    int (*halted)(void *dev, uint32_t s);    /* halted, or stopped with an error */
    int (*stopped)(void *dev, uint32_t s);   /* halted, polling, or waiting at a collective */
    uint64_t (*polls)(void *dev, uint32_t s);  /* WAITW reads that did not hold, so far */
    uint64_t (*now)(void *dev);              /* cycles */
    /* DRAM words: 0 done, 1 not yet (call again), -1 refused (why in err) */
    int (*write)(void *dev, uint32_t s, uint64_t addr, const uint32_t *w, size_t n, char *err,
                 size_t errlen);
    int (*read)(void *dev, uint32_t s, uint64_t addr, uint32_t *w, size_t n);
    /* restart halted slice s at pc 0 with args, with prog (nwords) first when prog != NULL:
     * 0, or -1 with why in err */
    int (*run)(void *dev, uint32_t s, const uint32_t *prog, size_t nwords,
               const uint32_t args[8], char *err, size_t errlen);
} otpu_host_device;

/* A step the host completed (records come in step order), and for expect the words it read. */
typedef struct {
    const otpu_host_step *step;
    size_t nread;
    uint32_t *read;
} otpu_host_record;

typedef struct otpu_host otpu_host;

/* An executor of script (borrowed; it must outlive the executor) for S slices whose runs
 * start with args; NULL when out of memory. */
otpu_host *otpu_host_new(const otpu_host_script *script, uint32_t S, const uint32_t args[8]);
void otpu_host_free(otpu_host *h);
/* Runs steps until one must wait: OTPU_HOST_BUSY it did something or an access is in flight,
 * OTPU_HOST_TIME it waits for time to pass (a cycles or polls step in progress), 0 it waits
 * for the machine (an await, a barrier) or is done, -1 a step could not be done (the host
 * stopped; otpu_host_verdict says which). The steps before the first wait of any kind are the
 * ones every tool runs before the first instruction (docs/bundle.md). */
enum { OTPU_HOST_BUSY = 1, OTPU_HOST_TIME = 2 };
int otpu_host_advance(otpu_host *h, const otpu_host_device *d, void *dev);
const otpu_host_record *otpu_host_records(const otpu_host *h, size_t *n);
/* The outcome after the machine stopped: the failure, or the step never reached (into msg);
 * 0 when every step ran and every expect held. */
int otpu_host_verdict(const otpu_host *h, char *msg, size_t len);

#ifdef __cplusplus
}
#endif
#endif
