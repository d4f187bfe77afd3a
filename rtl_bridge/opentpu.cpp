// opentpu.cpp - openTPU's RTL from a checkout (opentpu.h).
#include "opentpu.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <set>
#include <vector>

#include "isa.h"
#include "file_util.h"

namespace {

// openTPU's own compile order (opentpu/rtlsim.py), packages first. Its testbench's AXI memory
// model (kAxiMemory) is built only for its board memory path (AXI = 1); without it, the
// behavioural DRAM (AXI = 0).
const char *const kSources[] = {
    "rtl/vpu/otpu_fp.sv",     "rtl/vpu/otpu_fpipe.sv",    "rtl/top/otpu_pkg.sv",
    "rtl/mem/otpu_dram.sv",   "rtl/mem/otpu_tmem.sv",     "rtl/mem/otpu_axi_dram.sv",
    "rtl/mem/otpu_actram.sv", "rtl/seq/otpu_seq.sv",      "rtl/dma/otpu_dma.sv",
    "rtl/mxu/otpu_mxu.sv",    "rtl/vpu/otpu_quant.sv",    "rtl/vpu/otpu_vpu.sv",
    "rtl/top/otpu_coll.sv",   "rtl/top/otpu_slice.sv",    "rtl/top/otpu_top.sv"};
const char kPackage[] = "rtl/top/otpu_pkg.sv";
const char kAxiMemory[] = "sim/verilator/otpu_axi_mem.sv";

// A rewrite of the built copy that Verilator 5.006 needs: in `file`, `from` becomes `to`.
struct Workaround {
  const char *file, *from, *to, *why;
};
const Workaround kWorkarounds[] = {
    {"rtl/vpu/otpu_quant.sv", "ftz(amax)[30:0]", "31'(ftz(amax))",
     "a part-select of a function call, which Verilator 5.006 cannot parse; the cast takes the "
     "same 31 bits"},
    // the AXI memory model's two queue elements: 5.006 rejects an untyped assignment pattern
    // as push_back's argument and writes C++ that does not compile for a typed one of an
    // unpacked struct; packed, the same fields hold the same values
    {kAxiMemory, "typedef struct { longint t; logic id; logic [31:0] addr; } rq_t;",
     "typedef struct packed { longint t; logic id; logic [31:0] addr; } rq_t;",
     "packed, so that Verilator 5.006 can build a typed pattern of it"},
    {kAxiMemory, "typedef struct { longint t; logic id; } bq_t;",
     "typedef struct packed { longint t; logic id; } bq_t;",
     "packed, so that Verilator 5.006 can build a typed pattern of it"},
    {kAxiMemory, "rq[c].push_back('{", "rq[c].push_back(rq_t'{",
     "an assignment pattern as an argument, which Verilator 5.006 needs typed"},
    {kAxiMemory, "bq[c].push_back('{", "bq[c].push_back(bq_t'{",
     "an assignment pattern as an argument, which Verilator 5.006 needs typed"},
};

// text with its SystemVerilog comments (// to the end of the line, /* ... */) blanked out, string
// literals kept: what a declaration inside a comment says is not declared
std::string without_comments(std::string t) {
  for (size_t i = 0; i < t.size(); i++) {
    if (t[i] == '"') {  // a string: to its closing quote (\" inside it escaped)
      for (i++; i < t.size() && t[i] != '"'; i++)
        if (t[i] == '\\') i++;
    } else if (t.compare(i, 2, "//") == 0) {
      for (; i < t.size() && t[i] != '\n'; i++) t[i] = ' ';
    } else if (t.compare(i, 2, "/*") == 0) {
      size_t end = t.find("*/", i + 2);
      end = end == std::string::npos ? t.size() : end + 2;
      for (; i < end; i++)
        if (t[i] != '\n') t[i] = ' ';
      i--;
    }
  }
  return t;
}

// The opcodes `OP_<NAME> = <value>` of openTPU's package (SystemVerilog numbers: 8'h10, 'h10, 16),
// outside comments.
std::set<unsigned> package_opcodes(const std::string &source) {
  std::set<unsigned> ops;
  const std::string text = without_comments(source);
  for (size_t k = 0; (k = text.find("OP_", k)) != std::string::npos; k += 3) {
    if (k > 0 && (isalnum(static_cast<unsigned char>(text[k - 1])) || text[k - 1] == '_'))
      continue;
    size_t i = k + 3;
    while (i < text.size() && (isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) i++;
    while (i < text.size() && isspace(static_cast<unsigned char>(text[i]))) i++;
    if (i >= text.size() || text[i] != '=' || (i + 1 < text.size() && text[i + 1] == '=')) continue;
    i++;
    while (i < text.size() && isspace(static_cast<unsigned char>(text[i]))) i++;
    int base = 10;
    size_t q = text.find('\'', i);
    if (q != std::string::npos && q < i + 4 && q + 1 < text.size()) {
      char b = char(tolower(text[q + 1]));
      base = b == 'h' ? 16 : b == 'b' ? 2 : b == 'o' ? 8 : 10;
      i = q + 2;
    }
    char *end = nullptr;
    unsigned long v = strtoul(text.c_str() + i, &end, base);
    if (end != text.c_str() + i && v < 256) ops.insert(unsigned(v));
  }
  return ops;
}

// revision r's opcodes: the ISA's, less those it lacks
std::set<unsigned> revision_opcodes(otpu_revision r) {
  std::set<unsigned> ops;
  const otpu_rev_desc *d = otpu_rev_desc_of(r);
  for (unsigned op = 0; op < 256; op++)
    if (otpu_op_name(op) && !d->lacks_op[op]) ops.insert(op);
  return ops;
}

std::string op_list(const std::set<unsigned> &ops) {
  std::string s;
  for (unsigned op : ops) {
    char b[32];
    const char *n = otpu_op_name(op);
    snprintf(b, sizeof b, "%s%s 0x%02x", s.empty() ? "" : ", ", n ? n : "?", op);
    s += b;
  }
  return s.empty() ? "none" : s;
}

}  // namespace

bool opentpu_read(const std::string &root, bool axi, OpenTpuTree *t, std::string *err) {
  *t = OpenTpuTree{};
  t->root = root;
  t->axi = axi;
  std::vector<const char *> sources(std::begin(kSources), std::end(kSources));
  if (axi) sources.push_back(kAxiMemory);  // after the RTL, as rtlsim.py builds it
  for (const char *f : sources) {
    std::string text;
    if (!read_file(root + "/" + f, &text)) {
      *err = "--dut " + opentpu_dut_value(*t) + ": cannot read " + f +
             " (not an openTPU checkout?)";
      return false;
    }
    for (const Workaround &w : kWorkarounds) {
      size_t k;
      if (std::string(f) != w.file || (k = text.find(w.from)) == std::string::npos) continue;
      int line = 1;
      for (size_t i = 0; i < k; i++) line += text[i] == '\n';
      text.replace(k, strlen(w.from), w.to);
      t->workarounds.push_back(std::string(f) + ":" + std::to_string(line) + ": `" + w.from +
                               "` built as `" + w.to + "` (" + w.why + ")");
    }
    t->files.emplace_back(f, text);
  }
  std::set<unsigned> have;
  for (const auto &f : t->files)
    if (f.first == kPackage) have = package_opcodes(f.second);
  for (int r = 0; r < OTPU_REV_COUNT; r++)
    if (revision_opcodes(otpu_revision(r)) == have) {
      t->rev = otpu_revision(r);
      return true;
    }
  *err = "--dut " + opentpu_dut_value(*t) + ": " + kPackage + " declares the opcodes " +
         op_list(have) +
         "; no ISA revision of the model has exactly these (";
  for (int r = 0; r < OTPU_REV_COUNT; r++)
    *err += std::string(r ? "; " : "") + otpu_rev_name(otpu_revision(r)) + ": " +
            op_list(revision_opcodes(otpu_revision(r)));
  *err += ")";
  return false;
}

std::string opentpu_dut_value(const OpenTpuTree &t) {
  return std::string(t.axi ? "opentpu-axi=" : "opentpu=") + t.root;
}

std::string opentpu_problem(const OpenTpuTree &t, const otpu_bundle &b) {
  const otpu_config &c = b.cfg;
  std::string rtl = "openTPU's RTL at " + t.root;
  if (c.revision != t.rev)
    return rtl + " is ISA revision " + otpu_rev_name(t.rev) + " (the opcodes of its " +
           kPackage + "), the bundle is REV=" + otpu_rev_name(c.revision) +
           (c.revision == OTPU_REV_CURRENT ? " (no REV= line)" : "");
  auto no = [&](const std::string &limit, const char *name, uint64_t v) {
    return rtl + " needs " + limit + " (the bundle has " + name + "=" + std::to_string(v) + ")";
  };
  auto pow2 = [](uint64_t v) { return v && !(v & (v - 1)); };
  if (c.D % 32) return no("D a multiple of 32", "D", c.D);
  // its AXI adapter moves a D = 128-byte chunk as one 64-byte beat on each of two channels
  if (t.axi && c.D != 128) return no("D=128 on its AXI memory path (--dut opentpu-axi)", "D", c.D);
  if (t.axi && c.DRAM_BYTES % 128)
    return no("DRAM_BYTES a multiple of 128 on its AXI memory path (whole beats on both "
              "channels)", "DRAM_BYTES", c.DRAM_BYTES);
  if (!pow2(c.LANES) || c.LANES > 16) return no("LANES a power of two up to 16", "LANES", c.LANES);
  if (c.D % c.LANES) return no("LANES dividing D", "LANES", c.LANES);
  if (c.MCOLS > c.LANES) return no("MCOLS <= LANES", "MCOLS", c.MCOLS);
  if (!pow2(c.MCOLS)) return no("MCOLS a power of two", "MCOLS", c.MCOLS);
  if (!pow2(c.ACT_BLOCKS)) return no("ACT_BLOCKS a power of two", "ACT_BLOCKS", c.ACT_BLOCKS);
  if (c.TMEM_WORDS % c.LANES || c.TMEM_WORDS > (uint64_t(1) << 26))
    return no("TMEM_WORDS a multiple of LANES, at most 2^26", "TMEM_WORDS", c.TMEM_WORDS);
  if (c.IMEM_WORDS % 8 || c.IMEM_WORDS > (uint64_t(1) << 26))
    return no("IMEM_WORDS a multiple of 8, at most 2^26", "IMEM_WORDS", c.IMEM_WORDS);
  // its behavioural DRAM is one flat array, simulated and dumped word by word
  if (c.DRAM_BYTES % 4 || c.DRAM_BYTES > (uint64_t(1) << 28))
    return no("DRAM_BYTES a multiple of 4, at most 256 MiB (its behavioural DRAM is one flat "
              "array)", "DRAM_BYTES", c.DRAM_BYTES);
  for (unsigned k = 0; k < b.nargs; k++)
    if (b.args[k])
      return rtl + ": its testbench starts every run with R8..R15 = 0 (revision " +
             otpu_rev_name(t.rev) + " has no run arguments); the bundle's ARGS= sets R" +
             std::to_string(8 + k) + " = " + std::to_string(b.args[k]);
  if (b.host.n)
    return rtl + ": the bundle has host steps (host.txt), and the adapter has no way into its "
           "DRAM or sequencer to play them (revision " + otpu_rev_name(t.rev) +
           " has no WAITW either)";
  return "";
}

std::string opentpu_verilator_flags(const OpenTpuTree &t, const otpu_config &c) {
  // openTPU's own build options (opentpu/rtlsim.py); the MXU's per-element loops need more
  // unrolling than Verilator's defaults from D = 128 on
  std::string f = " -Wno-WIDTH -O3 --x-assign 0 --x-initial 0";
  if (t.axi) f += " +define+OTPU_OPENTPU_AXI";  // (the adapter's: otpu_top's memory path)
  if (c.D >= 128) f += " --unroll-count " + std::to_string(2 * c.D) + " --unroll-stmts 1000000";
  return f;
}
