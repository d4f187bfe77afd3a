// dut_stage.h - what a design under test reads by itself before its first evaluation, staged by
// the driver (rtl_driver.cpp): the plusargs that point the RTL at it. The reference RTL loads
// its memories through DPI-C and needs nothing (dut_stage_reference.cpp); openTPU's RTL reads
// its program and DRAM images from files in +dir=DIR (dut_stage_opentpu.cpp). Each simulator
// links exactly one of them (rtl_build.cpp).
#ifndef OTPU_DUT_STAGE_H
#define OTPU_DUT_STAGE_H

#include <string>
#include <vector>

#include "bundle.h"

struct DutStage {
  std::vector<std::string> plusargs;  // for the RTL, after the user's
  std::string dir;                    // a folder of staged files
  // Removes the folder: once the RTL has read its files (its first evaluation), so that a run
  // stopped by a signal leaves nothing behind, and at the latest with the stage.
  void remove();
  ~DutStage() { remove(); }
};

// Stages bundle b; false with one line in *err.
bool dut_stage(const otpu_bundle &b, DutStage *st, std::string *err);

// Whether this simulator runs openTPU's RTL: its plusargs are checked as openTPU's (no +otpu_*
// faults; +axi_* for its AXI memory model, which otpu-lockstep and otpu-rtl allow on an
// opentpu-axi build only).
extern const bool kDutIsOpenTpu;

#endif
