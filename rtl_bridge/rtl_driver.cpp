// rtl_driver.cpp - the run loop shared by the C++ and SystemC tops of an otpu-rtl build
// (rtl_driver.h): the run staged (rtl_stage.h), the RTL clocked until every slice stopped and
// the host (rtl_host.h) is done, then the final state (rtl_final.h) and the verdict
// (rtl_verdict.h); snapshots of the run for a divergence's waveform (rtl_snapshot.h); the fork
// server (--serve, rtl_serve.h). The DPI-C entry points the RTL calls are in dpi/.
#include "rtl_driver.h"

#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cmdline.h"
#include "dpi.h"
#include "dut_stage.h"
#include "input.h"
#include "lockstep.h"
#include "lockstep_cov.h"
#include "rtl_args.h"
#include "rtl_events.h"
#include "rtl_final.h"
#include "rtl_host.h"
#include "rtl_serve.h"
#include "rtl_snapshot.h"
#include "rtl_stage.h"
#include "rtl_verdict.h"

namespace {

double now_s() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// --code-coverage: the run's coverage points, whole or not at all (a reader of the folder never
// sees half a file), or into a device or FIFO as it is (output.h); false with one line on stderr
bool write_code_coverage(RtlTop *top, OutFile *out) {
  std::string why, path = out->begin(&why);
  if (!path.empty()) top->write_coverage(path);  // (checked before the run: it can be opened)
  if (!path.empty() && out->commit(&why)) return true;
  fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
  return false;
}

// The files a run writes where its user says, checked before it (output.h): a place that
// cannot be written is bad input, not a crash or a lost verdict after the run.
struct Outputs {
  OutFile fst, events, code_cov, coverage;
};

// "" or the one-line reason
std::string check_outputs(const DriverArgs &o, Outputs *out) {
  std::string why;
  if (!o.dump_dir.empty()) why = check_out_dir("--dump", o.dump_dir);
  if (why.empty() && !o.la.report.empty()) why = check_out_dir("--report", o.la.report);
  if (why.empty() && !o.fst.empty()) why = out->fst.check("--fst", o.fst, 0);
  if (why.empty() && !o.events.empty() && o.events != "-")
    why = out->events.check("--events", o.events, OTPU_OUT_STREAM);
  if (why.empty() && !o.code_cov.empty())
    why = out->code_cov.check("--code-coverage", o.code_cov, OTPU_OUT_STREAM);
  if (why.empty() && !o.coverage.empty())
    why = out->coverage.check("--coverage", o.coverage, OTPU_OUT_STREAM);
  return why;
}

// --coverage: the RTL's event log of the run, in a temporary file of its own
struct CoverageEvents {
  std::string path;
  ~CoverageEvents() {
    if (path.empty()) return;
    unlink(path.c_str());
    rmdir(path.substr(0, path.rfind('/')).c_str());
  }
  bool make() {
    const char *tmp = getenv("TMPDIR");
    std::string t = std::string(tmp && *tmp ? tmp : "/tmp") + "/otpu-lockstep-cov-XXXXXX";
    std::vector<char> buf(t.begin(), t.end());
    buf.push_back(0);
    if (!mkdtemp(buf.data())) return false;
    path = std::string(buf.data()) + "/events.txt";
    return true;
  }
};

// --coverage: the run's coverage file once it ended (not after bad input); the exit status
int with_coverage(const DriverArgs &o, OutFile *out, int rc) {
  if (o.coverage.empty()) return rc;
  std::string why, path = out->begin(&why);
  if (!path.empty() && (why = lockstep_coverage(o.bundle, o.events, path)).empty() &&
      out->commit(&why))
    return rc;
  fprintf(stderr, "otpu-lockstep: --coverage: %s\n", printable(why).c_str());
  return rc ? rc : 2;
}

// One run (the usage in rtl_driver.h) on a top made by `make`, or on `prebuilt` (a fork server's
// child).
int run_bundle(int argc, char **argv, RtlTopMaker make, RtlTop *prebuilt) {
  DriverArgs o;
  std::string why;
  if (!parse_args(argc, argv, &o, &why)) return usage(why);
  const LockstepArgs &la = o.la;
  Outputs out;
  if (!(why = check_outputs(o, &out)).empty()) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
    return 2;
  }

  StagedBundle sb;
  if (int rc = stage_bundle(o, &sb)) return rc;
  const otpu_bundle &b = sb.b;

