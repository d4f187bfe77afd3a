// Unit tests of the ISA revisions (sim/revision.h): the descriptions hold together; an
// instruction a revision lacks stops the run with an ILLEGAL error naming it and the revision;
// the revision's fp32 functions are the ones VOP and the quantizer use; REV= and --rev in
// bundles; the revision's golden bundles depend on its functions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "asm.h"
#include "bundle.h"
#include "cases.h"
#include "fp32.h"
#include "golden.h"
#include "quant.h"
#include "revision.h"

using namespace otpu_test;

namespace {

const otpu_rev_desc *acf() { return otpu_rev_desc_of(OTPU_REV_ACF0C1C6); }

std::string temp_dir()
{
    char tmpl[] = "/tmp/otpu_revision_XXXXXX";
    EXPECT_NE(mkdtemp(tmpl), nullptr);
    return tmpl;
}

std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// ---------------------------------------------------------------- the descriptions

// A one-slice bundle of the default Config and revision rev: prog, dram_len zero bytes.
int write_bundle(const std::string &dir, std::vector<uint32_t> &prog, size_t dram_len,
                 otpu_revision rev, char *err, size_t errlen)
{
    std::vector<uint8_t> dram(dram_len, 0);
    uint32_t *progp = prog.data();
    uint8_t *dramp = dram.data();
    size_t pw = prog.size(), dl = dram.size();
    otpu_bundle b{};
    b.cfg = otpu_config_default();
    b.cfg.revision = rev;
    b.prog = &progp;
    b.prog_words = &pw;
    b.dram = &dramp;
    b.dram_len = &dl;
    return otpu_bundle_write(dir.c_str(), &b, err, errlen);
}

TEST(Revision, NamesRoundTrip)
{
    for (int r = 0; r < OTPU_REV_COUNT; r++) {
        otpu_revision back = OTPU_REV_UNSET;
        const char *name = otpu_rev_name(static_cast<otpu_revision>(r));
        ASSERT_EQ(otpu_rev_from_name(name, &back), 0) << name;
        EXPECT_EQ(back, r) << name;
    }
    otpu_revision r;
    EXPECT_EQ(otpu_rev_from_name("v0", &r), -1);
    EXPECT_EQ(otpu_rev_desc_of(OTPU_REV_UNSET), nullptr);
    EXPECT_EQ(otpu_rev_desc_of(OTPU_REV_COUNT), nullptr);
    char names[256];
    EXPECT_STREQ(otpu_rev_names(names, sizeof names), "current, acf0c1c6");
}

// The current revision is the ISA itself: it lacks nothing and has fp32.h's functions.
TEST(Revision, TheCurrentOneLacksNothing)
{
    const otpu_rev_desc *d = otpu_rev_desc_of(OTPU_REV_CURRENT);
    for (int k = 0; k < 256; k++) {
        EXPECT_FALSE(d->lacks_op[k]) << k;
        EXPECT_FALSE(d->lacks_vfunc[k]) << k;
    }
    EXPECT_EQ(d->lacks_flag[0].mask, 0);
    EXPECT_EQ(d->lacks_config[0], nullptr);
    EXPECT_EQ(d->fp.exp2, otpu_f32_exp2);
    EXPECT_EQ(d->fp.recip, otpu_f32_recip);
    EXPECT_EQ(d->fp.rsqrt, otpu_f32_rsqrt);
    EXPECT_EQ(d->fp.log2, otpu_f32_log2);
    EXPECT_FALSE(d->fp_nan_undefined || d->fp_no_mm_compare);
}

// Every difference names something the ISA has, and a revision without log2 cannot reach it
// (no VOP LOG2, no STREAM).
TEST(Revision, EveryDifferenceNamesWhatTheIsaHas)
{
    for (int r = 0; r < OTPU_REV_COUNT; r++) {
        const otpu_rev_desc *d = otpu_rev_desc_of(static_cast<otpu_revision>(r));
        for (unsigned k = 0; k < 256; k++) {
            if (d->lacks_op[k]) {
                EXPECT_NE(otpu_op_name(k), nullptr) << d->name << " opcode " << k;
            }
            if (d->lacks_vfunc[k]) {
                EXPECT_NE(otpu_vfunc_name(k), nullptr) << d->name << " VOP function " << k;
            }
        }
        for (const otpu_rev_flag &f : d->lacks_flag)
            if (f.mask) {
                EXPECT_NE(otpu_op_name(f.op), nullptr) << d->name << " " << f.name;
                EXPECT_NE(f.name, nullptr);
            }
        for (const char *c : d->lacks_config) {
            if (!c)
                break;
            otpu_config cfg = otpu_config_default();
            EXPECT_EQ(otpu_config_set(&cfg, c, 0), 0) << d->name << " Config field " << c;
        }
        EXPECT_TRUE(d->fp.exp2 && d->fp.recip && d->fp.rsqrt) << d->name;
        if (!d->fp.log2) {
            EXPECT_TRUE(d->lacks_vfunc[OTPU_V_LOG2]) << d->name;
            EXPECT_TRUE(d->lacks_op[OTPU_OP_STREAM]) << d->name;
        }
    }
}

// ---------------------------------------------------------------- what acf0c1c6 lacks

struct Lacking {
    const char *label;
    otpu_instr in;
    const char *why; // what the error names
};

otpu_instr vop(unsigned func, uint32_t rows = 1, uint32_t cols = 4, unsigned bmode = 0)
{
    return ins(OTPU_OP_VOP, {0x100, 0x10, 0x20, rows | cols << 16, 4 | 4u << 16,
                             4 | func << 16 | bmode << 24, 0});
}

std::vector<Lacking> acf0c1c6_lacks()
{
    const unsigned int4 = OTPU_WF_INT4 << OTPU_WF_SHIFT;
    otpu_instr mm = ins(OTPU_OP_MM, {0, 0, 0x100, 1 | 1u << 16, 32, 1, 0}, 0, 0, 0, 0, OTPU_F_UNIT);
    otpu_instr mm4 = mm, pair = mm;
    mm4.flags |= int4;
    pair.flags |= int4 | OTPU_F_PAIR;
    otpu_instr qact = ins(OTPU_OP_QACT, {0, 1 | 1u << 16, 32}, 0, 0, 0, 0, OTPU_F_DUP);
    otpu_instr qst = ins(OTPU_OP_QST, {0, 0x400, 0x800, 1 | 1u << 16, 32, 32, 1}, 0, 0, 0, 0,
                         OTPU_F_ROW | OTPU_F_HALF);
    return {
        {"RLD", rld(2, 0x10), "opcode RLD (0x06)"},
        {"WAITW", waitw(0, 0x10, 0, OTPU_CMP_EQ), "opcode WAITW (0x07)"},
        {"DSTEP", ins(OTPU_OP_DSTEP, {0, 0, 0, 1 | 1u << 16}), "opcode DSTEP (0x12)"},
        {"STREAM", ins(OTPU_OP_STREAM, {0x10}), "opcode STREAM (0x13)"},
        {"HALT CHAIN", halt(OTPU_F_CHAIN), "HALT flag CHAIN"},
        {"a 4-bit MM", mm4, "MM flag 4-bit weights"},
        {"MM PAIR", pair, "MM flag"},
        {"QACT DUP", qact, "QACT flag DUP"},
        {"QST HALF", qst, "QST flag HALF"},
        {"VOP OUTER", vop(OTPU_V_OUTER, 1, 4, OTPU_B_ROW), "VOP function outer (6)"},
        {"VOP LOG2", vop(OTPU_V_LOG2), "VOP function log2 (15)"},
        {"VOP RDOT", vop(OTPU_V_RDOT), "VOP function rdot (19)"},
        {"VOP ARGMAX", vop(OTPU_V_ARGMAX, 1, 4), "VOP function argmax (20)"},
    };
}

// A bundle of REV=acf0c1c6 (written, then read back) whose program is LI; the instruction;
// HALT: the LI runs, the instruction stops the run with an ILLEGAL error at its pc naming it
// and the revision. The same program under the current revision never says so.
TEST(Revision, WhatARevisionLacksStopsTheRunNamingIt)
{
    std::string dir = temp_dir();
    for (const Lacking &c : acf0c1c6_lacks()) {
        SCOPED_TRACE(c.label);
        std::vector<uint32_t> prog = words({li(1, 5), c.in, halt()});
        char err[1024];
        ASSERT_EQ(write_bundle(dir, prog, 64, OTPU_REV_ACF0C1C6, err, sizeof err), 0) << err;
        EXPECT_NE(slurp(dir + "/case.txt").find("\nREV=acf0c1c6\n"), std::string::npos);

        otpu_bundle rb;
        ASSERT_EQ(otpu_bundle_read(dir.c_str(), &rb, err, sizeof err), 0) << err;
        EXPECT_EQ(rb.cfg.revision, OTPU_REV_ACF0C1C6);
        otpu_error e;
        otpu_machine *m = otpu_bundle_machine(&rb, &e);
        ASSERT_NE(m, nullptr) << e.msg;
        EXPECT_EQ(otpu_machine_run(m, 1000), -1);
        const otpu_error *me = otpu_machine_error(m);
        EXPECT_EQ(me->kind, OTPU_ERR_ILLEGAL) << me->msg;
        EXPECT_EQ(me->pc, 1u) << me->msg;
        EXPECT_NE(strstr(me->msg, "slice 0: pc 1"), nullptr) << me->msg;
        EXPECT_NE(strstr(me->msg, c.why), nullptr) << me->msg;
        EXPECT_NE(strstr(me->msg, "is not in ISA revision acf0c1c6"), nullptr) << me->msg;
        EXPECT_EQ(otpu_machine_view(m, 0).R[1], 5u); // the LI before it ran
        otpu_machine_free(m);

        rb.cfg.revision = OTPU_REV_CURRENT;
        m = otpu_bundle_machine(&rb, &e);
        ASSERT_NE(m, nullptr) << e.msg;
        int rc = otpu_machine_run(m, 1000);
        const otpu_error *ce = otpu_machine_error(m);
        EXPECT_TRUE(rc == 0 || strstr(ce->msg, "ISA revision") == nullptr) << ce->msg;
        otpu_machine_free(m);
        otpu_bundle_free(&rb);
    }
    std::system(("rm -rf " + dir).c_str());
}

// What acf0c1c6 has runs: its flags, its VOP functions, its opcodes.
TEST(Revision, WhatARevisionHasIsNotRefused)
{
    char why[96];
    for (unsigned op = 0; op < 256; op++) {
        if (!otpu_op_name(op) || acf()->lacks_op[op])
            continue;
        otpu_instr in = ins(op);
        EXPECT_EQ(otpu_rev_lacks(OTPU_REV_ACF0C1C6, &in, nullptr, why, sizeof why), 0) << why;
    }
    for (unsigned f : {OTPU_V_ADD, OTPU_V_EXP2, OTPU_V_RECIP, OTPU_V_RSQRT, OTPU_V_RSUM,
                       OTPU_V_RMAX, OTPU_V_RSSQ}) {
        otpu_instr in = vop(f);
        EXPECT_EQ(otpu_rev_lacks(OTPU_REV_ACF0C1C6, &in, nullptr, why, sizeof why), 0) << why;
    }
    otpu_instr mm = ins(OTPU_OP_MM, {}, 0, 0, 0, 0,
                        OTPU_F_UNIT | OTPU_F_ACC | OTPU_F_RMAX | OTPU_F_ASCALE);
    EXPECT_EQ(otpu_rev_lacks(OTPU_REV_ACF0C1C6, &mm, nullptr, why, sizeof why), 0) << why;
    otpu_instr qact = ins(OTPU_OP_QACT, {}, 0, 0, 0, 0, OTPU_F_ROW | OTPU_F_CSCALE | OTPU_F_RSCALE);
    EXPECT_EQ(otpu_rev_lacks(OTPU_REV_ACF0C1C6, &qact, nullptr, why, sizeof why), 0) << why;
}

// ---------------------------------------------------------------- its fp32 functions

// From the revision's facts: exp2 is exact at the integers (the polynomial at 0 is 1), 0 below
// -126 and inf from 128; recip and rsqrt are 0 (recip: of x's sign) where the facts say so;
// rsqrt has no range scaling: at 2^-126, h = 2^-127 flushes, each step multiplies y by 1.5
// until y*y overflows and 0 * inf makes the NaN (as the revision's golden vectors have it).
TEST(Revision, Acf0c1c6Fp32Facts)
{
    for (int k = -126; k <= 127; k++) {
        uint32_t x = otpu_f32_i2f(k), want = static_cast<uint32_t>(127 + k) << 23;
        EXPECT_EQ(otpu_f32_exp2_taylor(x), want) << k;
    }
    EXPECT_EQ(otpu_f32_exp2_taylor(0xC2FC0001u), 0u);          // just below -126
    EXPECT_EQ(otpu_f32_exp2_taylor(0x43000000u), 0x7F800000u); // 128
    EXPECT_EQ(otpu_f32_exp2_taylor(0xFF800000u), 0u);          // -inf
    EXPECT_EQ(otpu_f32_recip_newton3(0x00000000u), 0u);
    EXPECT_EQ(otpu_f32_recip_newton3(0x80000000u), 0u);        // +0 for either zero
    EXPECT_EQ(otpu_f32_recip_newton3(0x7E800000u), 0u);        // 2^126
    EXPECT_EQ(otpu_f32_recip_newton3(0xFE800000u), 0x80000000u);
    EXPECT_EQ(otpu_f32_recip_newton3(0x7F800000u), 0u);
    EXPECT_EQ(otpu_f32_recip_newton3(0xFF800000u), 0x80000000u);
    EXPECT_EQ(otpu_f32_rsqrt_newton3(0x00000000u), 0u);
    EXPECT_EQ(otpu_f32_rsqrt_newton3(0xBF800000u), 0u);        // negative
    EXPECT_EQ(otpu_f32_rsqrt_newton3(0x7F800000u), 0u);        // +inf
    EXPECT_EQ(otpu_f32_rsqrt_newton3(0x00800000u), OTPU_F32_QNAN); // 2^-126
    EXPECT_EQ(otpu_f32_rsqrt(0x00800000u), 0x5F000000u);       // the current one scales: 2^63
}

// VOP exp2, recip, rsqrt and QACT's quantizer (its recip) under each revision give that
// revision's functions' bits; on these inputs the two revisions differ.
TEST(Revision, VopAndTheQuantizerUseTheRevisionsFunctions)
{
    const uint32_t N = 32; // one quantization block (D = 32)
    std::vector<uint32_t> x(N);
    for (uint32_t i = 0; i < N; i++) {
        float v = 0.37f * static_cast<float>(i) - 5.3f + 0.01f * static_cast<float>(i * i);
        std::memcpy(&x[i], &v, 4);
    }
    uint32_t results[OTPU_REV_COUNT][3][N];
    for (int r = 0; r < OTPU_REV_COUNT; r++) {
        const otpu_rev_desc *d = otpu_rev_desc_of(static_cast<otpu_revision>(r));
        SCOPED_TRACE(d->name);
        otpu_config cfg = otpu_config_default();
        cfg.revision = static_cast<otpu_revision>(r);
        otpu_error e;
        otpu_machine *m = otpu_machine_new(&cfg, &e);
        ASSERT_NE(m, nullptr) << e.msg;
        ASSERT_EQ(otpu_machine_load_dram(m, 0, 0, x.data(), 4 * N, &e), 0) << e.msg;
        auto unary = [&](unsigned func, uint32_t dst) {
            return ins(OTPU_OP_VOP, {dst, 0, 0, 1 | N << 16, 0, func << 16, 0});
        };
        std::vector<uint32_t> p = words({ld(0, 0, N), unary(OTPU_V_EXP2, 0x100),
                                         unary(OTPU_V_RECIP, 0x200), unary(OTPU_V_RSQRT, 0x300),
                                         ins(OTPU_OP_QACT, {0, 1 | 1u << 16, N}), halt()});
        ASSERT_EQ(otpu_machine_load_program(m, 0, p.data(), p.size(), &e), 0) << e.msg;
        ASSERT_EQ(otpu_machine_run(m, 1000), 0) << otpu_machine_error(m)->msg;
        otpu_slice_view v = otpu_machine_view(m, 0);
        uint32_t (*fn[3])(uint32_t) = {d->fp.exp2, d->fp.recip, d->fp.rsqrt};
        for (int f = 0; f < 3; f++)
            for (uint32_t i = 0; i < N; i++) {
                results[r][f][i] = v.tmem[0x100 * (f + 1) + i];
                EXPECT_EQ(results[r][f][i], fn[f](x[i])) << "function " << f << " x " << i;
            }
        int8_t q[N];
        uint32_t s = otpu_quantize_group(&d->fp, x.data(), N, q);
        EXPECT_EQ(v.ascale[0], s);
        for (uint32_t i = 0; i < N; i++)
            EXPECT_EQ(v.act[i], q[i]) << i;
        otpu_machine_free(m);
    }
    for (int f = 0; f < 3; f++)
        EXPECT_NE(std::memcmp(results[0][f], results[1][f], sizeof results[0][f]), 0) << f;
}

// NaN operands through copy, fill, abs, max, min and the row maxima: the current revision keeps
// a NaN's bits and orders by sign-magnitude bits (its fp32 vectors, ops 3, 4, 11, hold NaN
// operands); acf0c1c6 makes every NaN 0x7FC00000 and orders it above every number (its
// isasim.py and fp32.py; its golden bundles in rev-acf0c1c6/isa-nan). The expected bits are
// written out here, not computed by the functions under test.
TEST(Revision, NaNRulesOfEachRevision)
{
    const uint32_t N = 4;
    // -NaN with a payload, 1, 2, -1 (the row max the two revisions disagree on); then a
    // positive signalling NaN, -inf, +inf and a denormal
    const uint32_t row0[N] = {0xFFC00001u, 0x3F800000u, 0x40000000u, 0xBF800000u};
    const uint32_t row1[N] = {0x7FA00001u, 0xFF800000u, 0x7F800000u, 0x00000001u};
    const uint32_t one = 0x3F800000u, qnan = OTPU_F32_QNAN;
    struct Want {
        uint32_t copy[2][N], abs[2][N], max1[2][N], min1[2][N], rmax[2], fill;
    };
    const Want want[OTPU_REV_COUNT] = {
        // current: bits kept, -NaN below -inf, +NaN above +inf
        {{{0xFFC00001u, one, 0x40000000u, 0xBF800000u},
          {0x7FA00001u, 0xFF800000u, 0x7F800000u, 0}},
         {{0x7FC00001u, one, 0x40000000u, one}, {0x7FA00001u, 0x7F800000u, 0x7F800000u, 0}},
         {{one, one, 0x40000000u, one}, {0x7FA00001u, one, 0x7F800000u, one}},
         {{0xFFC00001u, one, one, 0xBF800000u}, {one, 0xFF800000u, one, 0}},
         {0x40000000u, 0x7FA00001u},
         0xFFC00001u},
        // acf0c1c6: every NaN canonical and the largest value
        {{{qnan, one, 0x40000000u, 0xBF800000u}, {qnan, 0xFF800000u, 0x7F800000u, 0}},
         {{qnan, one, 0x40000000u, one}, {qnan, 0x7F800000u, 0x7F800000u, 0}},
         {{qnan, one, 0x40000000u, one}, {qnan, one, 0x7F800000u, one}},
         {{one, one, one, 0xBF800000u}, {one, 0xFF800000u, one, 0}},
         {qnan, qnan},
         qnan},
    };
    for (int r = 0; r < OTPU_REV_COUNT; r++) {
        SCOPED_TRACE(otpu_rev_name(static_cast<otpu_revision>(r)));
        otpu_config cfg = otpu_config_default();
        cfg.revision = static_cast<otpu_revision>(r);
        otpu_error e;
        otpu_machine *m = otpu_machine_new(&cfg, &e);
        ASSERT_NE(m, nullptr) << e.msg;
        uint32_t data[2 * N];
        std::memcpy(data, row0, sizeof row0);
        std::memcpy(data + N, row1, sizeof row1);
        ASSERT_EQ(otpu_machine_load_dram(m, 0, 0, data, sizeof data, &e), 0) << e.msg;
        // two rows of N at T[0] (row stride N); results at dst, row stride N
        auto vop = [&](unsigned func, uint32_t dst, uint32_t imm) {
            return ins(OTPU_OP_VOP, {dst, 0, 0, 2 | N << 16, N | N << 16,
                                     func << 16 | uint32_t(OTPU_B_SCALAR) << 24, imm});
        };
        std::vector<uint32_t> p = words(
            {ld(0, 0, 2 * N), vop(OTPU_V_COPY, 0x100, 0), vop(OTPU_V_ABS, 0x200, 0),
             vop(OTPU_V_MAX, 0x300, one), vop(OTPU_V_MIN, 0x400, one),
             ins(OTPU_OP_VOP, {0x500, 0, 0, 2 | N << 16, 1 | N << 16, OTPU_V_RMAX << 16, 0}),
             vop(OTPU_V_FILL, 0x600, 0xFFC00001u), halt()});
        ASSERT_EQ(otpu_machine_load_program(m, 0, p.data(), p.size(), &e), 0) << e.msg;
        ASSERT_EQ(otpu_machine_run(m, 1000), 0) << otpu_machine_error(m)->msg;
        otpu_slice_view v = otpu_machine_view(m, 0);
        const Want &w = want[r];
        for (uint32_t row = 0; row < 2; row++)
            for (uint32_t c = 0; c < N; c++) {
                SCOPED_TRACE(testing::Message() << "row " << row << " col " << c);
                EXPECT_EQ(v.tmem[0x100 + row * N + c], w.copy[row][c]) << "copy";
                EXPECT_EQ(v.tmem[0x200 + row * N + c], w.abs[row][c]) << "abs";
                EXPECT_EQ(v.tmem[0x300 + row * N + c], w.max1[row][c]) << "max with 1";
                EXPECT_EQ(v.tmem[0x400 + row * N + c], w.min1[row][c]) << "min with 1";
                EXPECT_EQ(v.tmem[0x600 + row * N + c], w.fill) << "fill";
            }
        EXPECT_EQ(v.tmem[0x500], w.rmax[0]) << "row max of {-NaN, 1, 2, -1}";
        EXPECT_EQ(v.tmem[0x501], w.rmax[1]) << "row max of {+sNaN, -inf, +inf, denormal}";
        otpu_machine_free(m);
    }
}

// ---------------------------------------------------------------- Config and bundles

TEST(Revision, ConfigFieldsTheRevisionLacksMustBeZero)
{
    char why[256];
    for (const char *field : {"PAIR", "DSTEP", "STREAM", "ACT_ROWS"}) {
        otpu_config c = otpu_config_default();
        c.revision = OTPU_REV_ACF0C1C6;
        ASSERT_EQ(otpu_config_set(&c, field, 1), 0);
        EXPECT_EQ(otpu_config_check(&c, why, sizeof why), -1) << field;
        EXPECT_NE(strstr(why, "acf0c1c6 has no"), nullptr) << why;
        EXPECT_NE(strstr(why, field), nullptr) << why;
        c.revision = OTPU_REV_CURRENT;
        EXPECT_EQ(otpu_config_check(&c, why, sizeof why), 0) << why;
    }
    otpu_config c = otpu_config_default();
    c.revision = static_cast<otpu_revision>(OTPU_REV_COUNT);
    EXPECT_EQ(otpu_config_check(&c, why, sizeof why), -1);
    EXPECT_NE(strstr(why, "unknown ISA revision"), nullptr) << why;
    c.revision = OTPU_REV_CURRENT;
    char s[512];
    EXPECT_EQ(std::string(otpu_config_str(&c, s, sizeof s)).find("REV"), std::string::npos);
    c.revision = OTPU_REV_ACF0C1C6;
    EXPECT_NE(std::string(otpu_config_str(&c, s, sizeof s)).find(" REV=acf0c1c6"),
              std::string::npos);
}

// --rev over a bundle: none leaves it; a bundle without REV= takes it; REV= of another
// revision is refused naming the line; the current revision writes no REV=.
TEST(Revision, RevOverABundle)
{
    std::string dir = temp_dir();
    std::vector<uint32_t> prog = words({halt()});
    char err[1024];
    ASSERT_EQ(write_bundle(dir, prog, 0, OTPU_REV_CURRENT, err, sizeof err), 0) << err;
    EXPECT_EQ(slurp(dir + "/case.txt").find("REV="), std::string::npos);
    otpu_bundle rb;
    ASSERT_EQ(otpu_bundle_read(dir.c_str(), &rb, err, sizeof err), 0) << err;
    EXPECT_EQ(rb.rev_line, 0);
    EXPECT_EQ(otpu_bundle_set_rev(&rb, dir.c_str(), OTPU_REV_UNSET, err, sizeof err), 0);
    EXPECT_EQ(rb.cfg.revision, OTPU_REV_CURRENT);
    EXPECT_EQ(otpu_bundle_set_rev(&rb, dir.c_str(), OTPU_REV_ACF0C1C6, err, sizeof err), 0);
    EXPECT_EQ(rb.cfg.revision, OTPU_REV_ACF0C1C6);
    otpu_bundle_free(&rb);

    std::ofstream(dir + "/case.txt", std::ios::app) << "REV=acf0c1c6\n";
    ASSERT_EQ(otpu_bundle_read(dir.c_str(), &rb, err, sizeof err), 0) << err;
    EXPECT_GT(rb.rev_line, 0);
    EXPECT_EQ(otpu_bundle_set_rev(&rb, dir.c_str(), OTPU_REV_ACF0C1C6, err, sizeof err), 0);
    EXPECT_EQ(otpu_bundle_set_rev(&rb, dir.c_str(), OTPU_REV_CURRENT, err, sizeof err), -1);
    std::string want = dir + "/case.txt:" + std::to_string(rb.rev_line) +
                       ": REV=acf0c1c6 contradicts --rev current";
    EXPECT_EQ(std::string(err), want);
    otpu_bundle_free(&rb);

    std::ofstream(dir + "/case.txt", std::ios::app) << "# and a Config field it lacks\n";
    std::string text = slurp(dir + "/case.txt");
    size_t at = text.find("STREAM=0");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 8, "STREAM=1");
    std::ofstream(dir + "/case.txt") << text;
    EXPECT_EQ(otpu_bundle_read(dir.c_str(), &rb, err, sizeof err), -1);
    EXPECT_NE(strstr(err, "acf0c1c6 has no STREAM"), nullptr) << err;
    std::system(("rm -rf " + dir).c_str());
}

