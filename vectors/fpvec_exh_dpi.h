// fpvec_exh_dpi.h - the exhaustive mode of the Verilated tb_fp bench (+exhaustive): every input
// of a range of one-operand functions, sim/fp32.c against the Verilated otpu_fp through DPI
// (fpvec_dpi.h's batches), counted into fpvec_exh.h's tallies. `otpu-fpvec exhaustive` runs
// several such processes, each on its part of the range, and merges what they print.
#ifndef OTPU_FPVEC_EXH_DPI_H
#define OTPU_FPVEC_EXH_DPI_H

#include <cstdint>

#include "fpvec.h"

struct FpvecExhOptions {
    uint32_t ops = 0;               // a bit per op (one-operand ops only)
    uint64_t lo = 0;                // the inputs [lo, hi), hi <= 2^32
    uint64_t hi = 0;
    // this process's part: the chunks of kChunk inputs from lo whose index is part mod parts
    // (interleaved, so that every process gets a like mix of input classes)
    unsigned part = 0;
    unsigned parts = 1;
    double progress = 1.0;          // seconds between "EXH progress" lines; 0: none
    const otpu_rev_desc* rev = otpu_rev_desc_of(OTPU_REV_CURRENT);
};

// Runs the inputs of this part through fp32.c and the RTL of tb_fp (scope_name: as for
// fpvec_dpi_run), op after op; prints each op's tally (fpvec_exh_print) and "EXH end".
// Returns 0 (all match), 1 (mismatches).
int fpvec_exh_run(const char* scope_name, const FpvecExhOptions& opt);

#endif
