// rtl_final.cpp - the RTL's final state (rtl_final.h).
#include "rtl_final.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "cmdline.h"
#include "dpi.h"
#include "dpi_entry.h"
#include "isa.h"
#include "trace.h"

namespace {

// one word of the RTL's dump (dpi_entry.h: the spaces)
void receive(void *user, uint32_t sid, int space, uint64_t idx, uint32_t data) {
  auto &slices = static_cast<FinalState *>(user)->slices;
  if (sid >= slices.size()) return;
  SliceDump &d = slices[sid];
  size_t i = size_t(idx);
  switch (space) {
    case OTPU_SP_TMEM: if (i < d.tmem.size()) d.tmem[i] = data; break;
    case OTPU_SP_DRAM:
      if (d.sparse) {
        if (i < d.dram_words) d.dram_sparse[i] = data;
      } else if (i < d.dram.size()) {
        d.dram[i] = data;
      }
      break;
    case OTPU_SP_ACT: if (i < d.act.size()) d.act[i] = uint8_t(data); break;
    case OTPU_SP_ASCALE: if (i < d.ascale.size()) d.ascale[i] = data; break;
    case OTPU_SP_REG: if (i < 16) d.regs[i] = data; break;
    case OTPU_SP_STATE: if (i < 5) d.state[i] = data; break;
    case OTPU_SP_SLOT:
      if (i >= d.slots.size()) d.slots.resize(i + 1);
      d.slots[i] = data;
      break;
    default: break;
  }
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

}  // namespace

void final_state_open(FinalState *fs, const otpu_config &c) {
  uint64_t rows = otpu_config_act_rows(&c);
  for (uint32_t s = 0; s < c.S; s++) {
    SliceDump d;
    d.tmem.assign(size_t(c.TMEM_WORDS), 0);
    d.dram_words = c.DRAM_BYTES / 4;
    d.sparse = c.DRAM_BYTES > (uint64_t(1) << 28);
    if (!d.sparse) d.dram.assign(size_t(d.dram_words), 0);
    d.act.assign(size_t(rows * c.ACT_BLOCKS * c.D), 0);
    d.ascale.assign(size_t(rows * c.ACT_BLOCKS), 0);
    fs->slices.push_back(std::move(d));
  }
  otpu_dpi_on_dump(receive, fs);
}

bool final_state_print(const FinalState &fs, uint64_t cycles, bool timeout, bool quiet) {
  bool any_error = false;
  for (const SliceDump &d : fs.slices) any_error = any_error || d.state[1];
  if (quiet) return any_error;
  printf("cycles=%" PRIu64 "\n", cycles);
  for (size_t s = 0; s < fs.slices.size(); s++) {
    const SliceDump &d = fs.slices[s];
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

bool final_state_write(const std::string &dir, int s, const SliceDump &d) {
  std::string p = dir + "/final_" + std::to_string(s) + ".txt", why;
  char err[1200];
  OutFile out;  // (written whole, output.h)
  FILE *f = nullptr;
  if (otpu_out_make_dir(dir.c_str(), err, sizeof err)) why = std::string("--dump: ") + err;
  else if ((why = out.check("--dump", p, 0)).empty()) f = out.open(&why);
  if (!f) {
    fprintf(stderr, "otpu-rtl: %s\n", printable(why).c_str());
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
  if (otpu_final_write_state(f, &st) == 0 && out.commit(&why)) return true;
  fprintf(stderr, "otpu-rtl: %s\n", printable(why.empty() ? "cannot write " + p : why).c_str());
  return false;
}

int final_state_read(void *user, uint32_t s, otpu_rtl_state *out) {
  const SliceDump &d = static_cast<FinalState *>(user)->slices[s];
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
