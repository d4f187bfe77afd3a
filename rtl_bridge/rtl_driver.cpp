// rtl_driver.cpp - the driver shared by the C++ and SystemC tops of an otpu-rtl build
// (rtl_driver.h): the DPI-C functions that load the bundle into the RTL's memories and dump its
// final state (rtl/otpu_dpi.sv), the event log, the run loop and the lockstep verdict. The
// lockstep records reach the session through dpi/ (dpi.c).
#include "rtl_driver.h"

#include "Votpu_rtl_tb__Dpi.h"
#include "bundle.h"
#include "dpi.h"
#include "dut_stage.h"
#include "lockstep.h"
#include "input.h"
#include "trace.h"
#include "cmdline.h"
#include "report.h"
#include "rtl_host.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

// exit status: RTL and model agree on an outcome the bundle's expect= contradicts
constexpr int kExitExpectation = 6;

struct SliceDump {
  std::vector<uint32_t> tmem, dram, ascale;
  bool sparse = false;                  // DRAM above 256 MiB: only the words the RTL lists
  uint64_t dram_words = 0;
  std::map<uint64_t, uint32_t> dram_sparse;
  std::vector<uint8_t> act;
  uint32_t regs[16] = {};
  uint32_t state[5] = {};            // halted, error, pc, icount, cycles
  std::vector<uint32_t> slots;       // 16 words per window slot
};

// Everything the DPI callbacks reach: the bundle being loaded, the dump being filled, the event
// log. One per process (DPI-C functions have no context argument); main owns it.
struct Sim {
  const otpu_bundle *b = nullptr;      // libotpusim's reader (sim/bundle.h)
  std::vector<SliceDump> dump;
  FILE *events = nullptr;
  uint64_t cycle = 0;
  otpu_ls *ls = nullptr;                // lockstep session (--lockstep)
};
Sim *g_sim = nullptr;

}  // namespace

// ---- DPI-C: bundle loading (rtl/otpu_dpi.sv) -------------------------------------------------
unsigned int otpu_bundle_word(int sid, int space, long long idx) {
  const Sim &s = *g_sim;
  if (idx < 0) return 0u;
  size_t i = size_t(idx);
  if (space == 0) return i < s.b->prog_words[sid] ? s.b->prog[sid][i] : 0u;
  // DRAM words are little endian; the image may end inside a word
  const uint8_t *d = s.b->dram[sid];
  size_t len = s.b->dram_len[sid];
  uint32_t w = 0;
  for (size_t k = 0; k < 4 && 4 * i + k < len; k++) w |= uint32_t(d[4 * i + k]) << (8 * k);
  return w;
}

unsigned int otpu_bundle_info(int sid, int what) {
  const Sim &s = *g_sim;
  if (what == 0) return unsigned(s.b->prog_words[sid] / 8);
  if (what == 1) return unsigned((s.b->dram_len[sid] + 3) / 4);
  if (what >= 8 && what < 16) {
    unsigned k = unsigned(what - 8);
    return k < s.b->nargs ? s.b->args[k] : 0u;
  }
  return 0;
}

void otpu_dump_word(int sid, int space, long long idx, unsigned int data) {
  SliceDump &d = g_sim->dump[size_t(sid)];
  size_t i = size_t(idx);
  switch (space) {
    case 0: if (i < d.tmem.size()) d.tmem[i] = data; break;
    case 1:
      if (d.sparse) {
        if (i < d.dram_words) d.dram_sparse[i] = data;
      } else if (i < d.dram.size()) {
        d.dram[i] = data;
      }
      break;
    case 2: if (i < d.act.size()) d.act[i] = uint8_t(data); break;
    case 3: if (i < d.ascale.size()) d.ascale[i] = data; break;
    case 4: if (i < 16) d.regs[i] = data; break;
    case 5: if (i < 5) d.state[i] = data; break;
    case 6:
      if (i >= d.slots.size()) d.slots.resize(i + 1);
      d.slots[i] = data;
      break;
    default: break;
  }
}

