// rtl_args.h - the simulator's command line (the usage of rtl_driver.h), read before anything
// is built.
#ifndef OTPU_RTL_ARGS_H
#define OTPU_RTL_ARGS_H

#include <cstdint>
#include <string>
#include <vector>

// --lockstep and the options that go with it
struct LockstepArgs {
  bool on = false, keep_going = false, progress = false;
  bool quiet = false;  // the report files only: nothing on stdout (otpu-lockstep's re-run)
  std::string report, repro;
  uint64_t hang_cycles = 0, fst_from = 0;
};

struct DriverArgs {
  std::string bundle, dump_dir, fst, events, code_cov;
  std::string coverage;  // --coverage: the functional coverage file of a lockstep run
  // --wave: where a lockstep divergence's waveform goes, traced by a snapshot (rtl_snapshot.h)
  std::string wave;
  uint64_t wave_window = 1000, snapshot_every = 1000000;
  std::vector<std::string> plusargs;  // (the RTL reads them)
  uint64_t max_cycles = 200000000ull;
  LockstepArgs la;
};

// false with the reason in *why
bool parse_args(int argc, char **argv, DriverArgs *o, std::string *why);
// a usage error: one line on stderr; the exit status 2
int usage(const std::string &why);

#endif
