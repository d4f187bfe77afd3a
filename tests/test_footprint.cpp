// Footprints: on every golden case, every location the model writes lies inside the write
// ranges otpu_footprint gives for that instruction (computed from the state at issue), and
// every location it reads lies inside the read ranges (changing what lies outside them changes
// nothing the instruction writes).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "bundle.h"
#include "cases.h"
#include "footprint.h"

namespace {

struct Probe {
    otpu_machine *m = nullptr;
    std::vector<std::vector<otpu_range>> ranges; // per slice: the instruction in flight
    std::string failure;
    size_t checked = 0;
};

void on_issue(void *u, uint32_t s, uint64_t, uint32_t, const otpu_instr *in)
{
    Probe *p = static_cast<Probe *>(u);
    otpu_slice_view v = otpu_machine_view(p->m, s);
    otpu_range r[OTPU_FOOTPRINT_MAX];
    size_t n = in ? otpu_footprint(otpu_machine_config(p->m), in, v.R, v.tmem, r) : 0;
    p->ranges[s].assign(r, r + n);
}

void on_retire(void *u, const otpu_retired *r)
{
    Probe *p = static_cast<Probe *>(u);
    if (r->chain || r->faulted || !p->failure.empty())
        return;
    for (size_t i = 0; i < r->nwrites; i++) {
        const otpu_write &w = r->writes[i];
        bool in = false;
        for (const otpu_range &g : p->ranges[r->slice])
            in |= g.write && otpu_range_hits(&g, static_cast<otpu_space>(w.space), w.addr);
        p->checked++;
        if (!in) {
            char d[256];
            otpu_disasm(r->ins, d, sizeof d);
            p->failure = "slice " + std::to_string(r->slice) + " pc " + std::to_string(r->pc) +
                         " " + d + ": write to space " + std::to_string(w.space) + " address " +
                         std::to_string(w.addr) + " outside its footprint";
            return;
        }
    }
}

// Calls f(folder, bundle) for every golden ISA case (asserting there are some and each reads).
template <class F>
void each_isa_case(F f)
{
    std::vector<std::string> cases = otpu_test::isa_cases();
    ASSERT_FALSE(cases.empty()) << otpu_test::vectors_dir();
    for (const std::string &c : cases) {
        otpu_bundle b;
        char err[1024];
        ASSERT_EQ(otpu_bundle_read(c.c_str(), &b, err, sizeof err), 0) << err;
        f(c, b);
        otpu_bundle_free(&b);
    }
}

TEST(Footprint, CoversEveryWriteOfEveryGoldenCase)
{
    size_t total = 0, ncases = 0;
    each_isa_case([&](const std::string &c, const otpu_bundle &b) {
        otpu_error e;
        Probe p;
        p.m = otpu_bundle_machine(&b, &e);
        ASSERT_NE(p.m, nullptr) << e.msg;
        p.ranges.resize(b.cfg.S);
        otpu_listener l{&p, on_issue, on_retire, nullptr};
        otpu_machine_set_listener(p.m, &l);
        otpu_machine_run(p.m, 10000000);
        EXPECT_EQ(p.failure, "") << c;
        total += p.checked;
        ncases++;
        otpu_machine_free(p.m);
    });
    std::cout << "writes checked: " << total << " in " << ncases << " cases\n";
    EXPECT_GT(total, 10000u);
}

// ---- read ranges: a twin run, perturbed around each instruction's footprint ----

struct Capture {
    std::vector<otpu_write> w;
};

void capture(void *u, const otpu_retired *r)
{
    Capture *c = static_cast<Capture *>(u);
    c->w.assign(r->writes, r->writes + r->nwrites);
}

bool same_writes(const std::vector<otpu_write> &a, const std::vector<otpu_write> &b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); i++)
        if (a[i].space != b[i].space || a[i].addr != b[i].addr || a[i].val != b[i].val ||
            a[i].mask != b[i].mask)
            return false;
    return true;
}

bool in_any(const std::vector<otpu_range> &fp, otpu_space sp, uint64_t addr)
{
    for (const otpu_range &r : fp)
        if (otpu_range_hits(&r, sp, addr))
            return true;
    return false;
}

// A location changed before the instruction runs, and its value to put back after.
struct Poke {
    otpu_space sp;
    uint64_t addr;
    uint32_t saved;
};

// The slice's memories, written by the test (the view is read-only for everyone else).
void poke(const otpu_slice_view &v, otpu_space sp, uint64_t a, uint32_t x)
{
    if (sp == OTPU_SP_TMEM)
        const_cast<uint32_t *>(v.tmem)[a] = x;
    else if (sp == OTPU_SP_DRAM)
        std::memcpy(const_cast<uint8_t *>(v.dram) + a, &x, 4);
    else if (sp == OTPU_SP_ACT)
        const_cast<int8_t *>(v.act)[a] = static_cast<int8_t>(x);
    else
        const_cast<uint32_t *>(v.ascale)[a] = x;
}

uint32_t peek(const otpu_slice_view &v, otpu_space sp, uint64_t a)
{
    uint32_t x = 0;
    if (sp == OTPU_SP_TMEM)
        x = v.tmem[a];
    else if (sp == OTPU_SP_DRAM)
        std::memcpy(&x, v.dram + a, 4);
    else if (sp == OTPU_SP_ACT)
        x = static_cast<uint8_t>(v.act[a]);
    else
        x = v.ascale[a];
    return x;
}

