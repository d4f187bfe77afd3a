// rtl_build.h - the Verilated simulator of a Config: built on demand (Verilator -G parameters)
// into a cache keyed by the Config, the sources (rtl/sources.txt), the lockstep libraries, the
// Verilator version and the flags; a lock per key lets parallel runs share one build; a
// read-only prebuilt folder (the meson build's) is searched first.
#ifndef OTPU_RTL_BUILD_H
#define OTPU_RTL_BUILD_H

#include <string>
#include <vector>

#include "otpu_bundle.h"

std::string env_or(const char *name, const std::string &def);
std::string shell_quote(const std::string &s);

bool is_file(const std::string &p);
bool read_file(const std::string &path, std::string *out);
std::string run_capture(const std::string &cmd);
bool mkdirs(const std::string &p);

// the simulators of a Config: the C++ top (rtl_bridge/otpu_rtl_sim.cpp), the same with FST
// tracing, and the SystemC top (rtl_bridge/otpu_rtl_sc.cpp)
enum class RtlTopKind { kPlain, kTraced, kSystemC };
// " with tracing", " (SystemC top)" or "", for messages
const char *rtl_top_name(RtlTopKind kind);

bool build_key(const OtpuConfig &c, RtlTopKind kind, std::string *key, std::string *err);
// build_into's answer when DIR cannot be written (find_or_build falls back to a per-user cache)
constexpr int kCacheNotWritable = -1;
// Builds into DIR/KEY/otpu-rtl-sim in a process group that dies with the tool (a tool stopped
// by a signal removes its temporary folder and ends by that signal); stale temporaries of
// killed builds are removed first. 0, 4 (the build failed; its log went to stderr), or
// kCacheNotWritable.
int build_into(const std::string &dir, const OtpuConfig &c, RtlTopKind kind, const std::string &key,
               std::string *exe);
// Prebuilt, cached (no lock needed to use a finished build), or built now into the cache (a
// cache that cannot be written: into the per-user cache, with one line saying so). 0, or 4.
int find_or_build(const OtpuConfig &c, RtlTopKind kind, std::string *exe);
// A Config from `build|path` arguments (bundle folders or KEY=VALUE words).
bool config_from_args(const std::vector<std::string> &a, OtpuConfig *c, std::string *err);
// The Configs meson builds ahead of time.
std::vector<OtpuConfig> default_configs();

#endif
