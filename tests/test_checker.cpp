// libotpucheck on synthetic event streams (synthetic_rtl.h): no false alarm on any golden
// case or bench bundle, and every injected fault found with the right kind, slice,
// instruction and location; the reports carry what a designer needs.
#include <dirent.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cases.h"
#include "expect.h"
#include "fp32.h"
#include "report.h"
#include "signature.h"
#include "synthetic_rtl.h"

using namespace otpu_test;

namespace {

struct Case {
    otpu_bundle b{};
    Recording rec;
    explicit Case(const std::string &dir)
    {
        char err[1024];
        if (otpu_bundle_read(dir.c_str(), &b, err, sizeof err) == 0)
            rec = record(b);
        else
            ADD_FAILURE() << err;
    }
    ~Case() { otpu_bundle_free(&b); }
};

// a report as otpu_report_text or otpu_report_json writes it
std::string render(const otpu_divergence *d,
                   void (*write)(FILE *, const otpu_divergence *, const otpu_report_info *))
{
    char *buf = nullptr;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    write(f, d, nullptr);
    fclose(f);
    std::string s(buf, n);
    free(buf);
    return s;
}

struct Lockstep {
    otpu_checker *c = nullptr;
    DriveResult r;
    Lockstep(Case &k, DriveOptions o, Injection *inj, otpu_check_options co = {})
    {
        char err[512];
        if (!co.hang_cycles)
            co.hang_cycles = 20000;
        c = otpu_checker_new(&k.b, &co, err, sizeof err);
        EXPECT_NE(c, nullptr) << err;
        o.stop_at_first = !co.keep_going; // as otpu-lockstep does
        if (c)
            r = drive(k.rec, c, o, inj);
    }
    ~Lockstep() { otpu_checker_free(c); }
    std::string text() const
    {
        const otpu_divergence *d = otpu_check_first(c);
        return d ? render(d, otpu_report_text) : "(no divergence)";
    }
};

// Runs k with inj; when inj was applied and the first divergence is at an instruction whose
// disassembly starts with mnemonic, calls f(that divergence, the report text) and returns true.
template <class F>
bool first_divergence_at(Case &k, Injection inj, const char *mnemonic, F f)
{
    Lockstep run(k, DriveOptions{}, &inj);
    const otpu_divergence *d = otpu_check_first(run.c);
    if (!inj.applied || !d || std::string(d->ins.disasm).rfind(mnemonic, 0))
        return false;
    f(*d, run.text());
    return true;
}

class NoFalseAlarm : public testing::TestWithParam<std::string> {};

TEST_P(NoFalseAlarm, OnTheReferenceRun)
{
    Case k(GetParam());
    for (unsigned window : {1u, 8u}) {
        DriveOptions o;
        o.window = window;
        o.writes_per_cycle = window == 1 ? 64 : 3;
        Lockstep run(k, o, nullptr);
        EXPECT_EQ(run.r.bad_calls, 0) << run.r.bad_call;
        EXPECT_EQ(otpu_check_count(run.c), 0u) << "window " << window << "\n" << run.text();
    }
}

INSTANTIATE_TEST_SUITE_P(Isa, NoFalseAlarm, testing::ValuesIn(isa_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(Bench, NoFalseAlarm, testing::ValuesIn(bench_cases()), case_name);

TEST(Checker, CompletionsAreOutOfOrderAcrossUnits)
{
    Case k(vectors_dir() + "/isa/kernel_mlp_S1");
    Lockstep run(k, DriveOptions{}, nullptr);
    EXPECT_TRUE(run.r.out_of_order);
    EXPECT_GT(otpu_check_writes(run.c), 100u);
    EXPECT_EQ(otpu_check_count(run.c), 0u) << run.text();
}

// The verdict's counters: every instruction, the unit ones, the register writes.
TEST(Checker, CountsWhatItJudged)
{
    for (const char *name : {"kernel_mlp_S1", "regs_loop", "gather_bar_S2"}) {
        Case k(vectors_dir() + "/isa/" + name);
        Lockstep run(k, DriveOptions{}, nullptr);
        size_t all = 0, unit = 0, regs = 0;
        for (const SliceRun &sr : k.rec.slices)
            for (const Step &st : sr.steps) {
                all++;
                unit += st.windowed;
                for (const otpu_write &w : st.writes)
                    regs += !st.windowed && w.space == OTPU_SP_REG;
            }
        EXPECT_EQ(otpu_check_instructions(run.c), all) << name;
        EXPECT_EQ(otpu_check_retired(run.c), unit) << name;
        EXPECT_EQ(otpu_check_regs(run.c), regs) << name;
        EXPECT_GT(all, 0u);
        if (!strcmp(name, "regs_loop")) {
            EXPECT_GT(regs, 0u);
        }
    }
}

// ---------------------------------------------------------------- faults

struct Expect {
    Fault fault;
    otpu_div_kind kind;
};

void inject(const std::string &bundle, Fault fault, otpu_div_kind kind, uint64_t nth, uint32_t slice = 0)
{
    Case k(bundle);
    Injection inj;
    inj.kind = fault;
    inj.nth = nth;
    inj.slice = slice;
    inj.bit = 3;
    Lockstep run(k, DriveOptions{}, &inj);
    ASSERT_TRUE(inj.applied) << "the fault found no place to land";
    const otpu_divergence *d = otpu_check_first(run.c);
    ASSERT_NE(d, nullptr) << "not detected";
    EXPECT_EQ(d->kind, kind) << run.text();
    EXPECT_EQ(d->slice, slice);
    if (fault != Fault::EndState && fault != Fault::EndStateDram && fault != Fault::Reg &&
        fault != Fault::ErrorFlag) {
        EXPECT_TRUE(d->has_ins) << run.text();
        EXPECT_EQ(d->ins.n, inj.n) << run.text();
    }
    if (fault == Fault::Flip || fault == Fault::Drop || fault == Fault::Stray ||
        fault == Fault::Duplicate || fault == Fault::EndState || fault == Fault::EndStateDram) {
        EXPECT_TRUE(d->has_loc);
        EXPECT_EQ(d->space, inj.space) << run.text();
        EXPECT_EQ(d->addr, inj.addr) << run.text();
    }
    if (fault == Fault::Order) {
        EXPECT_TRUE(d->has_other);
        EXPECT_EQ(d->other.n, inj.other_n) << run.text();
    }
}

TEST(Faults, FlippedBitIsAWrongValue)
{
    for (uint64_t nth : {0u, 7u, 100u, 900u})
        inject(vectors_dir() + "/isa/kernel_mlp_S1", Fault::Flip, OTPU_DIV_VALUE, nth);
    inject(vectors_dir() + "/isa/qst", Fault::Flip, OTPU_DIV_VALUE, 40); // a DRAM byte
    inject(vectors_dir() + "/isa/gather_bar_S2", Fault::Flip, OTPU_DIV_VALUE, 70, 1);
}

TEST(Faults, DroppedWriteIsMissing)
{
    for (uint64_t nth : {0u, 50u, 640u})
        inject(vectors_dir() + "/isa/kernel_attn_S1_T96", Fault::Drop, OTPU_DIV_MISSING, nth);
}

TEST(Faults, StrayAndDuplicateWrites)
{
    inject(vectors_dir() + "/isa/random_003", Fault::Stray, OTPU_DIV_STRAY, 20);
    inject(vectors_dir() + "/isa/random_003", Fault::Duplicate, OTPU_DIV_DUPLICATE, 20);
}

TEST(Faults, ReorderedConflictingWritesAreOrderViolations)
{
    int found = 0;
    for (const std::string &c : folders(vectors_dir() + "/isa"))
        if (c.find("random_0") != std::string::npos && found < 5) {
            Case k(c);
            for (uint64_t nth = 1; nth < 40; nth++) {
                Injection inj;
                inj.kind = Fault::Order;
                inj.nth = nth;
                Lockstep run(k, DriveOptions{}, &inj);
                if (!inj.applied)
                    continue;
                const otpu_divergence *d = otpu_check_first(run.c);
                ASSERT_NE(d, nullptr) << c << " nth " << nth;
                EXPECT_EQ(d->kind, OTPU_DIV_ORDER) << c << "\n" << run.text();
                EXPECT_EQ(d->ins.n, inj.n) << run.text();
                EXPECT_EQ(d->other.n, inj.other_n) << run.text();
                found++;
                break;
            }
        }
    EXPECT_GE(found, 3);
}

// Two byte writes into one DRAM word touch different bytes: no conflict between them (a QST
// ending at byte 0x18e and the next one starting at 0x18f were once called an order violation)
TEST(Expect, ByteWritesOfOneDramWordAreApart)
{
    const otpu_write w[] = {{0x18c, 0, 0x00c3c3c3u, OTPU_SP_DRAM, 0x7},
                            {0x20, 0, 0x3f800000u, OTPU_SP_TMEM, 0xF}};
    otpu_expect e;
    ASSERT_EQ(otpu_expect_init(&e, w, 2), 0);
    EXPECT_FALSE(otpu_expect_writes(&e, OTPU_SP_DRAM, 0x18c, 0x8));
    EXPECT_TRUE(otpu_expect_writes(&e, OTPU_SP_DRAM, 0x18c, 0xC));
    EXPECT_FALSE(otpu_expect_writes(&e, OTPU_SP_DRAM, 0x190, 0xF));
    EXPECT_TRUE(otpu_expect_writes(&e, OTPU_SP_TMEM, 0x20, 0x1));
    otpu_expect_free(&e);
}

TEST(Faults, RegistersControlErrorsHangsAndEndState)
{
    inject(vectors_dir() + "/isa/regs_loop", Fault::Reg, OTPU_DIV_REGISTER, 2);
    inject(vectors_dir() + "/isa/kernel_mlp_S1", Fault::Control, OTPU_DIV_CONTROL, 3);
    inject(vectors_dir() + "/isa/kernel_mlp_S1", Fault::ErrorFlag, OTPU_DIV_ERROR, 3);
    inject(vectors_dir() + "/isa/kernel_mlp_S1", Fault::Hang, OTPU_DIV_HANG, 2);
    inject(vectors_dir() + "/isa/kernel_mlp_S1", Fault::EndState, OTPU_DIV_END_STATE, 300);
}

// A DRAM byte the RTL changed where the model wrote nothing: in the image the bundle loaded,
// in the last page (which the model never touched: it is compared as zeros, not read), and
// in the first byte of a page past the image.
TEST(Faults, EndStateDramAnywhere)
{
    std::string b = vectors_dir() + "/isa/kernel_mlp_S1";
    inject(b, Fault::EndStateDram, OTPU_DIV_END_STATE, 16);
    inject(b, Fault::EndStateDram, OTPU_DIV_END_STATE, 1048576 - 3);
    inject(b, Fault::EndStateDram, OTPU_DIV_END_STATE, 40 * 4096);
}

TEST(Faults, KeepGoingCountsThemAll)
{
    Case k(vectors_dir() + "/isa/kernel_mlp_S1");
    Injection inj;
    inj.kind = Fault::Flip;
    inj.nth = 5;
    otpu_check_options co{};
    co.keep_going = 1;
    Lockstep run(k, DriveOptions{}, &inj, co);
    EXPECT_GE(otpu_check_count(run.c), 2u) << "the flipped word, then the end state";
}

// ---------------------------------------------------------------- reports

TEST(Report, TextAndJsonCarryTheFacts)
{
    Case k(vectors_dir() + "/isa/kernel_mlp_S1");
    Injection inj;
    inj.kind = Fault::Flip;
    inj.nth = 300;
    Lockstep run(k, DriveOptions{}, &inj);
    const otpu_divergence *d = otpu_check_first(run.c);
    ASSERT_NE(d, nullptr);
    // the recent events: in cycle order, the failing instruction's own start among them,
    // each instruction disassembled
    ASSERT_EQ(d->nhistory, size_t(OTPU_DIV_HISTORY));
    bool own_start = false;
    for (size_t i = 0; i < d->nhistory; i++) {
        const otpu_div_event &e = d->history[i];
        if (i) {
            EXPECT_GE(e.cycle, d->history[i - 1].cycle);
        }
        EXPECT_TRUE(!strcmp(e.what, "dispatch") || !strcmp(e.what, "start") ||
                    !strcmp(e.what, "complete")) << e.what;
        if (e.ins.disasm[0] == 0) continue;
        own_start = own_start || (!strcmp(e.what, "start") && e.ins.n == d->ins.n &&
                                  !strcmp(e.ins.disasm, d->ins.disasm));
    }
    EXPECT_TRUE(own_start);
    otpu_report_info info{"BUNDLE", "otpu-lockstep run BUNDLE", "wave.fst", 10, 20, 1, 41};
    char *buf = nullptr;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    otpu_report_text(f, d, &info);
    fclose(f);
    std::string text(buf, n);
    free(buf);
    for (const char *want : {"FIRST DIVERGENCE: wrong-value", "slice 0", "instruction n=",
                             "expected:", "actual:", "ulp distance:", "inputs and their last writers",
                             "last ", "repro: otpu-lockstep run BUNDLE", "wave.fst (cycles 10..20)"})
        EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
    buf = nullptr;
    f = open_memstream(&buf, &n);
    otpu_report_json(f, d, &info);
    fclose(f);
    std::string json(buf, n);
    free(buf);
    char path[] = "/tmp/otpu_report_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, json.data(), json.size()), static_cast<ssize_t>(json.size()));
    close(fd);
    std::string cmd = std::string("python3 -c \"import json,sys; d=json.load(open('") + path +
                      "')); assert d['kind']=='wrong-value' and d['instruction']['n']>=0 and "
                      "d['expected']['bits'] and len(d['history'])>0, d\"";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << json;
    std::remove(path);
}

// A register-mismatch names the sequencer's instruction that wrote the register (unit SEQ).
TEST(Report, RegisterMismatchNamesItsInstruction)
{
    Case k(vectors_dir() + "/isa/regs_loop");
    Injection inj;
    inj.kind = Fault::Reg;
    inj.nth = 2;
    inj.bit = 3;
    Lockstep run(k, DriveOptions{}, &inj);
    const otpu_divergence *d = otpu_check_first(run.c);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->kind, OTPU_DIV_REGISTER);
    ASSERT_TRUE(d->has_ins) << run.text();
    EXPECT_EQ(d->ins.n, inj.n) << run.text();
    EXPECT_EQ(d->unit, (uint32_t)OTPU_UNIT_SEQ);
    std::string dis = d->ins.disasm;
    EXPECT_TRUE(dis.rfind("LI", 0) == 0 || dis.rfind("ADDI", 0) == 0) << dis;
    EXPECT_NE(run.text().find("unit SEQ: " + dis), std::string::npos) << run.text();
}

// A QST byte that lands in the wrong lane: bytes, both masks and int8 values; no fp32 decode
// and no ulp distance for int8 data.
TEST(Report, DramBytesAreShownAsBytes)
{
    Case k(vectors_dir() + "/isa/qst");
    Injection inj;
    inj.kind = Fault::Mask;
    for (inj.nth = 0; !inj.applied && inj.nth < 20000; inj.nth++) {
        Lockstep run(k, DriveOptions{}, &inj);
        if (!inj.applied)
            continue;
        const otpu_divergence *d = otpu_check_first(run.c);
        ASSERT_NE(d, nullptr);
        std::string t = run.text();
        EXPECT_TRUE(d->has_ins && std::string(d->ins.disasm).rfind("QST", 0) == 0) << t;
        EXPECT_EQ(d->space, OTPU_SP_DRAM) << t;
        EXPECT_TRUE(d->mask != 0xF && d->expected_mask != 0xF) << t;
        EXPECT_NE(t.find("int8"), std::string::npos) << t;
        EXPECT_NE(t.find(" mask 0x"), std::string::npos) << t;
        EXPECT_EQ(t.find("ulp distance"), std::string::npos) << t;
        EXPECT_EQ(t.find("e-"), std::string::npos) << t; // no float decode of the bytes
        std::string js = render(d, otpu_report_json);
        EXPECT_NE(js.find("\"bytes\": [{\"byte\": "), std::string::npos) << js;
        EXPECT_EQ(js.find("ulp_distance"), std::string::npos) << js;
    }
    EXPECT_TRUE(inj.applied);
}

// ---------------------------------------------------------------- explaining facts

// The first divergence of the flipped nth write for which the failing instruction starts with
// `prefix` (its disassembly), trying each instruction's first write in turn; false if none.
struct Explained {
    otpu_divergence d{};
    std::string text;
    std::map<std::string, uint32_t> ops, steps; // fact name -> its leading hex bits
    std::vector<std::pair<std::string, uint32_t>> step_list;
    int q8 = 999;                               // the int8 of a quantizer's step, if any
};

bool explain_first(const std::string &bundle, const std::string &prefix, Explained *out,
                   Fault fault = Fault::Flip)
{
    Case k(vectors_dir() + "/isa/" + bundle);
    std::vector<uint64_t> firsts = Lockstep(k, DriveOptions{}, nullptr).r.first_writes;
    for (uint64_t nth : firsts) {
        Injection inj;
        inj.kind = fault;
        inj.nth = nth;
        inj.bit = 2;
        Lockstep run(k, DriveOptions{}, &inj);
        const otpu_divergence *d = otpu_check_first(run.c);
        if (!inj.applied || !d || !d->has_ins || std::string(d->ins.disasm).rfind(prefix, 0))
            continue;
        out->d = *d;
        out->text = run.text();
        for (size_t i = 0; i < d->noperands; i++)
            out->ops[d->operands[i].name] = (uint32_t)strtoul(d->operands[i].value, nullptr, 16);
        for (size_t i = 0; i < d->nintermediates; i++) {
            uint32_t v = (uint32_t)strtoul(d->intermediates[i].value, nullptr, 16);
            out->steps[d->intermediates[i].name] = v;
            if (!strncmp(d->intermediates[i].name, "q8", 2))
                out->q8 = atoi(d->intermediates[i].value);
            out->step_list.push_back({d->intermediates[i].name, v});
        }
        out->d.operands = out->d.intermediates = nullptr; // (owned by the checker, gone)
        return true;
    }
    return false;
}

uint32_t fact_starting(const std::map<std::string, uint32_t> &m, const std::string &p)
{
    for (const auto &kv : m)
        if (kv.first.rfind(p, 0) == 0)
            return kv.second;
    ADD_FAILURE() << "no fact named " << p << "...";
    return 0;
}

// elementwise: the model's result is f(a, b) of the operands the report names, for every
// B source (full, per row, per column, scalar)
TEST(Explain, ElementwiseOperandsGiveTheModelsResult)
{
    struct {
        const char *bundle;
        uint32_t (*f)(uint32_t, uint32_t);
    } cases[] = {{"vop_add_b0", otpu_f32_add}, {"vop_add_b1", otpu_f32_add},
                 {"vop_add_b2", otpu_f32_add}, {"vop_add_b3", otpu_f32_add},
                 {"vop_mul_b1", otpu_f32_mul}, {"vop_sub_b2", otpu_f32_sub},
                 {"vop_max_b3", otpu_f32_max}, {"vop_min_b0", otpu_f32_min}};
    for (const auto &c : cases) {
        Explained e;
        ASSERT_TRUE(explain_first(c.bundle, "VOP", &e)) << c.bundle;
        uint32_t a = fact_starting(e.ops, "a = T["), b = fact_starting(e.ops, "b = ");
        EXPECT_EQ(c.f(a, b), e.d.expected) << c.bundle << "\n" << e.text;
    }
}

// exp2, recip, rsqrt, log2, exp2(a - b): the model's fixed sequence from the element's input,
// ending in its result
TEST(Explain, CompositeFunctionsShowEveryStep)
{
    for (const char *b : {"vop_exp2_b0", "vop_recip_b0", "vop_rsqrt_b0", "vop_log2_b0",
                          "vop_exp2sub_b1"}) {
        Explained e;
        ASSERT_TRUE(explain_first(b, "VOP", &e)) << b;
        ASSERT_GE(e.step_list.size(), 4u) << b << "\n" << e.text;
        EXPECT_EQ(e.step_list.back().first, "result") << b;
        EXPECT_EQ(e.step_list.back().second, e.d.expected) << b << "\n" << e.text;
        if (std::string(b) == "vop_exp2sub_b1")
            EXPECT_EQ(fact_starting(e.steps, "a - b"), otpu_f32_sub(fact_starting(e.ops, "a ="),
                                                                   fact_starting(e.ops, "b =")));
        else
            EXPECT_EQ(fact_starting(e.steps, "input"), fact_starting(e.ops, "a = T["));
    }
}

// RSUM, RSSQ, RDOT: the partials and the folding tree end in the model's sum; RMAX: the
// row's input classes
TEST(Explain, ReductionsShowPartialsAndFolds)
{
    for (const char *b : {"vop_rsum_b0", "vop_rssq_b0", "vop_rdot_b1", "vop_rdot_b2"}) {
        Explained e;
        ASSERT_TRUE(explain_first(b, "VOP", &e)) << b;
        EXPECT_NE(e.text.find("input classes"), std::string::npos) << e.text;
        EXPECT_NE(e.text.find("partial p[0]"), std::string::npos) << e.text;
        EXPECT_EQ(fact_starting(e.steps, "fold 1:"), e.d.expected) << b << "\n" << e.text;
    }
    Explained e;
    ASSERT_TRUE(explain_first("vop_rmax_b0", "VOP", &e));
    EXPECT_NE(e.text.find("input classes:"), std::string::npos) << e.text;
}

TEST(Explain, OuterShowsItsTwoProducts)
{
    Explained e;
    ASSERT_TRUE(explain_first("vop_outer_column", "VOP", &e));
    EXPECT_EQ(fact_starting(e.steps, "sum"), e.d.expected) << e.text;
}

// MM: the exact integer dot product of each block, the scales, the isum_4 partials: the
// model's output word
TEST(Explain, MatmulShowsIntegersScalesAndPartials)
{
    for (const char *b : {"qact_mm_row0", "mm_ascale", "kernel_mlp_S1"}) {
        Explained e;
        ASSERT_TRUE(explain_first(b, "MM", &e)) << b;
        EXPECT_NE(e.text.find("block 0: exact integer dot product"), std::string::npos)
            << e.text;
        EXPECT_EQ(e.step_list.back().second, e.d.expected) << b << "\n" << e.text;
    }
}

// QACT and QST: the group's amax, scale and inv, the element before rounding, its int8
TEST(Explain, QuantizationShowsTheGroup)
{
    Explained e;
    ASSERT_TRUE(explain_first("qst", "QST", &e));
    int lane = 0;
    while (lane < 4 && !(e.d.mask >> lane & 1))
        lane++;
    EXPECT_EQ(e.q8, (int8_t)(e.d.expected >> (8 * lane))) << e.text;
    EXPECT_NE(e.text.find("amax = max |x|"), std::string::npos) << e.text;
    // both quantized values: the model's q8 above, and the byte the RTL wrote
    char rtl[64];
    snprintf(rtl, sizeof rtl, "the RTL's q8 (its byte): %d", (int8_t)(e.d.actual >> (8 * lane)));
    EXPECT_NE(e.text.find(rtl), std::string::npos) << e.text;
    Explained q;
    ASSERT_TRUE(explain_first("qact_mm_row1", "QACT", &q));
    if (q.d.space == OTPU_SP_ACT)
        EXPECT_EQ(q.q8, (int8_t)q.d.expected) << q.text;
    else
        EXPECT_EQ(fact_starting(q.steps, "scale s"), q.d.expected) << q.text;
}

// QACT with CSCALE and RSCALE: the element's input and both factors, and x = (x0 * r) * c,
// the value the group's steps quantize
TEST(Explain, QuantizationShowsTheScalingFactors)
{
    Explained e;
    ASSERT_TRUE(explain_first("qact_scales", "QACT", &e));
    if (e.d.space != OTPU_SP_ACT)
        GTEST_SKIP() << "the first QACT divergence is a scale, not an element: " << e.text;
    ASSERT_TRUE(e.ops.count("input x0") && e.ops.count("row factor r (RSCALE)") &&
                e.ops.count("column factor c (CSCALE)")) << e.text;
    uint32_t x = otpu_f32_mul(otpu_f32_mul(e.ops["input x0"], e.ops["row factor r (RSCALE)"]),
                              e.ops["column factor c (CSCALE)"]);
    EXPECT_EQ(fact_starting(e.steps, "x = (x0 * r) * c"), x) << e.text;
    EXPECT_EQ(fact_starting(e.steps, "x * inv"), otpu_f32_mul(x, fact_starting(e.steps, "inv ")))
        << e.text;
    EXPECT_EQ(e.q8, (int8_t)e.d.expected) << e.text;
}

// LD: the element's index, both addresses and the source word (the model's result)
TEST(Explain, DmaShowsAddressesAndTheSourceWord)
{
    Explained e;
    ASSERT_TRUE(explain_first("ld_st", "LD", &e));
    EXPECT_EQ(fact_starting(e.ops, "the source word"), e.d.expected) << e.text;
    EXPECT_NE(e.text.find("source: DRAM "), std::string::npos) << e.text;
}

// 4-bit weights too: each block's decoded sub-block sums (times their multipliers), its integer
// and bf16 scale, and the model's chain to the expected word
TEST(Explain, MatmulOfFourBitWeightsShowsItsBlocks)
{
    for (const char *b : {"mm_w4_1_pair0", "mm_w4_2_pair0"}) {
        Explained e;
        ASSERT_TRUE(explain_first(b, "MM", &e)) << b;
        EXPECT_NE(e.text.find("block 0: sub-block sums"), std::string::npos) << e.text;
        EXPECT_NE(e.text.find("(each times its multiplier)"), std::string::npos) << e.text;
        EXPECT_EQ(e.text.find("not expanded"), std::string::npos) << e.text;
        EXPECT_EQ(e.step_list.back().second, e.d.expected) << b << "\n" << e.text;
    }
}

// GATHER: the element's segment names the source slice, its own source address and stride
// (its registers), and the element it read, which is what the model wrote
TEST(Explain, GatherNamesTheSourceSliceAndTheElementRead)
{
    bool seen = false, cross = false; // (cross: the element came from the other slice)
    for (uint32_t slice : {0u, 1u}) {
        Case k(vectors_dir() + "/isa/gather_bar_S2");
        for (uint64_t nth = 0; nth < 4000 && !cross; nth++) {
            Injection inj;
            inj.kind = Fault::Flip;
            inj.nth = nth;
            inj.slice = slice;
            inj.bit = 2;
            seen |= first_divergence_at(k, inj, "GATHER", [&](const otpu_divergence &d,
                                                              const std::string &t) {
                size_t dest = t.find("destination: slice ");
                ASSERT_NE(dest, std::string::npos) << t;
                cross |= strtoul(t.c_str() + dest + 19, nullptr, 10) != slice;
                EXPECT_NE(t.find("source slice: "), std::string::npos) << t;
                EXPECT_NE(t.find("row stride srs"), std::string::npos) << t;
                size_t at = t.find("the element read: slice ");
                ASSERT_NE(at, std::string::npos) << t;
                uint32_t v = (uint32_t)strtoul(t.c_str() + t.find(": ", at + 20) + 2, nullptr, 16);
                EXPECT_EQ(v, d.expected) << t;
            });
        }
    }
    EXPECT_TRUE(seen && cross) << "no GATHER write (from the other slice) was flipped";
}

// A register mismatch: the sequencer's instruction, its register operands on both sides (the
// model's registers before it, the RTL's as its own writes left them) and the model's result
TEST(Report, RegisterMismatchShowsOperandsOfBothSides)
{
    Case k(vectors_dir() + "/isa/regs_loop");
    bool addi = false;
    for (uint64_t nth = 0; nth < 64 && !addi; nth++) {
        Injection inj;
        inj.kind = Fault::Reg;
        inj.nth = nth;
        inj.bit = 3;
        addi = first_divergence_at(k, inj, "ADDI", [](const otpu_divergence &d,
                                                      const std::string &t) {
            EXPECT_NE(t.find(" in the model, "), std::string::npos) << t;
            EXPECT_NE(t.find(" in the RTL"), std::string::npos) << t;
            char want[64];
            snprintf(want, sizeof want, "the model: R[rs] + imm: R%u = %08x", (unsigned)d.addr,
                     d.expected);
            EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
        });
    }
    EXPECT_TRUE(addi) << "no ADDI register write was hit";
}

// A LOOP whose body the RTL skips: the control-flow report names the LOOP where the two paths
// split and how, not only the first instruction that differs
TEST(Report, ControlFlowNamesWhereThePathsSplit)
{
    bool seen = false;
    for (const std::string &b : isa_cases()) {
        Case k(b);
        Injection inj;
        inj.kind = Fault::LoopSkip;
        Lockstep run(k, DriveOptions{}, &inj);
        const otpu_divergence *d = otpu_check_first(run.c);
        if (!inj.applied || !d)
            continue;
        seen = true;
        std::string t = run.text();
        EXPECT_EQ(d->kind, OTPU_DIV_CONTROL) << t;
        char want[64];
        snprintf(want, sizeof want, "the paths split at: pc %llu: LOOP",
                 (unsigned long long)inj.addr);
        EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
        EXPECT_NE(t.find("the RTL skipped the body, the model ran it"), std::string::npos) << t;
        EXPECT_NE(t.find("the last instruction both sides dispatched"), std::string::npos) << t;
        break;
    }
    EXPECT_TRUE(seen) << "no golden bundle has a LOOP whose body starts with a unit instruction";
}

// A write past the end of the instruction's range says so, by how many words, and is not
// explained as an element of the instruction's tile
TEST(Report, StrayPastTheEndSaysByHowMuch)
{
    for (int by : {1, 3}) {
        Case k(vectors_dir() + "/isa/kernel_mlp_S1");
        bool seen = false;
        for (uint64_t nth = 0; nth < 3000 && !seen; nth += 97) {
            Injection inj;
            inj.kind = Fault::PastEnd;
            inj.nth = nth;
            inj.bit = by - 1;
            Lockstep run(k, DriveOptions{}, &inj);
            const otpu_divergence *d = otpu_check_first(run.c);
            if (!inj.applied || !d || d->kind != OTPU_DIV_STRAY)
                continue;
            seen = true;
            std::string t = run.text();
            char want[32];
            snprintf(want, sizeof want, ") by %d words", by);
            EXPECT_NE(t.find("past the end of its TMEM range ["), std::string::npos) << t;
            EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
            EXPECT_FALSE(d->has_tile) << t;
            EXPECT_EQ(d->noperands, 0u) << t;
        }
        EXPECT_TRUE(seen) << "no stray write past an instruction's end was reported";
    }
}

// The signature: built of the divergence's kind, unit, opcode, memory and shape, with the
// address, value and instance left out: one-ulp flips anywhere give one key per instruction
// class (an MM's any difference one key); a dropped write another kind
TEST(Report, SignatureNamesTheCauseNotTheOccurrence)
{
    std::map<std::string, std::set<uint64_t>> where; // key -> the addresses it was seen at
    for (uint64_t nth : {5u, 40u, 300u, 900u, 1500u}) {
        Case k(vectors_dir() + "/isa/kernel_mlp_S1");
        Injection inj;
        inj.kind = Fault::Flip;
        inj.nth = nth;
        inj.bit = 0; // the lowest mantissa bit of an fp32 word
        Lockstep run(k, DriveOptions{}, &inj);
        const otpu_divergence *d = otpu_check_first(run.c);
        ASSERT_NE(d, nullptr);
        if (d->kind != OTPU_DIV_VALUE || d->space != OTPU_SP_TMEM)
            continue;
        otpu_signature sig;
        otpu_div_signature(d, &sig);
        std::string op(d->ins.disasm, strcspn(d->ins.disasm, " "));
        if (op == "VOP") { // a VOP's function is part of its opcode: "VOP.add"
            const char *fn = d->ins.disasm + 4;
            op += "." + std::string(fn, strcspn(fn, " "));
        }
        std::string unit = otpu_unit_name(static_cast<otpu_unit>(d->unit));
        // an MM's sum has one shape whatever its difference (checker/signature.c)
        std::string shape = unit == "MXU" ? "value" : "1-ulp";
        EXPECT_EQ(std::string(sig.key), "wrong-value/" + unit + "/" + op + "/TMEM/" + shape)
            << run.text();
        where[sig.key].insert(d->addr);
        std::string t = run.text();
        EXPECT_NE(t.find(std::string("signature: ") + sig.key), std::string::npos) << t;
        EXPECT_NE(render(d, otpu_report_json).find(std::string("\"key\": \"") + sig.key),
                  std::string::npos);
    }
    size_t most = 0;
    for (const auto &kv : where)
        most = std::max(most, kv.second.size());
    EXPECT_GE(most, 2u) << "one key at two addresses at least";
    Case k(vectors_dir() + "/isa/vop_add_b0");
    for (Fault f : {Fault::Drop, Fault::Stray}) {
        Injection inj;
        inj.kind = f;
        inj.nth = 0;
        Lockstep run(k, DriveOptions{}, &inj);
        const otpu_divergence *d = otpu_check_first(run.c);
        ASSERT_NE(d, nullptr);
        otpu_signature sig;
        otpu_div_signature(d, &sig);
        std::string want = f == Fault::Drop ? "missing-write/" : "stray-write/";
        EXPECT_EQ(std::string(sig.key).rfind(want, 0), 0u) << sig.key;
        EXPECT_EQ(std::string(sig.key).substr(std::string(sig.key).size() - 2), "/-") << sig.key;
    }
}

TEST(Report, UlpDistance)
{
    EXPECT_EQ(otpu_ulp_distance(0x3F800000, 0x3F800000), 0u);
    EXPECT_EQ(otpu_ulp_distance(0x3F800000, 0x3F800001), 1u);
    EXPECT_EQ(otpu_ulp_distance(0x00000000, 0x80000000), 0u);
    EXPECT_EQ(otpu_ulp_distance(0x00000001, 0x80000001), 2u);
}

TEST(Checker, MalformedCallsAreRefusedNotJudged)
{
    Case k(vectors_dir() + "/isa/ld_st");
    char err[256];
    otpu_checker *c = otpu_checker_new(&k.b, nullptr, err, sizeof err);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(otpu_check_dispatch(c, 5, 0, 0, OTPU_OP_LD), OTPU_CHECK_BAD_CALL);
    EXPECT_NE(std::string(otpu_check_message(c)).find("slice 5"), std::string::npos);
    EXPECT_EQ(otpu_check_start(c, 0, 99, 0), OTPU_CHECK_BAD_CALL);
    EXPECT_EQ(otpu_check_complete(c, 0, OTPU_UNIT_DMA), OTPU_CHECK_BAD_CALL);
    EXPECT_EQ(otpu_check_count(c), 0u);
    otpu_checker_free(c);
}

// The RTL side of host.txt for otpu_check_host: every slice halted, DRAM words reading `word`.
struct FakeRtlHost {
    uint32_t word = 5;
    static FakeRtlHost *me(void *d) { return static_cast<FakeRtlHost *>(d); }
    static int no(void *, uint32_t) { return 0; }
    static int yes(void *, uint32_t) { return 1; }
    static uint64_t zero(void *, uint32_t) { return 0; }
    static uint64_t now(void *) { return 0; }
    static int write(void *, uint32_t, uint64_t, const uint32_t *, size_t, char *, size_t)
    {
        return 0;
    }
    static int read(void *d, uint32_t, uint64_t, uint32_t *w, size_t n)
    {
        for (size_t k = 0; k < n; k++)
            w[k] = me(d)->word;
        return 0;
    }
    static int run(void *, uint32_t, const uint32_t *, size_t, const uint32_t *, char *, size_t)
    {
        return 0;
    }
};

// a one-slice bundle in a new folder: HALT, DRAM word 0 = 5, and host.txt
std::string host_bundle(const char *host_txt)
{
    char tmpl[] = "/tmp/otpu-host-check-XXXXXX";
    std::string d = mkdtemp(tmpl);
    auto put = [&](const char *name, const std::string &text) {
        FILE *f = fopen((d + "/" + name).c_str(), "wb");
        fwrite(text.data(), 1, text.size(), f);
        fclose(f);
    };
    put("case.txt", "S=1\nD=32\nMCOLS=8\nACT_BLOCKS=64\nTMEM_WORDS=65536\nDRAM_BYTES=262144\n"
                    "IMEM_WORDS=65536\nLANES=8\nPAIR=0\nDSTEP=0\nSTREAM=0\nACT_ROWS=0\n"
                    "expect=ok\n");
    std::string prog = "00000001\n";
    for (int k = 0; k < 7; k++)
        prog += "00000000\n";
    put("prog_0.hex", prog);
    put("dram_0.bin", std::string("\x05\0\0\0", 4));
    put("host.txt", host_txt);
    return d;
}

TEST(HostSteps, BothSidesMustReachTheSameStepsAndReadTheSameWords)
{
    std::string dir = host_bundle("await 0 halted\nexpect 0 0x0 00000005\n");
    Case k(dir);
    ASSERT_EQ(k.b.host.n, 2u);
    const otpu_host_device dev = {FakeRtlHost::no,   FakeRtlHost::yes,  FakeRtlHost::yes,
                                  FakeRtlHost::zero, FakeRtlHost::now,  FakeRtlHost::write,
                                  FakeRtlHost::read, FakeRtlHost::run};
    const uint32_t args[8] = {};
    for (int variant = 0; variant < 3; variant++) {
        Lockstep run(k, DriveOptions{}, nullptr);
        ASSERT_EQ(otpu_check_count(run.c), 0u) << run.text();
        otpu_host *rtl = otpu_host_new(&k.b.host, 1, args);
        FakeRtlHost fake;
        fake.word = variant == 1 ? 6 : 5;
        if (variant > 0) { // variant 0: the RTL's host never got past its first step
            EXPECT_EQ(otpu_host_advance(rtl, &dev, &fake), 1);
        }
        otpu_check_host(run.c, rtl);
        const otpu_divergence *d = otpu_check_first(run.c);
        if (variant == 2) {
            EXPECT_EQ(d, nullptr) << run.text();
        } else {
            ASSERT_NE(d, nullptr);
            EXPECT_EQ(d->kind, OTPU_DIV_HOST);
            EXPECT_STREQ(otpu_div_kind_name(d->kind), "host-step");
            std::string t = run.text();
            if (variant == 0) {
                EXPECT_EQ(d->host_line, 1);
                EXPECT_NE(t.find("host.txt:1 (await 0 halted): reached by the model, never by "
                                 "the RTL"), std::string::npos) << t;
            } else {
                EXPECT_EQ(d->host_line, 2);
                EXPECT_NE(t.find("host.txt:2 (expect 0 0x0 00000005): the model read 00000005 "
                                 "at 0, the RTL read 00000006"), std::string::npos) << t;
                EXPECT_NE(t.find("host step: host.txt line 2"), std::string::npos) << t;
            }
        }
        otpu_host_free(rtl);
    }
    std::string rm = "rm -rf '" + dir + "'";
    EXPECT_EQ(system(rm.c_str()), 0);
}

} // namespace
