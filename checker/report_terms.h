/* report_terms.h - the terms a report and a signature both state: a divergence kind's name
 * (otpu_div_kind_name, declared in check.h, defined in report_terms.c), a memory space's name and
 * the ulp distance of two fp32 values. Below the divergence record and the report: it calls
 * nothing of the checker. */
#ifndef OTPU_REPORT_TERMS_H
#define OTPU_REPORT_TERMS_H

#include <stdint.h>

#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "register", "TMEM", "DRAM", "ACT", "ASCALE" */
const char *otpu_space_label(otpu_space s);
/* ulp distance of two fp32 bit patterns (0 when equal; a large number across NaN/sign). */
uint64_t otpu_ulp_distance(uint32_t a, uint32_t b);

#ifdef __cplusplus
}
#endif
#endif
