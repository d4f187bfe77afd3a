/* outcome.h - the one judge of a run bundle's expect= (and error=) line: does a run's outcome,
 * a clean run or an error of some kind, meet what the bundle expects? Every tool that decides
 * it (the golden comparison, the lockstep verdict) asks here and words its own message from
 * the answer. Header only: it sits below every library that runs bundles. */
#ifndef OTPU_OUTCOME_H
#define OTPU_OUTCOME_H

#include "bundle.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    OTPU_OUTCOME_MET,        /* the outcome is what the bundle expects */
    OTPU_OUTCOME_NO_ERROR,   /* a clean run; the bundle expects an error */
    OTPU_OUTCOME_ERROR,      /* an error; the bundle expects a clean run (expect=ok) */
    OTPU_OUTCOME_WRONG_KIND, /* an error of another kind than the bundle's error= */
} otpu_outcome;

/* The kind of error the bundle names (error=), or OTPU_ERR_NONE: none named (any will do). */
static inline otpu_err_kind otpu_outcome_wanted(const otpu_bundle *b)
{
    return b->error[0] ? otpu_err_classify(b->error) : OTPU_ERR_NONE;
}

/* When only whether the run failed is known (not its error's kind): OTPU_OUTCOME_MET,
 * OTPU_OUTCOME_NO_ERROR or OTPU_OUTCOME_ERROR. */
static inline otpu_outcome otpu_outcome_judge_failed(const otpu_bundle *b, int failed)
{
    if ((failed != 0) != (b->expect_error != 0))
        return failed ? OTPU_OUTCOME_ERROR : OTPU_OUTCOME_NO_ERROR;
    return OTPU_OUTCOME_MET;
}

/* got: the run's error kind, OTPU_ERR_NONE for a clean run. */
static inline otpu_outcome otpu_outcome_judge(const otpu_bundle *b, otpu_err_kind got)
{
    otpu_outcome o = otpu_outcome_judge_failed(b, got != OTPU_ERR_NONE);
    if (o != OTPU_OUTCOME_MET)
        return o;
    if (got != OTPU_ERR_NONE && b->error[0] && otpu_outcome_wanted(b) != got)
        return OTPU_OUTCOME_WRONG_KIND;
    return OTPU_OUTCOME_MET;
}

#ifdef __cplusplus
}
#endif
#endif
