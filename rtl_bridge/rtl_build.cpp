// rtl_build.cpp - the two cached build steps of a Config's simulator (rtl_build.h). Shared by
// otpu-rtl and otpu-lockstep.
#include "rtl_build.h"

#include "cmdline.h"
#include "file_util.h"
#include "template.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bundle.h"
#include "cache.h"
#include "input.h"
#include "install_dirs.h"
#include "proc.h"
#include "sha256.h"

#ifndef OTPU_DEFAULT_SOURCE_ROOT
#define OTPU_DEFAULT_SOURCE_ROOT ""
#endif
#ifndef OTPU_DEFAULT_PREBUILT
#define OTPU_DEFAULT_PREBUILT ""
#endif
#ifndef OTPU_LOCKSTEP_LIBS
#define OTPU_LOCKSTEP_LIBS ""
#endif

namespace {

// bumped when what a build step makes changes
const char kLibVersion[] = "otpu-rtl library 2";
const char kSimVersion[] = "otpu-rtl simulator 3";

// the adapter Verilated with the RTL (after rtl/sources.txt), and its top module
const char *const kAdapter[] = {"dpi/otpu_lockstep_dpi.sv", "rtl_bridge/otpu_rtl_tb.sv"};
const char kTop[] = "otpu_rtl_tb";
// openTPU's build: the project's packages its adapter uses, openTPU's sources (opentpu.h),
// then the adapter
const char *const kOpenTpuPackages[] = {"rtl/otpu_protocol_pkg.sv", "rtl/otpu_dpi.sv",
                                        "dpi/otpu_lockstep_dpi.sv"};
const char kOpenTpuAdapter[] = "rtl_bridge/opentpu/otpu_rtl_tb.sv";
// the sources of the last step (a list, and its makefile's template); it compiles with the
// headers of these folders (-I, in this order: its own, then the lockstep libraries'), and
// every one is in its key too
const char kSimSources[] = "rtl_bridge/sim_sources.txt";
const char kSimMakefile[] = "rtl_bridge/templates/sim_link.mk.in";
const char *const kHeaderDirs[] = {"rtl_bridge", "dpi",  "checker", "cov",
                                   "golden",     "json", "digest",  "sim"};
// the folder of the RTL's `include files (*.svh): Verilator's -I, and every one is in the
// library's key
const char kRtlIncludeDir[] = "rtl";

// <prefix>/share/otpu-lockstep or <prefix>/lib of the installed tree this tool runs from, or ""
// (a tool of the build folder)
std::string installed(otpu_install_dir which) {
  char p[4096];
  return otpu_install_path(which, p, sizeof p) == 0 ? p : "";
}

// what the builds read: OTPU_SOURCE_ROOT, else the installed tree's copy, else the source tree
// this tool was built from
std::string source_root() {
  std::string inst = installed(OTPU_INSTALL_SHARE);
  return env_or("OTPU_SOURCE_ROOT", inst.empty() ? OTPU_DEFAULT_SOURCE_ROOT : inst);
}
std::string verilator_bin() { return env_or("VERILATOR", "verilator"); }
std::string jobs() { return env_or("OTPU_RTL_JOBS", "2"); }

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

std::string sha_hex(const std::string &s) {
  char h[65];
  otpu_sha256_hex(s.data(), s.size(), h);
  return h;
}

// The executable `tool` runs as (a PATH search when it has no slash), or "".
std::string which(const std::string &tool) {
  if (tool.find('/') != std::string::npos) return access(tool.c_str(), X_OK) ? "" : tool;
  std::stringstream path(env_or("PATH", "/usr/bin:/bin"));
  for (std::string d; std::getline(path, d, ':');) {
    std::string p = (d.empty() ? "." : d) + "/" + tool;
    if (!access(p.c_str(), X_OK)) return p;
  }
  return "";
}

// A tool's `tool --version` text for build keys, remembered per installed binary (its path,
// size and modification time) in the cache's versions/ folder: running `verilator --version`
// (a Perl wrapper) on every run cost several times a small program's whole simulation. No
// memo when the cache cannot be written: the command runs each time.
std::string tool_version(const std::string &tool) {
  std::string path = which(tool);
  struct stat st;
  if (path.empty() || stat(path.c_str(), &st))
    return run_capture(tool + " --version 2>&1");
  char dir[4096];
  otpu_cache_default_dir(dir, sizeof dir);
  std::string id = path + " " + std::to_string(st.st_size) + " " +
                   std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  std::string memo = std::string(dir) + "/versions/" + sha_hex(id).substr(0, 24), out;
  if (read_file(memo, &out)) return out;
  out = run_capture(shell_quote(path) + " --version 2>&1");
  std::string tmp = memo + ".tmp" + std::to_string(getpid());
  std::ofstream f;
  if (mkdirs(std::string(dir) + "/versions")) f.open(tmp, std::ios::binary);
  if (f << out && (f.close(), true) && rename(tmp.c_str(), memo.c_str()) == 0) return out;
  remove(tmp.c_str());
  return out;
}

// a list of the source tree's files (one a line, # comments), relative to its root
bool read_list(const std::string &name, std::vector<std::string> *list, std::string *err) {
  std::string root = source_root();
  std::ifstream f(root + "/" + name);
  if (!f) {
    *err = "cannot read " + root + "/" + name + " (set OTPU_SOURCE_ROOT)";
    return false;
  }
  std::string line;
  while (std::getline(f, line)) {
    line = line.substr(0, line.find('#'));
    size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
    if (a != std::string::npos) list->push_back(line.substr(a, b - a + 1));
  }
  return true;
}

// the reference RTL's sources (rtl/sources.txt), then the adapter
bool rtl_sources(std::vector<std::string> *list, std::string *err) {
  if (!read_list("rtl/sources.txt", list, err)) return false;
  list->insert(list->end(), std::begin(kAdapter), std::end(kAdapter));
  return true;
}


// the files of root/dir whose names end in ext, sorted (a key must not depend on readdir's
// order)
std::vector<std::string> files_with_ext(const std::string &root, const char *dir,
                                        const char *ext) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(root + "/" + dir, ec))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// "== name\n<contents>" of each file, for a key; false if one cannot be read
