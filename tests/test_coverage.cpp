// The functional coverage model (cov/coverage.h): small hand-assembled programs hit exactly the
// bins their definition says, and no others of the group; RTL events, files and merging.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "asm.h"
#include "coverage.h"
#include "fp32.h"

using namespace otpu_test;

namespace {

otpu_instr vop(unsigned func, uint32_t dst, uint32_t a, uint32_t b, uint32_t rows, uint32_t cols,
               unsigned bmode = OTPU_B_FULL, uint32_t imm = 0, unsigned ra = 0)
{
    return ins(OTPU_OP_VOP, {dst, a, b, rows | cols << 16, cols | cols << 16,
                             cols | func << 16 | bmode << 24, imm}, ra);
}

otpu_instr qact(uint32_t src, uint32_t rows, uint32_t ab, uint32_t kb, uint32_t srs)
{
    return ins(OTPU_OP_QACT, {src, rows | ab << 8 | kb << 16, srs, 0, 0});
}

// MM with UNIT scales: N output columns from DRAM rows at sa (stride rs), M rows of ACT blocks
// ab..ab+kb, into TMEM out (row stride ors)
otpu_instr mm_unit(uint32_t sa, uint32_t out, uint32_t n, uint32_t kb, uint32_t rs, uint32_t ors,
                   uint32_t m, uint32_t ab)
{
    return ins(OTPU_OP_MM, {sa, 0, out, n | kb << 16, rs, ors | m << 16 | ab << 24, 0}, 0, 0, 0,
               0, OTPU_F_UNIT);
}

struct CovRun {
    otpu_coverage *cov = nullptr;
    otpu_machine *m = nullptr;
    int rc = 0;
    ~CovRun()
    {
        otpu_coverage_free(cov);
        otpu_machine_free(m);
    }
};

// Runs prog on the default Config (DRAM preloaded with dram at 0) with coverage attached.
void run(CovRun &r, std::initializer_list<otpu_instr> prog, const std::vector<uint32_t> &dram = {})
{
    otpu_config cfg = otpu_config_default();
    otpu_error e;
    r.m = otpu_machine_new(&cfg, &e);
    ASSERT_NE(r.m, nullptr) << e.msg;
    r.cov = otpu_coverage_new(&cfg);
    ASSERT_NE(r.cov, nullptr);
    std::vector<uint32_t> w = words(prog);
    ASSERT_EQ(otpu_machine_load_program(r.m, 0, w.data(), w.size(), &e), 0) << e.msg;
    if (!dram.empty()) {
        ASSERT_EQ(otpu_machine_load_dram(r.m, 0, 0, dram.data(), 4 * dram.size(), &e), 0);
    }
    otpu_coverage_attach(r.cov, r.m, nullptr);
    r.rc = otpu_machine_run(r.m, 100000);
}

// The bins of a group with a non-zero count.
std::set<std::string> hits(const otpu_coverage *cov, const std::string &group)
{
    std::set<std::string> out;
    for (size_t i = 0; i < otpu_coverage_nbins(cov); i++) {
        const char *g, *name, *why;
        uint64_t n;
        otpu_coverage_bin(cov, i, &g, &name, &n, &why);
        if (n && group == g)
            out.insert(name);
    }
    return out;
}

using Set = std::set<std::string>;

uint32_t f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

TEST(Coverage, OpcodeFlagsAndLoopDepthOfAPlainProgram)
{
    CovRun r;
    run(r, {st(0x100, 0, 4), ld(0x100, 100, 4), halt()});
    ASSERT_EQ(r.rc, 0);
    EXPECT_EQ(hits(r.cov, "opcode-flags"), (Set{"ST -", "LD -", "HALT -"}));
    EXPECT_EQ(hits(r.cov, "loop-depth"), (Set{"depth 0"}));
    EXPECT_EQ(otpu_coverage_count(r.cov, "loop-depth", "depth 0"), 3);
    EXPECT_TRUE(hits(r.cov, "error").empty());
    EXPECT_TRUE(hits(r.cov, "rtl").empty());
}

TEST(Coverage, StoreThenLoadOfTheSameBytesIsADmaRawOnDram)
{
    CovRun r;
    run(r, {st(0x100, 0, 4), ld(0x100, 100, 4), halt()});
    EXPECT_EQ(hits(r.cov, "hazard"), (Set{"DMA->DMA RAW DRAM"}));
}

TEST(Coverage, TheHazardWindowEndsAfterSevenUnitInstructionsOrABarrier)
{
    // six unrelated FILLs between: still in the window; seven: out of it; a BAR: serialized
    for (unsigned between : {6u, 7u}) {
        CovRun r;
        std::vector<otpu_instr> p = {st(0x100, 0, 4)};
        for (unsigned k = 0; k < between; k++)
            p.push_back(vop(OTPU_V_FILL, 1000 + 8 * k, 0, 0, 1, 8, OTPU_B_SCALAR));
        p.push_back(ld(0x100, 100, 4));
        p.push_back(halt());
        std::vector<uint32_t> w;
        for (const otpu_instr &i : p) {
            uint32_t x[8];
            otpu_encode(&i, x);
            w.insert(w.end(), x, x + 8);
        }
        otpu_config cfg = otpu_config_default();
        otpu_error e;
        r.m = otpu_machine_new(&cfg, &e);
        r.cov = otpu_coverage_new(&cfg);
        ASSERT_EQ(otpu_machine_load_program(r.m, 0, w.data(), w.size(), &e), 0) << e.msg;
        otpu_coverage_attach(r.cov, r.m, nullptr);
        ASSERT_EQ(otpu_machine_run(r.m, 1000), 0);
        EXPECT_EQ(hits(r.cov, "hazard"), between == 6 ? Set{"DMA->DMA RAW DRAM"} : Set{})
            << between << " instructions between";
    }
    CovRun r;
    run(r, {st(0x100, 0, 4), bar(), ld(0x100, 100, 4), halt()});
    ASSERT_EQ(r.rc, 0);
    EXPECT_TRUE(hits(r.cov, "hazard").empty());
}

TEST(Coverage, QactThenMmIsAQuantToMxuRawOnAct)
{
    CovRun r;
    run(r, {qact(0, 1, 0, 1, 32), mm_unit(0, 500, 1, 1, 32, 1, 1, 0), halt()});
    ASSERT_EQ(r.rc, 0) << otpu_machine_error(r.m)->msg;
    EXPECT_EQ(hits(r.cov, "hazard"), (Set{"QUANT->MXU RAW ACT"}));
    EXPECT_EQ(hits(r.cov, "opcode-flags"), (Set{"QACT -", "MM unit wf=int8", "HALT -"}));
}

TEST(Coverage, AddiWithANegativeImmediate)
{
    CovRun neg, pos;
    run(neg, {addi(1, 0, static_cast<uint32_t>(-5)), halt()});
    run(pos, {addi(1, 0, 5), halt()});
    EXPECT_EQ(hits(neg.cov, "data"), (Set{"ADDI negative imm"}));
    EXPECT_TRUE(hits(pos.cov, "data").empty());
}

TEST(Coverage, LongRowsAndLongReductions)
{
    CovRun rsum, add, short_rsum;
    run(rsum, {vop(OTPU_V_RSUM, 1000, 0, 0, 1, 100), halt()});
    run(add, {vop(OTPU_V_ADD, 1000, 0, 200, 1, 100), halt()});
    run(short_rsum, {vop(OTPU_V_RSUM, 1000, 0, 0, 1, 64), halt()});
    EXPECT_EQ(hits(rsum.cov, "data"), (Set{"rsum cols>64"}));
    EXPECT_EQ(hits(add.cov, "data"), (Set{"VOP cols>64"}));
    EXPECT_TRUE(hits(short_rsum.cov, "data").empty());
    EXPECT_EQ(hits(rsum.cov, "vop-bmode"), (Set{"rsum"}));
    EXPECT_EQ(hits(add.cov, "vop-bmode"), (Set{"add full"}));
}

TEST(Coverage, ResultClassesOfVop)
{
    // FILL +inf and -inf, then their sum: NaN
    CovRun r;
    run(r, {vop(OTPU_V_FILL, 0, 0, 0, 1, 1, OTPU_B_SCALAR, OTPU_F32_PINF),
            vop(OTPU_V_FILL, 1, 0, 0, 1, 1, OTPU_B_SCALAR, OTPU_F32_NINF),
            vop(OTPU_V_ADD, 2, 0, 1, 1, 1), halt()});
    ASSERT_EQ(r.rc, 0);
    EXPECT_EQ(hits(r.cov, "fp-class"), (Set{"fill inf", "add nan"}));
    EXPECT_EQ(hits(r.cov, "vop-bmode"), (Set{"fill scalar", "add full"}));
    EXPECT_EQ(otpu_coverage_count(r.cov, "fp-class", "fill inf"), 2);
}

TEST(Coverage, ASubnormalInputIsFlushed)
{
    CovRun r; // TMEM 0..1 = {1.5, the smallest subnormal}; COPY both
    run(r, {ld(0, 0, 2), vop(OTPU_V_COPY, 10, 0, 0, 1, 2), halt()}, {f32(1.5f), 1u});
    ASSERT_EQ(r.rc, 0);
    EXPECT_EQ(hits(r.cov, "fp-class"), (Set{"copy subnormal", "copy zero", "copy normal"}));
    CovRun n;
    run(n, {ld(0, 0, 2), vop(OTPU_V_COPY, 10, 0, 0, 1, 2), halt()}, {f32(1.5f), 0u});
    EXPECT_EQ(hits(n.cov, "fp-class"), (Set{"copy zero", "copy normal"}));
}

// x such that x * inv (fp32, as the quantizer multiplies) is exactly target, searched near it
bool tie_input(uint32_t inv, float target, uint32_t *x)
{
    uint32_t guess = f32(target / [&] { float f; memcpy(&f, &inv, 4); return f; }());
    for (int d = -64; d <= 64; d++)
        if (otpu_f32_mul(guess + static_cast<uint32_t>(d), inv) == f32(target)) {
            *x = guess + static_cast<uint32_t>(d);
            return true;
        }
    return false;
}

TEST(Coverage, Q8RoundingTiesOfQact)
{
    // a block of D = 32: amax 127, so inv = 127 * recip(127); one element lands on k + 0.5
    uint32_t inv = otpu_f32_mul(f32(127.0f), otpu_f32_recip(f32(127.0f)));
    uint32_t x = 0;
    bool found = false;
    for (float t : {2.5f, 3.5f, 5.5f, 10.5f, 20.5f, 40.5f, -7.5f})
        if ((found = tie_input(inv, t, &x)))
            break;
    ASSERT_TRUE(found) << "no input lands on a tie";
    std::vector<uint32_t> tie(32, 0), off(32, 0);
    tie[0] = off[0] = f32(127.0f);
    tie[5] = x;
    off[5] = x + 1; // one ulp away: a product that is not a tie
    ASSERT_NE(otpu_f32_mul(x + 1, inv), otpu_f32_mul(x, inv));
    CovRun r, q;
    run(r, {ld(0, 0, 32), qact(0, 1, 0, 1, 32), halt()}, tie);
    run(q, {ld(0, 0, 32), qact(0, 1, 0, 1, 32), halt()}, off);
    ASSERT_EQ(r.rc, 0);
    Set ties{"QACT tie to even toward zero", "QACT tie to even away from zero"}, hit, miss;
    for (const auto &b : hits(r.cov, "quant-data"))
        if (ties.count(b))
            hit.insert(b);
    for (const auto &b : hits(q.cov, "quant-data"))
        if (ties.count(b))
            miss.insert(b);
    EXPECT_EQ(hit.size(), 1u);
    EXPECT_TRUE(miss.empty());
}

TEST(Coverage, RegisterOperandsInNestedLoops)
{
    // LOOP (2) { LOOP (2) { ADDI R1, R1 + 1 }; NOP }: the ADDI issues with two open LOOPs
    CovRun r, plain;
    run(r, {loop(3, 2), loop(1, 2), addi(1, 1, 1), ins(OTPU_OP_NOP), halt()});
    run(plain, {loop(3, 2), loop(1, 2), addi(1, 0, 1), ins(OTPU_OP_NOP), halt()});
    ASSERT_EQ(r.rc, 0) << otpu_machine_error(r.m)->msg;
    EXPECT_EQ(hits(r.cov, "data"), (Set{"nested loop reg operand"}));
    EXPECT_EQ(otpu_coverage_count(r.cov, "data", "nested loop reg operand"), 4);
    EXPECT_TRUE(hits(plain.cov, "data").empty());
    EXPECT_EQ(hits(r.cov, "loop-depth"), (Set{"depth 0", "depth 1", "depth 2"}));
}

TEST(Coverage, ErrorKinds)
{
    CovRun r;
    run(r, {st(0x100, 0, 4)}); // no HALT: past the end
    EXPECT_EQ(r.rc, -1);
    EXPECT_EQ(hits(r.cov, "error"), (Set{"past-end"}));
}

struct Counter {
    int issues = 0, retires = 0;
};

TEST(Coverage, ForwardsToTheListenerItWraps)
{
    Counter n;
    otpu_listener next = {
        &n,
        [](void *u, uint32_t, uint64_t, uint32_t, const otpu_instr *) {
            static_cast<Counter *>(u)->issues++;
        },
        [](void *u, const otpu_retired *) { static_cast<Counter *>(u)->retires++; }, nullptr};
    otpu_config cfg = otpu_config_default();
    otpu_error e;
    CovRun r;
    r.m = otpu_machine_new(&cfg, &e);
    r.cov = otpu_coverage_new(&cfg);
    std::vector<uint32_t> w = words({st(0x100, 0, 4), ld(0x100, 100, 4), halt()});
    ASSERT_EQ(otpu_machine_load_program(r.m, 0, w.data(), w.size(), &e), 0);
    otpu_coverage_attach(r.cov, r.m, &next);
    ASSERT_EQ(otpu_machine_run(r.m, 100), 0);
    EXPECT_EQ(n.issues, 3);
    EXPECT_EQ(n.retires, 3);
    EXPECT_EQ(hits(r.cov, "hazard"), (Set{"DMA->DMA RAW DRAM"}));
}

TEST(Coverage, RtlOutOfOrderCompletionsAndOverlaps)
{
    otpu_config cfg = otpu_config_default();
    otpu_coverage *c = otpu_coverage_new(&cfg);
    ASSERT_NE(c, nullptr);
    // LD (DMA, slot 0) and FILL (VPU, slot 1): the FILL starts after and completes first;
    // then a ST (DMA) starts after the FILL completed: no overlap with it
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_DISPATCH, OTPU_UNIT_DMA, 0, 1), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_DISPATCH, OTPU_UNIT_VPU, 1, 2), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_START, OTPU_UNIT_DMA, 0, 2), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_START, OTPU_UNIT_VPU, 1, 3), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_COMPLETE, OTPU_UNIT_VPU, 1, 6), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_COMPLETE, OTPU_UNIT_DMA, 0, 9), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_DISPATCH, OTPU_UNIT_DMA, 2, 9), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_DISPATCH, OTPU_UNIT_MXU, 3, 9), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_START, OTPU_UNIT_DMA, 2, 10), 0);
    // the MXU starts at the edge the DMA completes: not busy together
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_START, OTPU_UNIT_MXU, 3, 12), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_COMPLETE, OTPU_UNIT_DMA, 2, 12), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_COMPLETE, OTPU_UNIT_MXU, 3, 14), 0);
    // a unit starts its next instruction at the edge it completes one (start reported first)
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_DISPATCH, OTPU_UNIT_DMA, 4, 20), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_DISPATCH, OTPU_UNIT_DMA, 5, 21), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_START, OTPU_UNIT_DMA, 4, 22), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_START, OTPU_UNIT_DMA, 5, 25), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_COMPLETE, OTPU_UNIT_DMA, 4, 25), 0);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_COMPLETE, OTPU_UNIT_DMA, 5, 30), 0);
    EXPECT_EQ(hits(c, "rtl"), (Set{"ooo VPU before DMA", "overlap DMA+VPU"}));
    // malformed: a complete with nothing started, an unknown unit
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_COMPLETE, OTPU_UNIT_COLL, 0, 15), -1);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_COMPLETE, OTPU_UNIT_DMA, 0, 15), -1);
    EXPECT_EQ(otpu_coverage_rtl_event(c, 0, OTPU_EV_START, 9, 0, 15), -1);
    otpu_coverage_free(c);
}

