/* layout.h - the DRAM images' regions and data (layout.c; otpu_gen_bundle lays them out before
 * the family builds, a family that narrows dpool or changes edge_pct lays them out again), and
 * the instructions that load the current slice's TMEM pool (its first 4096 words) and its whole
 * ACT RAM from them (gen_start_all calls it: frame.h). */
#ifndef OTPU_GEN_LAYOUT_H
#define OTPU_GEN_LAYOUT_H

#include "program.h"

void gen_layout_data(gen_ctx *c);
void gen_warm(gen_ctx *c);

#endif