namespace {

// ---- the event log (--events FILE): every lockstep record, one line each ---------------------
void log_ins(void *user, int sid, int kind, int unit, int slot, uint32_t pc, int op) {
  const Sim &sim = *static_cast<const Sim *>(user);
  const char *name = otpu_op_name(unsigned(op));
  fprintf(sim.events, "%" PRIu64 " s%d %s", sim.cycle, sid,
          kind >= 0 && kind <= OTPU_EV_COMPLETE ? otpu_event_names[kind] : "?");
  if (unit >= 0 && unit < OTPU_UNITS) fprintf(sim.events, " unit=%s", otpu_unit_names[unit]);
  if (kind != OTPU_EV_EXEC) fprintf(sim.events, " slot=%d", slot);
  fprintf(sim.events, " pc=%u op=%s\n", pc, name ? name : "?");
}

void log_wr(void *user, int sid, int port, int space, uint32_t addr, uint32_t data, int mask) {
  const Sim &sim = *static_cast<const Sim *>(user);
  fprintf(sim.events, "%" PRIu64 " s%d write port=%s space=%s addr=%u data=%08x mask=%x\n",
          sim.cycle, sid, port >= 0 && port < OTPU_PORTS ? otpu_port_names[port] : "?",
          space >= 0 && space < OTPU_SPACES ? otpu_space_names[space] : "?", addr, data,
          unsigned(mask));
}

void log_state(void *user, int sid, int kind, uint32_t a, uint32_t b) {
  const Sim &sim = *static_cast<const Sim *>(user);
  if (kind == OTPU_SS_CHAIN)
    fprintf(sim.events, "%" PRIu64 " s%d chain addr=%u n=%u\n", sim.cycle, sid, a, b);
  else
    fprintf(sim.events, "%" PRIu64 " s%d %s pc=%u icount=%u\n", sim.cycle, sid,
            kind == OTPU_SS_HALTED ? "halt" : "error", a, b);
}

}  // namespace