TEST(Coverage, FilesRoundTripAndMergeAddsCounts)
{
    CovRun a, b;
    run(a, {st(0x100, 0, 4), ld(0x100, 100, 4), halt()});
    run(b, {addi(1, 0, static_cast<uint32_t>(-5)), st(0x100, 0, 4), halt()});
    char dir[] = "/tmp/otpu-cov-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    std::string fa = std::string(dir) + "/a.json", fb = std::string(dir) + "/b.json";
    char err[256];
    ASSERT_EQ(otpu_coverage_write_json(a.cov, fa.c_str(), err, sizeof err), 0) << err;
    ASSERT_EQ(otpu_coverage_write_json(b.cov, fb.c_str(), err, sizeof err), 0) << err;
    otpu_coverage *ra = otpu_coverage_read_json(fa.c_str(), err, sizeof err);
    otpu_coverage *rb = otpu_coverage_read_json(fb.c_str(), err, sizeof err);
    ASSERT_NE(ra, nullptr) << err;
    ASSERT_NE(rb, nullptr) << err;
    EXPECT_EQ(otpu_coverage_nbins(ra), otpu_coverage_nbins(a.cov));
    EXPECT_EQ(hits(ra, "hazard"), hits(a.cov, "hazard"));
    ASSERT_EQ(otpu_coverage_merge(ra, rb, err, sizeof err), 0);
    EXPECT_EQ(otpu_coverage_count(ra, "opcode-flags", "ST -"), 2);
    EXPECT_EQ(otpu_coverage_count(ra, "opcode-flags", "LD -"), 1);
    EXPECT_EQ(otpu_coverage_count(ra, "data", "ADDI negative imm"), 1);
    EXPECT_EQ(otpu_coverage_nbins(ra), otpu_coverage_nbins(a.cov)); // same Config: same bins
    EXPECT_EQ(otpu_coverage_count(ra, "no-such-group", "ST -"), -1);
    otpu_coverage_free(ra);
    otpu_coverage_free(rb);
    FILE *f = fopen(fa.c_str(), "w");
    fputs("{\"model\": \"otpu-coverage\", \"version\": 999, \"configs\": [], \"groups\": []}", f);
    fclose(f);
    EXPECT_EQ(otpu_coverage_read_json(fa.c_str(), err, sizeof err), nullptr);
    EXPECT_NE(std::string(err).find("version 999"), std::string::npos) << err;
    unlink(fa.c_str());
    unlink(fb.c_str());
    rmdir(dir);
}

