/* report.h - the first-divergence report (kinds and schema: checker/REPORT.md): text for
 * people, JSON for tools. The JSON schema is documented in checker/REPORT.md. */
#ifndef OTPU_REPORT_H
#define OTPU_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *bundle;   /* the bundle folder */
    const char *repro;    /* the one-line command that reproduces the run */
    const char *wave;     /* the waveform window's file, or NULL */
    uint64_t wave_from, wave_to;
    uint64_t divergences; /* total counted (keep-going) */
    uint64_t wave_marker; /* the waveform's time (its units) showing the diverging record */
} otpu_report_info;

/* ulp distance of two fp32 bit patterns (0 when equal; a large number across NaN/sign). */
uint64_t otpu_ulp_distance(uint32_t a, uint32_t b);

void otpu_report_text(FILE *f, const otpu_divergence *d, const otpu_report_info *info);
void otpu_report_json(FILE *f, const otpu_divergence *d, const otpu_report_info *info);

#ifdef __cplusplus
}
#endif
#endif
