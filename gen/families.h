/* families.h - the families' builders (family_<name>.c), which generate.c's table of families
 * (gen_families, generate.h) names. Each builds on the layers below it (frame.h, layout.h,
 * host_steps.h, ops.h) and never calls generate.c. */
#ifndef OTPU_GEN_FAMILIES_H
#define OTPU_GEN_FAMILIES_H

#include "program.h"

/* 0, or -1: this Config cannot have the family (gen_family.build). */
int gen_family_mix(gen_ctx *c);
int gen_family_hazard(gen_ctx *c);
int gen_family_dma(gen_ctx *c);
int gen_family_mm(gen_ctx *c);
int gen_family_stream(gen_ctx *c);
int gen_family_fp(gen_ctx *c);
int gen_family_error(gen_ctx *c);
/* the family's Config defaults, and why a Config cannot have it (gen_family's fields) */
void gen_family_stream_defaults(otpu_config *cfg);
void gen_family_mm_defaults(otpu_config *cfg);
const char *gen_family_stream_refuses(const otpu_config *cfg);

#endif