TEST(Coverage, CollectivesAreUnreachableOnOneSliceOnly)
{
    otpu_config one = otpu_config_default(), two = otpu_config_default();
    two.S = 2;
    otpu_coverage *a = otpu_coverage_new(&one), *b = otpu_coverage_new(&two);
    auto reason = [](const otpu_coverage *c, const char *bin) -> const char * {
        for (size_t i = 0; i < otpu_coverage_nbins(c); i++) {
            const char *g, *name, *why;
            uint64_t n;
            otpu_coverage_bin(c, i, &g, &name, &n, &why);
            if (!strcmp(g, "error") && !strcmp(name, bin))
                return why;
        }
        return "missing";
    };
    EXPECT_NE(reason(a, "collective"), nullptr);
    EXPECT_EQ(reason(b, "collective"), nullptr);
    char err[128];
    ASSERT_EQ(otpu_coverage_merge(a, b, err, sizeof err), 0);
    EXPECT_EQ(reason(a, "collective"), nullptr); // reachable on one of the Configs
    EXPECT_NE(reason(a, "no-memory"), nullptr);
    otpu_coverage_free(a);
    otpu_coverage_free(b);
}

// ---- the data groups (coverage_data.c): each bin hit by data that exercises it, not by data
// that cannot show the bug it stands for

