// rtl_driver.h - the driver of one otpu-rtl build (one Config), shared by its two tops: the plain
// Verilator C++ top (otpu_rtl_sim.cpp, main) and the SystemC top (otpu_rtl_sc.cpp, sc_main,
// Verilator --sc). Both run the same program:
//
//   otpu-rtl-sim BUNDLE [--dump DIR] [--max-cycles N] [--fst FILE] [--events FILE]
//                [--code-coverage FILE] [+plusargs]
//                [--lockstep [--report DIR] [--keep-going] [--hang-cycles N] [--progress]
//                 [--repro CMD] [--fst-from CYCLE] [--quiet] [--coverage FILE]
//                 [--wave FILE [--wave-window N] [--snapshot-every K]]]
//   otpu-rtl-sim --serve      (the fork server: rtl_serve.h)
//
// It loads the bundle into the RTL's memories (the DPI functions of rtl/otpu_dpi.sv), runs until
// every slice has halted or stopped with an error, or the cycle limit, prints the cycles and each
// slice's state, and with --dump writes DIR/final_<s>.txt in the golden format
// (../shared/vectors/FORMAT.md). Exit: 0 ok, 1 a simulated error, 2 bad input, 3 timeout.
//
// With --lockstep the C model runs beside the RTL (dpi/lockstep.h): every event is judged as it
// happens; the first divergence stops the run (or is counted, --keep-going) and the report is
// written into --report DIR; the exit status is then 0 pass, 1 divergence, 3 hang/timeout.
// --quiet writes the report files and prints nothing on stdout. --coverage FILE writes the
// functional coverage of the run (lockstep_cov.h: the model's bins and the RTL's events).
// --wave FILE: the waveform of a divergence's last --wave-window cycles (default 1000) goes to
// FILE, traced by a snapshot of the run taken every --snapshot-every cycles (default 1000000;
// 0: none, and no waveform) with the report naming it (rtl_snapshot.h); a build without
// tracing, or a snapshot that ends differently, leaves no FILE (otpu-lockstep re-runs then).
//
// --code-coverage FILE (a build with Verilator's --coverage only, rtl_build.h) writes the run's
// coverage points in Verilator's .dat format when the run ends (after the final blocks; also
// after a divergence, a timeout or an error), whole or not at all (a temporary file renamed).
// A build without coverage refuses it (exit 2) before the run.
//
// Every output (--dump, --fst, --events, --code-coverage, --coverage, --report) is checked
// before the run (sim/output.h): a file is replaced whole, a device or a FIFO with its reader
// (not for --fst) written as it is; a place that cannot be written is exit 2 at once.
#ifndef OTPU_RTL_DRIVER_H
#define OTPU_RTL_DRIVER_H

#include <cstdint>
#include <memory>
#include <string>

// The Verilated model of otpu_rtl_tb (rtl_bridge/otpu_rtl_tb.sv), as each top drives it.
class RtlTop {
 public:
  virtual ~RtlTop() = default;
  // starts an FST waveform; false if this build cannot trace
  virtual bool open_wave(const std::string &path) = 0;
  virtual bool can_trace() const { return false; }
  // the command line the RTL sees ($value$plusargs), before its first evaluation (a fork
  // server's top is made before its runs' arguments are known)
  virtual void command_args(int argc, char **argv) { (void)argc, (void)argv; }
  // whether the process can fork with this top (snapshots, the fork server): the C++ top
  virtual bool forkable() const { return false; }
  // the inputs, seen from the next evaluation on
  virtual void set_inputs(bool rst, bool dump, bool ev_en) = 0;
  virtual void settle() = 0;                 // evaluate without a clock edge
  virtual void tick(bool wave) = 0;          // one clock cycle; `wave`: dump it to the FST
  virtual bool stopped() const = 0;          // every slice halted or stopped with an error
  virtual uint64_t config(int i) const = 0;  // the build's Config field i (config.h order)
  virtual void finish() = 0;                 // final blocks; closes the waveform
  // whether this build counts code coverage (only the C++ top built with --coverage does)
  virtual bool has_coverage() const { return false; }
  // writes the coverage points of the run so far to path (Verilator's .dat format)
  virtual void write_coverage(const std::string &path) { (void)path; }
};

// Builds the top; called once the bundle is read and before the first evaluation.
using RtlTopMaker = std::unique_ptr<RtlTop> (*)(int argc, char **argv);

// The whole run (the usage above); the process exit status.
int rtl_driver_main(int argc, char **argv, RtlTopMaker make);

#endif