namespace {

int usage(const std::string &why) {
  fprintf(stderr, "otpu-rtl: %s (usage: rtl_bridge/rtl_driver.h)\n", printable(why).c_str());
  return 2;
}

// a sparse DRAM's bytes: zeros between the words the RTL holds
int sparse_piece(void *user, uint64_t addr, uint8_t *buf, size_t len) {
  const SliceDump &d = *static_cast<const SliceDump *>(user);
  memset(buf, 0, len);
  for (auto it = d.dram_sparse.lower_bound(addr / 4);
       it != d.dram_sparse.end() && 4 * it->first < addr + len; ++it)
    for (uint64_t k = 0; k < 4; k++)
      if (4 * it->first + k >= addr && 4 * it->first + k < addr + len)
        buf[4 * it->first + k - addr] = uint8_t(it->second >> (8 * k));
  return 0;
}

// final_<s>.txt of the golden format (sim/trace.h's writer), from the RTL's dump
bool write_final(const std::string &dir, int s, const SliceDump &d) {
  std::string p = dir + "/final_" + std::to_string(s) + ".txt";
  FILE *f = fopen(p.c_str(), "w");
  if (!f) {
    fprintf(stderr, "otpu-rtl: cannot write %s\n", p.c_str());
    return false;
  }
  otpu_final_state st{};
  st.halted = int(d.state[0]);
  st.pc = d.state[2];
  st.icount = d.state[3];
  st.R = d.regs;
  st.tmem = d.tmem.data();
  st.tmem_words = d.tmem.size();
  st.dram = d.sparse ? nullptr : reinterpret_cast<const uint8_t *>(d.dram.data());
  st.dram_bytes = 4 * d.dram_words;
  st.dram_piece = sparse_piece;
  st.user = const_cast<SliceDump *>(&d);
  st.act = reinterpret_cast<const int8_t *>(d.act.data());
  st.act_bytes = d.act.size();
  st.ascale = d.ascale.data();
  st.ascale_words = d.ascale.size();
  bool ok = otpu_final_write_state(f, &st) == 0;
  return fclose(f) == 0 && ok;
}

// The RTL's memories of one slice, from the final dump, for the checker's end-state backstop.
int read_state(void *user, uint32_t s, otpu_rtl_state *out) {
  const SliceDump &d = static_cast<Sim *>(user)->dump[s];
  *out = otpu_rtl_state{};
  out->tmem = d.tmem.data();
  if (!d.sparse) {  // (a sparse DRAM is judged write by write only)
    out->dram = reinterpret_cast<const uint8_t *>(d.dram.data());
    out->dram_len = 4 * uint64_t(d.dram.size());
  }
  out->act = reinterpret_cast<const int8_t *>(d.act.data());
  out->ascale = d.ascale.data();
  out->R = d.regs;
  return 0;
}

struct LockstepArgs {
  bool on = false, keep_going = false, progress = false;
  bool quiet = false;  // the report files only: nothing on stdout (otpu-lockstep's re-run)
  std::string report, repro;
  uint64_t hang_cycles = 0, fst_from = 0;
};

// host.txt's outcome (h: nullptr without one): one line; true when a step failed or was never
// reached (then the line goes to stderr, or into *why)
bool host_verdict(const otpu_host *h, const char *tool, std::string *why) {
  if (!h) return false;
  char msg[600];
  size_t n;
  otpu_host_records(h, &n);
  if (!otpu_host_verdict(h, msg, sizeof msg)) {
    if (!why) printf("host: %zu steps done\n", n);
    return false;
  }
  if (why) *why = msg;
  else fprintf(stderr, "%s: host: %s\n", tool, msg);
  return true;
}

// RTL and model agree (no divergence); the verdict is then the bundle's expect= against the
// outcome they agree on. One line on stdout; 0 or kExitExpectation.
int expectation_verdict(const otpu_bundle &b, const otpu_error *e, const char *counts) {
  bool failed = e->kind != OTPU_ERR_NONE;
  otpu_err_kind want = b.error[0] ? otpu_err_classify(b.error) : OTPU_ERR_NONE;
  if (failed && b.expect_error && (!b.error[0] || want == e->kind)) {
    printf("lockstep: PASS with the expected %s error (%s), RTL and model agree: %s\n",
           otpu_err_kind_name(e->kind), counts, e->msg);
    return 0;
  }
  if (!failed && !b.expect_error) {
    printf("lockstep: PASS (%s)\n", counts);
    return 0;
  }
  char q[200];
  if (!failed)
    printf("lockstep: UNEXPECTED OUTCOME: RTL and model agree on a clean run, but the bundle "
           "expects an error (%s) (%s)\n",
           b.error[0] ? otpu_escape(b.error, strlen(b.error), q, sizeof q) : "any", counts);
  else if (!b.expect_error)
    printf("lockstep: UNEXPECTED OUTCOME: RTL and model agree on a %s error the bundle does not "
           "expect (expect=ok): the program is wrong, not the RTL: %s (%s)\n",
           otpu_err_kind_name(e->kind), e->msg, counts);
  else
    printf("lockstep: UNEXPECTED OUTCOME: RTL and model agree on a %s error, the bundle expects "
           "a %s error ('%s'): %s (%s)\n", otpu_err_kind_name(e->kind),
           otpu_err_kind_name(want), otpu_escape(b.error, strlen(b.error), q, sizeof q), e->msg,
           counts);
  return kExitExpectation;
}

// The verdict: the report files, one line on stdout; the exit status.
int lockstep_verdict(const Sim &sim, const LockstepArgs &la, const std::string &bundle,
                     const std::string &fst, uint64_t cycles, uint64_t marker) {
  otpu_checker *c = otpu_ls_checker(sim.ls);
  const otpu_divergence *d = otpu_check_first(c);
  if (const char *bad = otpu_ls_bad_call(sim.ls))
      fprintf(stderr, "otpu-lockstep: adapter error (the event stream broke the protocol): %s\n",
              bad);
  if (!d) {
    char counts[256];
    snprintf(counts, sizeof counts, "%" PRIu64 " cycles, %" PRIu64 " instructions; checked: %"
             PRIu64 " unit instructions with %" PRIu64 " writes, %" PRIu64 " register writes",
             cycles, otpu_check_instructions(c), otpu_check_retired(c), otpu_check_writes(c),
             otpu_check_regs(c));
    size_t nsteps = 0;
    if (const otpu_host *h = otpu_machine_host(otpu_check_model(c))) {
      otpu_host_records(h, &nsteps);
      snprintf(counts + strlen(counts), sizeof counts - strlen(counts), ", %zu host steps",
               nsteps);
    }
    std::string host_why;
    const otpu_machine *model = otpu_check_model(c);
    if (host_verdict(otpu_machine_host(model), "otpu-lockstep", &host_why)) {
      printf("lockstep: UNEXPECTED OUTCOME: RTL and model agree, but the host's steps fail: %s "
             "(%s)\n", host_why.c_str(), counts);
      return kExitExpectation;
    }
    // slices fail one by one (slice-errors mode): the run's error is the first, or the first
    // of the kind the bundle expects
    const otpu_error *e = otpu_machine_error(model);
    otpu_err_kind want = sim.b->error[0] ? otpu_err_classify(sim.b->error) : OTPU_ERR_NONE;
    for (uint32_t s = 0; want != OTPU_ERR_NONE && e->kind != want &&
                         s < otpu_machine_slices(model); s++)
      if (const otpu_error *se = otpu_machine_slice_error(model, s))
        if (se->kind == want) e = se;
    int rc = expectation_verdict(*sim.b, e, counts);
    return otpu_ls_bad_call(sim.ls) ? 2 : rc;
  }
  otpu_report_info info{};
  info.bundle = bundle.c_str();
  info.repro = la.repro.empty() ? nullptr : la.repro.c_str();
  info.divergences = otpu_check_count(c);
  if (!fst.empty()) {
    info.wave = fst.c_str();
    info.wave_from = la.fst_from;
    info.wave_to = cycles;
    info.wave_marker = marker;
  }
  if (!la.report.empty()) {
    mkdir(la.report.c_str(), 0777);
    std::string t = la.report + "/divergence.txt", j = la.report + "/divergence.json";
    FILE *f = fopen(t.c_str(), "w"), *g = fopen(j.c_str(), "w");
    if (f) otpu_report_text(f, d, &info), fclose(f);
    if (g) otpu_report_json(g, d, &info), fclose(g);
    if (!f || !g)
        fprintf(stderr, "otpu-lockstep: cannot write the report into %s\n", la.report.c_str());
  }
  if (la.quiet) return d->kind == OTPU_DIV_HANG ? 3 : 1;
  otpu_report_text(stdout, d, &info);
  printf("lockstep: DIVERGENCE %s at slice %u cycle %" PRIu64 " (%" PRIu64 " counted)%s%s\n",
         otpu_div_kind_name(d->kind), d->slice, d->cycle, otpu_check_count(c),
         la.report.empty() ? "" : "; report: ", la.report.empty() ? "" : la.report.c_str());
  return d->kind == OTPU_DIV_HANG ? 3 : 1;
}

double now_s() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// the folder a file is written into
std::string folder_of(const std::string &path) {
  size_t k = path.rfind('/');
  return k == std::string::npos ? "." : k == 0 ? "/" : path.substr(0, k);
}

// --code-coverage: the run's coverage points into path, whole or not at all (a reader of the
// folder never sees half a file); false with one line on stderr
bool write_code_coverage(RtlTop *top, const std::string &path) {
  std::string tmp = path + ".tmp" + std::to_string(getpid());
  top->write_coverage(tmp);  // (Verilator ends the process if it cannot open the file)
  if (rename(tmp.c_str(), path.c_str()) == 0) return true;
  fprintf(stderr, "otpu-rtl: --code-coverage %s: cannot write it: %s\n", printable(path).c_str(),
          strerror(errno));
  unlink(tmp.c_str());
  return false;
}

// the bundle read by libotpusim, freed on every way out
struct ReadBundle {
  otpu_bundle b{};
  ~ReadBundle() { otpu_bundle_free(&b); }
};

// the command line (the usage above); false with the reason
struct DriverArgs {
  std::string bundle, dump_dir, fst, events, code_cov;
  std::vector<std::string> plusargs;
  uint64_t max_cycles = 200000000ull;
  LockstepArgs la;
};

bool parse_args(int argc, char **argv, DriverArgs *o, std::string *why) {
  auto number = [](const std::string &v, uint64_t *out) {
    errno = 0;
    char *end = nullptr;
    *out = std::strtoull(v.c_str(), &end, 10);
    return !v.empty() && !*end && v[0] >= '0' && v[0] <= '9' && errno == 0;
  };
  LockstepArgs &la = o->la;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto val = [&](std::string *out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v;
    bool ok = true;
    if (a == "--dump") ok = val(&o->dump_dir);
    else if (a == "--fst") ok = val(&o->fst);
    else if (a == "--events") ok = val(&o->events);
    else if (a == "--code-coverage") ok = val(&o->code_cov) && !o->code_cov.empty();
    else if (a == "--lockstep") la.on = true;
    else if (a == "--keep-going") la.keep_going = true;
    else if (a == "--progress") la.progress = true;
    else if (a == "--quiet") la.quiet = true;
    else if (a == "--report") ok = val(&la.report);
    else if (a == "--repro") ok = val(&la.repro);
    else if (a == "--hang-cycles") ok = val(&v) && number(v, &la.hang_cycles);
    else if (a == "--fst-from") ok = val(&v) && number(v, &la.fst_from);
    else if (a == "--max-cycles") ok = val(&v) && number(v, &o->max_cycles);
    else if (!a.empty() && a[0] == '+') o->plusargs.push_back(a);  // the RTL reads it
    else if ((!a.empty() && a[0] == '-') || !o->bundle.empty()) ok = false;
    else o->bundle = a;
    if (!ok) {
      *why = (a[0] == '-' ? "bad option or value: " : "unexpected argument: ") + printable(a);
      return false;
    }
  }
  *why = "no BUNDLE";
  return !o->bundle.empty();
}

// The RTL's memories of each slice, as the final dump fills them.
void make_dumps(Sim *sim, const otpu_config &c) {
  uint64_t rows = otpu_config_act_rows(&c);
  for (uint32_t s = 0; s < c.S; s++) {
    SliceDump d;
    d.tmem.assign(size_t(c.TMEM_WORDS), 0);
    d.dram_words = c.DRAM_BYTES / 4;
    d.sparse = c.DRAM_BYTES > (uint64_t(1) << 28);
    if (!d.sparse) d.dram.assign(size_t(d.dram_words), 0);
    d.act.assign(size_t(rows * c.ACT_BLOCKS * c.D), 0);
    d.ascale.assign(size_t(rows * c.ACT_BLOCKS), 0);
    sim->dump.push_back(std::move(d));
  }
}

// Each slice's state after the run (and on a timeout, what is still in flight), unless quiet.
// True if a slice stopped with an error.
bool print_slices(const Sim &sim, bool timeout, bool quiet) {
  bool any_error = false;
  for (const SliceDump &d : sim.dump) any_error = any_error || d.state[1];
  if (quiet) return any_error;
  printf("cycles=%" PRIu64 "\n", sim.cycle);
  for (size_t s = 0; s < sim.dump.size(); s++) {
    const SliceDump &d = sim.dump[s];
    printf("slice %zu: icount=%u pc=%u halted=%u error=%u\n", s, d.state[3], d.state[2],
           d.state[0], d.state[1]);
    if (!timeout) continue;
    for (size_t k = 0; k + 5 < d.slots.size(); k += 16) {
      if (!d.slots[k]) continue;
      unsigned u = d.slots[k + 2];
      printf("  in flight: slot %zu pc=%u %s unit=%s %s deps=0x%x\n", k / 16, d.slots[k + 3],
             otpu_op_name(d.slots[k + 4]) ? otpu_op_name(d.slots[k + 4]) : "?",
             u < OTPU_UNITS ? otpu_unit_names[u] : "?",
             d.slots[k + 1] ? "started" : "waiting", d.slots[k + 5]);
    }
  }
  return any_error;
}

}  // namespace

