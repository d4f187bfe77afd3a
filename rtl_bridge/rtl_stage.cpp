// rtl_stage.cpp - staging a run (rtl_stage.h).
#include "rtl_stage.h"

#include <cstdio>

#include "cmdline.h"
#include "dpi.h"
#include "dut_stage.h"

StagedBundle::~StagedBundle() {
  otpu_dpi_load(nullptr);
  otpu_bundle_free(&b);
}

int stage_bundle(const DriverArgs &o, StagedBundle *sb) {
  char err[1024];
  if (otpu_bundle_read(o.bundle.c_str(), &sb->b, err, sizeof err)) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(err).c_str());
    return 2;
  }
  std::string bad = check_plusargs(o.plusargs, sb->b.cfg, kDutIsOpenTpu, kDutIsOpenTpu);
  if (!bad.empty()) return usage(bad);
  otpu_dpi_load(&sb->b);
  return 0;
}

ModelBuild::~ModelBuild() {
  if (thread_.joinable()) thread_.join();
}

void ModelBuild::start(const otpu_bundle *b, const otpu_ls_options &lo) {
  thread_ = std::thread([this, b, lo] { ls_ = otpu_ls_open_bundle(b, &lo, err_, sizeof err_); });
}

otpu_ls *ModelBuild::take(std::string *why) {
  if (thread_.joinable()) thread_.join();
  if (!ls_) *why = err_;
  return ls_;
}
