// otpu_rtl.cpp - otpu-rtl, the command that runs a run bundle on the project's reference RTL.
//
//   otpu-rtl run BUNDLE [--dump DIR] [--max-cycles N] [--fst FILE] [--events FILE] [--systemc]
//                       [--code-coverage FILE] [--dut opentpu[-axi]=PATH] [+plusargs]
//   otpu-rtl build [--systemc | --code-coverage] [--cache DIR] [--stamp FILE]
//                  [--dut opentpu[-axi]=PATH] (--defaults | --bundle DIR | K=V ...)
//   otpu-rtl path [--systemc | --code-coverage] [--dut opentpu[-axi]=PATH] (BUNDLE | K=V ...)
//
// The RTL is built per Config (Verilator -G parameters), in two cached steps (rtl_build.h): the
// Verilated RTL library, then the simulator linked against it (otpu_rtl_sim.cpp; the SystemC top
// otpu_rtl_sc.cpp with --systemc; FST tracing compiled in, off until --fst; a build with
// Verilator's code coverage for --code-coverage, which writes the run's .dat). `run` reads the bundle's case.txt,
// finds or builds the simulator of its Config and runs it (exit 0 ok, 1 a simulated error, 2 bad
// input, 3 timeout; 4 if the build failed). The cache is $OTPU_RTL_CACHE (default
// $XDG_CACHE_HOME/otpu-lockstep/rtl, else ~/.cache/otpu-lockstep/rtl; tools/cache.h); a read-only
// prebuilt folder (the meson build's, OTPU_RTL_PREBUILT) is searched first. --dut opentpu=PATH
// runs openTPU's own RTL from a checkout instead (opentpu.h).
#include "cmdline.h"
#include "file_util.h"
#include "rtl_build.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char kUsage[] =
    "usage: otpu-rtl run BUNDLE [--dump DIR] [--max-cycles N] [--fst FILE] [--events FILE]\n"
    "                           [--systemc] [--code-coverage FILE] [+plusargs]\n"
    "                           [--dut opentpu[-axi]=PATH]\n"
    "       otpu-rtl build [--systemc | --code-coverage] [--cache DIR] [--stamp FILE]\n"
    "                      [--dut opentpu[-axi]=PATH]\n"
    "                      (--defaults | --bundle DIR | KEY=VALUE ...)\n"
    "       otpu-rtl path [--systemc | --code-coverage] [--dut opentpu[-axi]=PATH]\n"
    "                     (BUNDLE | KEY=VALUE ...)\n"
    "\n"
    "run: the bundle on the reference RTL built for its Config (built and cached on first use);\n"
    "     --dump writes final_<s>.txt in the golden format, --fst a waveform (every C++ build\n"
    "     traces, off until asked),\n"
    "     --systemc runs the SystemC top, --code-coverage FILE the build with Verilator's code\n"
    "     coverage (line, branch, toggle), writing the run's points to FILE (.dat).\n"
    "build, path: build (or find) the simulator of a Config and print its path (--systemc: the\n"
    "     SystemC top, --code-coverage: the coverage build; each cached apart from the plain\n"
    "     one).\n"
    "Outputs are checked before anything is built (exit 2 when one cannot be written): a FILE\n"
    "is replaced whole (written beside it, then renamed); --events, --code-coverage and\n"
    "--stamp also write a device (/dev/null) or a FIFO with its reader as it is; --fst needs a\n"
    "file; --dump DIR and --cache DIR are folders, or ones that can be made.\n"
    "--dut opentpu=PATH: openTPU's own RTL from the checkout at PATH instead of the reference\n"
    "     RTL (its ISA revision read from its package; docs/opentpu.md). Default: $OTPU_DUT, else\n"
    "     reference. opentpu-axi=PATH: on its AXI memory path (D=128; random timing set by\n"
    "     +axi_seed=N, default 1, and +axi_stall=PERCENT, default 20).\n"
    "\n"
    "exit status: 0 every slice halted (build, path: done), 1 a simulated error or a failed\n"
    "             host step, 2 bad input, 3 timeout, 4 the build failed; 128+N: signal N\n"
    "             (docs/exit-status.md)\n";

