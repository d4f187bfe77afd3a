/* report.h - the first-divergence report (kinds and schema: checker/REPORT.md): text for
 * people, JSON for tools. The JSON schema is documented in checker/REPORT.md. */
#ifndef OTPU_REPORT_H
#define OTPU_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "report_terms.h"

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


void otpu_report_text(FILE *f, const otpu_divergence *d, const otpu_report_info *info);
void otpu_report_json(FILE *f, const otpu_divergence *d, const otpu_report_info *info);
/* divergence.html: the text report on one static page, escaped. 0, or -1 (a write error). */
int otpu_report_html(FILE *f, const otpu_divergence *d, const otpu_report_info *info);

/* A divergence.json read back (report_read.c), with the storage its pointers use. */
typedef struct {
    otpu_divergence d;
    otpu_report_info info;
    otpu_div_fact *operands, *intermediates;
    char *bundle, *repro, *wave;
} otpu_report_stored;
/* 0, or -1 with one line in err (not JSON, another schema, out of memory). */
int otpu_report_read(const char *path, otpu_report_stored *r, char *err, size_t errlen);
void otpu_report_stored_free(otpu_report_stored *r);

#ifdef __cplusplus
}
#endif
#endif
