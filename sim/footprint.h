/* footprint.h - the locations an instruction reads and writes, as ranges (what a scoreboard
 * tracks): the checker uses them to find order violations and the producers of a failing
 * instruction's inputs. Ranges are conservative hulls of strided accesses. */
#ifndef OTPU_FOOTPRINT_H
#define OTPU_FOOTPRINT_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "isa.h"
#include "log.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint8_t space;  /* otpu_space */
    uint8_t write;  /* 0 read, 1 written */
    uint64_t lo, hi; /* [lo, hi): TMEM words, DRAM bytes, registers; ACT and ASCALE: the
                      * columns [lo, hi) of every row (as the ACT RAM is tracked by blocks) */
    uint64_t wrap;  /* ACT, ASCALE: the row length of the flat index (0 elsewhere) */
} otpu_range;

enum { OTPU_FOOTPRINT_MAX = 16 };

/* The ranges of instruction in, with the registers R and (for STREAM's descriptor) TMEM as
 * they are when it issues. Returns the number written to out (at most OTPU_FOOTPRINT_MAX). */
size_t otpu_footprint(const otpu_config *cfg, const otpu_instr *in, const uint32_t R[16],
                      const uint32_t *tmem, otpu_range *out);

/* otpu_footprint, and in *work an upper estimate of the element steps the instruction takes (every location its footprint
 * reads or writes, and the per-element work of STREAM, DSTEP and MM): a hang detector gives an
 * instruction in flight this many cycles (times a few) before it calls the design stuck, so a
 * long, legal instruction is never a false hang. A WAITW counts its timeout (w6) and poll
 * interval, and 65536 for one without a timeout (its host decides). */
size_t otpu_footprint_work(const otpu_config *cfg, const otpu_instr *in, const uint32_t R[16],
                           const uint32_t *tmem, otpu_range *out, uint64_t *work);

/* Does range r contain location (space, addr)? DRAM locations are byte addresses; a DRAM word
 * at addr counts when any of its 4 bytes is inside. ACT and ASCALE locations are flat indices
 * (row * row length + column): their column is tested. */
int otpu_range_hits(const otpu_range *r, otpu_space space, uint64_t addr);

#ifdef __cplusplus
}
#endif
#endif