bool hash_files(const std::vector<std::string> &paths, std::string *h, std::string *err) {
  for (const auto &p : paths) {
    std::string body;
    if (!read_file(p, &body)) {
      *err = "cannot read " + p;
      return false;
    }
    *h += "\n== " + p + "\n" + sha_hex(body);
  }
  return true;
}

// The members of a GNU thin archive as `ar t` lists them (the archive's folder joined to each
// stored name), read from its bytes a: headers of 60 bytes, the symbol table and the long-name
// table ("//", names ending in "/\n") stored, the members themselves not. false if a is not one.
bool thin_members(const std::string &a, const std::string &lib, std::vector<std::string> *out) {
  std::string dir = lib.find('/') == std::string::npos ? "" : lib.substr(0, lib.rfind('/') + 1);
  std::string names;
  size_t pos = 8;  // after "!<thin>\n"
  while (pos + 60 <= a.size()) {
    std::string name = a.substr(pos, 16);
    long size = strtol(a.substr(pos + 48, 10).c_str(), nullptr, 10);
    if (a.compare(pos + 58, 2, "`\n") != 0 || size < 0) return false;
    pos += 60;
    name.erase(name.find_last_not_of(' ') + 1);
    if (name == "/" || name == "/SYM64/" || name == "//") {  // stored in the archive
      if (name == "//") names = a.substr(pos, size);
      pos += size + (size & 1);
      continue;
    }
    std::string m;
    if (name.size() > 1 && name[0] == '/') {  // "/offset" into the long names
      size_t off = strtoul(name.c_str() + 1, nullptr, 10), end = names.find("/\n", off);
      if (end == std::string::npos) return false;
      m = names.substr(off, end - off);
    } else if (name.size() > 1 && name.back() == '/') {
      m = name.substr(0, name.size() - 1);
    } else {
      return false;
    }
    out->push_back(m[0] == '/' ? m : dir + m);
  }
  return pos == a.size() && !out->empty();
}

