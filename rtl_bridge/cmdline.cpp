// cmdline.cpp - command-line arguments of the RTL tools (cmdline.h).
#include "cmdline.h"

#include <fcntl.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "input.h"

std::string printable(const std::string &s) {
  std::vector<char> buf(4 * s.size() + 8);
  return otpu_escape(s.c_str(), s.size(), buf.data(), buf.size());
}

std::string printable_lines(const std::string &s) {
  std::string out;
  for (size_t k = 0; k < s.size();) {
    size_t nl = s.find('\n', k);
    if (nl == std::string::npos) nl = s.size();
    out += printable(s.substr(k, nl - k)) + (nl < s.size() ? "\n" : "");
    k = nl + 1;
  }
  return out;
}

bool has_control(const std::string &s) {
  for (unsigned char ch : s)
    if (ch < 0x20 || ch == 0x7F) return true;
  return false;
}

std::string shell_word(const std::string &s) {
  std::vector<char> buf(4 * s.size() + 8);
  return otpu_shell_word(s.c_str(), buf.data(), buf.size());
}

OutFile::OutFile() {
  o_.fd = -1;
  o_.tmp[0] = 0;
  o_.f = nullptr;
}

OutFile::~OutFile() { otpu_out_discard(&o_); }

std::string OutFile::check(const std::string &option, const std::string &path, int flags) {
  char err[1200];
  option_ = option;
  otpu_out_discard(&o_);
  checked_ = otpu_out_check(&o_, path.c_str(), flags, err, sizeof err) == 0;
  return checked_ ? "" : option + ": " + err;
}

FILE *OutFile::open(std::string *why) {
  char err[1200];
  FILE *f = otpu_out_open(&o_, err, sizeof err);
  if (!f) *why = option_ + ": " + err;
  return f;
}

std::string OutFile::begin(std::string *why) {
  char err[1200];
  const char *p = otpu_out_begin(&o_, err, sizeof err);
  if (!p) *why = option_ + ": " + err;
  return p ? p : "";
}

bool OutFile::commit(std::string *why) {
  char err[1200];
  if (otpu_out_commit(&o_, err, sizeof err) == 0) return true;
  *why = option_ + ": " + err;
  return false;
}

void OutFile::keep_across_exec() {
  if (o_.fd >= 0) fcntl(o_.fd, F_SETFD, 0);
}

std::string check_out_dir(const std::string &option, const std::string &dir, int flags) {
  char err[1200];
  if (otpu_out_check_dir(dir.c_str(), flags, err, sizeof err) == 0) return "";
  return option + ": " + err;
}

bool parse_count(const std::string &v, uint64_t *out) {
  bool hex = v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
  const std::string digits = hex ? v.substr(2) : v;
  const char *ok = hex ? "0123456789abcdefABCDEF" : "0123456789";
  if (digits.empty() || digits.find_first_not_of(ok) != std::string::npos ||
      (!hex && digits.size() > 1 && digits[0] == '0'))
    return false;  // (no sign, no octal: "010" is not 8)
  errno = 0;
  *out = std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10);
  return errno == 0;
}

namespace {

struct Known {
  const char *name;
  int64_t lo, hi;        // hi < 0: the Config's S - 1
  const char *needs;     // another plusarg without which this one does nothing, or nullptr
};

const int64_t kIntMax = 2147483647;  // $value$plusargs("%d") reads a 32-bit int
// openTPU's AXI memory model (sim/verilator/otpu_axi_mem.sv): a stall withheld 100 percent of
// the time would never let a transfer through
const Known kAxi[] = {{"axi_seed", 0, kIntMax, nullptr}, {"axi_stall", 0, 99, "axi_seed"}};
const Known kKnown[] = {
    {"otpu_fault_slice", 0, -1, nullptr},
    {"otpu_flip_unit", 0, 4, "otpu_flip_n"},   {"otpu_flip_n", 1, kIntMax, "otpu_flip_unit"},
    {"otpu_flip_bit", 0, 31, "otpu_flip_unit"},
    {"otpu_drop_unit", 0, 4, "otpu_drop_n"},   {"otpu_drop_n", 1, kIntMax, "otpu_drop_unit"},
    {"otpu_early_unit", 0, 4, "otpu_early_n"}, {"otpu_early_n", 1, kIntMax, "otpu_early_unit"},
    {"otpu_fp_n", 1, kIntMax, nullptr},        {"otpu_fp_bit", 0, 31, "otpu_fp_n"},
    {"otpu_waitw_limit", 1, kIntMax, nullptr}, {"otpu_waitw_early", 1, kIntMax, nullptr},
    {"otpu_host_drop_write", 1, kIntMax, nullptr},
};

const Known *find(const std::string &name) {
  for (const Known &k : kKnown)
    if (name == k.name) return &k;
  for (const Known &k : kAxi)
    if (name == k.name) return &k;
  return nullptr;
}

// decimal digits, no sign, no leading zero: what %d reads the same way everywhere
bool parse_decimal(const std::string &v, int64_t *out) {
  if (v.empty() || v.size() > 10 || (v.size() > 1 && v[0] == '0')) return false;
  int64_t x = 0;
  for (char ch : v) {
    if (ch < '0' || ch > '9') return false;
    x = 10 * x + (ch - '0');
  }
  *out = x;
  return true;
}

}  // namespace