  uint64_t cycle = 0;
  struct HostClose {
    ~HostClose() { rtl_host_close(); }
  } host_close;
  uint64_t drop_write = plusarg_value(o.plusargs, "+otpu_host_drop_write=");
  if (drop_write && !b.host.n)
    return usage("+otpu_host_drop_write: the bundle has no host.txt (no write step to drop)");
  if (!rtl_host_open(b, drop_write)) {
    fprintf(stderr, "otpu-rtl: out of memory for the host's steps\n");
    return 2;
  }
  const otpu_config &c = b.cfg;
  FinalState fin;
  final_state_open(&fin, c);
  EventLog events;
  events.cycle = &cycle;
  CoverageEvents cov_events;
  if (!o.coverage.empty() && o.events.empty()) {
    if (!cov_events.make()) {
      fprintf(stderr, "otpu-lockstep: cannot make a temporary folder for the RTL's events\n");
      return 2;
    }
    o.events = cov_events.path;
    if (!(why = out.events.check("--events", o.events, 0)).empty()) {
      fprintf(stderr, "otpu-lockstep: %s\n", printable(why).c_str());
      return 2;
    }
  }
  if (!o.events.empty()) {
    events.f = o.events == "-" ? stdout : out.events.open(&why);
    if (!events.f) {
      fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
      return 2;
    }
    event_log_start(&events);
  }

  otpu_ls_options lo{};
  lo.check.keep_going = la.keep_going;
  lo.check.hang_cycles = la.hang_cycles;
  lo.check.slots = 256;
  lo.read_state = final_state_read;
  lo.user = &fin;
  ModelBuild model;
  if (la.on) model.start(&b, lo);
  otpu_ls *ls = nullptr;

