/* oracle.h - the shrinker's interestingness test: does a candidate bundle still fail the same
 * way as the original?
 *
 * "The same" is: the command's exit status, and with otpu-lockstep (the default command) the
 * first divergence's signature (its divergence.json, checker/REPORT.md: kind, unit, opcode,
 * memory and the shape of the difference; a report without one: kind, unit and opcode); and the C
 * model's own outcome (halts, or stops with an error of the same kind). The model's outcome is
 * checked first, in this process: a candidate on which the model raises another error (or none)
 * changes what the bundle's expect= judges, so it is not the same failure, and no command is run
 * for it. Results are remembered by the candidate's content, so no candidate runs twice. */
#ifndef OTPU_SHRINK_ORACLE_H
#define OTPU_SHRINK_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "bundle.h"

typedef struct shrink_oracle shrink_oracle;

typedef struct {
    const char *lockstep; /* the default command's otpu-lockstep (unused with cmd) */
    const char *cmd;      /* a shell command, {} the candidate's path; NULL: otpu-lockstep */
    const char *tmp;      /* a private folder for the candidate, its report and the run's log */
    double timeout;       /* seconds a candidate's command may take (killed past it: a
                           * different failure); 0: ten times the original's run, plus 60 */
} shrink_oracle_options;

/* Judges the original bundle b: its model outcome and the command's failure signature.
 * NULL with one line in err if the command could not be run or could not judge the bundle
 * (otpu-lockstep's bad input or failed build). */
shrink_oracle *shrink_oracle_new(const shrink_oracle_options *opt, const otpu_bundle *b,
                                 char *err, size_t n);
void shrink_oracle_free(shrink_oracle *o);

/* 1 if the original fails (the command exits non-zero). */
int shrink_oracle_fails(const shrink_oracle *o);
/* The original's failure: "exit 1, wrong-value/VPU/VOP/TMEM/1-ulp" (or "exit 0"). */
const char *shrink_oracle_signature(const shrink_oracle *o);
/* The command, as it is run ({} for the candidate's path). */
const char *shrink_oracle_command(const shrink_oracle *o);

/* 1 if candidate c fails the same way, 0 if not, -1 with one line in err (a file could not
 * be written, the command could not be started; or the tool was sent a signal meanwhile:
 * otpu_proc_interrupted, proc.h, says which). A candidate is first written and read back as a
 * bundle (an invalid one is not the same failure), and the model's outcome, host steps
 * included, must be the original's. */
int shrink_oracle_test(shrink_oracle *o, const otpu_bundle *c, char *err, size_t n);
/* Runs the command on c once more, nothing remembered: 1 if it fails the same way, 0 if not
 * (its failure in sig), -1 with err. The reduced bundle is checked so before it is kept. */
int shrink_oracle_confirm(shrink_oracle *o, const otpu_bundle *c, char *sig, size_t siglen,
                          char *err, size_t n);

/* Where the last bundle found failing the same way diverged: 1 with its slice and pc, or 0
 * if the command named no instruction. */
int shrink_oracle_where(const shrink_oracle *o, uint32_t *slice, uint32_t *pc);

typedef struct {
    uint64_t tried;  /* candidates judged */
    uint64_t runs;   /* of them, run by the command */
    uint64_t model;  /* rejected by the model's outcome alone (host steps included) */
    uint64_t invalid; /* not a valid bundle (rejected unrun) */
    uint64_t cached; /* judged before */
} shrink_oracle_counts;
shrink_oracle_counts shrink_oracle_counts_get(const shrink_oracle *o);

#endif
