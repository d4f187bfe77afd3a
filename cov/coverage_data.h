/* coverage_data.h - the coverage model's bins of the values the datapath ran on (coverage.h:
 * the groups data, mm-data, quant-data, vop-data, gather-data and idle), which coverage_model.c
 * builds and feeds. Internal to libotpucov. */
#ifndef OTPU_COVERAGE_DATA_H
#define OTPU_COVERAGE_DATA_H

#include "coverage_bins.h"

/* Its groups' bins (0, or -1 out of memory), what an instruction ran on at its issue (v: the
 * slice before it executes; o: its operands), what it wrote at its retire. */
int cov_data_build(otpu_coverage *c);
void cov_data_free(otpu_coverage *c);
void cov_data_issue(otpu_coverage *c, uint32_t s, const otpu_instr *in, const otpu_ops *o,
                    const otpu_slice_view *v);
void cov_data_retire(otpu_coverage *c, const otpu_retired *r);

#endif
