// otpu_lockstep.cpp - otpu-lockstep: a run bundle on the reference RTL with the C model in
// lockstep (the protocol: rtl/EVENTS.md, checker/check.h).
//
//   otpu-lockstep run BUNDLE [--report DIR] [--wave-window N] [--snapshot-every N] [--keep-going]
//                            [--max-cycles N] [--hang-cycles N] [--no-check] [--progress] [--systemc]
//                            [--coverage FILE] [--code-coverage FILE] [--dut opentpu[-axi]=PATH]
//                            [+plusargs]
//
// It finds or builds the simulator of the bundle's Config (rtl_build.h: the reference RTL, or
// openTPU's own from a checkout with --dut, opentpu.h) and runs it with
// --lockstep. On a divergence the waveform of the --wave-window cycles before it comes from a
// snapshot of the run (rtl_snapshot.h: the simulator forks a paused copy every --snapshot-every
// cycles and wakes the one before the window), so the report names the waveform; without one
// (--snapshot-every 0, the SystemC top, a code-coverage run) the same bundle is re-run
// deterministically from cycle 0 with tracing on. Exit: 0 pass, 1 divergence, 2 bad input, 3 hang or timeout, 4 the build failed,
// 5 the simulator crashed, 6 an outcome the bundle's expect= contradicts (the usage text).
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cmdline.h"
#include "file_util.h"
#include "outcome.h"
#include "proc.h"
#include "rtl_build.h"
#include "report.h"
#include "wave_view.h"