int rtl_driver_main(int argc, char **argv, RtlTopMaker make) {
  DriverArgs o;
  std::string why;
  if (!parse_args(argc, argv, &o, &why)) return usage(why);
  const LockstepArgs &la = o.la;
  const std::string &bundle = o.bundle, &fst = o.fst;

  ReadBundle rb;
  char err[1024];
  if (otpu_bundle_read(bundle.c_str(), &rb.b, err, sizeof err)) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(err).c_str());
    return 2;
  }
  const otpu_bundle &b = rb.b;
  std::string bad = check_plusargs(o.plusargs, b.cfg);
  if (!bad.empty()) return usage(bad);

  Sim sim;
  sim.b = &b;
  g_sim = &sim;
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
  make_dumps(&sim, c);
  if (!o.events.empty()) {
    sim.events = o.events == "-" ? stdout : fopen(o.events.c_str(), "w");
    if (!sim.events) {
      fprintf(stderr, "otpu-rtl: cannot write %s\n", o.events.c_str());
      return 2;
    }
    otpu_dpi_observer log{&sim, log_ins, log_wr, log_state};
    otpu_dpi_observe(&log);
  }

  // The C model is built on a second thread while the RTL is constructed and loads its
  // memories (no event reaches the session before the reset ends).
  otpu_ls_options lo{};
  lo.check.keep_going = la.keep_going;
  lo.check.hang_cycles = la.hang_cycles;
  lo.check.slots = 256;
  lo.read_state = read_state;
  lo.user = &sim;
  char lerr[1024] = "";
  std::thread model;
  if (la.on) model = std::thread([&] { sim.ls = otpu_ls_open_bundle(&b, &lo, lerr, sizeof lerr); });
  struct Join {
    std::thread &t;
    ~Join() { if (t.joinable()) t.join(); }
  } join{model};

  // the files a DUT reads by itself (dut_stage.h), named by plusargs after the user's
  DutStage stage;
  if (!dut_stage(b, &stage, &why)) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
    return 2;
  }
  std::vector<char *> args(argv, argv + argc);
  for (std::string &p : stage.plusargs) args.push_back(&p[0]);
  args.push_back(nullptr);
  const std::unique_ptr<RtlTop> top = make(int(args.size()) - 1, args.data());
  if (!o.code_cov.empty() && !top->has_coverage())
    return usage("--code-coverage: this build has no code coverage (otpu-rtl builds one with "
                 "--code-coverage)");
  if (!o.code_cov.empty() && access(folder_of(o.code_cov).c_str(), W_OK)) {
    fprintf(stderr, "otpu-rtl: --code-coverage %s: its folder cannot be written\n",
            printable(o.code_cov).c_str());
    return 2;
  }
  if (!fst.empty() && !top->open_wave(fst)) {
    fprintf(stderr, "otpu-rtl: this build has no waveform support (otpu-rtl builds one with "
                    "tracing when --fst is given)\n");
    return 2;
  }
  uint64_t edges = 0;  // every clock edge, reset included: the host's clock
  auto tick = [&]() {
    top->tick(!fst.empty() && sim.cycle >= la.fst_from);
    edges++;
  };

  const bool ev_en = sim.events != nullptr || la.on;
  top->set_inputs(true, false, ev_en);
  top->settle();
  stage.remove();  // (the RTL read its files at time 0)
  if (la.on) {
    model.join();
    if (!sim.ls) {
      fprintf(stderr, "otpu-lockstep: %s\n", printable(lerr).c_str());
      return 2;
    }
    otpu_ls_attach(sim.ls);
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
  otpu_checker *chk = sim.ls ? otpu_ls_checker(sim.ls) : nullptr;
  bool show = la.progress || (sim.ls && isatty(2));
  double t0 = now_s(), next_note = t0 + 1.0;
  // (with host steps: until the host also saw every slice stop and can do nothing more)
  while (!top->stopped() || host_busy > 0 || !rtl_host_saw_stop()) {
    if (sim.cycle >= o.max_cycles) {
      timeout = true;
      break;
    }
    sim.cycle++;
    tick();
    host_busy = rtl_host_advance(edges);
    if (chk) {
      otpu_ls_cycle(sim.ls, sim.cycle);
      // the waveform's time of the values this edge sampled (each edge is one time unit: the
      // falling edge before this rising one)
      if (otpu_check_count(chk) && !marker) marker = 2 * edges - 2;
      if (!la.keep_going && otpu_check_count(chk)) break;  // the first divergence
      if (show && (sim.cycle & 1023) == 0 && now_s() >= next_note) {
        double dt = now_s() - t0;
        fprintf(stderr, "\rotpu-lockstep: %" PRIu64 " cycles, %" PRIu64 " instructions, "
                "%.0f cycles/s ", sim.cycle, otpu_check_instructions(chk), double(sim.cycle) / dt);
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
  if (sim.events && sim.events != stdout) fclose(sim.events);
  if (!o.code_cov.empty() && !write_code_coverage(top.get(), o.code_cov)) return 2;

  bool any_error = print_slices(sim, timeout, la.quiet);
  if (!o.dump_dir.empty()) {
    for (uint32_t s = 0; s < c.S; s++)
      if (!write_final(o.dump_dir, int(s), sim.dump[s])) return 2;
  }
  if (sim.ls) {
    otpu_ls_end(sim.ls);  // (the halted slices are judged here: the dump holds their state)
    if (timeout && !otpu_check_count(chk)) {
      // every slice stopped, but the host's steps were not done: time ran out, no verdict
      std::string left;
      host_verdict(rtl_host(), "otpu-lockstep", &left);
      printf("lockstep: TIMEOUT: no end within %" PRIu64 " cycles (--max-cycles)%s%s\n",
             o.max_cycles, left.empty() ? "" : "; ", left.c_str());
      otpu_ls_close(sim.ls);
      return 3;
    }
    if (!otpu_check_count(chk) || la.keep_going) otpu_check_host(chk, rtl_host());
    // (a divergence found at the end, as the end state: the last edge)
    int rc = lockstep_verdict(sim, la, bundle, fst, sim.cycle, marker ? marker : 2 * edges - 2);
    otpu_ls_close(sim.ls);
    return rc;
  }
  if (timeout) {
    printf("timeout: no halt within %" PRIu64 " cycles\n", o.max_cycles);
    return 3;
  }
  return host_verdict(rtl_host(), "otpu-rtl", nullptr) || any_error ? 1 : 0;
}
