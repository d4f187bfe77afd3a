/* coverage.h - the functional coverage model: which interesting situations a run reached.
 *
 * A coverage object is a list of named bins in groups, each with a count. It observes a model
 * run through the machine's listener (otpu_coverage_attach) and reads registers and TMEM at
 * each issue (otpu_machine_view). otpu-lockstep adds what the RTL did (otpu_coverage_rtl_event).
 * Files are JSON (otpu_coverage_write_json); files of runs merge (otpu_coverage_merge).
 *
 * Counts are of instructions (an instruction that hits a bin several times counts once), of
 * instruction pairs (hazards), of completions (rtl: a completing instruction counts once per
 * other unit) or of runs (errors).
 * A bin that cannot be reached on the run's Config carries a reason and is left out of the
 * percentages. The groups and their bins:
 *
 *  opcode-flags   "OP flags": each row of OTPU_OPCODES (isa.h) with each combination of the
 *                 flags its format defines that the ISA accepts (otpu_flags_allowed: "-": none
 *                 set; MM's weight format and WAITW's compare are fields: "wf=int8",
 *                 "cmp=eq"). Counted at issue. A combination the ISA rejects (say MM ASCALE
 *                 without UNIT+ACC) has no bin: a program that tries it counts in the error
 *                 group (illegal).
 *  vop-bmode      "func bmode": every VOP function that reads an operand b with each broadcast
 *                 mode (full, row, col, scalar); "func" alone for those without b; OUTER with
 *                 its DSCALAR/DONE flags ("outer dscalar+done").
 *  hazard         "UI->UJ KIND MEM": an instruction j of unit UJ meets an older i of unit UI
 *                 that can be in flight with it (UI may equal UJ: a unit starts its oldest
 *                 *ready* instruction, so it can reorder its own). KIND RAW (i writes what j
 *                 reads), WAR (i reads, j writes), WAW; MEM TMEM, DRAM, ACT (ACT includes its
 *                 scales). In flight together, as rtl/otpu_seq.sv's window (WIN = 8 slots)
 *                 allows: i is one of the OTPU_COV_WIN - 1 unit instructions dispatched last
 *                 before j in the same slice, with no serializing instruction between them
 *                 (STREAM and WAITW run alone, BAR depends on everything, HALT drains the
 *                 window). Overlap: sim/footprint.h's ranges at issue (the hulls the RTL's
 *                 dependency check uses). A bin exists only where the memories the units touch
 *                 allow it:
 *                     unit    TMEM  DRAM  ACT   (instructions)
 *                     DMA     rw    rw    -     LD ST DSTEP (STREAM, WAITW run alone)
 *                     MXU     rw    r     r     MM
 *                     QUANT   r     w     w     QACT QST
 *                     VPU     rw    -     -     VOP
 *                     COLL    rw    -     -     GATHER (BAR runs alone)
 *  rtl            only in files otpu-lockstep writes (the RTL's start/complete events):
 *                 "ooo U before V": a younger instruction of unit U completed while an older
 *                 one of unit V (dispatched earlier in the same slice) had not; "overlap U+V":
 *                 units U and V of one slice busy in the same cycle (U != V).
 *  loop-depth     "depth N", N = 0..4: an instruction issued with N open LOOPs.
 *  error          each otpu_err_kind (error.h) a run stopped with. Not reachable by a bundle:
 *                 no-memory (the host's allocation failed, not the program) and deadlock
 *                 (otpu_machine_settle always resolves a machine whose live slices all wait or
 *                 poll), step-limit (the tool's --max-steps, not the bundle's); collective
 *                 needs S > 1.
 *  fp-class       "func CLASS" for every VOP function (all write fp32 bits; ARGMAX its maximum
 *                 and the index as fp32): CLASS zero, normal, inf, nan of a result element it
 *                 wrote; subnormal: an fp32 input element the instruction read (a, b or the
 *                 scalar immediate, OUTER's four vectors) was subnormal, which the unit flushes
 *                 to zero (every VOP flushes its inputs: fp32.h). A result is never
 *                 subnormal (outputs are flushed too). Classes fp32.c cannot produce are
 *                 unreachable, with the reason: exp2 and exp2sub NaN, recip inf and NaN, rsqrt
 *                 inf.
 *  hazard-edge    "KIND meets the first word" / "the last word" / "misses by one word": a
 *                 hazard pair's TMEM or DRAM ranges share exactly the older range's first or
 *                 last word, or end (start) one word before (after) it.
 *  data           "ADDI negative imm" (w1 < 0 as int32); "nested loop reg operand" (an
 *                 instruction with an R[reg] + imm operand, reg != 0, issued with 2 or more
 *                 open LOOPs); "VOP cols>64" (an elementwise or OUTER VOP over more than 64
 *                 columns); "FUNC cols>64" for each reduction (rsum, rmax, rssq, rdot, argmax).
 *  size-zero      "OP FIELD=0": an instruction issued with that size field at 0 where isa.def's
 *                 size line says the 0 empties what it spans (or, LOOP's count, skips the
 *                 body); a line whose 0 is always an error has no bin (the error group).
 *  mm-data, quant-data, vop-data, gather-data, idle
 *                 the values the datapath ran on (coverage_data.c; docs/coverage.md): nonzero
 *                 results per MAC and output column and weight format, K-block integers past
 *                 2^17; quantizer rounding directions, ties, saturation, varying bytes; inexact
 *                 and tied VOP results, reductions whose order matters; GATHER sources per
 *                 slice; instructions whose inputs were all zero (idle: counts, not goals:
 *                 their reason starts "count:").
 */
