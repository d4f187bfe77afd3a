// fpvec_dpi.h - the DPI batch mode of the Verilated tb_fp bench: vectors made by the fpvec
// generator (fpvec.h), expected values from sim/fp32.c, results from the Verilated otpu_fp
// package through tb_fp's exported fpvec_dpi_eval, no text files.
#ifndef OTPU_FPVEC_DPI_H
#define OTPU_FPVEC_DPI_H

#include <cstddef>
#include <cstdint>

#include "fpvec.h"

struct FpvecDpiOptions {
    int level = 1;                  // 1 or 2 (fpvec.h)
    uint64_t seed = 1;
    uint64_t count = 0;             // vectors per op; 0: the level's
    uint32_t ops = FPVEC_ALL_OPS;   // a bit per op
    long show = 20;                 // MISMATCH lines printed, at most
    double progress = 5.0;          // seconds between progress lines on stderr; 0: none
    // the ISA revision: its fp32 functions give the expected values; NaN operands are left out
    // where it leaves them undefined
    const otpu_rev_desc* rev = otpu_rev_desc_of(OTPU_REV_CURRENT);
};

// Vectors for the RTL, up to kFpvecBatch of one op: the operands, the model's expected values
// (the caller's) and where the RTL's results go.
constexpr size_t kFpvecBatch = 4096;
struct FpvecDpiBatch {
    uint32_t a[kFpvecBatch];
    uint32_t b[kFpvecBatch];
    uint32_t expected[kFpvecBatch];
    uint32_t got[kFpvecBatch];
};

// Has the Verilated otpu_fp evaluate the first n vectors of batch as op, into batch.got
// (through tb_fp's exported fpvec_dpi_eval); the DPI scope must have been set (svSetScope) to
// tb_fp's.
void fpvec_dpi_eval_batch(uint32_t op, size_t n, FpvecDpiBatch& batch);

// Runs every selected op's vectors through the Verilated tb_fp whose module scope is scope_name
// (the model's name, a dot, "tb_fp"); the model must have been evaluated once. Prints MISMATCH lines (line=<n>: the n-th line
// of `otpu-fpvec gen` with the same level, seed, count and ops), a per-op table,
// "FPTEST cases=<n> errors=<m>" and the rate. Returns 0 (all match), 1 (mismatches).
int fpvec_dpi_run(const char* scope_name, const FpvecDpiOptions& opt);

// Sets the DPI scope to scope_name's; false (after a "tb_fp: error:" line) when there is none.
bool fpvec_dpi_set_scope(const char* scope_name);

#endif