// ---------------------------------------------------------------- its golden bundles

// The revision's golden bundles, their REV= taken out, fail under the current revision (some of
// them: the functions differ) and pass with --rev acf0c1c6.
TEST(Revision, ItsGoldenBundlesNeedItsFunctions)
{
    std::vector<std::string> cases = folders(vectors_dir() + "/rev-acf0c1c6/isa");
    ASSERT_GE(cases.size(), 9u) << "the revision's vectors are missing (OTPU_VECTORS)";
    std::string dir = temp_dir();
    size_t fail_current = 0;
    for (const std::string &c : cases) {
        std::string d = dir + "/" + c.substr(c.rfind('/') + 1);
        std::string cmd = "cp -r " + c + " " + d + " && chmod -R u+w " + d +
                          " && sed -i '/^REV=/d' " + d + "/case.txt";
        ASSERT_EQ(std::system(cmd.c_str()), 0);
        char report[4096];
        int rc = otpu_golden_check(d.c_str(), OTPU_REV_UNSET, 10000000, report, sizeof report);
        EXPECT_NE(rc, 2) << report;
        fail_current += rc == 1;
        EXPECT_EQ(otpu_golden_check(d.c_str(), OTPU_REV_ACF0C1C6, 10000000, report,
                                    sizeof report), 0) << report;
    }
    std::cout << fail_current << " of " << cases.size()
              << " bundles fail with the current revision's functions\n";
    EXPECT_GT(fail_current, 0u);
    std::system(("rm -rf " + dir).c_str());
}

} // namespace