// DRAM: activations (32 fp32 words at 0) and int8 weights (one K block, 32 bytes at 0x400)
std::vector<uint32_t> mm_image(float act, uint8_t weight)
{
    std::vector<uint32_t> d(0x400 / 4 + 8, 0);
    for (int k = 0; k < 32; k++)
        d[k] = f32(k % 2 ? act : -act);
    uint32_t w = weight * 0x01010101u;
    for (int k = 0; k < 8; k++)
        d[0x400 / 4 + k] = w;
    return d;
}

TEST(Coverage, MmResultsChangedByTheirWeights)
{
    CovRun data, zero_w;
    auto prog = {ld(0, 0, 32), qact(0, 1, 0, 1, 32), mm_unit(0x400, 500, 1, 1, 32, 1, 1, 0),
                 halt()};
    run(data, prog, mm_image(1.0f, 0x7F));
    run(zero_w, prog, mm_image(1.0f, 0));
    ASSERT_EQ(data.rc, 0) << otpu_machine_error(data.m)->msg;
    // alternating signs: the block's sum is 0 with equal weights, so use a ramp of weights
    Set want{"wf=int8 MAC column 0 result nonzero", "wf=int8 output column 0 nonzero",
             "wf=int8 result changed by the weights"};
    CovRun ramp;
    std::vector<uint32_t> img = mm_image(1.0f, 0);
    for (int k = 0; k < 8; k++)
        img[0x400 / 4 + k] = (4u * k + 1) | (4u * k + 2) << 8 | (4u * k + 3) << 16 | (4u * k + 4) << 24;
    run(ramp, prog, img);
    EXPECT_EQ(hits(ramp.cov, "mm-data"), want);
    EXPECT_TRUE(hits(data.cov, "mm-data").empty()); // +127 - 127 + ...: every block sums to 0
    EXPECT_TRUE(hits(zero_w.cov, "mm-data").empty());
    EXPECT_EQ(hits(zero_w.cov, "idle"), (Set{"MM ran on nothing"}));
    EXPECT_TRUE(hits(ramp.cov, "idle").empty());
}