uint64_t plusarg_value(const std::vector<std::string> &plusargs, const std::string &prefix) {
  uint64_t v = 0;
  for (const std::string &p : plusargs)
    if (p.compare(0, prefix.size(), prefix) == 0 && !parse_count(p.substr(prefix.size()), &v))
      v = 0;
  return v;
}

std::string check_plusargs(const std::vector<std::string> &plusargs, const otpu_config &c,
                           bool opentpu, bool axi) {
  std::map<std::string, int64_t> given;
  for (const std::string &raw : plusargs) {
    const std::string p = printable(raw);
    if (opentpu && raw.compare(0, 6, "+otpu_") == 0)
      return p + ": a fault of the reference RTL; openTPU's RTL has none (plant a fault in a copy "
                 "of its sources instead)";
    if (opentpu && raw.compare(0, 5, "+dir=") == 0)
      return p + ": the adapter gives openTPU's RTL its input folder itself";
    // Verilator's run-time options that print and end the process before any verdict
    if (raw == "+verilator+help" || raw == "+verilator+V" || raw == "+verilator+version")
      return p + ": prints Verilator's help or version and ends the simulation (no run)";
    bool axi_arg = raw.compare(0, 5, "+axi_") == 0;
    if (axi_arg && !axi)
      return p + ": a setting of openTPU's AXI memory model, which only --dut opentpu-axi=PATH "
                 "builds";
    if (raw.compare(0, 6, "+otpu_") != 0 && !axi_arg) continue;
    size_t eq = raw.find('=');
    std::string name = raw.substr(1, eq == std::string::npos ? std::string::npos : eq - 1);
    const Known *k = find(name);
    if (!k && axi_arg) return p + ": unknown; openTPU's AXI memory model takes +axi_seed=N and "
                                  "+axi_stall=PERCENT";
    if (!k) return p + ": unknown +otpu_ plusarg (rtl/README.md lists them)";
    int64_t v, hi = k->hi < 0 ? int64_t(c.S) - 1 : k->hi;
    if (eq == std::string::npos || !parse_decimal(raw.substr(eq + 1), &v))
      return p + ": needs =N, a decimal number";
    if (v < k->lo || v > hi)
      return p + ": must be " + std::to_string(k->lo) + ".." + std::to_string(hi) +
             (k->hi < 0 ? " (the Config has S=" + std::to_string(c.S) + ")" : "");
    if (!given.emplace(name, v).second) return p + ": given twice";
  }
  for (const auto &g : given) {
    const Known *k = find(g.first);
    if (k->needs && !given.count(k->needs))
      return "+" + g.first + " does nothing without +" + k->needs;
  }
  if (given.count("otpu_fault_slice") && given.size() - given.count("otpu_waitw_limit") == 1)
    return "+otpu_fault_slice does nothing without a fault (+otpu_flip_*, _drop_*, _early_*, "
           "_fp_*, _waitw_early)";
  return "";
}

void add_axi_defaults(std::vector<std::string> *plusargs) {
  for (const char *d : {"+axi_seed=1", "+axi_stall=20"}) {
    const std::string name(d, strchr(d, '=') + 1);
    bool given = false;
    for (const std::string &p : *plusargs) given = given || p.compare(0, name.size(), name) == 0;
    if (!given) plusargs->push_back(d);
  }
}
