// rtl_build.cpp - building, caching and finding the Verilated simulator of a Config
// (rtl_build.h). Shared by otpu-rtl and otpu-lockstep.
#include "rtl_build.h"

#include "proc.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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
#ifndef OTPU_LOCKSTEP_LIBS
#define OTPU_LOCKSTEP_LIBS ""
#endif


const char *kBuildVersion = "otpu-rtl build 1";

std::string env_or(const char *name, const std::string &def) {
  const char *v = getenv(name);
  return v && *v ? std::string(v) : def;
}

static std::string source_root() { return env_or("OTPU_SOURCE_ROOT", OTPU_DEFAULT_SOURCE_ROOT); }

static std::string cache_dir() {
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

static bool ends_with(const std::string &s, const std::string &t) {
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

std::string verilator_bin() { return env_or("VERILATOR", "verilator"); }

// the sources of a build, relative to the source root (rtl/sources.txt)
static bool sources(std::vector<std::string> *list, std::string *err) {
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

static std::string gparams(const OtpuConfig &c) {
  std::string g;
  for (int i = 0; i < 12; i++) {
    std::string p = std::string("-G") + OtpuConfig::kNames[i] + "=";
    if (std::string(OtpuConfig::kNames[i]) == "DRAM_BYTES") p += "64'd";
    g += " " + shell_quote(p + std::to_string(*c.field(i)));
  }
  return g;
}

// The lockstep libraries (dpi/, checker/, sim/ of the meson build) every simulator links, so that
// one binary runs either plain or in lockstep with the C model.
static std::vector<std::string> lockstep_libs() {
  std::vector<std::string> libs;
  std::stringstream ss(env_or("OTPU_LOCKSTEP_LIBS", OTPU_LOCKSTEP_LIBS));
  std::string l;
  while (ss >> l) libs.push_back(l);
  return libs;
}

static std::string build_flags(RtlTopKind kind) {
  std::string f = kind == RtlTopKind::kSystemC ? "--sc" : "--cc";
  f += " --exe --build -Wno-fatal -Wno-lint -Wno-style --top-module otpu_rtl_tb";
  if (kind == RtlTopKind::kTraced) f += " --trace-fst --trace-structs --trace-max-array 512";
  return f;
}

// the top (main or sc_main) a build of `kind` compiles; the other one is left out
static bool other_top(const std::string &src, RtlTopKind kind) {
  const char *cc = "rtl_bridge/otpu_rtl_sim.cpp", *sc = "rtl_bridge/otpu_rtl_sc.cpp";
  return src == (kind == RtlTopKind::kSystemC ? cc : sc);
}

const char *rtl_top_name(RtlTopKind kind) {
  switch (kind) {
    case RtlTopKind::kTraced: return " with tracing";
    case RtlTopKind::kSystemC: return " (SystemC top)";
    default: return "";
  }
}

bool build_key(const OtpuConfig &c, RtlTopKind kind, std::string *key, std::string *err) {
  std::vector<std::string> srcs;
  if (!sources(&srcs, err)) return false;
  std::string h = std::string(kBuildVersion) + "\n" + c.str() + "\n" + build_flags(kind) + "\n";
  h += run_capture(verilator_bin() + " --version 2>&1");
  for (const auto &lib : lockstep_libs()) {
    std::string body;
    if (!read_file(lib, &body)) {
      *err = "cannot read the lockstep library " + lib + " (build the project first)";
      return false;
    }
    h += "\n== " + lib + "\n" + otpu_sha256_hex(body.data(), body.size());
  }
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

// Temporary build folders no build is using: this key's (the caller holds its lock) and any
// whose builder process is gone (a tool killed mid-build).
static void remove_stale_temporaries(const std::string &dir, const std::string &key) {
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    size_t t = name.find(".tmp");
    if (t == std::string::npos) continue;
    pid_t pid = pid_t(std::atol(name.c_str() + t + 4));
    bool mine = name.compare(0, t, key) == 0;
    if (mine || pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH))
      std::filesystem::remove_all(e.path(), ec);
  }
}

// errno values that mean "this cache cannot be written here"
static bool not_writable(int e) { return e == EACCES || e == EROFS || e == EPERM; }

// Builds the simulator of a Config into DIR/KEY (under an exclusive lock on DIR/KEY.lock).
int build_into(const std::string &dir, const OtpuConfig &c, RtlTopKind kind, const std::string &key,
               std::string *exe) {
  std::string final_dir = dir + "/" + key;
  *exe = final_dir + "/otpu-rtl-sim";
  if (!mkdirs(dir)) {
    if (not_writable(errno)) return kCacheNotWritable;
    fprintf(stderr, "otpu-rtl: cannot create %s: %s\n", dir.c_str(), strerror(errno));
    return 4;
  }
  std::string lockp = dir + "/" + key + ".lock";
  // O_CLOEXEC: no compiler of the build inherits (and keeps) the lock
  int lfd = open(lockp.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0666);
  if (lfd < 0 && not_writable(errno)) return kCacheNotWritable;
  if (lfd >= 0 && flock(lfd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    fprintf(stderr, "otpu-rtl: waiting for another build of %s%s (lock %s)\n", c.str().c_str(),
            rtl_top_name(kind), lockp.c_str());
    while (flock(lfd, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  if (lfd < 0) {
    fprintf(stderr, "otpu-rtl: cannot lock %s: %s\n", lockp.c_str(), strerror(errno));
    return 4;
  }
  struct Unlock {
    int fd;
    ~Unlock() { close(fd); }
  } unlock{lfd};
  if (is_file(*exe)) return 0;
  std::vector<std::string> srcs;
  std::string err;
  if (!sources(&srcs, &err)) {
    fprintf(stderr, "otpu-rtl: %s\n", err.c_str());
    return 4;
  }
  remove_stale_temporaries(dir, key);
  std::string tmp = dir + "/" + key + ".tmp" + std::to_string(getpid());
  std::error_code ec;
  if (!mkdirs(tmp)) {
    fprintf(stderr, "otpu-rtl: cannot create %s: %s\n", tmp.c_str(), strerror(errno));
    return 4;
  }
  std::string root = source_root();
  std::string cmd = verilator_bin() + " " + build_flags(kind) + " -j " +
                    env_or("OTPU_RTL_JOBS", "2") + gparams(c);
  for (const auto &s : srcs)
    if ((ends_with(s, ".sv") || ends_with(s, ".cpp")) && !other_top(s, kind))
      cmd += " " + shell_quote(root + "/" + s);
  cmd += " -CFLAGS " + shell_quote("-I" + root + "/rtl_bridge -I" + root + "/dpi -I" + root +
                                   "/checker -I" + root + "/sim");
  std::string ld;
  for (const auto &lib : lockstep_libs()) ld += lib + " ";
  cmd += " -LDFLAGS " + shell_quote(ld + "-lcrypto -lm");
  if (kind == RtlTopKind::kSystemC) cmd += " -LDFLAGS -lsystemc";
  cmd += " --Mdir " + shell_quote(tmp + "/obj") + " -o " + shell_quote(tmp + "/otpu-rtl-sim");
  fprintf(stderr, "otpu-rtl: building the RTL for %s%s (key %s)\n", c.str().c_str(),
          rtl_top_name(kind), key.c_str());
  std::string log = tmp + "/build.log";
  otpu_proc_status st;
  char *const argv[] = {const_cast<char *>("/bin/sh"), const_cast<char *>("-c"),
                        const_cast<char *>(cmd.c_str()), nullptr};
  int rc = otpu_proc_run_group(argv, log.c_str(), &st);
  if (st.interrupted) {  // the tool was stopped: no half build stays behind
    std::filesystem::remove_all(tmp, ec);
    close(lfd);
    otpu_proc_reraise(st.interrupted);
  }
  if (rc != 0 || st.code != 0 || st.signal || !is_file(tmp + "/otpu-rtl-sim")) {
    fprintf(stderr, "otpu-rtl: the build failed (%s); its log:\n", cmd.c_str());
    std::string body;
    read_file(log, &body);
    if (body.size() > 6000) body = "...\n" + body.substr(body.size() - 6000);
    fputs(body.c_str(), stderr);
    std::filesystem::remove_all(tmp, ec);
    return 4;
  }
  std::ofstream(tmp + "/config.txt") << c.str() << "\ntop=" << build_flags(kind) << "\n"
                                     << run_capture(verilator_bin() + " --version 2>&1");
  std::filesystem::remove_all(tmp + "/obj", ec);
  std::filesystem::remove_all(final_dir, ec);
  if (rename(tmp.c_str(), final_dir.c_str()) != 0) {
    fprintf(stderr, "otpu-rtl: cannot move %s to %s\n", tmp.c_str(), final_dir.c_str());
    return 4;
  }
  return 0;
}

// The per-user cache, where a cache that cannot be written falls back to.
static std::string user_cache_dir(const std::string &failed) {
  std::string x = env_or("XDG_CACHE_HOME", "");
  std::string c = !x.empty() ? x + "/otpu-lockstep/rtl"
                             : env_or("HOME", "/tmp") + "/.cache/otpu-lockstep/rtl";
  if (c == failed) c = "/tmp/otpu-lockstep-" + std::to_string(getuid()) + "/rtl";
  return c;
}

// The simulator of a Config: prebuilt, cached, or built now into the cache.
int find_or_build(const OtpuConfig &c, RtlTopKind kind, std::string *exe) {
  std::string key, err;
  if (!build_key(c, kind, &key, &err)) {
    fprintf(stderr, "otpu-rtl: %s\n", err.c_str());
    return 4;
  }
  std::string pre = env_or("OTPU_RTL_PREBUILT", OTPU_DEFAULT_PREBUILT);
  if (!pre.empty() && is_file(pre + "/" + key + "/otpu-rtl-sim")) {
    *exe = pre + "/" + key + "/otpu-rtl-sim";
    return 0;
  }
  // a finished build is moved into place whole, so reading one needs no lock
  std::string dir = cache_dir();
  *exe = dir + "/" + key + "/otpu-rtl-sim";
  if (is_file(*exe)) return 0;
  int rc = build_into(dir, c, kind, key, exe);
  if (rc != kCacheNotWritable) return rc;
  std::string fb = user_cache_dir(dir);
  fprintf(stderr, "otpu-rtl: the cache %s cannot be written; building in %s\n", dir.c_str(),
          fb.c_str());
  *exe = fb + "/" + key + "/otpu-rtl-sim";
  if (is_file(*exe)) return 0;
  rc = build_into(fb, c, kind, key, exe);
  if (rc == kCacheNotWritable) {
    fprintf(stderr, "otpu-rtl: the cache %s cannot be written either (set OTPU_RTL_CACHE)\n",
            fb.c_str());
    return 4;
  }
  return rc;
}

// the Config of `otpu-rtl build|path` arguments
bool config_from_args(const std::vector<std::string> &a, OtpuConfig *c, std::string *err) {
  *c = OtpuConfig();
  for (const auto &w : a) {
    if (w.find('=') == std::string::npos) {
      if (!otpu_read_config(w, c, err)) return false;
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

