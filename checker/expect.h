/* expect.h - one instruction's expected writes, indexed by location, consumed in order as the
 * RTL's writes land. */
#ifndef OTPU_EXPECT_H
#define OTPU_EXPECT_H

#include <stddef.h>
#include <stdint.h>

#include "log.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t key;       /* space << 56 | addr */
    uint32_t first, count, cursor; /* this location's records in rec[] (write order) */
    uint32_t bcur[4];   /* DRAM: per byte, the next record that may write it */
} otpu_expect_loc;

typedef struct {
    otpu_write *rec;    /* the model's writes, grouped by location, in write order */
    size_t nrec;
    otpu_expect_loc *loc;
    size_t nloc;
    uint32_t *hash;     /* open addressing over loc (index + 1; 0: empty) */
    size_t hcap;
    uint8_t *done;      /* DRAM: the bytes of each record matched so far */
    size_t consumed;    /* records matched so far */
} otpu_expect;

typedef enum {
    OTPU_MATCH_OK,
    OTPU_MATCH_VALUE,     /* the location is expected, the bits differ */
    OTPU_MATCH_STRAY,     /* the location is not written by this instruction */
    OTPU_MATCH_DUPLICATE, /* the location was written as often as the model writes it */
} otpu_match;

/* Build from a write log (copied). 0, or -1 out of memory. */
int otpu_expect_init(otpu_expect *e, const otpu_write *w, size_t n);
void otpu_expect_free(otpu_expect *e);

/* Match an RTL write (DRAM: mask = the bytes written). On a mismatch *want (and *wmask)
 * receive the expected bits. */
otpu_match otpu_expect_take(otpu_expect *e, otpu_space space, uint64_t addr, uint32_t data,
                            uint32_t mask, uint32_t *want, uint32_t *wmask);

/* The first location still expected (not fully written), or NULL; *remaining counts them. */
const otpu_write *otpu_expect_missing(const otpu_expect *e, size_t *remaining);

/* Does the instruction write this location (whatever the value)? DRAM: any of the bytes of
 * mask (a byte write touches only its bytes of the word); other spaces: mask is ignored. */
int otpu_expect_writes(const otpu_expect *e, otpu_space space, uint64_t addr, uint32_t mask);

#ifdef __cplusplus
}
#endif
#endif