// a bad command line: one line naming the problem
int bad(const std::string &why) {
  fprintf(stderr, "otpu-rtl: %s (see --help)\n", printable(why).c_str());
  return 2;
}

// --dut VALUE anywhere in argv[from..]: parsed into *dut and removed from argv. 0, or the exit
// status of a bad value (the message printed).
int take_dut(int *argc, char **argv, int from, RtlDut *dut) {
  for (int i = from; i < *argc;) {
    if (strcmp(argv[i], "--dut")) {
      i++;
      continue;
    }
    if (i + 1 >= *argc) return bad("--dut needs reference, opentpu=PATH or opentpu-axi=PATH");
    std::string err;
    if (!parse_dut(argv[i + 1], dut, &err)) {
      fprintf(stderr, "otpu-rtl: %s\n", printable(err).c_str());
      return 2;
    }
    for (int k = i; k + 2 <= *argc; k++) argv[k] = argv[k + 2];
    *argc -= 2;
  }
  return 0;
}

// the RTL of a command: --dut, else $OTPU_DUT, else the reference RTL. 0 or an exit status.
int dut_of(int *argc, char **argv, RtlDut *dut) {
  std::string err;
  if (!dut_from_env(dut, &err)) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(err).c_str());
    return 2;
  }
  return take_dut(argc, argv, 2, dut);
}

int cmd_run(int argc, char **argv) {
  RtlDut dut;
  if (int rc = dut_of(&argc, argv, &dut)) return rc;
  if (argc < 3) return bad("run needs a BUNDLE folder");
  std::string bundle = argv[2];
  otpu_config c;
  std::string err;
  if (!read_bundle_config(bundle, &c, &err, dut)) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(err).c_str());
    return 2;
  }
  bool fst = false, systemc = false, code_cov = false;
  std::vector<std::string> plusargs;
  // the outputs, checked before anything is built (the simulator checks them again and
  // writes them); a device's or a FIFO's descriptor is held on across the exec
  OutFile files[3];
  std::string why;
  for (int i = 3; i < argc && why.empty(); i++) {
    fst = fst || !strcmp(argv[i], "--fst");
    systemc = systemc || !strcmp(argv[i], "--systemc");
    code_cov = code_cov || !strcmp(argv[i], "--code-coverage");
    if (argv[i][0] == '+') plusargs.push_back(argv[i]);
    if (i + 1 == argc) continue;
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--dump") why = check_out_dir(a, v);
    if (a == "--fst") why = files[0].check(a, v, 0);  // (written where it can seek)
    if (a == "--events" && v != "-") why = files[1].check(a, v, OTPU_OUT_STREAM);
    if (a == "--code-coverage") why = files[2].check(a, v, OTPU_OUT_STREAM);
  }
  if (!why.empty()) return bad(why);
  for (OutFile &f : files) f.keep_across_exec();
  why = check_plusargs(plusargs, c, dut.opentpu, dut.tree.axi);
  if (!why.empty()) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
    return 2;
  }
  if (fst && systemc) {
    fprintf(stderr, "otpu-rtl: --fst needs the C++ top (the SystemC top writes no waveform)\n");
    return 2;
  }
  if (code_cov && (fst || systemc)) {
    fprintf(stderr, "otpu-rtl: --code-coverage runs the coverage build of the C++ top: not with "
                    "--fst or --systemc\n");
    return 2;
  }
  RtlTopKind kind = systemc ? RtlTopKind::kSystemC
                    : code_cov ? RtlTopKind::kCoverage : RtlTopKind::kPlain;
  // SystemC prints a banner before sc_main unless this is set (a user's own setting wins)
  if (systemc) setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  std::string exe;
  if (dut.opentpu) fprintf(stderr, "otpu-rtl: %s\n", printable(dut_note(dut)).c_str());
  int rc = find_or_build(c, kind, &exe, "", dut);
  if (rc) return rc;
  std::vector<char *> av;
  av.push_back(const_cast<char *>(exe.c_str()));
  for (int i = 2; i < argc; i++)
    if (strcmp(argv[i], "--systemc")) av.push_back(argv[i]);
  const size_t given = plusargs.size();
  if (dut.tree.axi) add_axi_defaults(&plusargs);  // (the AXI memory's, where not given)
  for (size_t k = given; k < plusargs.size(); k++) av.push_back(&plusargs[k][0]);
  av.push_back(nullptr);
  fflush(stdout);
  execv(exe.c_str(), av.data());
  fprintf(stderr, "otpu-rtl: cannot run %s: %s\n", printable(exe).c_str(), strerror(errno));
  return 4;
}

