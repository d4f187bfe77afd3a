/* golden.h - check a run against a bundle's golden trace_<s>.txt and final_<s>.txt. */
#ifndef OTPU_GOLDEN_H
#define OTPU_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Run the bundle at dir and compare every golden file it holds: trace lines exactly (an
 * error line by the kind of error, the reference's wording differs), final states exactly,
 * and an expected error (expect=error) by kind and instruction.
 * Returns 0 when everything matches, 1 on the first difference, 2 for bad input; report
 * receives one line: "DIR: ok (...)" or what differs, where. */
int otpu_golden_check(const char *dir, uint64_t max_steps, char *report, size_t n);

#ifdef __cplusplus
}
#endif
#endif
