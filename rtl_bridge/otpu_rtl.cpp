// otpu_rtl.cpp - otpu-rtl, the command that runs a run bundle on the project's reference RTL.
//
//   otpu-rtl run BUNDLE [--dump DIR] [--max-cycles N] [--fst FILE] [--events FILE] [+plusargs]
//   otpu-rtl build [--trace] [--cache DIR] [--stamp FILE] (--defaults | --bundle DIR | K=V ...)
//   otpu-rtl path [--trace] (BUNDLE | K=V ...)
//
// The RTL is built per Config (Verilator -G parameters). `run` reads the bundle's case.txt, finds
// the simulator for its Config or builds it, and runs it (otpu_rtl_sim.cpp; exit 0 ok, 1 a
// simulated error, 2 bad input, 3 timeout; 4 if the build failed). Builds are cached under a key
// of the Config, the sources (rtl/sources.txt), the Verilator version and the build flags, in
// $OTPU_RTL_CACHE (default $XDG_CACHE_HOME/otpu-lockstep/rtl, else ~/.cache/otpu-lockstep/rtl);
// a lock file per key makes parallel runs share one build. A read-only prebuilt directory (the
// meson build's, OTPU_RTL_PREBUILT) is searched first. --fst needs a build with tracing, which is
// keyed (and built) separately.
#include "otpu_bundle.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef OTPU_DEFAULT_SOURCE_ROOT
#define OTPU_DEFAULT_SOURCE_ROOT ""
#endif
#ifndef OTPU_DEFAULT_PREBUILT
#define OTPU_DEFAULT_PREBUILT ""
#endif