// A library's contents for a key: its bytes, or for a thin archive (meson's, which holds only
// the paths of its objects) the bytes of every object it names.
bool hash_library(const std::string &lib, std::string *h, std::string *err) {
  std::string body;
  if (!read_file(lib, &body)) {
    *err = "cannot read " + lib + " (build the project first)";
    return false;
  }
  if (body.compare(0, 8, "!<thin>\n") != 0) return hash_files({lib}, h, err);
  std::vector<std::string> members;
  if (!thin_members(body, lib, &members)) {
    *err = "cannot list the thin archive " + lib;
    return false;
  }
  return hash_files(members, h, err);
}

// The lockstep libraries (dpi/, checker/, cov/, golden/, json/, digest/, sim/ of the meson
// build) every simulator links, so that one binary runs either plain or in lockstep with the
// C model.
std::vector<std::string> lockstep_libs() {
  std::vector<std::string> libs;
  std::string lib = installed(OTPU_INSTALL_LIB), inst;
  if (!lib.empty())  // as meson installs them (libotpulockstep.a is private to the tools)
    inst = lib + "/otpu-lockstep/libotpulockstep.a " + lib + "/libotpucheck.a " + lib +
           "/libotpucov.a " + lib + "/libotpugolden.a " + lib + "/libotpujson.a " + lib +
           "/libotpudigest.a " + lib + "/libotpusim.a";
  std::stringstream ss(env_or("OTPU_LOCKSTEP_LIBS", inst.empty() ? OTPU_LOCKSTEP_LIBS : inst));
  std::string l;
  while (ss >> l) libs.push_back(l);
  return libs;
}

std::string verilator_flags(RtlTopKind kind) {
  std::string f = kind == RtlTopKind::kSystemC ? "--sc" : "--cc";
  f += " -Wno-fatal -Wno-lint -Wno-style --top-module " + std::string(kTop);
  if (kind == RtlTopKind::kPlain) f += " --trace-fst --trace-structs --trace-max-array 512";
  if (kind == RtlTopKind::kCoverage) f += " --coverage";  // line (with branches) and toggle
  return f;
}

std::string gparams(const otpu_config &c) {
  std::string g;
  for (int i = 0; i < OTPU_CONFIG_FIELDS; i++) {
    std::string p = std::string("-G") + otpu_config_field_names[i] + "=";
    if (std::string(otpu_config_field_names[i]) == "DRAM_BYTES") p += "64'd";
    g += " " + shell_quote(p + std::to_string(otpu_config_get(&c, i)));
  }
  return g;
}

// A build step: the shell command it runs (in the temporary folder), what it makes, and the
// key of everything it reads; files written into the folder before the command (path, text).
struct Step {
  std::string what, command, key, product;
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> notes;  // printed when it runs
  std::string recipe;              // the makefile the command runs, if one (kept in build.txt)
};