TEST(Coverage, AKBlockIntegerPast17Bits)
{
    // activations of one sign quantize to 127; 32 x 127 x 127 = 516,128 >= 2^17; with
    // weights of 1 the block's integer is 4,064
    std::vector<uint32_t> big = mm_image(1.0f, 0x7F), small = mm_image(1.0f, 1);
    for (int k = 0; k < 32; k++)
        big[k] = small[k] = f32(1.0f);
    auto prog = {ld(0, 0, 32), qact(0, 1, 0, 1, 32), mm_unit(0x400, 500, 1, 1, 32, 1, 1, 0),
                 halt()};
    CovRun b, s;
    run(b, prog, big);
    run(s, prog, small);
    EXPECT_EQ(hits(b.cov, "mm-data").count("wf=int8 block integer >= 2^17"), 1u);
    EXPECT_EQ(hits(s.cov, "mm-data").count("wf=int8 block integer >= 2^17"), 0u);
    EXPECT_EQ(hits(s.cov, "mm-data").count("wf=int8 result changed by the weights"), 1u);
}

TEST(Coverage, QuantizedBytesThatVaryAndSaturate)
{
    // 127 and 1 in one block: bytes 127 and 1 (+127 reached); all 1.0 (inv = 127 exactly):
    // every byte 127, they do not vary
    std::vector<uint32_t> vary(32, f32(1.0f)), same(32, f32(1.0f));
    vary[0] = f32(127.0f);
    CovRun v, s;
    run(v, {ld(0, 0, 32), qact(0, 1, 0, 1, 32), halt()}, vary);
    run(s, {ld(0, 0, 32), qact(0, 1, 0, 1, 32), halt()}, same);
    Set hv = hits(v.cov, "quant-data"), hs = hits(s.cov, "quant-data");
    EXPECT_EQ(hv.count("QACT bytes vary"), 1u);
    EXPECT_EQ(hv.count("QACT reaches +127"), 1u);
    EXPECT_EQ(hs.count("QACT bytes vary"), 0u);
    EXPECT_EQ(hs.count("QACT reaches +127"), 1u);
    EXPECT_EQ(hs.count("QACT reaches -127"), 0u);
    CovRun z;
    run(z, {qact(0, 1, 0, 1, 32), halt()}); // TMEM is zero
    EXPECT_EQ(hits(z.cov, "idle"), (Set{"QACT ran on nothing"}));
}

