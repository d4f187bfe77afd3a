/* variants.h - witness mode (otpu-shrink --variants): small variants of a bundle, written and
 * not run, for a fault localizer that runs them in lockstep (the variants that pass are its
 * witnesses). In this order: each instruction but the final HALT dropped alone (slice by
 * slice, program.h's removal: a LOOP left empty goes with it); each LOOP whose immediate trip
 * count is above 1 lowered to 1 (and, above 2, to count - 1); the DRAM images' bytes redrawn
 * (SHRINK_DATA_VARIANTS draws). case.txt, plusargs.txt and the host steps stay as they are. */
#ifndef OTPU_SHRINK_VARIANTS_H
#define OTPU_SHRINK_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "bundle.h"

enum { SHRINK_DATA_VARIANTS = 4 }; /* "other data" draws */

typedef struct {
    const char *dir; /* the output folder: new or empty (shrink_variants_check_dir) */
    uint64_t seed;   /* the data draws' seed */
    uint64_t max;    /* at most this many variants (from 1) */
} shrink_variants_options;

/* Checks dir before any work: nothing yet (a folder that can be made) or an empty folder.
 * 0, or -1 with one line in err. */
int shrink_variants_check_dir(const char *dir, char *err, size_t n);

/* Writes the variants of b into opt->dir (made if new) as v001, v002, ... (each a bundle
 * written by otpu_bundle_write and read back: one that is not valid is skipped) and
 * variants.txt, one line a variant: "vNNN<TAB>what changed". How many were written (0: none
 * could be; the folder is then left as it was found, variants.txt not written), or -1 with one
 * line in err (a write failed). */
long shrink_variants_write(const otpu_bundle *b, const shrink_variants_options *opt, char *err,
                           size_t n);

#endif
