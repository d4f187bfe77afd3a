/* golden.h - check a run against a bundle's golden trace_<s>.txt and final_<s>.txt. */
#ifndef OTPU_GOLDEN_H
#define OTPU_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

#include "bundle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the bundle at dir and compare it with its golden files: final_<s>.txt for every slice
 * (required) and trace_<s>.txt (for every slice or none): trace lines exactly (an error line
 * by the kind of error, the reference's wording differs), final states exactly, and an
 * expected error (expect=error) by kind and instruction. A golden file that exists but cannot
 * be read is bad input, never skipped. rev: a tool's --rev (otpu_bundle_set_rev), or
 * OTPU_REV_UNSET: the bundle's REV= decides the ISA revision.
 * Returns 0 when everything matches, 1 on the first difference, 2 for bad input; report
 * receives one line: "DIR: ok (...)" or what differs, where. */
int otpu_golden_check(const char *dir, otpu_revision rev, uint64_t max_steps, char *report,
                      size_t n);

/* The comparison on golden texts already read: trace[s] and final[s] (NUL-terminated) for
 * each slice; trace NULL: no traces. dir names the bundle in the report. */
int otpu_golden_compare(const otpu_bundle *b, const char *dir, char *const *trace,
                        char *const *final, uint64_t max_steps, char *report, size_t n);

#ifdef __cplusplus
}
#endif
#endif
