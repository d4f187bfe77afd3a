// otpu_rtl_sim.cpp - the Verilator driver of one otpu-rtl build (one Config). otpu-rtl (the
// launcher, otpu_rtl.cpp) picks or builds the binary for a bundle's Config and runs it as
//
//   otpu-rtl-sim BUNDLE [--dump DIR] [--max-cycles N] [--fst FILE] [--events FILE] [+plusargs]
//
// It loads the bundle into the RTL's memories (the DPI functions of rtl/otpu_dpi.sv), runs until
// every slice has halted or stopped with an error, or the cycle limit, prints the cycles and each
// slice's state, and with --dump writes DIR/final_<s>.txt in the golden format
// (../shared/vectors/FORMAT.md). Exit: 0 ok, 1 a simulated error, 2 bad input, 3 timeout.
#include "Votpu_rtl_tb.h"
#include "Votpu_rtl_tb__Dpi.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include "otpu_bundle.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

const char *kUnits[] = {"DMA", "MXU", "QUANT", "VPU", "COLL"};
const char *kPorts[] = {"SEQ_R", "DMA_T", "DMA_M", "MXU_T", "QNT_A", "QNT_A2",
                        "QNT_S", "QNT_S2", "QNT_M", "VPU_T", "COL_T"};
const char *kSpaces[] = {"REG", "TMEM", "DRAM", "ACT", "ASCALE"};

const char *op_name(int op) {
  switch (op) {
    case 0x00: return "NOP";
    case 0x01: return "HALT";
    case 0x02: return "LI";
    case 0x03: return "ADDI";
    case 0x04: return "LOOP";
    case 0x05: return "BAR";
    case 0x06: return "RLD";
    case 0x07: return "WAITW";
    case 0x10: return "LD";
    case 0x11: return "ST";
    case 0x12: return "DSTEP";
    case 0x13: return "STREAM";
    case 0x20: return "MM";
    case 0x21: return "QACT";
    case 0x22: return "QST";
    case 0x30: return "VOP";
    case 0x40: return "GATHER";
    default: return "?";
  }
}

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
  const OtpuBundle *b = nullptr;
  std::vector<std::vector<uint32_t>> dram_words;
  std::vector<SliceDump> dump;
  FILE *events = nullptr;
  uint64_t cycle = 0;
};
Sim *g_sim = nullptr;

}  // namespace

// ---- DPI-C: bundle loading (rtl/otpu_dpi.sv) -------------------------------------------------
unsigned int otpu_bundle_word(int sid, int space, long long idx) {
  const Sim &s = *g_sim;
  if (space == 0) {
    const auto &p = s.b->prog[size_t(sid)];
    return idx >= 0 && size_t(idx) < p.size() ? p[size_t(idx)] : 0u;
  }
  const auto &d = s.dram_words[size_t(sid)];
  return idx >= 0 && size_t(idx) < d.size() ? d[size_t(idx)] : 0u;
}

