// Unit tests of libotpusim: encodings, the sequencer's rules, WAITW and its host hook
// (the cases of openTPU's tests/test_waitw.py), RLD MUL, HALT CHAIN, the write log, the
// step limit and sparse DRAM (the dot product paths: test_dot.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <set>
#include <string>

#include "asm.h"
#include "bundle.h"
#include "dram_pages.h"
#include "cases.h"
#include "fp32.h"

using namespace otpu_test;

namespace {

struct Machine {
    otpu_config cfg;
    otpu_machine *m = nullptr;
    otpu_error err{};
    explicit Machine(uint32_t S = 1, otpu_config c = otpu_config_default())
    {
        cfg = c;
        cfg.S = S;
        cfg.DRAM_BYTES = 1u << 16;
        m = otpu_machine_new(&cfg, &err);
    }
    ~Machine() { otpu_machine_free(m); }
    void load(uint32_t s, std::initializer_list<otpu_instr> p)
    {
        std::vector<uint32_t> w = words(p);
        ASSERT_EQ(otpu_machine_load_program(m, s, w.data(), w.size(), &err), 0) << err.msg;
    }
    void word(uint32_t s, uint64_t addr, uint32_t v)
    {
        ASSERT_EQ(otpu_machine_load_dram(m, s, addr, &v, 4, &err), 0) << err.msg;
    }
    int run(uint64_t max = 1000000) { return otpu_machine_run(m, max); }
    otpu_slice_view v(uint32_t s = 0) const { return otpu_machine_view(m, s); }
    const otpu_error *e() const { return otpu_machine_error(m); }
};

const uint32_t FLAG = 0x1000;

// ---------------------------------------------------------------- encodings

TEST(Isa, DecodeEncodeRoundTrips)
{
    std::mt19937 rng(1);
    for (int k = 0; k < 10000; k++) {
        uint32_t w[8], back[8];
        for (uint32_t &x : w)
            x = rng();
        otpu_instr i = otpu_decode(w);
        otpu_encode(&i, back);
        EXPECT_EQ(0, memcmp(w, back, sizeof w));
        EXPECT_EQ(i.op, w[0] & 0xFF);
        EXPECT_EQ(i.rd, (w[0] >> 20) & 15);
        EXPECT_EQ(i.flags, w[0] >> 24);
    }
}

// The ISA description's rows are unique by construction (a repeated name or opcode does not
// compile); what the table must also give: every row a unit and a format, and a disassembly
// that starts with its name; every other opcode shows as its words.
TEST(Isa, EveryOpcodeHasAUnitAFormatAndItsName)
{
    int known = 0;
    for (unsigned op = 0; op < 256; op++) {
        const char *n = otpu_op_name(op);
        otpu_instr i = ins(op, {1, 2, 3, 4, 5, 6, 7}, 1, 2, 3, 4, 0xFF);
        char buf[512];
        ASSERT_GT(otpu_disasm(&i, buf, sizeof buf), 0);
        if (!n) {
            EXPECT_EQ(otpu_op_unit(op), OTPU_UNIT_COUNT);
            EXPECT_EQ(otpu_op_format(op), OTPU_FMT_NONE);
            EXPECT_EQ(strncmp(buf, ".word", 5), 0);
            continue;
        }
        known++;
        EXPECT_LT(otpu_op_unit(op), OTPU_UNIT_COUNT) << n;
        EXPECT_EQ(strncmp(buf, n, strlen(n)), 0) << buf;
        otpu_ops o = otpu_operands(&i, nullptr);
        EXPECT_EQ(o.format, otpu_op_format(op)) << n;
        EXPECT_EQ(o.format == OTPU_FMT_NONE, op == OTPU_OP_NOP || op == OTPU_OP_BAR) << n;
    }
    EXPECT_EQ(known, 17);
    char small[8];
    otpu_instr v = ins(OTPU_OP_VOP, {1, 2, 3, 4, 5, 6, 7});
    int need = otpu_disasm(&v, small, sizeof small);
    EXPECT_GT(need, 7);
    EXPECT_EQ(strlen(small), 7u); // truncated, terminated
}

// Register operands: R[reg] + imm with 32-bit wrap, R0 reads as 0; resolving again with other
// registers (what a decoded program does before each run of an instruction) moves only them.
TEST(Isa, OperandsAddTheirRegisters)
{
    uint32_t R[16] = {0xDEAD, 0, 0, 0xFFFFFFF0u};
    otpu_instr ld = ins(OTPU_OP_LD, {0x20, 0x30, 4}, 3, 0);
    otpu_ops o = otpu_operands(&ld, R);
    EXPECT_EQ(o.dma.dram.value, 0x10u); // wraps
    EXPECT_EQ(o.dma.tmem.value, 0x30u); // R0
    EXPECT_EQ(o.dma.n, 4u);
    uint32_t R2[16] = {0, 0, 0, 0x100};
    otpu_ops_resolve(&o, R2);
    EXPECT_EQ(o.dma.dram.value, 0x120u);
    EXPECT_EQ(o.dma.dram.imm, 0x20u);
    EXPECT_EQ(o.dma.n, 4u);
}

// otpu_flags_allowed against the model: every flags byte on the first MM and QST of golden
// programs; the model's ILLEGAL at that pc means a combination the predicate refuses,
// and a refused one stops the model there (with ILLEGAL, or an operand check the model makes
// first).
TEST(Isa, FlagsAllowedIsWhatTheModelAccepts)
{
    std::set<unsigned> tried_ops;
    size_t illegal_seen = 0;
    for (const std::string &dir : otpu_test::isa_cases()) {
        otpu_bundle b;
        char err[1024];
        ASSERT_EQ(otpu_bundle_read(dir.c_str(), &b, err, sizeof err), 0) << err;
        for (unsigned op : {OTPU_OP_MM, OTPU_OP_QST, OTPU_OP_WAITW}) {
            size_t at = SIZE_MAX;
            for (size_t i = 0; i + 8 <= b.prog_words[0] && at == SIZE_MAX; i += 8)
                if (otpu_decode(&b.prog[0][i]).op == op)
                    at = i;
            if (at == SIZE_MAX || b.expect_error || tried_ops.count(op))
                continue;
            tried_ops.insert(op);
            uint32_t saved = b.prog[0][at];
            for (unsigned f = 0; f < 256; f++) {
                b.prog[0][at] = (saved & 0x00FFFFFFu) | f << 24;
                otpu_error e;
                otpu_machine *m = otpu_bundle_machine(&b, &e);
                ASSERT_NE(m, nullptr) << e.msg;
                int rc = otpu_machine_run(m, 1000000);
                const otpu_error *me = otpu_machine_error(m);
                bool here = rc != 0 && me->slice == 0 && me->pc == at / 8;
                bool illegal = here && me->kind == OTPU_ERR_ILLEGAL;
                illegal_seen += illegal;
                if (otpu_flags_allowed(op, f))
                    EXPECT_FALSE(illegal) << dir << " flags " << f << ": " << me->msg;
                else
                    EXPECT_TRUE(here) << dir << " flags " << f << " ran on";
                otpu_machine_free(m);
            }
            b.prog[0][at] = saved;
        }
        otpu_bundle_free(&b);
    }
    EXPECT_TRUE(tried_ops.count(OTPU_OP_MM) && tried_ops.count(OTPU_OP_QST)); // (no vector has
    EXPECT_GT(illegal_seen, 0u);                                           // WAITW: Waitw.*)
}

TEST(Isa, F2iTruncatesAndSaturates)
{
    EXPECT_EQ(otpu_f2i(0x3F800000), 1u);          // 1.0
    EXPECT_EQ(otpu_f2i(0xBF800000), 0xFFFFFFFFu); // -1.0
    EXPECT_EQ(otpu_f2i(0x3F7FFFFF), 0u);          // just below 1
    EXPECT_EQ(otpu_f2i(0x40E00000), 7u);          // 7.0
    EXPECT_EQ(otpu_f2i(0xC3480000), 0xFFFFFF38u); // -200
    EXPECT_EQ(otpu_f2i(0x4F000000), 0x80000000u); // 2^31
    EXPECT_EQ(otpu_f2i(0x7F800000), 0x80000000u); // inf
    EXPECT_EQ(otpu_f2i(0x7FC00000), 0x80000000u); // NaN
    EXPECT_EQ(otpu_f2i(0x00000001), 0u);          // denormal
    EXPECT_EQ(otpu_f2i(0x4B7FFFFF), 16777215u);   // 24 significant bits exact
}

TEST(Isa, WaitwCompares)
{
    EXPECT_TRUE(otpu_waitw_holds(5, 3, OTPU_CMP_GE, ~0u));
    EXPECT_TRUE(otpu_waitw_holds(3, 3, OTPU_CMP_GE, ~0u));
    EXPECT_FALSE(otpu_waitw_holds(2, 3, OTPU_CMP_GE, ~0u));
    EXPECT_TRUE(otpu_waitw_holds(0x00000001, 0xFFFFFFFF, OTPU_CMP_GE, ~0u)); // 1 - (-1) = 2
    EXPECT_FALSE(otpu_waitw_holds(0x7FFFFFFF, 0x80000001, OTPU_CMP_GE, ~0u)); // difference -2
    EXPECT_TRUE(otpu_waitw_holds(0xAB12, 0xAB00, OTPU_CMP_EQ, 0xFF00));
    EXPECT_TRUE(otpu_waitw_holds(1, 0, OTPU_CMP_NE, ~0u));
    EXPECT_FALSE(otpu_waitw_holds(0, 0, 3, ~0u));
}

TEST(Isa, StreamDescriptorRoundTrips)
{
    otpu_stream_desc d{}, e{};
    d.rows = 16;
    d.cols = 128;
    d.a_en = 1;
    d.a_idx = 1;
    d.u_mode = OTPU_U_FMMA;
    d.g_src = OTPU_G_CONST;
    d.b_idx = 1;
    d.d_reg = 2;
    d.q_en = 1;
    d.rinit = 5;
    d.rsave = 4;
    d.nops = 2;
    d.ops[0][0] = OTPU_SC_MUL;
    d.ops[0][2] = OTPU_OPD_A;
    d.ops[0][3] = OTPU_OPD_K0;
    d.ops[1][0] = OTPU_SC_SUB;
    d.ops[1][1] = 1;
    d.ops[1][2] = OTPU_OPD_X;
    uint32_t w[20];
    size_t n = otpu_stream_desc_encode(&d, w);
    ASSERT_EQ(n, 7u);
    char err[160];
    ASSERT_EQ(otpu_stream_desc_decode(w, n, &e, err, sizeof err), 0) << err;
    EXPECT_EQ(0, memcmp(&d, &e, sizeof d));
    w[2] = 0x3F800000; // not float-safe
    EXPECT_EQ(otpu_stream_desc_decode(w, n, &e, err, sizeof err), -1);
    EXPECT_NE(strstr(err, "float-safe"), nullptr);
}

// A STREAM whose update mode reads neither G nor B may name any slot in those fields: the
// model must not touch them (fuzz_gen found C[7] read out of bounds: UBSan).
TEST(Exec, StreamIgnoresTheOperandsItsUpdateModeDoesNotRead)
{
    otpu_config c = otpu_config_default();
    c.STREAM = 1;
    Machine t(1, c);
    ASSERT_NE(t.m, nullptr) << t.err.msg;
    otpu_stream_desc d{};
    d.rows = 1;
    d.cols = 4;
    d.u_mode = OTPU_U_PASS;
    d.g_src = OTPU_G_SLOT;
    d.g_idx = 7;
    d.b_src = OTPU_BS_SLOT;
    d.b_idx = 7;
    uint32_t w[20];
    size_t n = otpu_stream_desc_encode(&d, w);
    for (size_t k = 0; k < n; k++)
        t.word(0, 4 * k, w[k]);
    const float in[4] = {1.5f, -2.0f, 3.25f, 0.5f};
    for (int k = 0; k < 4; k++) {
        uint32_t b;
        memcpy(&b, &in[k], 4);
        t.word(0, 0x100 + 4 * k, b);
    }
    otpu_ops o{};
    o.stream.desc = 0;
    o.stream.out = 200;
    o.stream.src = {0x100, 0x100, 0};
    o.stream.dst = {0x200, 0x200, 0};
    o.stream.vec = {100, 100, 0};
    o.stream.x = {150, 150, 0};
    o.stream.k = {160, 160, 0};
    otpu_instr st{};
    otpu_encode_operands(OTPU_OP_STREAM, &o, &st);
    t.load(0, {ld(0, 0, static_cast<uint32_t>(n)), st, halt()});
    ASSERT_EQ(t.run(), 0) << t.e()->msg;
    EXPECT_EQ(0, memcmp(t.v().dram + 0x200, in, sizeof in)); // PASS: the row as it was
}

// ---------------------------------------------------------------- sequencer rules

TEST(Sequencer, LoopsNestAndCountWithRegisters)
{
    Machine t;
    t.load(0, {li(1, 3), loop(3, 2), loop(1, 0, 1), addi(2, 2, 1), addi(3, 3, 1), halt()});
    ASSERT_EQ(t.run(), 0) << t.e()->msg;
    EXPECT_EQ(t.v().R[2], 6u); // 2 x 3
    EXPECT_EQ(t.v().R[3], 2u);
    EXPECT_EQ(t.v().pc, 5u);
}

TEST(Sequencer, LoopCountZeroSkipsTheBody)
{
    Machine t;
    t.load(0, {loop(1, 0), li(1, 9), halt()});
    ASSERT_EQ(t.run(), 0);
    EXPECT_EQ(t.v().R[1], 0u);
    EXPECT_EQ(t.v().icount, 2u);
}

TEST(Sequencer, LoopRulesAreErrors)
{
    {
        Machine t;
        t.load(0, {loop(0, 1), halt()});
        EXPECT_EQ(t.run(), -1);
        EXPECT_EQ(t.e()->kind, OTPU_ERR_LOOP);
    }
    {
        Machine t;
        t.load(0, {loop(9, 2), loop(7, 2), loop(5, 2), loop(3, 2), loop(1, 2), addi(1, 1, 1),
                   addi(1, 1, 1), addi(1, 1, 1), addi(1, 1, 1), addi(1, 1, 1), halt()});
        EXPECT_EQ(t.run(), -1);
        EXPECT_EQ(t.e()->kind, OTPU_ERR_LOOP);
        EXPECT_EQ(t.e()->pc, 4u);
    }
    {
        Machine t;
        t.load(0, {loop(2, 2), loop(1, 2), addi(1, 1, 1), halt()});
        EXPECT_EQ(t.run(), -1);
        EXPECT_EQ(t.e()->kind, OTPU_ERR_LOOP);
        EXPECT_NE(strstr(t.e()->msg, "same instruction"), nullptr) << t.e()->msg;
    }
}

TEST(Sequencer, WritesToR0AreIgnoredAndArgsStartInR8)
{
    Machine t;
    uint32_t args[8] = {11, 12, 13, 14, 15, 16, 17, 0xFFFFFFFF};
    otpu_machine_set_args(t.m, args);
    t.load(0, {li(0, 5), addi(1, 15, 2), halt()});
    ASSERT_EQ(t.run(), 0);
    EXPECT_EQ(t.v().R[0], 0u);
    EXPECT_EQ(t.v().R[8], 11u);
    EXPECT_EQ(t.v().R[1], 1u); // -1 + 2 wraps
}

TEST(Sequencer, PastTheEndAndStepLimit)
{
    {
        Machine t;
        t.load(0, {li(1, 1)});
        EXPECT_EQ(t.run(), -1);
        EXPECT_EQ(t.e()->kind, OTPU_ERR_PAST_END);
        EXPECT_EQ(t.v().icount, 1u);
    }
    {
        Machine t;
        t.load(0, {loop(1, 1000), addi(1, 1, 1), halt()});
        EXPECT_EQ(t.run(100), -1);
        EXPECT_EQ(t.e()->kind, OTPU_ERR_STEP_LIMIT);
        EXPECT_EQ(t.v().icount, 101u);
    }
}

// A run in pieces (otpu-sim --progress) is the same run: same state, same step count, and the
// step limit counts across the pieces.
TEST(Sequencer, ARunInPiecesIsTheSameRun)
{
    auto prog = {li(1, 3), loop(3, 50), loop(1, 0, 1), addi(2, 2, 1), addi(3, 3, 1), halt()};
    Machine whole, pieces;
    whole.load(0, prog);
    pieces.load(0, prog);
    ASSERT_EQ(whole.run(), 0);
    int r, calls = 0;
    while ((r = otpu_machine_run_some(pieces.m, 1000000, 7)) == 1)
        calls++;
    ASSERT_EQ(r, 0) << pieces.e()->msg;
    EXPECT_GT(calls, 10);
    EXPECT_EQ(std::memcmp(whole.v().R, pieces.v().R, 16 * sizeof(uint32_t)), 0);
    EXPECT_EQ(whole.v().icount, pieces.v().icount);
    EXPECT_EQ(otpu_machine_steps(pieces.m), otpu_machine_steps(whole.m));
    Machine limited;
    limited.load(0, prog);
    while ((r = otpu_machine_run_some(limited.m, 100, 7)) == 1)
        ;
    EXPECT_EQ(r, -1);
    EXPECT_EQ(limited.e()->kind, OTPU_ERR_STEP_LIMIT);
    EXPECT_EQ(limited.v().icount, 101u);
}

TEST(Sequencer, ErrorsNameSlicePcInstructionAndAddress)
{
    Machine t;
    t.load(0, {li(1, 2), ld(0x3, 0, 4), halt()});
    EXPECT_EQ(t.run(), -1);
    const otpu_error *e = t.e();
    EXPECT_EQ(e->kind, OTPU_ERR_DRAM_ADDR);
    EXPECT_EQ(e->slice, 0);
    EXPECT_EQ(e->pc, 1u);
    EXPECT_TRUE(e->has_addr);
    EXPECT_EQ(e->addr, 3u);
    EXPECT_NE(strstr(e->msg, "slice 0: pc 1"), nullptr) << e->msg;
    EXPECT_NE(strstr(e->msg, "LD"), nullptr) << e->msg;
    EXPECT_NE(strstr(e->msg, "0x3"), nullptr) << e->msg;
}

// ---------------------------------------------------------------- inputs that once crashed

// VOP (func 6 OUTER, bmode ROW) with b = 0xffffffff: the hazard check read its scoreboard
// past TMEM before the range check (a SIGSEGV).
TEST(Robustness, OuterWithBBeyondTmemIsARangeError)
{
    Machine t;
    otpu_instr outer = ins(OTPU_OP_VOP, {0, 0x200, 0xFFFFFFFFu, 6 | 40u << 16, 48,
                                         3 | 6u << 16 | 1u << 24, 0x2bc});
    t.load(0, {outer, halt()});
    EXPECT_EQ(t.run(), -1);
    EXPECT_EQ(t.e()->kind, OTPU_ERR_TMEM_RANGE) << t.e()->msg;
}

// OUTER rows written twice beyond TMEM (drs 0): the reference names the hazard first.
TEST(Robustness, OuterHazardBeyondTmemComesBeforeTheRange)
{
    Machine t;
    otpu_instr outer = ins(OTPU_OP_VOP, {0xFFFFFF00u, 0x10, 0x20, 2 | 4u << 16, 0,
                                         6u << 16 | 1u << 24, 0x30});
    t.load(0, {outer, halt()});
    EXPECT_EQ(t.run(), -1);
    EXPECT_EQ(t.e()->kind, OTPU_ERR_HAZARD) << t.e()->msg;
}

// GATHER of rows x 0 columns: no buffer, no copy (UBSan: memcpy into NULL).
TEST(Robustness, GatherOfNoColumnsCopiesNothing)
{
    Machine t(2);
    otpu_instr gather = ins(OTPU_OP_GATHER, {0, 100, 5 | 0u << 16, 1, 1, 16});
    t.load(0, {gather, halt()});
    t.load(1, {gather, halt()});
    EXPECT_EQ(t.run(), 0) << t.e()->msg;
}

// QACT DUP in an ACT RAM of fewer rows than MCOLS: the reference drops one row's copy when the
// ACT RAM has a single row and raises for more rows (the model once wrote past its ACT RAM).
TEST(Robustness, QactDupCopiesPastTheActRamRows)
{
    otpu_config c = otpu_config_default();
    c.ACT_ROWS = 1;
    uint32_t one = 0x3f800000u; // 1.0: q8 127 and a scale of 1/127
    auto qact = [](uint32_t rows, uint32_t ab) {
        return ins(OTPU_OP_QACT, {0, rows | ab << 8 | 1u << 16, 32}, 0, 0, 0, 0, OTPU_F_DUP);
    };
    {
        Machine t(1, c);
        t.word(0, 0, one);
        t.load(0, {ld(0, 0, 32), qact(1, 2), halt()});
        EXPECT_EQ(t.run(), 0) << t.e()->msg;
        EXPECT_EQ(t.v().act[2 * c.D], 127) << "row 0, block 2: the row itself";
        EXPECT_NE(t.v().ascale[2], 0u);
    }
    for (uint32_t rows : {2u, 4u}) { // 2 * rows within MCOLS, past ACT_ROWS
        Machine t(1, c);
        t.load(0, {qact(rows, 0), halt()});
        EXPECT_EQ(t.run(), -1);
        EXPECT_EQ(t.e()->kind, OTPU_ERR_BOUNDS) << t.e()->msg;
        EXPECT_EQ(t.e()->pc, 0u);
        EXPECT_NE(strstr(t.e()->msg, "ACT RAM rows 1"), nullptr) << t.e()->msg;
    }
}

// ---------------------------------------------------------------- RLD

TEST(Rld, RawF2iAndMul)
{
    Machine t;
    t.word(0, 0, 0x40E00000);  // 7.0
    t.word(0, 4, 0xC3480000);  // -200.0
    t.load(0, {ld(0, 0, 2), li(2, 9344), rld(1, 0), rld(3, 0, OTPU_F_MUL, 0, 2, 1),
               rld(4, 1, OTPU_F_RAW | OTPU_F_MUL, 0, 0, 0x10000), rld(5, 1, OTPU_F_MUL, 0, 0, 3),
               rld(0, 0), halt()});
    ASSERT_EQ(t.run(), 0) << t.e()->msg;
    EXPECT_EQ(t.v().R[1], 7u);
    EXPECT_EQ(t.v().R[3], 7u * 9345u);                       // f2i times R[rb] + w2
    EXPECT_EQ(t.v().R[4], (uint32_t)(0xC3480000ull * 0x10000)); // raw bits, low 32 bits
    EXPECT_EQ(t.v().R[5], (uint32_t)(-600));
    EXPECT_EQ(t.v().R[0], 0u);
}

// ---------------------------------------------------------------- WAITW (test_waitw.py)

struct Host {
    int calls = 0;
    std::vector<std::pair<bool, bool>> seen;
    std::function<void(otpu_machine *)> act;
};

int host_fn(otpu_machine *m, void *user)
{
    Host *h = static_cast<Host *>(user);
    h->calls++;
    if (h->act)
        h->act(m);
    return 0; /* nothing more to do: a WAITW that still fails times out */
}

TEST(Waitw, HoldsAtOnceWithoutTheHost)
{
    Machine t;
    t.word(0, FLAG, 7);
    Host h;
    otpu_machine_set_host(t.m, host_fn, &h);
    t.load(0, {waitw(FLAG, 3, 7, OTPU_CMP_EQ), halt()});
    ASSERT_EQ(t.run(), 0) << t.e()->msg;
    EXPECT_EQ(t.v().tmem[3], 7u);
    EXPECT_EQ(t.v().stalls, 0u);
    EXPECT_EQ(h.calls, 0);
}

TEST(Waitw, WaitsForTheHostThenWritesTheWord)
{
    Machine t;
    Host h;
    h.act = [](otpu_machine *m) {
        otpu_error e;
        uint32_t v = 0x12345678;
        otpu_machine_load_dram(m, 0, FLAG + 4, &v, 4, &e);
    };
    otpu_machine_set_host(t.m, host_fn, &h);
    t.load(0, {li(1, 4), li(3, 2), waitw(FLAG, 5, 0, OTPU_CMP_NE, 1, 3, 2),
               rld(6, 7, OTPU_F_RAW), halt()});
    ASSERT_EQ(t.run(), 0) << t.e()->msg;
    EXPECT_EQ(h.calls, 1);
    EXPECT_EQ(t.v().tmem[7], 0x12345678u);
    EXPECT_EQ(t.v().R[6], 0x12345678u);
    EXPECT_EQ(t.v().stalls, 1u);
}

TEST(Waitw, GeIsASignedDifferenceWithTheRegisterReference)
{
    Machine t;
    t.word(0, FLAG, 9);
    t.load(0, {li(4, 10), waitw(FLAG, 6, 0xFFFFFFFF, OTPU_CMP_GE, 0, 0, 4), halt()});
    ASSERT_EQ(t.run(), 0) << t.e()->msg;
    EXPECT_EQ(t.v().tmem[6], 9u);
}

TEST(Waitw, NoHostOrNoProgressIsTheTimeout)
{
    {
        Machine t;
        t.load(0, {waitw(FLAG, 1, 1, OTPU_CMP_EQ), halt()});
        EXPECT_EQ(t.run(), -1);
        EXPECT_EQ(t.e()->kind, OTPU_ERR_WAITW);
        EXPECT_NE(strstr(t.e()->msg, "WAITW"), nullptr);
    }
    {
        Machine t;
        Host h;
        otpu_machine_set_host(t.m, host_fn, &h);
        t.load(0, {waitw(FLAG, 1, 1, OTPU_CMP_EQ), halt()});
        EXPECT_EQ(t.run(), -1);
        EXPECT_EQ(t.e()->kind, OTPU_ERR_WAITW);
        EXPECT_NE(strstr(t.e()->msg, "timeout"), nullptr);
        EXPECT_EQ(h.calls, 1);
    }
}

TEST(Waitw, TheHostActsOnlyWhenNoSliceCanRun)
{
    Machine t(2);
    Host h;
    h.act = [&h](otpu_machine *m) {
        otpu_slice_view a = otpu_machine_view(m, 0), b = otpu_machine_view(m, 1);
        h.seen.push_back({a.pc == 0 && !a.halted, b.pc == 3});
        otpu_error e;
        uint32_t v = 1;
        otpu_machine_load_dram(m, 0, FLAG, &v, 4, &e);
    };
    otpu_machine_set_host(t.m, host_fn, &h);
    t.load(0, {waitw(FLAG, 1, 1, OTPU_CMP_EQ), rld(1, 1, OTPU_F_RAW), bar(), halt()});
    t.load(1, {li(2, 1), li(2, 2), li(2, 3), bar(), halt()});
    ASSERT_EQ(t.run(), 0) << t.e()->msg;
    ASSERT_EQ(h.seen.size(), 1u);
    EXPECT_TRUE(h.seen[0].first);  // slice 0 polls its WAITW
    EXPECT_TRUE(h.seen[0].second); // slice 1 waits at its BAR
    EXPECT_EQ(t.v(0).R[1], 1u);
    EXPECT_EQ(t.v(1).R[2], 3u);
}

TEST(Waitw, BadCompareIsIllegal)
{
    Machine t;
    t.load(0, {waitw(FLAG, 1, 1, 3), halt()});
    EXPECT_EQ(t.run(), -1);
    EXPECT_EQ(t.e()->kind, OTPU_ERR_ILLEGAL);
    for (unsigned cmp = 0; cmp < 4; cmp++) // otpu_flags_allowed says the same
        EXPECT_EQ(otpu_flags_allowed(OTPU_OP_WAITW, cmp), cmp != 3);
}

// ---------------------------------------------------------------- HALT CHAIN

TEST(Chain, LoadsAndStartsTheNextProgramWithTheRunArguments)
{
    Machine t;
    uint32_t args[8] = {0, 99};
    otpu_machine_set_args(t.m, args);
    std::vector<uint32_t> next = words({addi(3, 9, 1), halt()});
    ASSERT_EQ(otpu_machine_load_dram(t.m, 0, 4096, next.data(), next.size() * 4, &t.err), 0);
    t.load(0, {li(1, 4096), li(2, 2), li(9, 5), halt(OTPU_F_CHAIN, 1, 2)});
    ASSERT_EQ(t.run(), 0) << t.e()->msg;
    EXPECT_EQ(t.v().R[3], 100u); // R9 restarted with the argument 99
    EXPECT_EQ(t.v().R[1], 0u);   // R0..R7 restart at 0
    EXPECT_EQ(t.v().icount, 6u); // icount keeps counting
    EXPECT_EQ(t.v().pc, 1u);
    EXPECT_EQ(otpu_machine_chains(t.m), 1u);
}

TEST(Chain, BadAddressOrCountIsAnError)
{
    Machine t;
    t.load(0, {li(1, 4100), li(2, 2), halt(OTPU_F_CHAIN, 1, 2)});
    EXPECT_EQ(t.run(), -1);
    EXPECT_EQ(t.e()->kind, OTPU_ERR_CHAIN);
    EXPECT_EQ(t.e()->pc, 2u);
}

// ---------------------------------------------------------------- the write log

struct Log {
    std::vector<otpu_write> w;
    std::vector<uint64_t> n;
};

void on_retire(void *u, const otpu_retired *r)
{
    Log *l = static_cast<Log *>(u);
    for (size_t i = 0; i < r->nwrites; i++)
        l->w.push_back(r->writes[i]);
    l->n.push_back(r->n);
}

TEST(WriteLog, EveryWriteIncludingUnchangedValues)
{
    Machine t;
    Log log;
    otpu_listener l{&log, nullptr, on_retire, nullptr};
    otpu_machine_set_listener(t.m, &l);
    t.word(0, 8, 0x3F800000);
    t.load(0, {ld(0, 0, 4), li(1, 0), st(16, 2, 1), halt()});
    ASSERT_EQ(t.run(), 0);
    ASSERT_EQ(log.n.size(), 4u);
    ASSERT_EQ(log.w.size(), 6u); // 4 TMEM words (3 unchanged zeros), R1 = 0, one DRAM word
    EXPECT_EQ(log.w[0].space, OTPU_SP_TMEM);
    EXPECT_EQ(log.w[2].val, 0x3F800000u);
    EXPECT_EQ(log.w[4].space, OTPU_SP_REG);
    EXPECT_EQ(log.w[4].old, log.w[4].val); // a write of the same value is still logged
    EXPECT_EQ(log.w[5].space, OTPU_SP_DRAM);
    EXPECT_EQ(log.w[5].addr, 16u);
    EXPECT_EQ(log.w[5].mask, 0xF);
}

// ---------------------------------------------------------------- memory

long rss_kb()
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * 4;
}

