// rtl_final.h - the RTL's final state: each slice's memories, registers, status and window,
// filled by the RTL's dump (dpi.h: otpu_dpi_on_dump) on the run's last edge, then printed,
// written as final_<s>.txt and handed to the checker's end-state backstop.
#ifndef OTPU_RTL_FINAL_H
#define OTPU_RTL_FINAL_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "check.h"
#include "config.h"

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

struct FinalState {
  std::vector<SliceDump> slices;
};

// Sized for Config c, and receiving the RTL's dump (fs must outlive the run).
void final_state_open(FinalState *fs, const otpu_config &c);
// Each slice's state after the run (and on a timeout, what is still in flight), unless quiet.
// True if a slice stopped with an error.
bool final_state_print(const FinalState &fs, uint64_t cycles, bool timeout, bool quiet);
// dir/final_<s>.txt of the golden format (golden/trace.h's writer); false with one line on stderr.
bool final_state_write(const std::string &dir, int s, const SliceDump &d);
// The checker's read_state (lockstep.h): the RTL's memories of one slice; user: a FinalState.
int final_state_read(void *user, uint32_t s, otpu_rtl_state *out);

#endif