namespace {

const char *kBuildVersion = "otpu-rtl build 1";

int usage() {
  fprintf(stderr,
          "usage: otpu-rtl run BUNDLE [--dump DIR] [--max-cycles N] [--fst FILE] "
          "[--events FILE] [+plusargs]\n"
          "       otpu-rtl build [--trace] [--cache DIR] [--stamp FILE] "
          "(--defaults | --bundle DIR | KEY=VALUE ...)\n"
          "       otpu-rtl path [--trace] (BUNDLE | KEY=VALUE ...)\n");
  return 2;
}

std::string env_or(const char *name, const std::string &def) {
  const char *v = getenv(name);
  return v && *v ? std::string(v) : def;
}

std::string source_root() { return env_or("OTPU_SOURCE_ROOT", OTPU_DEFAULT_SOURCE_ROOT); }

std::string cache_dir() {
  std::string c = env_or("OTPU_RTL_CACHE", "");
  if (!c.empty()) return c;
  std::string x = env_or("XDG_CACHE_HOME", "");
  if (!x.empty()) return x + "/otpu-lockstep/rtl";
  return env_or("HOME", "/tmp") + "/.cache/otpu-lockstep/rtl";
}

bool read_file(const std::string &path, std::string *out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return true;
}

bool is_file(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool mkdirs(const std::string &p) {
  std::string cur;
  std::stringstream ss(p);
  std::string part;
  if (!p.empty() && p[0] == '/') cur = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    cur += part + "/";
    if (mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST) return false;
  }
  return true;
}

std::string run_capture(const std::string &cmd) {
  std::string out;
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

bool ends_with(const std::string &s, const std::string &t) {
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

std::string verilator_bin() { return env_or("VERILATOR", "verilator"); }

// the sources of a build, relative to the source root (rtl/sources.txt)
bool sources(std::vector<std::string> *list, std::string *err) {
  std::string root = source_root();
  if (root.empty()) {
    *err = "no source tree: set OTPU_SOURCE_ROOT";
    return false;
  }
  std::ifstream f(root + "/rtl/sources.txt");
  if (!f) {
    *err = "cannot read " + root + "/rtl/sources.txt (set OTPU_SOURCE_ROOT)";
    return false;
  }
  std::string line;
  while (std::getline(f, line)) {
    size_t h = line.find('#');
    if (h != std::string::npos) line = line.substr(0, h);
    while (!line.empty() && isspace(uint8_t(line.back()))) line.pop_back();
    while (!line.empty() && isspace(uint8_t(line[0]))) line.erase(0, 1);
    if (!line.empty()) list->push_back(line);
  }
  return true;
}

std::string shell_quote(const std::string &s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string gparams(const OtpuConfig &c) {
  std::string g;
  for (int i = 0; i < 12; i++) {
    std::string p = std::string("-G") + OtpuConfig::kNames[i] + "=";
    if (std::string(OtpuConfig::kNames[i]) == "DRAM_BYTES") p += "64'd";
    g += " " + shell_quote(p + std::to_string(*c.field(i)));
  }
  return g;
}

std::string build_flags(bool trace) {
  std::string f = "--cc --exe --build -Wno-fatal -Wno-lint -Wno-style --top-module otpu_rtl_tb";
  if (trace) f += " --trace-fst --trace-structs --trace-max-array 512";
  return f;
}

bool build_key(const OtpuConfig &c, bool trace, std::string *key, std::string *err) {
  std::vector<std::string> srcs;
  if (!sources(&srcs, err)) return false;
  std::string h = std::string(kBuildVersion) + "\n" + c.str() + "\n" + build_flags(trace) + "\n";
  h += run_capture(verilator_bin() + " --version 2>&1");
  for (const auto &s : srcs) {
    std::string body;
    if (!read_file(source_root() + "/" + s, &body)) {
      *err = "cannot read source " + source_root() + "/" + s;
      return false;
    }
    h += "\n== " + s + "\n" + body;
  }
  *key = otpu_sha256_hex(h.data(), h.size()).substr(0, 24);
  return true;
}

// Builds the simulator of a Config into DIR/KEY (under an exclusive lock on DIR/KEY.lock).
int build_into(const std::string &dir, const OtpuConfig &c, bool trace, const std::string &key,
               std::string *exe) {
  std::string final_dir = dir + "/" + key;
  *exe = final_dir + "/otpu-rtl-sim";
  if (!mkdirs(dir)) {
    fprintf(stderr, "otpu-rtl: cannot create %s\n", dir.c_str());
    return 4;
  }
  std::string lockp = dir + "/" + key + ".lock";
  int lfd = open(lockp.c_str(), O_CREAT | O_RDWR, 0666);
  if (lfd < 0 || flock(lfd, LOCK_EX) != 0) {
    fprintf(stderr, "otpu-rtl: cannot lock %s\n", lockp.c_str());
    return 4;
  }
  if (is_file(*exe)) {
    close(lfd);
    return 0;
  }
  std::vector<std::string> srcs;
  std::string err;
  if (!sources(&srcs, &err)) {
    fprintf(stderr, "otpu-rtl: %s\n", err.c_str());
    close(lfd);
    return 4;
  }
  std::string tmp = dir + "/" + key + ".tmp" + std::to_string(getpid());
  run_capture("rm -rf " + shell_quote(tmp));
  mkdirs(tmp);
  std::string root = source_root();
  std::string cmd = verilator_bin() + " " + build_flags(trace) + " -j " +
                    env_or("OTPU_RTL_JOBS", "2") + gparams(c);
  for (const auto &s : srcs)
    if (ends_with(s, ".sv") || ends_with(s, ".cpp"))
      cmd += " " + shell_quote(root + "/" + s);
  cmd += " -CFLAGS " + shell_quote("-I" + root + "/rtl_bridge");
  cmd += " -LDFLAGS -lcrypto";
  cmd += " --Mdir " + shell_quote(tmp + "/obj") + " -o " + shell_quote(tmp + "/otpu-rtl-sim");
  fprintf(stderr, "otpu-rtl: building the RTL for %s%s (key %s)\n", c.str().c_str(),
          trace ? " with tracing" : "", key.c_str());
  std::string log = tmp + "/build.log";
  int rc = system((cmd + " > " + shell_quote(log) + " 2>&1").c_str());
  if (rc != 0 || !is_file(tmp + "/otpu-rtl-sim")) {
    fprintf(stderr, "otpu-rtl: the build failed (%s); its log:\n", cmd.c_str());
    std::string body;
    read_file(log, &body);
    if (body.size() > 6000) body = "...\n" + body.substr(body.size() - 6000);
    fputs(body.c_str(), stderr);
    run_capture("rm -rf " + shell_quote(tmp));
    close(lfd);
    return 4;
  }
  std::ofstream(tmp + "/config.txt") << c.str() << "\ntrace=" << (trace ? 1 : 0) << "\n"
                                     << run_capture(verilator_bin() + " --version 2>&1");
  run_capture("rm -rf " + shell_quote(tmp + "/obj"));
  run_capture("rm -rf " + shell_quote(final_dir));
  if (rename(tmp.c_str(), final_dir.c_str()) != 0) {
    fprintf(stderr, "otpu-rtl: cannot move %s to %s\n", tmp.c_str(), final_dir.c_str());
    close(lfd);
    return 4;
  }
  close(lfd);
  return 0;
}

// The simulator of a Config: prebuilt, cached, or built now into the cache.
int find_or_build(const OtpuConfig &c, bool trace, std::string *exe) {
  std::string key, err;
  if (!build_key(c, trace, &key, &err)) {
    fprintf(stderr, "otpu-rtl: %s\n", err.c_str());
    return 4;
  }
  std::string pre = env_or("OTPU_RTL_PREBUILT", OTPU_DEFAULT_PREBUILT);
  if (!pre.empty() && is_file(pre + "/" + key + "/otpu-rtl-sim")) {
    *exe = pre + "/" + key + "/otpu-rtl-sim";
    return 0;
  }
  return build_into(cache_dir(), c, trace, key, exe);
}

// the Config of `otpu-rtl build|path` arguments
bool config_from_args(const std::vector<std::string> &a, OtpuConfig *c, std::string *err) {
  *c = OtpuConfig();
  for (const auto &w : a) {
    if (w.find('=') == std::string::npos) {
      std::vector<uint32_t> args;
      if (!otpu_read_config(w, c, &args, err)) return false;
      continue;
    }
    if (!otpu_parse_config_word(w, c, err)) return false;
  }
  std::string bad = c->invalid();
  if (!bad.empty()) {
    *err = "unsupported Config: " + bad;
    return false;
  }
  return true;
}

// the Configs meson builds ahead of time: opentpu/isasim.py's default Config, and the one most
// golden vectors use (DRAM_BYTES = 256 KiB)
std::vector<OtpuConfig> default_configs() {
  OtpuConfig a;
  OtpuConfig b;
  b.DRAM_BYTES = 262144;
  return {a, b};
}

int cmd_run(int argc, char **argv) {
  if (argc < 3) return usage();
  std::string bundle = argv[2];
  OtpuConfig c;
  std::vector<uint32_t> args;
  std::string err;
  if (!otpu_read_config(bundle, &c, &args, &err)) {
    fprintf(stderr, "otpu-rtl: %s\n", err.c_str());
    return 2;
  }
  bool trace = false;
  for (int i = 3; i < argc; i++)
    if (std::string(argv[i]) == "--fst") trace = true;
  std::string exe;
  int rc = find_or_build(c, trace, &exe);
  if (rc) return rc;
  std::vector<char *> av;
  av.push_back(const_cast<char *>(exe.c_str()));
  for (int i = 2; i < argc; i++) av.push_back(argv[i]);
  av.push_back(nullptr);
  fflush(stdout);
  execv(exe.c_str(), av.data());
  fprintf(stderr, "otpu-rtl: cannot run %s: %s\n", exe.c_str(), strerror(errno));
  return 4;
}

int cmd_build(int argc, char **argv, bool path_only) {
  bool trace = false, defaults = false;
  std::string cache, stamp;
  std::vector<std::string> words;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--trace") trace = true;
    else if (a == "--defaults") defaults = true;
    else if (a == "--cache" && i + 1 < argc) cache = argv[++i];
    else if (a == "--stamp" && i + 1 < argc) stamp = argv[++i];
    else if (a == "--bundle" && i + 1 < argc) words.push_back(argv[++i]);
    else if (!a.empty() && a[0] == '-') return usage();
    else words.push_back(a);
  }
  std::vector<OtpuConfig> cfgs;
  if (defaults) cfgs = default_configs();
  if (!words.empty() || !defaults) {
    OtpuConfig c;
    std::string err;
    if (!config_from_args(words, &c, &err)) {
      fprintf(stderr, "otpu-rtl: %s\n", err.c_str());
      return 2;
    }
    cfgs.push_back(c);
  }
  for (const auto &c : cfgs) {
    std::string exe, key, err;
    int rc;
    if (!cache.empty()) {
      if (!build_key(c, trace, &key, &err)) {
        fprintf(stderr, "otpu-rtl: %s\n", err.c_str());
        return 4;
      }
      rc = build_into(cache, c, trace, key, &exe);
    } else {
      rc = find_or_build(c, trace, &exe);
    }
    if (rc) return rc;
    if (path_only) printf("%s\n", exe.c_str());
    else printf("%s: %s\n", c.str().c_str(), exe.c_str());
  }
  if (!stamp.empty()) std::ofstream(stamp) << "ok\n";
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  if (cmd == "run") return cmd_run(argc, argv);
  if (cmd == "build") return cmd_build(argc, argv, false);
  if (cmd == "path") return cmd_build(argc, argv, true);
  return usage();
}
