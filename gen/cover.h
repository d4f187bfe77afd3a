/* cover.h - coverage-directed generation (otpu-gen --cover FILE): a coverage file (JSON, as
 * otpu-sim, otpu-lockstep and otpu-cov write it; docs/coverage.md) says which bins are still
 * empty; a candidate bundle scores the number of those its run in the model hits. otpu-gen
 * writes, of several candidates for an index, the one that scores most, and adds its bins to
 * the file's counts, so that the next index aims at the bins still empty (a greedy cover). */
#ifndef OTPU_GEN_COVER_H
#define OTPU_GEN_COVER_H

#include <stddef.h>

#include "bundle.h"
#include "coverage.h"

/* The coverage of b's run in the model (its Config's bins); NULL if b cannot be run or out of
 * memory. */
otpu_coverage *gen_cover_run(const otpu_bundle *b);
/* How many bins run hit (reachable on its Config) that holes has at 0 or lacks. */
size_t gen_cover_score(const otpu_coverage *holes, const otpu_coverage *run);
/* The bins still empty in holes (reachable on one of its Configs). */
size_t gen_cover_empty(const otpu_coverage *holes);

#endif