unsigned int otpu_bundle_info(int sid, int what) {
  const Sim &s = *g_sim;
  if (what == 0) return unsigned(s.b->prog[size_t(sid)].size() / 8);
  if (what == 1) return unsigned(s.dram_words[size_t(sid)].size());
  if (what >= 8 && what < 16) {
    size_t k = size_t(what - 8);
    return k < s.b->args.size() ? s.b->args[k] : 0u;
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

// ---- DPI-C: events (rtl_bridge/otpu_rtl_tb.sv) -----------------------------------------------
void otpu_ev_ins(int sid, int kind, int unit, int slot, unsigned int pc, int op) {
  FILE *f = g_sim->events;
  if (!f) return;
  static const char *kinds[] = {"dispatch", "exec", "start", "complete"};
  fprintf(f, "%" PRIu64 " s%d %s", g_sim->cycle, sid, kinds[kind & 3]);
  if (unit >= 0 && unit < 5) fprintf(f, " unit=%s", kUnits[unit]);
  if (kind != 1) fprintf(f, " slot=%d", slot);
  fprintf(f, " pc=%u op=%s\n", pc, op_name(op));
}

void otpu_ev_wr(int sid, int port, int space, unsigned int addr, unsigned int data, int mask) {
  FILE *f = g_sim->events;
  if (!f) return;
  fprintf(f, "%" PRIu64 " s%d write port=%s space=%s addr=%u data=%08x mask=%x\n", g_sim->cycle,
          sid, port >= 0 && port < 11 ? kPorts[port] : "?",
          space >= 0 && space < 5 ? kSpaces[space] : "?", addr, data, unsigned(mask));
}

void otpu_ev_state(int sid, int kind, unsigned int a, unsigned int b) {
  FILE *f = g_sim->events;
  if (!f) return;
  if (kind == 2)
    fprintf(f, "%" PRIu64 " s%d chain addr=%u n=%u\n", g_sim->cycle, sid, a, b);
  else
    fprintf(f, "%" PRIu64 " s%d %s pc=%u icount=%u\n", g_sim->cycle, sid,
            kind == 0 ? "halt" : "error", a, b);
}

namespace {

int usage() {
  fprintf(stderr,
          "usage: otpu-rtl-sim BUNDLE [--dump DIR] [--max-cycles N] [--fst FILE] "
          "[--events FILE] [+plusargs]\n");
  return 2;
}

bool write_final(const std::string &dir, int s, const SliceDump &d) {
  std::string p = dir + "/final_" + std::to_string(s) + ".txt";
  FILE *f = fopen(p.c_str(), "w");
  if (!f) {
    fprintf(stderr, "otpu-rtl: cannot write %s\n", p.c_str());
    return false;
  }
  fprintf(f, "halted=%u\npc=%u\nicount=%u\nR=", d.state[0], d.state[2], d.state[3]);
  for (int r = 0; r < 16; r++) fprintf(f, r ? " %08x" : "%08x", d.regs[r]);
  // TMEM and ACT scales as little-endian words, DRAM as bytes (the words little endian; a
  // sparse DRAM is hashed in pieces, zeros between the words it holds)
  OtpuSha256 dh;
  std::vector<uint8_t> buf;
  const uint64_t piece = 1 << 18;       // words per hashed piece
  for (uint64_t w0 = 0; w0 < d.dram_words; w0 += piece) {
    uint64_t n = std::min(piece, d.dram_words - w0);
    buf.assign(size_t(4 * n), 0);
    if (d.sparse) {
      for (auto it = d.dram_sparse.lower_bound(w0); it != d.dram_sparse.end() && it->first < w0 + n;
           ++it)
        for (int k = 0; k < 4; k++) buf[size_t(4 * (it->first - w0)) + size_t(k)] =
            uint8_t(it->second >> (8 * k));
    } else {
      for (uint64_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) buf[size_t(4 * i) + size_t(k)] = uint8_t(d.dram[w0 + i] >> (8 * k));
    }
    dh.update(buf.data(), buf.size());
  }
  std::vector<uint8_t> tm(d.tmem.size() * 4), as(d.ascale.size() * 4);
  for (size_t i = 0; i < d.tmem.size(); i++)
    for (int k = 0; k < 4; k++) tm[4 * i + size_t(k)] = uint8_t(d.tmem[i] >> (8 * k));
  for (size_t i = 0; i < d.ascale.size(); i++)
    for (int k = 0; k < 4; k++) as[4 * i + size_t(k)] = uint8_t(d.ascale[i] >> (8 * k));
  fprintf(f, "\ntmem_sha256=%s\ndram_sha256=%s\nact_sha256=%s\nascale_sha256=%s\n",
          otpu_sha256_hex(tm.data(), tm.size()).c_str(), dh.hex().c_str(),
          otpu_sha256_hex(d.act.data(), d.act.size()).c_str(),
          otpu_sha256_hex(as.data(), as.size()).c_str());
  return fclose(f) == 0;
}

}  // namespace

int main(int argc, char **argv) {
  std::string bundle, dump_dir, fst, events;
  uint64_t max_cycles = 200000000ull;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto val = [&](std::string *out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--dump") {
      if (!val(&dump_dir)) return usage();
    } else if (a == "--fst") {
      if (!val(&fst)) return usage();
    } else if (a == "--events") {
      if (!val(&events)) return usage();
    } else if (a == "--max-cycles") {
      if (!val(&v)) return usage();
      char *end = nullptr;
      max_cycles = std::strtoull(v.c_str(), &end, 0);
      if (*end || v.empty()) return usage();
    } else if (!a.empty() && a[0] == '+') {
      // a plusarg: the RTL reads it ($value$plusargs)
    } else if (!a.empty() && a[0] == '-') {
      return usage();
    } else if (bundle.empty()) {
      bundle = a;
    } else {
      return usage();
    }
  }
  if (bundle.empty()) return usage();

  OtpuBundle b;
  std::string err;
  if (!otpu_read_bundle(bundle, &b, &err)) {
    fprintf(stderr, "otpu-rtl: %s\n", err.c_str());
    return 2;
  }

  Sim sim;
  sim.b = &b;
  g_sim = &sim;
  const OtpuConfig &c = b.cfg;
  for (int s = 0; s < c.S; s++) {
    const auto &by = b.dram[size_t(s)];
    std::vector<uint32_t> w((by.size() + 3) / 4, 0);
    for (size_t i = 0; i < by.size(); i++) w[i / 4] |= uint32_t(by[i]) << (8 * (i % 4));
    sim.dram_words.push_back(std::move(w));
    SliceDump d;
    d.tmem.assign(size_t(c.TMEM_WORDS), 0);
    d.dram_words = uint64_t(c.DRAM_BYTES / 4);
    d.sparse = c.DRAM_BYTES > (int64_t(1) << 28);
    if (!d.sparse) d.dram.assign(size_t(d.dram_words), 0);
    d.act.assign(size_t(c.act_rows() * c.ACT_BLOCKS * c.D), 0);
    d.ascale.assign(size_t(c.act_rows() * c.ACT_BLOCKS), 0);
    sim.dump.push_back(std::move(d));
  }
  if (!events.empty()) {
    sim.events = events == "-" ? stdout : fopen(events.c_str(), "w");
    if (!sim.events) {
      fprintf(stderr, "otpu-rtl: cannot write %s\n", events.c_str());
      return 2;
    }
  }

  const std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  ctx->commandArgs(argc, argv);
  ctx->fatalOnError(true);
  const std::unique_ptr<Votpu_rtl_tb> top{new Votpu_rtl_tb{ctx.get(), "TOP"}};

#if VM_TRACE
  std::unique_ptr<VerilatedFstC> tfp;
  if (!fst.empty()) {
    ctx->traceEverOn(true);
    tfp.reset(new VerilatedFstC);
    top->trace(tfp.get(), 99);
    tfp->open(fst.c_str());
  }
#else
  if (!fst.empty()) {
    fprintf(stderr, "otpu-rtl: this build has no waveform support (otpu-rtl builds one with "
                    "tracing when --fst is given)\n");
    return 2;
  }
#endif

  auto tick = [&]() {
    top->clk = 1;
    top->eval();
    ctx->timeInc(1);
#if VM_TRACE
    if (tfp) tfp->dump(ctx->time());
#endif
    top->clk = 0;
    top->eval();
    ctx->timeInc(1);
#if VM_TRACE
    if (tfp) tfp->dump(ctx->time());
#endif
  };

  top->clk = 0;
  top->rst = 1;
  top->dump = 0;
  top->ev_en = sim.events != nullptr;
  top->eval();
  // the model must have been built for this Config
  for (int i = 0; i < 12; i++) {
    uint64_t have = (uint64_t(top->cfg[2 * i + 1]) << 32) | top->cfg[2 * i];
    if (have != uint64_t(*c.field(i))) {
      fprintf(stderr, "otpu-rtl: this build has %s=%" PRIu64 ", the bundle %s=%" PRId64 "\n",
              OtpuConfig::kNames[i], have, OtpuConfig::kNames[i], *c.field(i));
      return 2;
    }
  }

  tick();
  tick();
  top->rst = 0;
  bool timeout = false;
  while (!top->stopped) {
    if (sim.cycle >= max_cycles) {
      timeout = true;
      break;
    }
    sim.cycle++;
    tick();
  }
  top->ev_en = 0;
  top->dump = 1;
  tick();
  top->dump = 0;
  top->final();
#if VM_TRACE
  if (tfp) tfp->close();
#endif
  if (sim.events && sim.events != stdout) fclose(sim.events);

  printf("cycles=%" PRIu64 "\n", sim.cycle);
  bool any_error = false;
  for (int s = 0; s < c.S; s++) {
    const SliceDump &d = sim.dump[size_t(s)];
    any_error = any_error || d.state[1];
    printf("slice %d: icount=%u pc=%u halted=%u error=%u\n", s, d.state[3], d.state[2],
           d.state[0], d.state[1]);
    if (timeout) {
      for (size_t k = 0; k + 5 < d.slots.size(); k += 16) {
        if (!d.slots[k]) continue;
        unsigned u = d.slots[k + 2];
        printf("  in flight: slot %zu pc=%u %s unit=%s %s deps=0x%x\n", k / 16, d.slots[k + 3],
               op_name(int(d.slots[k + 4])), u < 5 ? kUnits[u] : "?",
               d.slots[k + 1] ? "started" : "waiting", d.slots[k + 5]);
      }
    }
  }
  if (!dump_dir.empty()) {
    for (int s = 0; s < c.S; s++)
      if (!write_final(dump_dir, s, sim.dump[size_t(s)])) return 2;
  }
  if (timeout) {
    printf("timeout: no halt within %" PRIu64 " cycles\n", max_cycles);
    return 3;
  }
  return any_error ? 1 : 0;
}
