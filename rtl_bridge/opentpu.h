// opentpu.h - openTPU's own RTL as the design under test (`--dut opentpu=PATH`): its sources
// read from a user's checkout, the workarounds Verilator 5.006 needs applied to the copy that
// is built (never to the checkout), the ISA revision its package declares, and what a bundle
// needs to run on it. The adapter top is rtl_bridge/opentpu/otpu_rtl_tb.sv; docs/opentpu.md
// says which of openTPU's signals make which record.
#ifndef OTPU_OPENTPU_H
#define OTPU_OPENTPU_H

#include <string>
#include <utility>
#include <vector>

#include "bundle.h"
#include "revision.h"

struct OpenTpuTree {
  std::string root;                                          // the checkout (absolute)
  std::vector<std::pair<std::string, std::string>> files;   // path in it, the text to build
  std::vector<std::string> workarounds;                      // each applied one, one line
  otpu_revision rev = OTPU_REV_CURRENT;                      // what its otpu_pkg.sv declares
  bool axi = false;  // its board memory path (AXI = 1: the AXI adapter and its testbench's AXI
                     // memory model with random latency and stalls) instead of its DRAM
};

// Reads the RTL of the checkout at root (openTPU's own compile order; with axi, its AXI
// memory model too) and finds its revision. false with one line in *err (not a checkout, a
// file missing, a revision the model lacks).
bool opentpu_read(const std::string &root, bool axi, OpenTpuTree *t, std::string *err);

// The --dut value that selects t: "opentpu=ROOT" or "opentpu-axi=ROOT".
std::string opentpu_dut_value(const OpenTpuTree &t);

// "" if bundle b can run on t, else why (one sentence): its REV= against the RTL's revision,
// the Config limits of openTPU's RTL, run arguments its testbench cannot give.
std::string opentpu_problem(const OpenTpuTree &t, const otpu_bundle &b);

// The Verilator options its build needs for Config c (beyond the project's own), the adapter's
// AXI parameter among them.
std::string opentpu_verilator_flags(const OpenTpuTree &t, const otpu_config &c);

#endif