// Runs a step's command in its temporary folder; its output goes to build.log, shown on failure.
int run_step(void *user, const char *tmpdir, char *err, size_t errlen) {
  const Step &st = *static_cast<const Step *>(user);
  std::string dir = tmpdir, log = dir + "/build.log";
  std::string cmd = "cd " + shell_quote(dir) + " && " + st.command;
  fprintf(stderr, "otpu-rtl: building %s\n", printable(st.what).c_str());
  for (const auto &n : st.notes) fprintf(stderr, "otpu-rtl: %s\n", printable(n).c_str());
  for (const auto &f : st.files) {
    std::string p = dir + "/" + f.first;
    std::ofstream out;
    if (mkdirs(p.substr(0, p.rfind('/')))) out.open(p, std::ios::binary);
    if (!(out << f.second) || (out.close(), out.fail())) {
      snprintf(err, errlen, "cannot write %s", printable(p).c_str());
      return -1;
    }
  }
  char *const argv[] = {const_cast<char *>("/bin/sh"), const_cast<char *>("-c"),
                        const_cast<char *>(cmd.c_str()), nullptr};
  otpu_proc_status ps;
  int rc = otpu_proc_run_group(argv, log.c_str(), &ps);
  if (ps.interrupted) return ps.interrupted;
  if (rc == 0 && ps.code == 0 && !ps.signal && is_file(dir + "/" + st.product)) {
    // provenance
    std::ofstream(dir + "/build.txt") << st.what << "\n" << st.command << "\n" << st.recipe;
    return 0;
  }
  std::string body;
  read_file(log, &body);
  if (body.size() > 6000) body = "...\n" + body.substr(body.size() - 6000);
  fprintf(stderr, "otpu-rtl: the build of %s failed (%s); its log:\n%s",
          printable(st.what).c_str(), printable(cmd).c_str(), printable_lines(body).c_str());
  snprintf(err, errlen, "the build of %s failed", printable(st.what).c_str());
  return -1;
}

// A step's product: in the prebuilt folder, or in the cache (built now if it is not there).
bool obtain(const Step &st, const std::string &cache, std::string *path) {
  // (an installed tool has no prebuilt folder: the build folder may be gone)
  std::string pre = env_or("OTPU_RTL_PREBUILT",
                           installed(OTPU_INSTALL_SHARE).empty() ? OTPU_DEFAULT_PREBUILT : "");
  if (cache.empty() && !pre.empty() && is_file(pre + "/" + st.key + "/" + st.product)) {
    *path = pre + "/" + st.key + "/" + st.product;
    return true;
  }
  char p[4096], err[1024];
  if (otpu_cache_get(cache.empty() ? nullptr : cache.c_str(), st.key.c_str(),
                     st.product.c_str(), st.what.c_str(), run_step, const_cast<Step *>(&st), p,
                     sizeof p, err, sizeof err)) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(err).c_str());
    return false;
  }
  *path = p;
  return true;
}

// openTPU's build (opentpu.h): its sources, with the workarounds applied, are written into the
// build folder's src/ (the step's files) and compiled from there, between the project's
// packages and the adapter. Adds them to the key h and the Verilator arguments *files.
bool opentpu_sources(const OpenTpuTree &t, const std::string &root, Step *st, std::string *h,
                     std::string *files, std::string *err) {
  std::vector<std::string> ours(std::begin(kOpenTpuPackages), std::end(kOpenTpuPackages));
  for (const auto &p : ours) *files += " " + shell_quote(root + "/" + p);
  for (const auto &f : t.files) {
    st->files.emplace_back("src/" + f.first, f.second);
    *h += "\n== openTPU " + f.first + "\n" + sha_hex(f.second);
    *files += " " + shell_quote("src/" + f.first);
  }
  *files += " " + shell_quote(root + "/" + kOpenTpuAdapter);
  ours.push_back(kOpenTpuAdapter);
  std::vector<std::string> paths;
  for (const auto &p : ours) paths.push_back(root + "/" + p);
  for (const auto &w : t.workarounds)
    st->notes.push_back("openTPU workaround for Verilator 5.006, in the build's copy (not in " +
                        t.root + "): " + w);
  return hash_files(paths, h, err);
}

