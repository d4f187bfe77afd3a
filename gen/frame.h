/* frame.h - the frame every family's programs share (frame.c): each slice's start (its address
 * registers, the loads of its TMEM pool and ACT RAM), its end (HALT; with chain, slice 0's HALT
 * CHAIN to a short second program) and a collective at the end of every slice's program. A
 * layer below the families (gen/meson.build lists the layers). */
#ifndef OTPU_GEN_FRAME_H
#define OTPU_GEN_FRAME_H

#include "program.h"

/* Every slice's address registers set up and its TMEM pool and ACT RAM loaded (layout.h). */
void gen_start_all(gen_ctx *c);
/* The program ends (HALT; with chain, slice 0 HALT CHAINs to a short second program in its
 * DRAM). */
void gen_end(gen_ctx *c, int chain);
/* The same collective (BAR or GATHER) at the end of every slice's program so far. */
void gen_collective(gen_ctx *c, unsigned op);

#endif
