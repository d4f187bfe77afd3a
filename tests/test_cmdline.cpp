// test_cmdline.cpp - the RTL tools' plusarg checks (rtl_bridge/cmdline.h) on each design under
// test: the reference RTL's +otpu_* faults, openTPU's RTL (none of them), and its AXI memory
// model's +axi_seed / +axi_stall (only on its AXI memory path). A table: plusargs, the DUT,
// and the words of the one-line reason ("" for accepted).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cmdline.h"

namespace {

enum Dut { kReference, kOpenTpu, kOpenTpuAxi };

struct Row {
  std::vector<std::string> plusargs;
  Dut dut;
  const char *words;  // in the reason; "" when the plusargs are accepted
};

const Row kRows[] = {
    {{"+axi_seed=1", "+axi_stall=20"}, kOpenTpuAxi, ""},
    {{"+axi_seed=0", "+axi_stall=0"}, kOpenTpuAxi, ""},
    {{"+axi_seed=2147483647", "+axi_stall=99"}, kOpenTpuAxi, ""},
    {{"+axi_seed=7"}, kOpenTpuAxi, ""},
    {{"+verilator+seed+5", "+axi_seed=3"}, kOpenTpuAxi, ""},
    {{"+axi_stall=100", "+axi_seed=1"}, kOpenTpuAxi, "+axi_stall=100: must be 0..99"},
    {{"+axi_seed=2147483648"}, kOpenTpuAxi, "+axi_seed=2147483648: must be 0..2147483647"},
    {{"+axi_stall=20"}, kOpenTpuAxi, "+axi_stall does nothing without +axi_seed"},
    {{"+axi_seed"}, kOpenTpuAxi, "+axi_seed: needs =N"},
    {{"+axi_seed="}, kOpenTpuAxi, "+axi_seed=: needs =N"},
    {{"+axi_seed=01"}, kOpenTpuAxi, "+axi_seed=01: needs =N"},
    {{"+axi_seed=0x10"}, kOpenTpuAxi, "+axi_seed=0x10: needs =N"},
    {{"+axi_seed=1", "+axi_seed=1"}, kOpenTpuAxi, "+axi_seed=1: given twice"},
    {{"+axi_latency=3"}, kOpenTpuAxi, "takes +axi_seed=N and +axi_stall=PERCENT"},
    {{"+axi_seed=1"}, kOpenTpu, "only --dut opentpu-axi=PATH builds"},
    {{"+axi_seed=1"}, kReference, "only --dut opentpu-axi=PATH builds"},
    {{"+axi_\x1b[2J=1"}, kReference, "+axi_\\x1b[2J=1"},
    {{"+otpu_flip_unit=0", "+otpu_flip_n=1"}, kOpenTpuAxi, "openTPU's RTL has none"},
    {{"+dir=/tmp"}, kOpenTpuAxi, "gives openTPU's RTL its input folder itself"},
    {{"+otpu_flip_unit=0", "+otpu_flip_n=1"}, kReference, ""},
};

TEST(Cmdline, PlusargsPerDut) {
  otpu_config c = otpu_config_default();
  for (const Row &r : kRows) {
    std::string all;
    for (const auto &p : r.plusargs) all += p + " ";
    std::string why = check_plusargs(r.plusargs, c, r.dut != kReference, r.dut == kOpenTpuAxi);
    if (!*r.words) {
      EXPECT_EQ(why, "") << all;
    } else {
      EXPECT_NE(why.find(r.words), std::string::npos) << all << "-> '" << why << "'";
      EXPECT_EQ(why.find('\n'), std::string::npos) << all << "-> one line";
    }
  }
}

TEST(Cmdline, AxiDefaultsFillOnlyWhatIsMissing) {
  std::vector<std::string> none, seed = {"+axi_seed=9"}, both = {"+axi_stall=0", "+axi_seed=4"};
  add_axi_defaults(&none);
  EXPECT_EQ(none, (std::vector<std::string>{"+axi_seed=1", "+axi_stall=20"}));
  add_axi_defaults(&seed);
  EXPECT_EQ(seed, (std::vector<std::string>{"+axi_seed=9", "+axi_stall=20"}));
  add_axi_defaults(&both);
  EXPECT_EQ(both, (std::vector<std::string>{"+axi_stall=0", "+axi_seed=4"}));
  // the defaults are themselves accepted
  EXPECT_EQ(check_plusargs(none, otpu_config_default(), true, true), "");
}

}  // namespace