TEST(Coverage, InexactAndTiedVopResults)
{
    // 1 + 2^-30 rounds (inexact); 1 + 2^-24 lies halfway between 1 and 1 + 2^-23 (a tie);
    // 1 + 2 is exact
    std::vector<uint32_t> d = {f32(1.0f), f32(std::ldexp(1.0f, -30)), f32(std::ldexp(1.0f, -24)),
                               f32(2.0f)};
    CovRun inexact, tie, exact;
    run(inexact, {ld(0, 0, 4), vop(OTPU_V_ADD, 100, 0, 1, 1, 1), halt()}, d);
    run(tie, {ld(0, 0, 4), vop(OTPU_V_ADD, 100, 0, 2, 1, 1), halt()}, d);
    run(exact, {ld(0, 0, 4), vop(OTPU_V_ADD, 100, 0, 3, 1, 1), halt()}, d);
    EXPECT_EQ(hits(inexact.cov, "vop-data"), (Set{"add inexact"}));
    EXPECT_EQ(hits(tie.cov, "vop-data"), (Set{"add inexact", "add tie"}));
    EXPECT_TRUE(hits(exact.cov, "vop-data").empty());
}

TEST(Coverage, AReductionWhoseOrderMatters)
{
    // 100 columns: 2^24, then 99 ones. Left to right every 1 is lost (2^24 + 1 rounds back);
    // isum_64 adds the ones of the second partial set first, which are exact: orders differ
    std::vector<uint32_t> big(100, f32(1.0f)), ones(100, f32(1.0f));
    big[0] = f32(16777216.0f);
    CovRun o, e;
    run(o, {ld(0, 0, 100), vop(OTPU_V_RSUM, 1000, 0, 0, 1, 100), halt()}, big);
    run(e, {ld(0, 0, 100), vop(OTPU_V_RSUM, 1000, 0, 0, 1, 100), halt()}, ones);
    EXPECT_EQ(hits(o.cov, "vop-data").count("rsum order matters"), 1u);
    EXPECT_TRUE(hits(e.cov, "vop-data").empty()); // 100 ones: exact in any order
}