// Step 1: the Verilated design and the Verilator runtime in obj/libotpu_rtl.a, with the flags
// of the last step in obj/compile.txt, cflags.txt and link.txt (rtl_bridge/rtl_lib.mk).
bool library_step(const otpu_config &c, RtlTopKind kind, const RtlDut &dut, Step *st,
                  std::string *err) {
  std::string root = source_root(), files, h, flags = verilator_flags(kind);
  if (root.empty()) {
    *err = "no source tree: set OTPU_SOURCE_ROOT";
    return false;
  }
  if (dut.opentpu) flags += opentpu_verilator_flags(dut.tree, c);
  h = std::string(kLibVersion) + "\n" + config_str(c) + "\n" + flags + "\n" +
      tool_version(verilator_bin());
  std::vector<std::string> paths = {root + "/rtl_bridge/rtl_lib.mk"};
  if (dut.opentpu) {
    if (!opentpu_sources(dut.tree, root, st, &h, &files, err)) return false;
  } else {
    std::vector<std::string> srcs;
    if (!rtl_sources(&srcs, err)) return false;
    for (const auto &s : srcs) paths.push_back(root + "/" + s);
    for (const auto &s : srcs) files += " " + shell_quote(root + "/" + s);
    std::vector<std::string> inc = files_with_ext(root, kRtlIncludeDir, ".svh");
    paths.insert(paths.end(), inc.begin(), inc.end());
    files = " -I" + shell_quote(root + "/" + kRtlIncludeDir) + files;
  }
  if (!hash_files(paths, &h, err)) return false;
  st->key = "lib-" + sha_hex(h).substr(0, 24);
  st->product = "obj/libotpu_rtl.a";
  st->what = std::string(dut.opentpu ? "openTPU's RTL (" + dut.tree.root + ")" : "the RTL") +
             " for " + config_str(c) + rtl_top_name(kind) + " (" + st->key + ")";
  st->command = verilator_bin() + " " + flags + gparams(c) + files +
                " --Mdir obj && make -C obj -j " + jobs() + " -f V" + kTop + ".mk -f " +
                shell_quote(root + "/rtl_bridge/rtl_lib.mk") +
                " otpu_rtl_lib && rm -f obj/*.cpp obj/*.o obj/*.d";
  return true;
}