TEST(Memory, BoardDramCostsOnlyWhatTheProgramTouches)
{
    long before = rss_kb();
    otpu_config c = otpu_config_board(); // 4 GiB of DRAM
    otpu_error e;
    otpu_machine *m = otpu_machine_new(&c, &e);
    ASSERT_NE(m, nullptr) << e.msg;
    std::vector<uint32_t> w = words({li(1, 0xF0000000u), ins(OTPU_OP_ST, {0, 0, 1024}, 1), halt()});
    ASSERT_EQ(otpu_machine_load_program(m, 0, w.data(), w.size(), &e), 0);
    ASSERT_EQ(otpu_machine_run(m, 100), 0) << otpu_machine_error(m)->msg;
    EXPECT_LT(rss_kb() - before, 64 * 1024) << "resident size grew with the DRAM size";
    otpu_machine_free(m);
}

// The end-state comparison skips the DRAM pages the model never touched: they must be exactly
// the pages nothing was written to.
TEST(Memory, UntouchedDramPagesAreKnown)
{
    Machine t; // 64 KiB: 16 pages
    std::vector<uint8_t> touched(16, 7);
    ASSERT_EQ(otpu_dram_pages_touched(t.m, 0, touched.data()), 0) << "no /proc/self/pagemap?";
    for (int p = 0; p < 16; p++)
        EXPECT_EQ(touched[p], 0) << "page " << p;
    t.word(0, 3 * 4096 + 8, 0x12345678);
    t.load(0, {st(5 * 4096, 0, 1), halt()}); // a ST writes page 5 (TMEM word 0)
    ASSERT_EQ(t.run(), 0) << t.e()->msg;
    ASSERT_EQ(otpu_dram_pages_touched(t.m, 0, touched.data()), 0);
    for (int p = 0; p < 16; p++)
        EXPECT_EQ(touched[p] != 0, p == 3 || p == 5) << "page " << p;
}

TEST(Memory, BadConfigsAreRefusedWithAReason)
{
    otpu_config c = otpu_config_default();
    c.D = 12;
    otpu_error e;
    EXPECT_EQ(otpu_machine_new(&c, &e), nullptr);
    EXPECT_NE(strstr(e.msg, "D=12"), nullptr) << e.msg;
    c = otpu_config_default();
    c.DRAM_BYTES = 6;
    EXPECT_EQ(otpu_machine_new(&c, &e), nullptr);
    EXPECT_NE(strstr(e.msg, "DRAM_BYTES"), nullptr) << e.msg;
}

} // namespace
