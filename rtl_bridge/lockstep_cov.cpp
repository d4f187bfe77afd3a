// lockstep_cov.cpp - the coverage file of an otpu-lockstep run (lockstep_cov.h).
#include "lockstep_cov.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "bundle.h"
#include "coverage.h"

namespace {

constexpr uint64_t kMaxSteps = 10000000;  // otpu-sim's default, the reference's

// the unit of an opcode by its name (the event log names opcodes); -1 if none
int unit_of_op(const std::string &name) {
  for (unsigned op = 0; op < 256; op++) {
    const char *n = otpu_op_name(op);
    if (n && name == n) {
      otpu_unit u = otpu_op_unit(op);
      return u < OTPU_UNITS ? int(u) : -1;
    }
  }
  return -1;
}

int unit_of_name(const std::string &name) {
  for (int u = 0; u < OTPU_UNITS; u++)
    if (name == otpu_unit_name(otpu_unit(u))) return u;
  return -1;
}

int kind_of(const std::string &name) {
  for (int k = OTPU_EV_DISPATCH; k <= OTPU_EV_COMPLETE; k++)
    if (name == otpu_event_names[k]) return k;
  return -1;
}

// The dispatch, start and complete records of the event log into cov. "" or why not.
std::string add_events(otpu_coverage *cov, const std::string &path) {
  std::ifstream in(path);
  if (!in) return "cannot read the RTL's event log " + path;
  std::string line;
  uint64_t lineno = 0;
  while (std::getline(in, line)) {
    lineno++;
    std::istringstream ws(line);
    std::string cycle_s, slice_s, kind_s, w;
    ws >> cycle_s >> slice_s >> kind_s;
    int kind = kind_of(kind_s);
    if (kind != OTPU_EV_DISPATCH && kind != OTPU_EV_START && kind != OTPU_EV_COMPLETE) continue;
    int unit = -1;
    long slot = -1;
    std::string op;
    while (ws >> w) {
      size_t eq = w.find('=');
      if (eq == std::string::npos) continue;
      std::string k = w.substr(0, eq), v = w.substr(eq + 1);
      if (k == "unit") unit = unit_of_name(v);
      else if (k == "slot") slot = std::strtol(v.c_str(), nullptr, 10);
      else if (k == "op") op = v;
    }
    if (kind == OTPU_EV_DISPATCH) unit = unit_of_op(op);
    uint64_t cycle = std::strtoull(cycle_s.c_str(), nullptr, 10);
    unsigned long s = slice_s.size() > 1 ? std::strtoul(slice_s.c_str() + 1, nullptr, 10) : ~0ul;
    if (slot < 0 || otpu_coverage_rtl_event(cov, uint32_t(s), kind, unit, uint32_t(slot), cycle))
      return "the RTL's event log, line " + std::to_string(lineno) + ": a record out of order "
             "or malformed";
  }
  return "";
}

}  // namespace

std::string lockstep_coverage(const std::string &bundle, const std::string &events,
                              const std::string &out) {
  otpu_bundle b;
  char err[1024];
  if (otpu_bundle_read(bundle.c_str(), &b, err, sizeof err)) return err;
  otpu_error e;
  otpu_machine *m = otpu_bundle_machine(&b, &e);
  otpu_coverage *cov = m ? otpu_coverage_new(&b.cfg) : nullptr;
  std::string why = !m ? std::string(e.msg) : !cov ? "out of memory for the coverage model" : "";
  if (why.empty()) {
    otpu_coverage_attach(cov, m, nullptr);
    otpu_machine_run(m, kMaxSteps);  // an error is an outcome the coverage records
    why = add_events(cov, events);
  }
  if (why.empty() && otpu_coverage_write_json(cov, out.c_str(), err, sizeof err)) why = err;
  otpu_coverage_free(cov);
  otpu_machine_free(m);
  otpu_bundle_free(&b);
  return why;
}
