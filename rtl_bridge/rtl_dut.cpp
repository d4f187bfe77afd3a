// rtl_dut.cpp - which RTL a tool runs and on which Config (rtl_dut.h).
#include "rtl_dut.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "bundle.h"
#include "cmdline.h"
#include "file_util.h"
#include "revision.h"

std::string config_str(const otpu_config &c) {
  char buf[512];
  return otpu_config_str(&c, buf, sizeof buf);
}

std::string rtl_config_problem(const otpu_config &c) {
  // the RTL's limit and the bundle's value, in one sentence
  auto no = [](const char *limit, const char *name, uint64_t v) {
    return std::string(limit) + " (the bundle has " + name + "=" + std::to_string(v) + ")";
  };
  // (beyond what the model checks, otpu_config_check)
  if (c.revision != OTPU_REV_CURRENT)  // the reference RTL is written to the current ISA only
    return std::string("the reference RTL implements the current ISA only (the bundle has "
                       "REV=") + otpu_rev_name(c.revision) + ")";
  if (c.ACT_BLOCKS < 1 || c.ACT_BLOCKS > 256)
    return no("ACT_BLOCKS must be 1..256", "ACT_BLOCKS", c.ACT_BLOCKS);
  if (c.TMEM_WORDS < 1 || c.TMEM_WORDS > (uint64_t(1) << 26))
    return no("TMEM_WORDS must be 1..2^26", "TMEM_WORDS", c.TMEM_WORDS);
  if (c.IMEM_WORDS > (uint64_t(1) << 26))
    return no("IMEM_WORDS must be at most 2^26", "IMEM_WORDS", c.IMEM_WORDS);
  if (c.ACT_ROWS > 255) return no("ACT_ROWS must be 0..255", "ACT_ROWS", c.ACT_ROWS);
  return "";
}

bool read_bundle_config(const std::string &dir, otpu_config *c, std::string *err,
                        const RtlDut &dut) {
  otpu_bundle b;
  char e[1024];
  bool ok = otpu_bundle_read(dir.c_str(), &b, e, sizeof e) == 0;
  std::string bad;
  if (ok) {
    *c = b.cfg;
    bad = dut.opentpu ? opentpu_problem(dut.tree, b) : rtl_config_problem(*c);
  } else {
    *err = e;
  }
  otpu_bundle_free(&b);
  if (!ok) return false;
  if (!bad.empty()) *err = dir + (dut.opentpu ? ": " : "/case.txt: unsupported Config: ") + bad;
  return bad.empty();
}

bool parse_dut(const std::string &value, RtlDut *d, std::string *err) {
  *d = RtlDut();
  if (value == "reference") return true;
  size_t eq = value.find('=');
  std::string kind = value.substr(0, eq);
  if (eq == std::string::npos || eq + 1 == value.size() ||
      (kind != "opentpu" && kind != "opentpu-axi")) {
    *err = "--dut needs reference, opentpu=PATH or opentpu-axi=PATH (an openTPU checkout), not '" +
           value + "'";
    return false;
  }
  char abs[4096];
  if (!realpath(value.c_str() + eq + 1, abs)) {
    *err = "--dut " + value + ": " + strerror(errno);
    return false;
  }
  d->opentpu = true;
  return opentpu_read(abs, kind == "opentpu-axi", &d->tree, err);
}

bool dut_from_env(RtlDut *d, std::string *err) {
  *d = RtlDut();
  std::string v = env_or("OTPU_DUT", "");
  if (v.empty() || parse_dut(v, d, err)) return true;
  *err = "OTPU_DUT: " + *err;
  return false;
}

std::string dut_note(const RtlDut &d) {
  if (!d.opentpu) return "the reference RTL";
  std::string n = "openTPU's RTL at " + d.tree.root +
                  (d.tree.axi ? " with its AXI memory path" : "") + " (ISA revision " +
                  otpu_rev_name(d.tree.rev) + "; ";
  if (d.tree.workarounds.empty()) return n + "built as it is)";
  n += std::to_string(d.tree.workarounds.size()) + " Verilator 5.006 workaround(s) in the build's "
       "copy:";
  for (const auto &w : d.tree.workarounds) n += " " + w.substr(0, w.find(": "));
  return n + ")";
}

bool config_from_args(const std::vector<std::string> &bundles,
                      const std::vector<std::string> &fields, otpu_config *c, std::string *err,
                      const RtlDut &dut) {
  *c = otpu_config_default();
  if (dut.opentpu) c->revision = dut.tree.rev;
  for (const auto &dir : bundles)  // (a folder's name may hold '=')
    if (!read_bundle_config(dir, c, err, dut)) return false;
  for (const auto &w : fields) {
    size_t eq = w.find('=');
    std::string k = w.substr(0, eq), v = eq == std::string::npos ? "" : w.substr(eq + 1);
    uint64_t x = 0;
    if (eq == std::string::npos || !parse_count(v, &x)) {
      *err = "'" + printable(w) + "': not KEY=VALUE with a number (decimal, or hex with 0x)";
      return false;
    }
    int r = otpu_config_set(c, k.c_str(), x);
    if (r) {
      *err = r == -1 ? "unknown Config field '" + printable(k) + "'"
                     : printable(k) + "=" + v + " is too large";
      return false;
    }
  }
  char why[256];
  otpu_bundle b{};
  b.cfg = *c;
  std::string bad = otpu_config_check(c, why, sizeof why) ? why
                    : dut.opentpu ? opentpu_problem(dut.tree, b) : rtl_config_problem(*c);
  if (!bad.empty()) *err = "unsupported Config: " + bad;
  return bad.empty();
}

// opentpu/isasim.py's default Config, and the one most golden vectors use (256 KiB of DRAM)
std::vector<otpu_config> default_configs() {
  otpu_config a = otpu_config_default(), b = a;
  b.DRAM_BYTES = 262144;
  return {a, b};
}
