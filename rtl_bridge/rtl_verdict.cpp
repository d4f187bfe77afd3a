// rtl_verdict.cpp - the outcome of a run (rtl_verdict.h).
#include "rtl_verdict.h"

#include <sys/stat.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "cmdline.h"
#include "input.h"
#include "outcome.h"
#include "report.h"

namespace {

// exit status: RTL and model agree on an outcome the bundle's expect= contradicts
constexpr int kExitExpectation = 6;

// RTL and model agree (no divergence); the verdict is then the bundle's expect= against the
// outcome they agree on. One line on stdout; 0 or kExitExpectation.
int expectation_verdict(const otpu_bundle &b, const otpu_error *e, const char *counts) {
  char q[200];
  switch (otpu_outcome_judge(&b, e->kind)) {
    case OTPU_OUTCOME_MET:
      if (e->kind == OTPU_ERR_NONE) {
        printf("lockstep: PASS (%s)\n", counts);
      } else {
        printf("lockstep: PASS with the expected %s error (%s), RTL and model agree: %s\n",
               otpu_err_kind_name(e->kind), counts, printable(e->msg).c_str());
      }
      return 0;
    case OTPU_OUTCOME_NO_ERROR:
      printf("lockstep: UNEXPECTED OUTCOME: RTL and model agree on a clean run, but the bundle "
             "expects an error (%s) (%s)\n",
             b.error[0] ? otpu_escape(b.error, strlen(b.error), q, sizeof q) : "any", counts);
      break;
    case OTPU_OUTCOME_ERROR:
      printf("lockstep: UNEXPECTED OUTCOME: RTL and model agree on a %s error the bundle does "
             "not expect (expect=ok): the program is wrong, not the RTL: %s (%s)\n",
             otpu_err_kind_name(e->kind), printable(e->msg).c_str(), counts);
      break;
    case OTPU_OUTCOME_WRONG_KIND:
      printf("lockstep: UNEXPECTED OUTCOME: RTL and model agree on a %s error, the bundle "
             "expects a %s error ('%s'): %s (%s)\n", otpu_err_kind_name(e->kind),
             otpu_err_kind_name(otpu_outcome_wanted(&b)),
             otpu_escape(b.error, strlen(b.error), q, sizeof q), printable(e->msg).c_str(),
             counts);
      break;
  }
  return kExitExpectation;
}

// no divergence: the host's steps, then the outcome against expect=
int agreed_verdict(otpu_ls *ls, const otpu_bundle &b, uint64_t cycles) {
  otpu_checker *c = otpu_ls_checker(ls);
  char counts[256];
  snprintf(counts, sizeof counts, "%" PRIu64 " cycles, %" PRIu64 " instructions; checked: %"
           PRIu64 " unit instructions with %" PRIu64 " writes, %" PRIu64 " register writes",
           cycles, otpu_check_instructions(c), otpu_check_retired(c), otpu_check_writes(c),
           otpu_check_regs(c));
  const otpu_machine *model = otpu_check_model(c);
  if (const otpu_host *h = otpu_machine_host(model)) {
    size_t nsteps = 0;
    otpu_host_records(h, &nsteps);
    snprintf(counts + strlen(counts), sizeof counts - strlen(counts), ", %zu host steps",
             nsteps);
  }
  std::string host_why;
  if (host_verdict(otpu_machine_host(model), "otpu-lockstep", &host_why)) {
    printf("lockstep: UNEXPECTED OUTCOME: RTL and model agree, but the host's steps fail: %s "
           "(%s)\n", printable(host_why).c_str(), counts);
    return kExitExpectation;
  }
  // slices fail one by one (slice-errors mode): the run's error is the first, or the first
  // of the kind the bundle expects
  const otpu_error *e = otpu_machine_error(model);
  otpu_err_kind want = otpu_outcome_wanted(&b);
  for (uint32_t s = 0; want != OTPU_ERR_NONE && e->kind != want &&
                       s < otpu_machine_slices(model); s++)
    if (const otpu_error *se = otpu_machine_slice_error(model, s))
      if (se->kind == want) e = se;
  int rc = expectation_verdict(b, e, counts);
  return otpu_ls_bad_call(ls) ? 2 : rc;
}

}  // namespace

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
  else otpu_print_quoting(stderr, tool, ": host: %s", msg);
  return true;
}

int lockstep_verdict(otpu_ls *ls, const otpu_bundle &b, const LockstepArgs &la,
                     const std::string &bundle, const std::string &fst, uint64_t cycles,
                     uint64_t marker) {
  otpu_checker *c = otpu_ls_checker(ls);
  const otpu_divergence *d = otpu_check_first(c);
  if (const char *bad = otpu_ls_bad_call(ls))
      fprintf(stderr, "otpu-lockstep: adapter error (the event stream broke the protocol): %s\n",
              printable(bad).c_str());
  if (!d) return agreed_verdict(ls, b, cycles);
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
  if (!la.report.empty()) {  // (each file whole: output.h)
    mkdir(la.report.c_str(), 0777);
    OutFile t, j;
    std::string why = t.check("--report", la.report + "/divergence.txt", 0);
    if (why.empty()) why = j.check("--report", la.report + "/divergence.json", 0);
    FILE *f = why.empty() ? t.open(&why) : nullptr, *g = f ? j.open(&why) : nullptr;
    if (g) otpu_report_text(f, d, &info), otpu_report_json(g, d, &info);
    if (!g || !t.commit(&why) || !j.commit(&why))
      fprintf(stderr, "otpu-lockstep: cannot write the report: %s\n", printable(why).c_str());
  }
  if (la.quiet) return d->kind == OTPU_DIV_HANG ? 3 : 1;
  otpu_report_text(stdout, d, &info);
  printf("lockstep: DIVERGENCE %s at slice %u cycle %" PRIu64 " (%" PRIu64 " counted)%s%s\n",
         otpu_div_kind_name(d->kind), d->slice, d->cycle, otpu_check_count(c),
         la.report.empty() ? "" : "; report: ", printable(la.report).c_str());
  return d->kind == OTPU_DIV_HANG ? 3 : 1;
}
