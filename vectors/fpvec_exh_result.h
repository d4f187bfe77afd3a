/* fpvec_exh_result.h - the result of an exhaustive run (otpu-fpvec exhaustive) or of a merge of
 * several: what was compared (the otpu_fp.sv, the ISA revision, the functions, the input
 * ranges) and a tally per function (fpvec_exh.h); its JSON file (fpvec_exh_json.c; schema in
 * vectors/README.md), which exhaustive-merge reads back. */
#ifndef OTPU_FPVEC_EXH_RESULT_H
#define OTPU_FPVEC_EXH_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "fpvec.h"
#include "fpvec_exh.h"

#define FPVEC_EXH_SCHEMA "otpu-fpvec-exhaustive/2"

typedef struct exh_result {
    char sv[4096];             /* the otpu_fp.sv compared */
    char sv_sha256[65];        /* its content's hash: results of one design merge */
    const otpu_rev_desc *rev;
    uint32_t ops;              /* the functions, a bit per op */
    uint64_t (*ranges)[2];     /* the inputs [lo, hi) of every function, sorted, disjoint */
    size_t nranges;
    uint64_t whole[2];         /* the --range [lo, hi) that was split into shards */
    uint64_t of;               /* into this many (1: not split) */
    uint64_t *shards;          /* the shards this result holds (a run: one), sorted */
    size_t nshards;
    fpvec_exh_tally tally[FPVEC_NOPS];
    double wall_s;             /* a run: its wall time; a merge: the runs' sum */
    unsigned procs;            /* a run: its bench processes */
    char mismatch_file[4096];  /* where the first mismatches were written ("" none) */
} exh_result;

/* A new result (zeroed, the current revision), or NULL (out of memory); exh_result_free. */
exh_result *exh_result_new(void);
void exh_result_free(exh_result *r);
/* Adds the range [lo, hi) to r's (kept sorted, adjacent ones joined). Returns 0, or -1 when it
 * overlaps one r has (its inputs would count twice). */
int exh_result_add_range(exh_result *r, uint64_t lo, uint64_t hi);
/* Adds shard i (of r->of) to r's: 0, or -1 when r has it already (or out of memory). */
int exh_result_add_shard(exh_result *r, uint64_t i);

/* Writes r as JSON to path (as it is: the caller makes it whole, output.h); 0, or -1 with one
 * line in err. */
int exh_json_write(const char *path, const exh_result *r, char *err, size_t errlen);
/* Reads a file exh_json_write wrote into r (a new one); 0, or -1 with one line in err (not
 * JSON, another schema, a field missing or out of range). */
int exh_json_read(const char *path, exh_result *r, char *err, size_t errlen);

#endif