  // the files a DUT reads by itself (dut_stage.h), named by plusargs after the user's
  DutStage stage;
  if (!dut_stage(b, &stage, &why)) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
    return 2;
  }
  std::vector<char *> args(argv, argv + argc);
  for (std::string &p : stage.plusargs) args.push_back(&p[0]);
  args.push_back(nullptr);
  std::unique_ptr<RtlTop> made;
  RtlTop *top = prebuilt;
  if (top) top->command_args(int(args.size()) - 1, args.data());
  else top = (made = make(int(args.size()) - 1, args.data())).get();
  if (!o.code_cov.empty() && !top->has_coverage())
    return usage("--code-coverage: this build has no code coverage (otpu-rtl builds one with "
                 "--code-coverage)");
  // --fst: traced into a temporary file beside FILE, renamed into place when the run ended
  std::string fst = o.fst.empty() ? "" : out.fst.begin(&why);  // (a woken snapshot sets both:
  uint64_t fst_from = la.fst_from;                                // rtl_snapshot.h)
  if (!o.fst.empty() && fst.empty()) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
    return 2;
  }
  if (!fst.empty() && !top->open_wave(fst)) {
    fprintf(stderr, "otpu-rtl: this build has no waveform support (otpu-rtl builds one with "
                    "tracing when --fst is given)\n");
    return 2;
  }
  uint64_t edges = 0;  // every clock edge, reset included: the host's clock
  auto tick = [&]() {
    top->tick(!fst.empty() && cycle >= fst_from);
    edges++;
  };

  const bool ev_en = events.f != nullptr || la.on;
  top->set_inputs(true, false, ev_en);
  top->settle();
  stage.remove();  // (the RTL read its files at time 0)
  if (la.on) {
    ls = model.take(&why);
    if (!ls) {
      fprintf(stderr, "otpu-lockstep: %s\n", printable(why).c_str());
      return 2;
    }
    otpu_ls_attach(ls);
  }
  // the model must have been built for this Config
  for (int i = 0; i < OTPU_CONFIG_FIELDS; i++) {
    uint64_t have = top->config(i);
    uint64_t want = otpu_config_get(&c, i);
    if (have != want) {
      fprintf(stderr, "otpu-rtl: this build has %s=%" PRIu64 ", the bundle %s=%" PRIu64 "\n",
              otpu_config_field_names[i], have, otpu_config_field_names[i], want);
      return 2;
    }
  }

  tick();
  tick();
  // the host's steps before its first wait (an await, a barrier, cycles or polls), in reset:
  // before any instruction, as in the model (its DRAM words land one an edge)
  while (rtl_host_advance(edges) == OTPU_HOST_BUSY && edges < o.max_cycles) tick();
  top->set_inputs(false, false, ev_en);
  bool timeout = false;
  int host_busy = 0;
  uint64_t marker = 0;  // the waveform's time of the first divergence
  otpu_checker *chk = ls ? otpu_ls_checker(ls) : nullptr;
  bool show = la.progress || (ls && isatty(2));
  double t0 = now_s(), next_note = t0 + 1.0;
  Snapshots snaps(chk && !o.wave.empty() && top->can_trace() && top->forkable()
                      ? o.snapshot_every : 0, o.wave_window);
  bool replay = false;  // this process is a woken snapshot: it traces the window, quietly
  uint64_t replay_until = 0;
  // (with host steps: until the host also saw every slice stop and can do nothing more)
  while (!top->stopped() || host_busy > 0 || !rtl_host_saw_stop()) {
    if (chk && !otpu_check_count(chk) && snaps.at(cycle, &fst_from, &replay_until)) {
      replay = true;
      show = false;
      otpu_dpi_observe(nullptr);  // (the run writes the event log)
      fst = o.wave;
      if (!top->open_wave(fst)) _exit(Snapshots::replay_status(false));
    }
    if (cycle >= o.max_cycles) {
      timeout = true;
      break;
    }
    cycle++;
    tick();
    host_busy = rtl_host_advance(edges);
    if (chk) {
      otpu_ls_cycle(ls, cycle);
      // the waveform's time of the values this edge sampled (each edge is one time unit: the
      // falling edge before this rising one)
      if (otpu_check_count(chk) && !marker) marker = 2 * edges - 2;
      if (!la.keep_going && otpu_check_count(chk)) break;  // the first divergence
      if (show && (cycle & 1023) == 0 && now_s() >= next_note) {
        double dt = now_s() - t0;
        fprintf(stderr, "\rotpu-lockstep: %" PRIu64 " cycles, %" PRIu64 " instructions, "
                "%.0f cycles/s ", cycle, otpu_check_instructions(chk), double(cycle) / dt);
        next_note += 1.0;
      }
    }
  }
  if (show && chk) fprintf(stderr, "\n");
  // the last edge reports the halt / error level changes of the final cycle, and dumps
  top->set_inputs(false, true, ev_en);
  tick();
  top->set_inputs(false, false, false);
  top->finish();
  if (replay) {  // the end of a woken snapshot: did it meet the run's divergence again?
    otpu_ls_end(ls, timeout);
    if (!otpu_check_count(chk) || la.keep_going) otpu_check_host(chk, rtl_host());
    const otpu_divergence *d = otpu_check_first(chk);
    _exit(Snapshots::replay_status(d && d->cycle == replay_until));
  }
  // the files of the run, whole (the waveform closed by finish()), whatever its verdict
  if (!o.fst.empty() && !out.fst.commit(&why)) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
    return 2;
  }
  if (!o.fst.empty()) fst = o.fst;  // (the report names the file in place)
  if (events.f && events.f != stdout && !out.events.commit(&why)) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
    return 2;
  }
  if (!o.code_cov.empty() && !write_code_coverage(top, &out.code_cov)) return 2;

  bool any_error = final_state_print(fin, cycle, timeout, la.quiet);
  if (!o.dump_dir.empty()) {
    for (uint32_t s = 0; s < c.S; s++)
      if (!final_state_write(o.dump_dir, int(s), fin.slices[s])) return 2;
  }
  if (ls) {
    otpu_ls_end(ls, timeout);  // (the halted slices are judged here: the dump holds their state)
    if (timeout && !otpu_check_count(chk)) {
      // every slice stopped, but the host's steps were not done: time ran out, no verdict
      std::string left;
      host_verdict(rtl_host(), "otpu-lockstep", &left);
      printf("lockstep: TIMEOUT: no end within %" PRIu64 " cycles (--max-cycles)%s%s\n",
             o.max_cycles, left.empty() ? "" : "; ", left.c_str());
      otpu_ls_close(ls);
      return with_coverage(o, &out.coverage, 3);
    }
    if (!otpu_check_count(chk) || la.keep_going) otpu_check_host(chk, rtl_host());
    // the snapshot before the divergence traces its window while the report is written
    const otpu_divergence *d = otpu_check_first(chk);
    LockstepArgs shown = la;
    bool woken = d && snaps.wake(d->cycle, &shown.fst_from);
    if (woken) fst = o.wave;
    // (a divergence found at the end, as the end state: the last edge)
    int rc = lockstep_verdict(ls, b, shown, o.bundle, fst, cycle, marker ? marker : 2 * edges - 2);
    otpu_ls_close(ls);
    if (woken && !snaps.woken_done()) {
      unlink(o.wave.c_str());
      fprintf(stderr, "otpu-lockstep: the snapshot that was to trace the waveform ended "
                      "differently from the run: no waveform from it\n");
    }
    return with_coverage(o, &out.coverage, rc);
  }
  if (timeout) {
    printf("timeout: no halt within %" PRIu64 " cycles\n", o.max_cycles);
    return with_coverage(o, &out.coverage, 3);
  }
  return with_coverage(o, &out.coverage,
                       host_verdict(rtl_host(), "otpu-rtl", nullptr) || any_error ? 1 : 0);
}

}  // namespace

int rtl_driver_main(int argc, char **argv, RtlTopMaker make) {
  if (argc == 2 && !strcmp(argv[1], "--serve")) {
    std::unique_ptr<RtlTop> top = make(1, argv);
    if (!top->forkable()) return usage("--serve needs the C++ top (not the SystemC one)");
    return rtl_serve(argv[0], top.get(),
                     [](int ac, char **av, RtlTop *t) { return run_bundle(ac, av, nullptr, t); });
  }
  return run_bundle(argc, argv, make, nullptr);
}
