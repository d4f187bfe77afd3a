/* cover.c - coverage-directed generation (cover.h). */
#include "cover.h"

#include "machine.h"

enum { MAX_STEPS = 400000 }; /* generate.c's: every bundle it returns ends within it */

otpu_coverage *gen_cover_run(const otpu_bundle *b)
{
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(b, &e);
    if (!m)
        return NULL;
    otpu_coverage *cov = otpu_coverage_new(&b->cfg);
    if (cov) {
        otpu_coverage_attach(cov, m, NULL);
        otpu_machine_run(m, MAX_STEPS); /* (an error bundle stops at its error: still counted) */
    }
    otpu_machine_free(m);
    return cov;
}

size_t gen_cover_score(const otpu_coverage *holes, const otpu_coverage *run)
{
    size_t score = 0;
    for (size_t i = 0; i < otpu_coverage_nbins(run); i++) {
        const char *group, *name, *reason;
        uint64_t count;
        otpu_coverage_bin(run, i, &group, &name, &count, &reason);
        if (count && !reason && otpu_coverage_count(holes, group, name) <= 0)
            score++;
    }
    return score;
}

size_t gen_cover_empty(const otpu_coverage *holes)
{
    size_t n = 0;
    for (size_t i = 0; i < otpu_coverage_nbins(holes); i++) {
        const char *group, *name, *reason;
        uint64_t count;
        otpu_coverage_bin(holes, i, &group, &name, &count, &reason);
        n += !count && !reason;
    }
    return n;
}