int cmd_build(int argc, char **argv, bool path_only) {
  RtlDut dut;
  if (int rc = dut_of(&argc, argv, &dut)) return rc;
  RtlTopKind kind = RtlTopKind::kPlain;
  bool defaults = false;
  std::string cache, stamp;
  std::vector<std::string> bundles, fields;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--systemc") kind = RtlTopKind::kSystemC;
    else if (a == "--code-coverage") kind = RtlTopKind::kCoverage;
    else if (a == "--defaults") defaults = true;
    else if (a == "--cache" && i + 1 < argc) cache = argv[++i];
    else if (a == "--stamp" && i + 1 < argc) stamp = argv[++i];
    else if (a == "--cache" || a == "--stamp") return bad(a + " needs a value");
    else if (a == "--bundle" && i + 1 < argc) bundles.push_back(argv[++i]);
    else if (!a.empty() && a[0] == '-') return bad("unknown option " + printable(a));
    else if (a.find('=') != std::string::npos) fields.push_back(a);
    else bundles.push_back(a);
  }
  // the outputs, before any build: the cache folder and the stamp file
  OutFile stamp_file;
  std::string why = cache.empty() ? "" : check_out_dir("--cache", cache);
  if (why.empty() && !stamp.empty()) why = stamp_file.check("--stamp", stamp, OTPU_OUT_STREAM);
  if (!why.empty()) return bad(why);
  std::vector<otpu_config> cfgs;
  if (defaults && dut.opentpu) return bad("--defaults builds the reference RTL's Configs only");
  if (defaults) cfgs = default_configs();
  if (!bundles.empty() || !fields.empty() || !defaults) {
    otpu_config c;
    std::string err;
    if (!config_from_args(bundles, fields, &c, &err, dut)) {
      fprintf(stderr, "otpu-rtl: %s\n", printable(err).c_str());
      return 2;
    }
    cfgs.push_back(c);
  }
  for (const auto &c : cfgs) {
    std::string exe;
    int rc = find_or_build(c, kind, &exe, cache, dut);
    if (rc) return rc;
    // (a path scripts read: as it is, but never a control byte)
    if (has_control(exe)) return bad("the simulator's path has a control byte: " + exe);
    if (path_only) printf("%s\n", exe.c_str());
    else printf("%s: %s\n", config_str(c).c_str(), exe.c_str());
  }
  FILE *f = stamp.empty() ? nullptr : stamp_file.open(&why);
  if (f && (fputs("ok\n", f) < 0 || !stamp_file.commit(&why))) f = nullptr;
  if (!stamp.empty() && !f) return bad(why);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) return bad("a command is needed: run, build or path");
  std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help") {
    fputs(kUsage, stdout);
    return 0;
  }
  if (cmd == "run") return cmd_run(argc, argv);
  if (cmd == "build") return cmd_build(argc, argv, false);
  if (cmd == "path") return cmd_build(argc, argv, true);
  return bad("unknown command '" + printable(cmd) + "'");
}
