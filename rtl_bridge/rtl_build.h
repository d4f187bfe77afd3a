// rtl_build.h - the simulator of a Config, built in two cached steps (tools/cache.h):
//   1. the RTL library: the Verilated design (rtl/sources.txt and the adapter) with the
//      Verilator runtime, keyed by those sources, the Config, Verilator's version and flags;
//   2. the simulator: the driver, the DPI layer, the checker and the model compiled and linked
//      against that library, keyed by the library's key and their sources and bytes.
// An edit of the model or the checker relinks the simulator in seconds; only an edit of the
// RTL Verilates again. A read-only prebuilt folder (the meson build's) is searched first.
#ifndef OTPU_RTL_BUILD_H
#define OTPU_RTL_BUILD_H

#include <string>
#include <vector>

#include "config.h"
#include "rtl_dut.h"


// the simulators of a Config: the C++ top (rtl_bridge/otpu_rtl_sim.cpp), built with FST tracing
// compiled in and off until a run asks for a waveform (so that a snapshot of a run can trace its
// last cycles: rtl_snapshot.h); the SystemC top (rtl_bridge/otpu_rtl_sc.cpp); and the C++ top with
// Verilator's code coverage (--coverage: line, branch and toggle points; its driver writes the
// .dat given by --code-coverage). Each is its own cache entry: the flags are in the library's key.
enum class RtlTopKind { kPlain, kSystemC, kCoverage };
// " (SystemC top)", " with code coverage" or "", for messages
const char *rtl_top_name(RtlTopKind kind);

// The simulator of a Config: prebuilt, cached, or built now (into `cache`, or the default
// cache when it is empty). 0 with *exe set, or 4 (the build failed; why went to stderr).
// rtl_key (optional): the key of the RTL library it runs ("lib-<hash>": the Config, the RTL's
// sources and the Verilator flags), which names the RTL under test.
int find_or_build(const otpu_config &c, RtlTopKind kind, std::string *exe,
                  const std::string &cache = "", const RtlDut &dut = RtlDut(),
                  std::string *rtl_key = nullptr);
// The key of the RTL library find_or_build would use ("lib-<hash>"), computed from the sources
// without building anything. A coverage run names the plain build's key in its repro: the RTL
// under test is the same, only instrumented. false with one line in *err.
bool rtl_library_key(const otpu_config &c, RtlTopKind kind, const RtlDut &dut, std::string *key,
                     std::string *err);
// Where the reference RTL and the adapter's sources are read from (OTPU_SOURCE_ROOT, else
// the source tree this tool was built from).
std::string rtl_source_root();

#endif