// Step 2: the simulator, linked against the library in libdir.
bool simulator_step(const Step &lib, const std::string &libdir, RtlTopKind kind,
                    const RtlDut &dut, Step *st, std::string *err) {
  std::string root = source_root(), compile, cflags, link;
  if (!read_file(libdir + "/compile.txt", &compile) ||
      !read_file(libdir + "/cflags.txt", &cflags) || !read_file(libdir + "/link.txt", &link)) {
      *err = "the RTL library in " + libdir + " is incomplete (remove it to rebuild)";
      return false;
  }
  // the key takes the flags as the library wrote them (@OBJ@ for its folder): a library in
  // the prebuilt folder and the same one in the cache give one simulator key
  std::string flags = compile + cflags + link;
  for (std::string *s : {&compile, &cflags, &link}) {
    while (!s->empty() && (s->back() == '\n' || s->back() == ' ')) s->pop_back();
    for (size_t k; (k = s->find("@OBJ@")) != std::string::npos;)
      s->replace(k, 5, shell_quote(libdir));
  }
  std::vector<std::string> srcs;
  if (!read_list(kSimSources, &srcs, err)) return false;
  srcs.push_back(kind == RtlTopKind::kSystemC ? "rtl_bridge/otpu_rtl_sc.cpp"
                                              : "rtl_bridge/otpu_rtl_sim.cpp");
  srcs.push_back(dut.opentpu ? "rtl_bridge/dut_stage_opentpu.cpp"
                             : "rtl_bridge/dut_stage_reference.cpp");
  std::string cxx_objs, c_objs;
  std::vector<std::string> paths = {root + "/" + kSimSources, root + "/" + kSimMakefile};
  for (const auto &s : srcs) {
    std::string dir = s.substr(0, s.rfind('/')), o = " " + s.substr(s.rfind('/') + 1) + ".o";
    if (dir == "rtl_bridge" && s.size() > 4 && s.compare(s.size() - 4, 4, ".cpp") == 0) {
      cxx_objs += o;
    } else if (dir == "dpi" && s.size() > 2 && s.compare(s.size() - 2, 2, ".c") == 0) {
      c_objs += o;
    } else {
      *err = std::string(kSimSources) + ": " + s + " is neither rtl_bridge/*.cpp nor dpi/*.c";
      return false;
    }
    paths.push_back(root + "/" + s);
  }
  std::string inc;
  for (const char *d : kHeaderDirs)
    inc += (inc.empty() ? "-I" : " -I") + shell_quote(root + "/" + d);
  std::string h = std::string(kSimVersion) + "\n" + lib.key + "\n" + flags + "\n" +
                  tool_version("c++") + tool_version("cc");
  std::vector<std::string> libs = lockstep_libs();
  for (const char *d : kHeaderDirs) {
    std::vector<std::string> headers = files_with_ext(root, d, ".h");
    paths.insert(paths.end(), headers.begin(), headers.end());
  }
  if (!hash_files(paths, &h, err)) return false;
  for (const auto &l : libs)
    if (!hash_library(l, &h, err)) return false;
  std::string ld, tmpl, mk;
  for (const auto &l : libs) ld += " " + shell_quote(l);
  if (!read_file(root + "/" + kSimMakefile, &tmpl)) {
    *err = "cannot read " + root + "/" + kSimMakefile + " (set OTPU_SOURCE_ROOT)";
    return false;
  }
  if (!fill_template(tmpl,
                     {{"CXX_OBJS", cxx_objs}, {"C_OBJS", c_objs},
                      {"LINKER", compile.substr(0, compile.find(' '))},
                      {"RTL_LIB", shell_quote(libdir + "/libotpu_rtl.a")},
                      {"LOCKSTEP_LIBS", ld},
                      {"LINK_FLAGS", link + " -ljansson -lnettle -lm" +
                                         (kind == RtlTopKind::kPlain ? " -lz" : "")},
                      {"COMPILE", compile}, {"INCLUDES", inc}, {"ROOT", shell_quote(root)},
                      {"DPI_CFLAGS", cflags}, {"DPI_HEADER", std::string("V") + kTop + "__Dpi.h"}},
                     &mk, err))
    return false;
  st->files.emplace_back("link.mk", mk);
  st->recipe = mk;
  st->key = "sim-" + sha_hex(h).substr(0, 24);
  st->product = "otpu-rtl-sim";
  st->what = "the simulator on " + lib.key + rtl_top_name(kind) + " (" + st->key + ")";
  st->command = "make -j " + jobs() + " -f link.mk";
  return true;
}

}  // namespace

const char *rtl_top_name(RtlTopKind kind) {
  switch (kind) {
    case RtlTopKind::kSystemC: return " (SystemC top)";
    case RtlTopKind::kCoverage: return " with code coverage";
    default: return "";
  }
}

std::string rtl_source_root() { return source_root(); }

bool rtl_library_key(const otpu_config &c, RtlTopKind kind, const RtlDut &dut, std::string *key,
                     std::string *err) {
  Step lib;
  if (!library_step(c, kind, dut, &lib, err)) return false;
  *key = lib.key;
  return true;
}

int find_or_build(const otpu_config &c, RtlTopKind kind, std::string *exe,
                  const std::string &cache, const RtlDut &dut, std::string *rtl_key) {
  Step lib, sim;
  std::string err, libpath;
  if (!library_step(c, kind, dut, &lib, &err) || !obtain(lib, cache, &libpath) ||
      !simulator_step(lib, libpath.substr(0, libpath.rfind('/')), kind, dut, &sim, &err) ||
      !obtain(sim, cache, exe)) {
    if (!err.empty()) fprintf(stderr, "otpu-rtl: %s\n", printable(err).c_str());
    return 4;
  }
  if (rtl_key) *rtl_key = lib.key;
  return 0;
}
