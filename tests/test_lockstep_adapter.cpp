// dpi/lockstep.c: EVENTS.md records (units, write ports and record kinds of sim/protocol.h)
// reach the checker as the right calls: a serial replay of golden runs passes, and a corrupted
// write on any of the write ports is caught as a wrong value (a register mismatch on the
// sequencer's port) at the address written, which a port routed to the wrong unit is not.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "cases.h"
#include "lockstep.h"
#include "synthetic_rtl.h"

using namespace otpu_test;

namespace {

// The write port of a write of the instruction at step st: the unit and the space tell, and
// for a QACT with DUP the row (its copy of row r is row r + rows, on the second ports).
uint32_t port_of(const Step &st, const otpu_write &w, uint32_t act_row_len, uint32_t act_blocks)
{
    switch (st.unit) {
    case OTPU_UNIT_DMA: return w.space == OTPU_SP_DRAM ? OTPU_PORT_DMA_M : OTPU_PORT_DMA_T;
    case OTPU_UNIT_MXU: return OTPU_PORT_MXU_T;
    case OTPU_UNIT_QUANT: {
        if (w.space == OTPU_SP_DRAM)
            return OTPU_PORT_QNT_M;
        otpu_ops o = otpu_operands(&st.ins, NULL);
        bool act = w.space == OTPU_SP_ACT;
        uint64_t row = w.addr / (act ? act_row_len : act_blocks);
        bool copy = o.format == OTPU_FMT_QACT && o.qact.dup && row >= o.qact.rows;
        return act ? (copy ? OTPU_PORT_QNT_A2 : OTPU_PORT_QNT_A)
                   : (copy ? OTPU_PORT_QNT_S2 : OTPU_PORT_QNT_S);
    }
    case OTPU_UNIT_VPU: return OTPU_PORT_VPU_T;
    default: return OTPU_PORT_COL_T;
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

// What a replay found: the divergences, the first one, which ports it used, and the write it
// corrupted (the first one on port `corrupt`, if any).
struct Outcome {
    uint64_t count = 0;
    otpu_divergence first{};
    bool corrupted = false;
    uint32_t space = 0;
    uint64_t addr = 0;
    unsigned ports_used = 0; // a bit per port
};

// One instruction at a time, in the EVENTS.md records.
Outcome replay(const std::string &dir, int corrupt = -1)
{
    otpu_bundle b;
    char err[1024];
    Outcome out;
    EXPECT_EQ(otpu_bundle_read(dir.c_str(), &b, err, sizeof err), 0) << err;
    Recording rec = record(b);
    uint32_t row_len = b.cfg.ACT_BLOCKS * b.cfg.D, blocks = b.cfg.ACT_BLOCKS;
    otpu_bundle_free(&b);
    Replay rp{&rec};
    otpu_ls_options o{};
    o.read_state = read_state;
    o.user = &rp;
    otpu_ls *ls = otpu_ls_open(dir.c_str(), &o, err, sizeof err);
    EXPECT_NE(ls, nullptr) << err;
    if (!ls)
        return out;
    auto wr = [&](uint32_t s, uint32_t port, const otpu_write &w) {
        uint32_t data = w.val;
        out.ports_used |= 1u << port;
        if (int(port) == corrupt && !out.corrupted) {
            int byte = 2; /* a bit inside what is written: an ACT byte, a masked DRAM byte */
            while (w.space == OTPU_SP_DRAM && w.mask != 0xF && !(w.mask >> byte & 1))
                byte = (byte + 1) % 4;
            data ^= 1u << (w.space == OTPU_SP_ACT ? 3 : 8 * byte + 4);
            out.corrupted = true;
            out.space = w.space;
            out.addr = w.addr;
        }
        otpu_ls_wr(ls, s, port, w.space, static_cast<uint32_t>(w.addr), data, w.mask);
    };
    uint64_t cycle = 0;
    for (uint32_t s = 0; s < rec.slices.size(); s++)
        for (const Step &st : rec.slices[s].steps) {
            otpu_ls_cycle(ls, ++cycle);
            if (st.faulted) {
                otpu_ls_state(ls, s, OTPU_SS_ERROR, st.pc, 0);
                break;
            }
            if (!st.windowed) {
                for (const otpu_write &w : st.writes)
                    wr(s, OTPU_PORT_SEQ_R, w);
                if (st.halts)
                    otpu_ls_state(ls, s, OTPU_SS_HALTED, st.pc, 0);
                continue;
            }
            int unit = static_cast<int>(st.unit);
            otpu_ls_ins(ls, s, OTPU_EV_DISPATCH, -1, 0, st.pc, st.ins.op);
            otpu_ls_ins(ls, s, OTPU_EV_START, unit, 0, st.pc, st.ins.op);
            for (const otpu_write &w : st.writes)
                wr(s, port_of(st, w, row_len, blocks), w);
            otpu_ls_ins(ls, s, OTPU_EV_COMPLETE, unit, 0, st.pc, st.ins.op);
        }
    otpu_ls_end(ls, 0);
    EXPECT_EQ(otpu_ls_bad_call(ls), nullptr) << otpu_ls_bad_call(ls);
    const otpu_checker *c = otpu_ls_checker(ls);
    out.count = otpu_check_count(c);
    if (otpu_check_first(c))
        out.first = *otpu_check_first(c);
    otpu_ls_close(ls);
    return out;
}

std::string vec(const char *c)
{
    return vectors_dir() + "/isa/" + c;
}

TEST(LockstepAdapter, SerialReplaysPass)
{
    for (const char *c : {"kernel_mlp_S1", "kernel_attn_S2_T96", "qact_scales", "qst",
                          "gather_bar_S3", "halt_chain", "err_dram_range", "err_loop_depth",
                          "mm_w4_1_pair1"})
        EXPECT_EQ(replay(vec(c)).count, 0u) << c;
}

// Every one of the 11 write ports, each in a bundle that uses it: its first write corrupted
// is a wrong value (a register mismatch on SEQ_R) at that very address.
TEST(LockstepAdapter, ACorruptedWriteIsCaughtOnEveryPort)
{
    const char *bundle_of[OTPU_PORTS] = {"regs_loop", "ld_st", "ld_st", "kernel_mlp_S1",
                                         "qact_scales", "mm_w4_1_pair1", "qact_scales",
                                         "mm_w4_1_pair1", "qst", "vop_add_b0", "gather_bar_S3"};
    for (int p = 0; p < OTPU_PORTS; p++) {
        Outcome o = replay(vec(bundle_of[p]), p);
        ASSERT_TRUE(o.corrupted) << "port " << otpu_port_names[p] << " unused by " << bundle_of[p];
        EXPECT_EQ(o.space, otpu_port_space[p]) << otpu_port_names[p];
        EXPECT_GE(o.count, 1u) << otpu_port_names[p];
        EXPECT_EQ(o.first.kind, p == OTPU_PORT_SEQ_R ? OTPU_DIV_REGISTER : OTPU_DIV_VALUE)
            << otpu_port_names[p] << ": " << otpu_div_kind_name(o.first.kind) << ": "
            << o.first.detail;
        EXPECT_TRUE(o.first.has_loc) << otpu_port_names[p];
        EXPECT_EQ(o.first.addr, o.addr) << otpu_port_names[p];
    }
}

// The replays above use every port (so a port the table routes wrong cannot hide).
TEST(LockstepAdapter, TheReplaysUseEveryPort)
{
    unsigned used = 0;
    for (const char *c : {"regs_loop", "ld_st", "kernel_mlp_S1", "qact_scales", "mm_w4_1_pair1",
                          "qst", "vop_add_b0", "gather_bar_S3"})
        used |= replay(vec(c)).ports_used;
    EXPECT_EQ(used, (1u << OTPU_PORTS) - 1);
}

} // namespace