// Locations next to each range of the footprint (both sides), in every space it names, and a
// sparse sample of the rest; those inside no range at all are changed.
std::vector<Poke> perturb(const otpu_config *c, const otpu_slice_view &v,
                          const std::vector<otpu_range> &fp)
{
    uint64_t rows = otpu_config_act_rows(c), row = uint64_t(c->ACT_BLOCKS) * c->D;
    const uint64_t size[] = {0, c->TMEM_WORDS, c->DRAM_BYTES, rows * row, rows * c->ACT_BLOCKS};
    std::vector<std::pair<otpu_space, uint64_t>> cand;
    for (const otpu_range &r : fp) {
        otpu_space sp = static_cast<otpu_space>(r.space);
        if (sp == OTPU_SP_REG)
            continue;
        uint64_t step = sp == OTPU_SP_DRAM ? 4 : 1, edge = sp == OTPU_SP_ACT ? c->D : 8 * step;
        for (uint64_t k = 0; k < (r.wrap ? rows : 1); k++) {
            uint64_t base = k * r.wrap, lo = r.lo & ~(step - 1);
            for (uint64_t a = lo >= edge ? lo - edge : 0; a < lo; a += step)
                cand.push_back({sp, base + a});
            for (uint64_t a = (r.hi + step - 1) & ~(step - 1); a < r.hi + edge; a += step)
                cand.push_back({sp, base + a});
        }
    }
    for (uint64_t a = 0; a < c->TMEM_WORDS; a += 97)
        cand.push_back({OTPU_SP_TMEM, a});
    for (uint64_t a = 0; a < c->DRAM_BYTES; a += 4 * 4099)
        cand.push_back({OTPU_SP_DRAM, a});
    std::vector<Poke> out;
    for (auto &[sp, a] : cand) {
        uint64_t end = a + (sp == OTPU_SP_DRAM ? 4 : 1);
        bool near = false; // the same location twice is changed once
        for (const Poke &p : out)
            near |= p.sp == sp && p.addr == a;
        if (end > size[sp] || near || in_any(fp, sp, a))
            continue;
        uint32_t old = peek(v, sp, a);
        out.push_back({sp, a, old});
        poke(v, sp, a, sp == OTPU_SP_ACT ? old ^ 0x5A : old ^ 0x40A0000Bu);
    }
    return out;
}

// Steps twin machines of a bundle side by side; before each unit instruction of the second,
// changes what lies around (outside) its footprint; it must write what the first writes.
std::string twin_run(const otpu_bundle &b, size_t *checked)
{
    otpu_error e;
    otpu_machine *ref = otpu_bundle_machine(&b, &e), *pert = otpu_bundle_machine(&b, &e);
    Capture cr, cp;
    otpu_listener lr{&cr, nullptr, capture, nullptr}, lp{&cp, nullptr, capture, nullptr};
    otpu_machine_set_listener(ref, &lr);
    otpu_machine_set_listener(pert, &lp);
    const otpu_config *c = otpu_machine_config(pert);
    std::string failure;
    bool stopped = false; // a simulated error ends the run
    for (int steps = 0; failure.empty() && !stopped && steps < 200000;) {
        int progressed = 0;
        for (uint32_t s = 0; s < c->S && failure.empty() && !stopped; s++) {
            otpu_slice_view v = otpu_machine_view(pert, s);
            std::vector<Poke> pokes;
            const otpu_instr *in = v.pc < v.nprog && !v.halted ? &v.prog[v.pc] : nullptr;
            otpu_unit u = in ? otpu_op_unit(in->op) : OTPU_UNIT_COUNT;
            if (in && u < OTPU_UNITS && u != OTPU_UNIT_COLL && in->op != OTPU_OP_WAITW) {
                otpu_range r[OTPU_FOOTPRINT_MAX];
                size_t n = otpu_footprint(c, in, v.R, v.tmem, r);
                pokes = perturb(c, v, std::vector<otpu_range>(r, r + n));
            }
            cr.w.clear();
            cp.w.clear();
            int a = otpu_machine_step(ref, s), p = otpu_machine_step(pert, s);
            for (const Poke &k : pokes)
                poke(v, k.sp, k.addr, k.saved);
            if (a != p || !same_writes(cr.w, cp.w)) {
                char d[256];
                otpu_disasm(in, d, sizeof d);
                failure = "slice " + std::to_string(s) + " pc " + std::to_string(v.pc) + " " + d +
                          ": its writes change when locations outside its read ranges change";
            }
            *checked += !pokes.empty();
            stopped = a < 0;
            progressed |= a == 0;
            steps += a == 0;
        }
        if (!stopped && !progressed && (otpu_machine_settle(ref) <= 0 || otpu_machine_settle(pert) <= 0))
            break;
    }
    otpu_machine_free(ref);
    otpu_machine_free(pert);
    return failure;
}

TEST(Footprint, ReadRangesCoverEveryRead)
{
    size_t checked = 0;
    each_isa_case([&](const std::string &c, const otpu_bundle &b) {
        EXPECT_EQ(twin_run(b, &checked), "") << c;
    });
    std::cout << "unit instructions checked with their surroundings changed: " << checked << "\n";
    EXPECT_GT(checked, 1000u);
}

} // namespace