#ifndef OTPU_COVERAGE_H
#define OTPU_COVERAGE_H

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "log.h"
#include "machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the bin definitions; files of different versions do not merge. */
#define OTPU_COVERAGE_VERSION 4
enum { OTPU_COV_WIN = 8 }; /* rtl/otpu_seq.sv's window slots */

typedef struct otpu_coverage otpu_coverage;

/* The bins of a Config (all counts 0). NULL if out of memory. */
otpu_coverage *otpu_coverage_new(const otpu_config *cfg);
void otpu_coverage_free(otpu_coverage *cov);

/* Observe the runs of machine m (built with the coverage's Config): sets m's listener, which
 * forwards every call to next (NULL: none), e.g. a tracer's listener. The coverage must
 * outlive the runs. */
void otpu_coverage_attach(otpu_coverage *cov, otpu_machine *m, const otpu_listener *next);

/* An RTL event (rtl/EVENTS.md) of slice s at cycle, in the order the RTL reports them: kind
 * OTPU_EV_DISPATCH, OTPU_EV_START or OTPU_EV_COMPLETE, with the instruction's unit and window
 * slot; others are ignored. Adds the rtl group to the coverage. 0, or -1 on a malformed record
 * (an unknown unit or slot, a start of a slot not dispatched, a complete of one not started). */
int otpu_coverage_rtl_event(otpu_coverage *cov, uint32_t s, int kind, int unit, uint32_t slot,
                            uint64_t cycle);

/* JSON: {"model", "version", "configs": [...], "groups": [{"name", "bins": [{"name",
 * "count", "unreachable"?}]}]}. 0, or -1 with one line in err. */
int otpu_coverage_write_json(const otpu_coverage *cov, const char *path, char *err,
                             size_t errlen);
otpu_coverage *otpu_coverage_read_json(const char *path, char *err, size_t errlen);
/* The same from a parsed file (path names it in messages; root stays the caller's). */
struct json_t;
otpu_coverage *otpu_coverage_from_json(const struct json_t *root, const char *path, char *err,
                                       size_t errlen);

/* Add src's counts into dst: bins matched by group and name (a group or bin only src has is
 * added), Configs joined; a bin is unreachable only if it is on every Config. 0, or -1 with
 * one line in err (out of memory). */
int otpu_coverage_merge(otpu_coverage *dst, const otpu_coverage *src, char *err, size_t errlen);

/* The count of a bin (group and bin name); -1 if there is no such bin. */
int64_t otpu_coverage_count(const otpu_coverage *cov, const char *group, const char *bin);

/* The bins, in order: bin i < otpu_coverage_nbins(cov) has a group, a name, a count and a
 * reason it is unreachable (NULL: reachable). */
size_t otpu_coverage_nbins(const otpu_coverage *cov);
void otpu_coverage_bin(const otpu_coverage *cov, size_t i, const char **group, const char **name,
                       uint64_t *count, const char **reason);

/* Text: the Configs, the percentage of hit bins per group and overall (over the reachable
 * bins), every reachable bin never hit, the unreachable bins with their reasons. */
void otpu_coverage_report(const otpu_coverage *cov, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
