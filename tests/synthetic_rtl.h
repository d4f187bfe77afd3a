// synthetic_rtl.h - a stand-in RTL for testing the checker without Verilator: it replays a
// bundle's run (recorded from an independent model instance) as lockstep events, with a
// window of slots, one in-order pipeline per unit, a range scoreboard (an instruction starts
// only when no older in-flight instruction conflicts with it), several writes per cycle, and
// completions out of program order across units. Faults can be injected into the stream.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bundle.h"
#include "check.h"
#include "footprint.h"

namespace otpu_test {

struct Step {
    uint64_t n = 0;
    uint32_t pc = 0;
    otpu_instr ins{};
    bool windowed = false, faulted = false, halts = false;
    unsigned unit = 0;
    std::vector<otpu_write> writes;
    std::vector<otpu_range> fp;
};

struct SliceRun {
    std::vector<Step> steps;     // program order
    bool error = false;          // the run stopped with an error at the last step
    uint32_t error_pc = 0;
    std::vector<uint32_t> tmem, ascale, R;
    std::vector<uint8_t> dram;
    std::vector<int8_t> act;
    uint32_t pc = 0;
    bool halted = false;
};

struct Recording {
    std::vector<SliceRun> slices;
};

// Run the bundle on a fresh model and record every instruction with its writes.
Recording record(const otpu_bundle &b);

// PastEnd adds, after the nth write (of an instruction that writes TMEM), a write `bit` + 1
// words past the end of the instruction's TMEM range; LoopSkip dispatches, at the first
// instruction of a LOOP body (from the nth windowed one on), the pc after the body instead.
// EndState flips a TMEM bit of the final state, EndStateDram a bit of DRAM byte `nth`; Mask
// moves the nth write, when it is a DRAM byte write (QST), to the next byte lane
enum class Fault { None, Flip, Drop, Stray, Duplicate, Order, Reg, Control, Hang, ErrorFlag, EndState,
                   EndStateDram, Mask, PastEnd, LoopSkip };

struct Injection {
    Fault kind = Fault::None;
    uint32_t slice = 0;
    uint64_t nth = 0;   // the nth write (Flip/Drop/Stray/Duplicate), register write (Reg),
                        // or windowed instruction (Order/Control/Hang/ErrorFlag) of the slice
    int bit = 0;
    // filled by the driver: what was hit
    bool applied = false;
    uint64_t n = 0;     // the dynamic instruction
    otpu_space space = OTPU_SP_TMEM;
    uint64_t addr = 0;
    uint64_t other_n = 0; // Order: the older conflicting instruction
};

struct DriveOptions {
    unsigned window = 8;
    unsigned writes_per_cycle = 3;
    bool regs = true;
    uint64_t max_cycles = 50000000;
    bool stop_at_first = false; // end the run at the first divergence (a hang always ends it)
};

struct DriveResult {
    uint64_t cycles = 0;
    int bad_calls = 0;
    std::string bad_call;
    bool out_of_order = false; // some completion happened out of program order
    std::vector<uint64_t> first_writes; // slice 0: the number of each instruction's first write
};

DriveResult drive(const Recording &rec, otpu_checker *c, const DriveOptions &o, Injection *inj);

} // namespace otpu_test
