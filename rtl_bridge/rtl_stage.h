// rtl_stage.h - staging a run before the RTL is built: the bundle read (libotpusim's reader)
// and checked against the plusargs, then handed to the RTL's loading calls (dpi.h,
// otpu_dpi_load); with --lockstep, the C model built on a second thread while the RTL is
// constructed and loads its memories (no record reaches the session before the reset ends).
#ifndef OTPU_RTL_STAGE_H
#define OTPU_RTL_STAGE_H

#include <string>
#include <thread>

#include "bundle.h"
#include "lockstep.h"
#include "rtl_args.h"

// The bundle of a run, read and loaded; freed (and unloaded) on every way out.
struct StagedBundle {
  otpu_bundle b{};
  ~StagedBundle();
};
// 0, or the exit status with one line on stderr (2: bad input).
int stage_bundle(const DriverArgs &o, StagedBundle *sb);

// The C model of --lockstep, built on its own thread from start() to take().
class ModelBuild {
 public:
  ~ModelBuild();
  void start(const otpu_bundle *b, const otpu_ls_options &lo);
  // the session, or nullptr with the reason in *why
  otpu_ls *take(std::string *why);

 private:
  std::thread thread_;
  otpu_ls *ls_ = nullptr;
  char err_[1024] = "";
};

#endif
