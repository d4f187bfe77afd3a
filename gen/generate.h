/* generate.h - otpu-gen's library: one run bundle of a family, from (family, seed, index,
 * Config), checked in the model before it is returned. The coverage and shrink tools can
 * call it directly. Same arguments, same bundle, on every machine. */
#ifndef OTPU_GEN_GENERATE_H
#define OTPU_GEN_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#include "bundle.h"
#include "program.h"

typedef struct {
    const char *name;
    const char *what;                    /* one line for --help */
    const char *data;                    /* what data it writes, for --help */
    void (*defaults)(otpu_config *cfg);  /* the family's Config defaults (NULL: none) */
    const char *(*refuses)(const otpu_config *cfg); /* why a Config cannot have it (NULL) */
    int (*build)(gen_ctx *c);            /* 0, or -1: this Config cannot have the family */
} gen_family;

extern const gen_family gen_families[];
extern const size_t gen_nfamilies;
const gen_family *gen_family_find(const char *name);

/* What generating one bundle took, and the model's outcome in its own words. */
typedef struct {
    unsigned discarded;        /* programs thrown away */
    unsigned repaired;         /* instructions replaced */
    char model_error[640];     /* the model's error message ("" for expect=ok) */
} gen_info;

/* Fill *out (free it with otpu_bundle_free) with bundle `index` of `family` for `seed` on
 * cfg (already the family's defaults plus overrides, checked); variant 0 is the bundle, the
 * others candidates in its place (otpu-gen --cover chooses among them: cover.h); data: the
 * fp32 data's kind (data.h: GEN_DATA_FINITE for otpu-gen --data finite). The model runs it: out's
 * expect= (and error=) is its outcome, which is the one the family intended. 0; or with one
 * line in err, GEN_BAD_CONFIG when the family cannot have this Config (bad usage), -1 when no
 * valid program came out (or out of memory). info may be NULL. */
enum { GEN_BAD_CONFIG = -2 };
int otpu_gen_bundle(const gen_family *family, uint64_t seed, uint64_t index, uint64_t variant,
                    gen_data data, const otpu_config *cfg, otpu_bundle *out, gen_info *info,
                    char *err, size_t errlen);

#endif