namespace {

const char kUsage[] =
    "usage: otpu-lockstep run BUNDLE [--report DIR] [--wave-window N] [--snapshot-every N]\n"
    "                            [--keep-going]\n"
    "                            [--max-cycles N] [--hang-cycles N] [--no-check] [--progress]\n"
    "                            [--systemc] [--coverage FILE] [--code-coverage FILE]\n"
    "                            [--dut opentpu[-axi]=PATH] [--report-html] [+plusargs]\n"
    "       otpu-lockstep report DIR [--html]\n"
    "\n"
    "Runs BUNDLE (case.txt, prog_<s>.hex, dram_<s>.bin) on the reference RTL built for its\n"
    "Config, with the C model checking every retired instruction's writes as they land.\n"
    "  --report DIR       where divergence.txt / divergence.json / wave.fst go\n"
    "                     (default: otpu-lockstep-report/<bundle name>); those files of an\n"
    "                     earlier run are removed when the run starts\n"
    "  --wave-window N    cycles of waveform before the divergence (default 1000; 0: none),\n"
    "                     with wave.gtkw to open it there: gtkwave DIR/wave.gtkw\n"
    "  --snapshot-every N a paused copy of the run every N cycles (default 1000000), the\n"
    "                     last two kept: the waveform is traced by the one before the window,\n"
    "                     without a re-run; 0: none (the run is re-run from cycle 0 for it)\n"
    "  --report-html      also DIR/divergence.html: the report on one static page\n"
    "  --keep-going       count every divergence instead of stopping at the first\n"
    "  --max-cycles N     stop after N cycles (default 200000000): a timeout\n"
    "  --hang-cycles N    a hang: no event (a dispatch, start, write, register write,\n"
    "                     completion, halt or error) for more than N + A cycles while an\n"
    "                     instruction is in flight, A = 4 x the largest work estimate (element\n"
    "                     steps) of the started instructions in flight, so that a long legal\n"
    "                     instruction is no hang; N from 1 (default 100000)\n"
    "  --no-check         run the same RTL without the checker (for overhead figures):\n"
    "                     the verdict line says UNCHECKED, and only the RTL's own outcome\n"
    "                     is judged against expect= (exit 0 or 6)\n"
    "  --progress         cycles, instructions retired and rate on stderr (default when\n"
    "                     stderr is a terminal)\n"
    "  --systemc          run the SystemC top of the RTL (sc_main, Verilator --sc) instead of\n"
    "                     the C++ one; the waveform window is taken on the traced C++ build\n"
    "  --coverage FILE    write the functional coverage of the run (JSON, docs/coverage.md):\n"
    "                     the C model's bins and what the RTL did (out-of-order completions,\n"
    "                     units busy together, from its events)\n"
    "  --code-coverage FILE  run the RTL's code-coverage build (Verilator --coverage: line,\n"
    "                     branch and toggle points; built and cached per Config beside the\n"
    "                     normal one) and write the run's points to FILE in Verilator's .dat\n"
    "                     format (verilator_coverage reads, merges and annotates it); written\n"
    "                     also after a divergence or a timeout. Not with --systemc\n"
    "  --dut opentpu=PATH openTPU's own RTL from the checkout at PATH instead of the reference\n"
    "                     RTL: built under Verilator with the adapter of docs/opentpu.md, the\n"
    "                     model set to the ISA revision its package declares (the bundle's REV=\n"
    "                     must be that revision). Default: $OTPU_DUT, else the\n"
    "                     reference RTL\n"
    "  --dut opentpu-axi=PATH  the same on its board memory path (D=128 only): its AXI adapter\n"
    "                     and its testbench's AXI memory model with random latency and stalls,\n"
    "                     set by +axi_seed=N (default 1) and +axi_stall=PERCENT (0..99, default\n"
    "                     20); both go into the repro\n"
    "  +name=value        plusargs for the RTL (fault injection: rtl/README.md); an unknown or\n"
    "                     malformed +otpu_* or +axi_* plusarg is bad input\n"
    "\n"
    "Outputs are checked before anything is built (bad input, exit 2, when one cannot be\n"
    "written): a FILE is replaced whole (written beside it, then renamed), a device (/dev/null)\n"
    "or a FIFO with its reader is written as it is, a folder or anything else is refused; the\n"
    "report DIR is a folder, or one that can be made.\n"
    "\n"
    "report DIR prints a stored report (DIR/divergence.json, or that file) as text again (its\n"
    "strings escaped); --html also writes DIR/divergence.html.\n"
    "\n"
    "The verdict honours the bundle's expect=: RTL and model agreeing on an error the bundle\n"
    "does not expect (or on a clean run where it expects one) is not a pass.\n"
    "exit status: 0 pass, 1 divergence, 2 bad input, 3 hang or timeout, 4 the build failed,\n"
    "             5 the simulator crashed, 6 RTL and model agree on an outcome the bundle's\n"
    "             expect= contradicts (--no-check: the RTL's own outcome does); 128+N:\n"
    "             stopped by signal N (no verdict). docs/exit-status.md has every tool's.\n";

constexpr int kExitCrash = 5;
constexpr int kExitExpectation = 6;

int bad(const std::string &msg) {
  fprintf(stderr, "otpu-lockstep: %s\n", printable(msg).c_str());
  return 2;
}

// The files a run writes into its report folder (removed at the start of a run, so a folder
// never mixes two runs).
const char *const kReportFiles[] = {"divergence.txt", "divergence.json", "divergence.html",
                                    "wave.fst", "wave.gtkw"};

void clear_report(const std::string &dir) {
  for (const char *f : kReportFiles) unlink((dir + "/" + f).c_str());
}

// The simulator, as a child that dies with this process. Its exit status; kExitCrash if it
// died of a signal. A signal to this process ends it after the child (cleanup() first).
template <class Cleanup>
int run(const std::vector<std::string> &argv, Cleanup cleanup) {
  std::vector<char *> av;
  for (const auto &a : argv) av.push_back(const_cast<char *>(a.c_str()));
  av.push_back(nullptr);
  otpu_proc_status st;
  if (otpu_proc_run(av.data(), &st) != 0) {
    fprintf(stderr, "otpu-lockstep: cannot start %s: %s\n", printable(av[0]).c_str(),
            strerror(errno));
    return kExitCrash;
  }
  if (st.interrupted) {
    cleanup();
    otpu_proc_reraise(st.interrupted);
  }
  if (st.signal) {
    fprintf(stderr, "otpu-lockstep: the simulator crashed (signal %d, %s); no verdict\n",
            st.signal, strsignal(st.signal));
    return kExitCrash;
  }
  return st.code == 127 ? kExitCrash : st.code;
}

// a divergence.json's kind, slice and cycle, to compare two runs by ("" without one)
std::string divergence_line(const std::string &report) {
  std::string body;
  if (!read_file(report + "/divergence.json", &body)) return "";
  auto field = [&](const char *key) {
    size_t k = body.find(key);
    if (k == std::string::npos) return std::string();
    return body.substr(k, body.find_first_of(",\n", k) - k);
  };
  return field("\"kind\":") + " " + field("\"slice\":") + " " + field("\"cycle\":");
}

// the "cycle" of a divergence.json
bool divergence_cycle(const std::string &report, uint64_t *cycle) {
  std::string body;
  if (!read_file(report + "/divergence.json", &body)) return false;
  size_t k = body.find("\"cycle\":");
  if (k == std::string::npos) return false;
  *cycle = std::strtoull(body.c_str() + k + 8, nullptr, 10);
  return true;
}

// The waveform window without a snapshot: the run (`cmd`, without its waveform, coverage and
// snapshot options) again from cycle 0 with tracing on, dumping from `from` on and rewriting the
// report files, which then name it. false when there is no waveform.
bool rerun_traced(const otpu_config &c, const RtlDut &dut, std::vector<std::string> cmd,
                  const std::string &report, uint64_t from, int rc) {
  std::string exe, wave = report + "/wave.fst";
  if (find_or_build(c, RtlTopKind::kPlain, &exe, "", dut)) {  // (every plain build traces)
    fprintf(stderr, "otpu-lockstep: no waveform (the build failed); the report stands\n");
    return false;
  }
  std::string first = divergence_line(report);
  cmd[0] = exe;
  cmd.insert(cmd.end(), {"--fst", wave, "--fst-from", std::to_string(from), "--quiet"});
  int again = run(cmd, [&] { unlink(wave.c_str()); });
  std::string second = divergence_line(report);
  if (again == rc && second == first) return true;
  fprintf(stderr, "otpu-lockstep: the traced re-run ended differently (exit %d, first %d; %s, "
                  "first %s): the run is not deterministic, a finding of its own\n", again, rc,
          printable(second).c_str(), printable(first).c_str());
  return false;
}

// DIR/divergence.html from DIR/divergence.json, written whole (output.h; checked already when
// html is given); "" or why not
std::string write_report_html(const std::string &dir, OutFile *html = nullptr) {
  OutFile own;
  std::string why;
  if (!html && !(why = own.check("--report-html", dir + "/divergence.html", 0)).empty())
    return why;
  OutFile *out = html ? html : &own;
  otpu_report_stored r;
  char err[512];
  if (otpu_report_read((dir + "/divergence.json").c_str(), &r, err, sizeof err)) return err;
  FILE *f = out->open(&why);
  if (f && otpu_report_html(f, &r.d, &r.info)) why = "cannot write " + dir + "/divergence.html";
  else if (f) out->commit(&why);
  otpu_report_stored_free(&r);
  return why;
}

// --no-check: the RTL ran alone, so nothing was compared and the verdict line says so; what can
// still be judged is the RTL's own outcome (the driver's exit: 0 every slice halted, 1 a
// simulated error or a failed host step, 3 timeout) against the bundle's expect=.
int unchecked_verdict(const std::string &bundle, int rc, bool plusargs) {
  if (rc != 0 && rc != 1) return rc;  // (a timeout, a crash, bad input: said by the driver)
  otpu_bundle b;
  char err[1024];
  if (otpu_bundle_read(bundle.c_str(), &b, err, sizeof err)) return bad(printable(err));
  bool expect_error = b.expect_error != 0;
  bool contradicts = otpu_outcome_judge_failed(&b, rc == 1) != OTPU_OUTCOME_MET;
  otpu_bundle_free(&b);
  printf("lockstep: UNCHECKED (--no-check: the RTL ran without the model, nothing was "
         "compared%s): the RTL's own outcome, %s, %s the bundle's expect=%s\n",
         plusargs ? "; the plusargs were not checked either" : "",
         rc ? "an error (or a failed host step)" : "every slice halted",
         contradicts ? "contradicts" : "agrees with", expect_error ? "error" : "ok");
  return contradicts ? kExitExpectation : 0;
}

int cmd_run(int argc, char **argv) {
  std::string bundle, report, max_cycles, hang_cycles, coverage, code_cov;
  uint64_t window = 1000, snapshot_every = 1000000, n;
  bool keep_going = false, no_check = false, progress = false, systemc = false;
  bool report_html = false;
  std::vector<std::string> plusargs;
  RtlDut dut;
  std::string dut_arg, dut_err;
  if (!dut_from_env(&dut, &dut_err)) return bad(printable(dut_err));
  ArgWalk args(argc, argv, 2);
  for (std::string a; args.next(&a);) {
    std::string v;
    if (a == "-h" || a == "--help") {
      fputs(kUsage, stdout);
      return 0;
    } else if (a == "--report") {
      if (!args.value(&report) || report.empty())
        return bad("--report needs a folder (see --help)");
    } else if (a == "--wave-window") {
      if (!args.value(&v) || !parse_count(v, &window))
        return bad("--wave-window needs a cycle count, not '" + printable(v) + "'");
    } else if (a == "--snapshot-every") {
      if (!args.value(&v) || !parse_count(v, &snapshot_every))
        return bad("--snapshot-every needs a cycle count, not '" + printable(v) + "'");
    } else if (a == "--max-cycles") {  // (passed on in decimal, as the simulator reads it)
      if (!args.value(&max_cycles) || !parse_count(max_cycles, &n))
        return bad("--max-cycles needs a cycle count, not '" + printable(max_cycles) + "'");
      max_cycles = std::to_string(n);
    } else if (a == "--hang-cycles") {  // (0 would be the simulator's default: refused)
      if (!args.value(&hang_cycles) || !parse_count(hang_cycles, &n) || !n)
        return bad("--hang-cycles needs a cycle count from 1, not '" + printable(hang_cycles) +
                   "'");
      hang_cycles = std::to_string(n);
    } else if (a == "--keep-going") {
      keep_going = true;
    } else if (a == "--report-html") {
      report_html = true;
    } else if (a == "--no-check") {
      no_check = true;
    } else if (a == "--progress") {
      progress = true;
    } else if (a == "--systemc") {
      systemc = true;
    } else if (a == "--dut") {
      if (!args.value(&dut_arg) || !parse_dut(dut_arg, &dut, &v)) {
        if (v.empty()) v = "--dut needs reference, opentpu=PATH or opentpu-axi=PATH";
        return bad(printable(v));
      }
    } else if (a == "--coverage") {
      if (!args.value(&coverage) || coverage.empty())
        return bad("--coverage needs a FILE (see --help)");
    } else if (a == "--code-coverage") {
      if (!args.value(&code_cov) || code_cov.empty())
        return bad("--code-coverage needs a FILE (see --help)");
    } else if (!a.empty() && a[0] == '+') {
      plusargs.push_back(a);
    } else if (!a.empty() && a[0] == '-') {
      return bad("unknown option " + printable(a) + " (see --help)");
    } else if (bundle.empty()) {
      bundle = a;
    } else {
      return bad("unexpected argument " + printable(a) + " (see --help)");
    }
  }
  if (bundle.empty()) return bad("run needs a BUNDLE folder (see --help)");
  char abs[PATH_MAX];
  if (!realpath(bundle.c_str(), abs))
    return bad(printable(bundle) + ": not a bundle folder (" + strerror(errno) + ")");
  bundle = abs;
  // the whole bundle is read here, so bad input is named before any build or run
  otpu_config c;
  std::string err;
  if (!read_bundle_config(bundle, &c, &err, dut)) return bad(err);
  std::string why = check_plusargs(plusargs, c, dut.opentpu, dut.tree.axi);
  if (!why.empty()) return bad(printable(why));
  if (dut.tree.axi) add_axi_defaults(&plusargs);
  if (report.empty()) report = "otpu-lockstep-report/" + bundle.substr(bundle.rfind('/') + 1);
  if (!code_cov.empty() && systemc)
    return bad("--code-coverage runs the C++ top's coverage build: not with --systemc");
  // every output before anything is built (output.h): the report folder (made when the run
  // starts, so a failed build or ^C leaves no empty folder behind), the coverage files (the
  // simulator writes them; a device's or a FIFO's descriptor is held here until it ended)
  OutFile cov_file, code_cov_file;
  if (!no_check) why = check_out_dir("--report", report);
  if (why.empty() && !coverage.empty())
    why = cov_file.check("--coverage", coverage, OTPU_OUT_STREAM);
  if (why.empty() && !code_cov.empty())
    why = code_cov_file.check("--code-coverage", code_cov, OTPU_OUT_STREAM);
  if (!why.empty()) return bad(why);

  std::string exe, key;
  if (dut.opentpu) fprintf(stderr, "otpu-lockstep: %s\n", printable(dut_note(dut)).c_str());
  RtlTopKind kind = systemc ? RtlTopKind::kSystemC
                    : !code_cov.empty() ? RtlTopKind::kCoverage : RtlTopKind::kPlain;
  int rc = find_or_build(c, kind, &exe, "", dut, &key);
  if (rc) return rc;
  // the RTL under test of a coverage run is the plain build's, instrumented: its repro (and
  // OTPU_RTL_KEY) name the plain build, which reproduces it without coverage
  if (kind == RtlTopKind::kCoverage && !rtl_library_key(c, RtlTopKind::kPlain, dut, &key, &err))
    return bad(err);
  // a repro names the RTL it ran: another one now (the sources changed) reproduces nothing
  const char *want = getenv("OTPU_RTL_KEY");
  if (want && *want && key != want)
    return bad(std::string("OTPU_RTL_KEY=") + printable(want) + " names the RTL build this run "
               "was recorded on; the RTL under test now is " + key + " (its sources, the Config "
               "or the Verilator flags changed): nothing to reproduce");
  bool made = false;
  if (!no_check) {
    struct stat st;
    made = stat(report.c_str(), &st) != 0;
    if (!mkdirs(report)) return bad("cannot create the report folder " + printable(report));
    clear_report(report);
  }
  // a run stopped by a signal leaves no report and no folder it made
  auto cleanup = [&] {
    if (no_check) return;
    clear_report(report);
    if (made) rmdir(report.c_str());
  };
  // the repro names everything that selects the RTL under test (the bundle's REV= selects the
  // model's revision): its sources, its build's key, the DUT
  // (a command a person copies: each word in printable ASCII that the shell reads back as the
  // same bytes, shell_word)
  std::string repro = "OTPU_SOURCE_ROOT=" + shell_word(rtl_source_root()) + " OTPU_RTL_KEY=" +
                      key + " otpu-lockstep run " + shell_word(bundle);
  if (dut.opentpu) repro += " --dut " + shell_word(opentpu_dut_value(dut.tree));
  if (systemc) {
    repro += " --systemc";
    // SystemC prints a banner before sc_main unless this is set (a user's own setting wins)
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  }
  // every option that changes the verdict
  for (const auto &p : plusargs) repro += " " + shell_word(p);
  if (!max_cycles.empty()) repro += " --max-cycles " + max_cycles;
  if (!hang_cycles.empty()) repro += " --hang-cycles " + hang_cycles;
  if (keep_going) repro += " --keep-going";
  // the run (a waveform re-run repeats `base`)
  std::vector<std::string> base = {exe, bundle};
  if (!no_check) {
    base.insert(base.end(), {"--lockstep", "--report", report, "--repro", repro});
    if (keep_going) base.push_back("--keep-going");
    if (progress) base.push_back("--progress");
    if (!hang_cycles.empty()) base.insert(base.end(), {"--hang-cycles", hang_cycles});
  }
  if (!max_cycles.empty()) base.insert(base.end(), {"--max-cycles", max_cycles});
  base.insert(base.end(), plusargs.begin(), plusargs.end());
  std::vector<std::string> cmd = base;
  std::string wave = report + "/wave.fst";
  if (!no_check && window && kind == RtlTopKind::kPlain)  // (the builds that trace: rtl_build.h)
    cmd.insert(cmd.end(), {"--wave", wave, "--wave-window", std::to_string(window),
                           "--snapshot-every", std::to_string(snapshot_every)});
  if (!coverage.empty()) cmd.insert(cmd.end(), {"--coverage", coverage});
  if (!code_cov.empty()) cmd.insert(cmd.end(), {"--code-coverage", code_cov});
  // divergence.html beside the other files, once they are final (--report-html)
  auto finish = [&](int code) {
    if (report_html && !no_check && divergence_line(report) != "") {
      std::string no_html = write_report_html(report);
      if (!no_html.empty())
        fprintf(stderr, "otpu-lockstep: no divergence.html: %s\n", printable(no_html).c_str());
    }
    return code;
  };
  rc = run(cmd, cleanup);
  if (!no_check && made) rmdir(report.c_str());  // only if empty: nothing to report
  if (no_check) return unchecked_verdict(bundle, rc, !plusargs.empty());
  uint64_t cycle;
  if ((rc != 1 && rc != 3) || !window || !divergence_cycle(report, &cycle))
    return finish(rc);
  uint64_t from = cycle > window ? cycle - window : 0;
  bool snapshot = is_file(wave);  // (the simulator's snapshot traced it)
  if (!snapshot && !rerun_traced(c, dut, base, report, from, rc)) return finish(rc);
  std::string no_view;
  if (!write_wave_view(report, &no_view))
    fprintf(stderr, "otpu-lockstep: no wave.gtkw: %s\n", printable(no_view).c_str());
  printf("lockstep: waveform %s/wave.fst (cycles %llu..%llu, traced by %s)%s%s\n",
         printable(report).c_str(), (unsigned long long)from, (unsigned long long)cycle,
         snapshot ? "a snapshot of the run" : "a re-run from cycle 0",
         no_view.empty() ? "; open it at the divergence: gtkwave " : "",
         no_view.empty() ? shell_word(report + "/wave.gtkw").c_str() : "");
  return finish(rc);
}

// otpu-lockstep report DIR [--html]: a stored report (a CI artifact, say) as text again
int cmd_report(int argc, char **argv) {
  std::string dir;
  bool html = false;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--html") html = true;
    else if (!a.empty() && a[0] == '-')
      return bad("unknown option " + printable(a) + " (see --help)");
    else if (dir.empty()) dir = a;
    else return bad("unexpected argument " + printable(a) + " (see --help)");
  }
  if (dir.empty()) return bad("report needs a report folder (or its divergence.json)");
  struct stat st;
  bool folder_given = stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  std::string json = folder_given ? dir + "/divergence.json" : dir;
  size_t slash = json.rfind('/');
  std::string folder = slash == std::string::npos ? "." : json.substr(0, slash);
  otpu_report_stored r;
  char err[512];
  if (otpu_report_read(json.c_str(), &r, err, sizeof err)) return bad(printable(err));
  // divergence.html's place before anything is printed (output.h)
  OutFile html_file;
  std::string why = html ? html_file.check("--html", folder + "/divergence.html", 0) : "";
  if (!why.empty()) {
    otpu_report_stored_free(&r);
    return bad(why);
  }
  otpu_report_text(stdout, &r.d, &r.info);  // (its strings escaped: the file is input)
  otpu_report_stored_free(&r);
  if (html) {
    if (!(why = write_report_html(folder, &html_file)).empty()) return bad(why);
    printf("report: %s/divergence.html\n", printable(folder).c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) return bad("a command is needed: run (see --help)");
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    fputs(kUsage, stdout);
    return 0;
  }
  if (!strcmp(argv[1], "run")) return cmd_run(argc, argv);
  if (!strcmp(argv[1], "report")) return cmd_report(argc, argv);
  return bad("unknown command '" + printable(argv[1]) + "' (run, report; see --help)");
}