TEST(Coverage, RangesThatMeetAtAnEdgeOrMissByOneWord)
{
    // LD writes T[100..104); ST reads T[103..105) (its last word), T[99..101) (its first),
    // T[104..106) (one past: a miss by one word)
    struct {
        uint32_t at;
        const char *bin;
    } cases[] = {{103, "RAW meets the last word"},
                 {99, "RAW meets the first word"},
                 {104, "RAW misses by one word"},
                 {96, "RAW misses by one word"}};
    for (const auto &c : cases) {
        CovRun r;
        run(r, {ld(0, 100, 4), st(0x200, c.at, c.at == 96 ? 4 : 2), halt()});
        ASSERT_EQ(r.rc, 0);
        EXPECT_EQ(hits(r.cov, "hazard-edge"), (Set{c.bin})) << c.at;
    }
    CovRun inside;
    run(inside, {ld(0, 100, 4), st(0x200, 101, 2), halt()});
    EXPECT_TRUE(hits(inside.cov, "hazard-edge").empty());
}

TEST(Coverage, GathersWithTheirOwnSourcePerSlice)
{
    otpu_config cfg = otpu_config_default();
    cfg.S = 2;
    auto gather = [](uint32_t src, uint32_t srs, unsigned ra) {
        // 2 rows x 4 columns from src (stride srs) to T[1000 + k*16], row stride 4
        return ins(OTPU_OP_GATHER, {src, 1000, 2 | 4u << 16, srs, 4, 16}, ra);
    };
    for (int distinct : {0, 1}) {
        otpu_error e;
        CovRun r;
        r.m = otpu_machine_new(&cfg, &e);
        ASSERT_NE(r.m, nullptr) << e.msg;
        r.cov = otpu_coverage_new(&cfg);
        std::vector<uint32_t> p0 = words({gather(0, 4, 0), halt()});
        std::vector<uint32_t> p1 = distinct ? words({li(1, 64), gather(0, 8, 1), halt()})
                                            : words({li(1, 0), gather(0, 4, 1), halt()});
        ASSERT_EQ(otpu_machine_load_program(r.m, 0, p0.data(), p0.size(), &e), 0) << e.msg;
        ASSERT_EQ(otpu_machine_load_program(r.m, 1, p1.data(), p1.size(), &e), 0) << e.msg;
        otpu_coverage_attach(r.cov, r.m, nullptr);
        ASSERT_EQ(otpu_machine_run(r.m, 1000), 0) << otpu_machine_error(r.m)->msg;
        Set want = {"GATHER register source"};
        if (distinct)
            want.insert({"GATHER distinct sources per slice", "GATHER distinct strides per slice"});
        EXPECT_EQ(hits(r.cov, "gather-data"), want);
    }
}

} // namespace
