// dpi/lockstep.c: EVENTS.md records (unit numbers 0..4, write ports 0..10) reach the checker
// as the right calls: a serial replay of golden runs passes, a wrong port or value is caught.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "cases.h"
#include "lockstep.h"
#include "synthetic_rtl.h"

using namespace otpu_test;

namespace {

// the EVENTS.md port of a write by a unit to a space
uint32_t port_of(unsigned unit, unsigned space)
{
    switch (unit) {
    case OTPU_UNIT_DMA: return space == OTPU_SP_DRAM ? 2 : 1;
    case OTPU_UNIT_MXU: return 3;
    case OTPU_UNIT_QUANT: return space == OTPU_SP_ACT ? 4 : space == OTPU_SP_ASCALE ? 6 : 8;
    case OTPU_UNIT_VPU: return 9;
    default: return 10;
    }
}

struct Replay {
    const Recording *rec;
};

int read_state(void *user, uint32_t s, otpu_rtl_state *out)
{
    const SliceRun &r = static_cast<Replay *>(user)->rec->slices[s];
    *out = otpu_rtl_state{r.tmem.data(), r.dram.data(), r.dram.size(), r.act.data(),
                          r.ascale.data(), r.R.data(), r.pc};
    return 0;
}

// one instruction at a time, in the EVENTS.md numbering
uint64_t replay(const std::string &dir, uint32_t corrupt_nth = ~0u)
{
    otpu_bundle b;
    char err[1024];
    EXPECT_EQ(otpu_bundle_read(dir.c_str(), &b, err, sizeof err), 0) << err;
    Recording rec = record(b);
    otpu_bundle_free(&b);
    Replay rp{&rec};
    otpu_ls_options o{};
    o.read_state = read_state;
    o.user = &rp;
    otpu_ls *ls = otpu_ls_open(dir.c_str(), &o, err, sizeof err);
    EXPECT_NE(ls, nullptr) << err;
    uint64_t cycle = 0, nwrite = 0;
    for (uint32_t s = 0; s < rec.slices.size(); s++)
        for (const Step &st : rec.slices[s].steps) {
            otpu_ls_cycle(ls, ++cycle);
            if (st.faulted) {
                otpu_ls_state(ls, s, 1, st.pc, 0);
                break;
            }
            if (!st.windowed) {
                for (const otpu_write &w : st.writes)
                    otpu_ls_wr(ls, s, 0, 0, static_cast<uint32_t>(w.addr), w.val, 0xF);
                if (st.halts)
                    otpu_ls_state(ls, s, 0, st.pc, 0);
                continue;
            }
            int unit = static_cast<int>(st.unit) - 1;
            otpu_ls_ins(ls, s, 0, -1, 0, st.pc, st.ins.op);
            otpu_ls_ins(ls, s, 2, unit, 0, st.pc, st.ins.op);
            for (const otpu_write &w : st.writes) {
                uint32_t data = w.val;
                if (nwrite++ == corrupt_nth)
                    data ^= 1u << 20;
                otpu_ls_wr(ls, s, port_of(st.unit, w.space), w.space,
                           static_cast<uint32_t>(w.addr), data, w.mask);
            }
            otpu_ls_ins(ls, s, 3, unit, 0, st.pc, st.ins.op);
        }
    otpu_ls_end(ls);
    EXPECT_EQ(otpu_ls_bad_call(ls), nullptr) << otpu_ls_bad_call(ls);
    uint64_t n = otpu_check_count(otpu_ls_checker(ls));
    otpu_ls_close(ls);
    return n;
}

std::string vec(const char *c)
{
    return vectors_dir() + "/isa/" + c;
}

TEST(LockstepAdapter, SerialReplaysPass)
{
    for (const char *c : {"kernel_mlp_S1", "kernel_attn_S2_T96", "qact_scales", "qst",
                          "gather_bar_S3", "halt_chain", "err_dram_range", "err_loop_depth"})
        EXPECT_EQ(replay(vec(c)), 0u) << c;
}

TEST(LockstepAdapter, ACorruptedWriteIsCaught)
{
    EXPECT_GE(replay(vec("kernel_mlp_S1"), 123), 1u);
}

} // namespace
