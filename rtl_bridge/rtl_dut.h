// rtl_dut.h - which RTL a tool runs and on which Config: the design under test (the reference
// RTL or openTPU's), the Configs it can be built for, and the Config of a bundle or of
// `otpu-rtl build|path` arguments, checked against them. rtl_build.h builds what this names.
#ifndef OTPU_RTL_DUT_H
#define OTPU_RTL_DUT_H

#include <string>
#include <vector>

#include "config.h"
#include "opentpu.h"

// The RTL a tool builds and runs: the project's reference RTL (rtl/), or openTPU's own from a
// checkout (`--dut opentpu=PATH`, opentpu.h), built with the adapter
// rtl_bridge/opentpu/otpu_rtl_tb.sv; `--dut opentpu-axi=PATH` builds it with its board memory
// path instead of its behavioural DRAM (tree.axi). All are cached per Config and per source
// contents.
struct RtlDut {
  bool opentpu = false;
  OpenTpuTree tree;  // the checkout, read (opentpu only)
};
// --dut's value: "reference", "opentpu=PATH" or "opentpu-axi=PATH". false with one line in *err.
bool parse_dut(const std::string &value, RtlDut *d, std::string *err);
// The default of --dut: $OTPU_DUT when set (so that tools started by others, otpu-regress,
// otpu-shrink, a repro.sh, run the same RTL), else the reference RTL.
bool dut_from_env(RtlDut *d, std::string *err);
// One line for a run's log: which RTL, its revision and the build's workarounds (opentpu).
std::string dut_note(const RtlDut &d);

// "S=1 D=32 ..." (every field)
std::string config_str(const otpu_config &c);
// "" if the reference RTL can be built for c, else its limit and the value, in one sentence
std::string rtl_config_problem(const otpu_config &c);
// The Config of a bundle folder (the whole bundle is read and checked by libotpusim's reader,
// then against the limits of the RTL dut). false with one line in *err.
bool read_bundle_config(const std::string &dir, otpu_config *c, std::string *err,
                        const RtlDut &dut = RtlDut());
// A Config from `otpu-rtl build|path` arguments: bundle folders (their Config, in turn), then
// KEY=VALUE fields over it (for openTPU, the revision is its RTL's).
bool config_from_args(const std::vector<std::string> &bundles,
                      const std::vector<std::string> &fields, otpu_config *c, std::string *err,
                      const RtlDut &dut = RtlDut());
// The Configs meson builds ahead of time.
std::vector<otpu_config> default_configs();

#endif
