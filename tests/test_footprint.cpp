// Footprints: on every golden case, every location the model writes lies inside the write
// ranges otpu_footprint gives for that instruction (computed from the state at issue), and
// every location it reads lies inside the read ranges (changing what lies outside them changes
// nothing the instruction writes).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
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

// ---- no range without a location that matters, and isa.def's size rule ----
//
// Every unit instruction of the golden cases, its registers resolved, and each variant with a
// size field at 0 (isa.def's size lines), runs alone on a fresh random state: each write range
// of its footprint must hold a write it made, and changing a read range's locations must change
// what it writes (a range the instruction does not need would hold a younger instruction back
// for nothing, and the checker would call that younger write an order violation). A 0 must
// also do what the table says: an error where it says error, a run where it says empty.
// STREAM and WAITW run alone in the RTL (their footprints are hulls nobody waits on).

// op's operands with every R[reg] + imm field made the immediate of its value (register R0)
otpu_instr resolved(const otpu_instr *in, const uint32_t R[16])
{
    otpu_ops o = otpu_operands(in, R);
    for (unsigned k = 0; k < o.nri; k++) {
        otpu_ri *ri = reinterpret_cast<otpu_ri *>(reinterpret_cast<char *>(&o) + o.ri_at[k]);
        *ri = otpu_ri{ri->value, ri->value, 0};
    }
    otpu_instr out;
    otpu_encode_operands(in->op, &o, &out);
    return out;
}

struct Space {
    otpu_space sp;
    uint64_t units; // bytes of DRAM and ACT, words of TMEM and ASCALE
};

// A machine of one Config whose every slice starts from the same random state each time an
// instruction is tried on it: fp32 words of moderate magnitude in TMEM, DRAM and the scales
// (no zero partner makes a read irrelevant), random bytes in the ACT RAM.
class Bench {
  public:
    enum { KINDS = 6 }; // the ways change() moves a location's value
    explicit Bench(const otpu_config &c) : cfg_(c)
    {
        otpu_error e;
        m_ = otpu_machine_new(&cfg_, &e);
        uint64_t rows = otpu_config_act_rows(&cfg_);
        spaces_ = {{OTPU_SP_TMEM, cfg_.TMEM_WORDS}, {OTPU_SP_DRAM, cfg_.DRAM_BYTES},
                   {OTPU_SP_ACT, rows * cfg_.ACT_BLOCKS * cfg_.D},
                   {OTPU_SP_ASCALE, rows * cfg_.ACT_BLOCKS}};
        uint64_t seed = 0x9E3779B97F4A7C15ull;
        for (const Space &s : spaces_) {
            std::vector<uint8_t> img(s.units * otpu_machine_space_unit_bytes(s.sp));
            for (size_t i = 0; i < img.size(); i++)
                img[i] = static_cast<uint8_t>(next(seed));
            if (s.sp != OTPU_SP_ACT)
                for (size_t i = 3; i < img.size(); i += 4) // in [0.5, 8): every function cares
                    img[i] = static_cast<uint8_t>(0x3F + (img[i] & 1));
            pristine_.push_back(img);
        }
        Capture *cap = &cap_;
        listener_ = {cap, nullptr, collect, nullptr};
        otpu_machine_set_listener(m_, &listener_);
    }
    ~Bench() { otpu_machine_free(m_); }
    Bench(const Bench &) = delete;
    Bench &operator=(const Bench &) = delete;

    const otpu_config &cfg() const { return cfg_; }
    const uint32_t *tmem0() const { return reinterpret_cast<const uint32_t *>(pristine_[0].data()); }

    // Runs in, then HALT, on every slice from the random state with the locations of range r of
    // slice 0 (if given) changed as kind says: its error status and the writes of every slice.
    std::pair<int, std::vector<otpu_write>> run(const otpu_instr &in, const otpu_range *r,
                                                int kind = 0)
    {
        for (size_t k = 0; k < spaces_.size(); k++)
            for (uint32_t s = 0; s < cfg_.S; s++)
                std::memcpy(otpu_machine_memory(m_, s, spaces_[k].sp), pristine_[k].data(),
                            pristine_[k].size());
        if (r)
            change(*r, kind);
        otpu_machine_clear_error(m_);
        std::vector<uint32_t> prog = otpu_test_words(in);
        otpu_error e;
        for (uint32_t s = 0; s < cfg_.S; s++)
            otpu_machine_load_program(m_, s, prog.data(), prog.size(), &e);
        cap_.w.clear();
        int rc = otpu_machine_run(m_, 16);
        return {rc, cap_.w};
    }

  private:
    static uint64_t next(uint64_t &x)
    {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    }
    static void collect(void *u, const otpu_retired *r)
    {
        Capture *c = static_cast<Capture *>(u);
        c->w.insert(c->w.end(), r->writes, r->writes + r->nwrites);
    }
    static std::vector<uint32_t> otpu_test_words(const otpu_instr &in)
    {
        otpu_instr h{};
        h.op = OTPU_OP_HALT;
        std::vector<uint32_t> w(16);
        otpu_encode(&in, w.data());
        otpu_encode(&h, w.data() + 8);
        return w;
    }
    // every location of r in slice 0 (each row of an ACT range) gets another value, by kind:
    // 0 an fp32 word's mantissa bits (an ACT byte's bits) moved; 1 its magnitude made 16 times
    // larger than any other, 2 four times smaller; 3 +inf (ACT: 127); 4 a large negative; 5
    // -inf. Some reads matter only to some values (a MAX's loser, e in DSTEP ZERO's 0 * e)
    void change(const otpu_range &r, int kind)
    {
        static const uint8_t top[KINDS] = {0, 0x41, 0x3E, 0x7F, 0xC1, 0xFF};
        static const uint8_t act[KINDS] = {0, 0x5A, 0xA5, 0x7F, 0x81, 0x80};
        otpu_space sp = static_cast<otpu_space>(r.space);
        uint8_t *mem = static_cast<uint8_t *>(otpu_machine_memory(m_, 0, sp));
        unsigned ub = otpu_machine_space_unit_bytes(sp);
        uint64_t units = otpu_machine_space_units(m_, sp);
        uint64_t rows = r.wrap ? units / r.wrap : 1;
        for (uint64_t k = 0; k < rows; k++)
            for (uint64_t a = k * r.wrap + r.lo; a < k * r.wrap + r.hi && a < units; a++)
                for (uint64_t byte = a * ub; byte < (a + 1) * ub; byte++) {
                    uint8_t &x = mem[byte];
                    if (sp == OTPU_SP_ACT)
                        x = kind == 0 ? x ^ 0x5A : act[kind];
                    else if (byte % 4 == 3)
                        x = kind == 0 ? x : top[kind];
                    else if (kind == 0)
                        x ^= 0x5A;
                    else if (kind == 3 || kind == 5)
                        x = byte % 4 == 2 ? 0x80 : 0;
                }
    }

    otpu_config cfg_;
    otpu_machine *m_ = nullptr;
    std::vector<Space> spaces_;
    std::vector<std::vector<uint8_t>> pristine_;
    Capture cap_;
    otpu_listener listener_{};
};

bool writes_inside(const otpu_range &g, const std::vector<otpu_write> &w)
{
    for (const otpu_write &x : w)
        if (otpu_range_hits(&g, static_cast<otpu_space>(x.space), x.addr))
            return true;
    return false;
}

std::string described(const otpu_instr &in)
{
    char d[256];
    otpu_disasm(&in, d, sizeof d);
    return d;
}

// What was tried: instructions, and for each size line (op, field) the zero variants run.
struct Tally {
    size_t instructions = 0, ranges = 0;
    std::map<std::pair<unsigned, std::string>, size_t> zeros;
};

// in and each of its zero variants on bench b: the failures, one line each
void try_instruction(Bench &b, const otpu_instr &in, Tally &t, std::vector<std::string> &fail)
{
    auto base = b.run(in, nullptr);
    if (base.first != 0)
        return; // refused on its own (an expected-error case's instruction)
    std::vector<std::pair<otpu_instr, int>> variants = {{in, OTPU_ZERO_EMPTY}};
    otpu_ops o = otpu_operands(&in, nullptr);
    for (unsigned k = 0; k < otpu_size_count(in.op); k++) {
        otpu_ops z = o;
        otpu_size_set(&z, k, 0);
        int rule = otpu_size_zero(&z, k);
        if (rule < 0 || otpu_size_get(&o, k) == 0)
            continue;
        otpu_instr v;
        otpu_encode_operands(in.op, &z, &v);
        variants.push_back({v, rule});
        t.zeros[{in.op, otpu_size_name(in.op, k)}]++;
    }
    for (auto &[v, rule] : variants) {
        auto ran = b.run(v, nullptr);
        if ((ran.first != 0) != (rule == OTPU_ZERO_ERROR)) {
            fail.push_back(described(v) + ": " + (ran.first ? "refused" : "ran") +
                           ", where isa.def's size rule says " +
                           (rule == OTPU_ZERO_ERROR ? "error" : "empty"));
            continue;
        }
        if (ran.first)
            continue;
        t.instructions++;
        otpu_range r[OTPU_FOOTPRINT_MAX];
        size_t n = otpu_footprint(&b.cfg(), &v, nullptr, b.tmem0(), r);
        for (size_t k = 0; k < n; k++) {
            if (r[k].space == OTPU_SP_REG)
                continue;
            t.ranges++;
            bool matters = r[k].write ? writes_inside(r[k], ran.second)
                                      : [&] {
                                            for (int kind = 0; kind < Bench::KINDS; kind++) {
                                                auto p = b.run(v, &r[k], kind);
                                                if (p.first != ran.first ||
                                                    !same_writes(p.second, ran.second))
                                                    return true;
                                            }
                                            return false;
                                        }();
            if (!matters)
                fail.push_back(described(v) + ": its " + (r[k].write ? "write" : "read") +
                               " range " + std::to_string(k) + " [" + std::to_string(r[k].lo) +
                               ", " + std::to_string(r[k].hi) + ") of space " +
                               std::to_string(r[k].space) +
                               (r[k].write ? " holds none of its writes"
                                           : ": changing it changes nothing it writes"));
        }
    }
}

TEST(Footprint, EveryRangeMattersAndZeroSizesFollowTheTable)
{
    Tally t;
    std::vector<std::string> fail;
    std::set<std::vector<uint32_t>> seen; // config and instruction words tried already
    each_isa_case([&](const std::string &c, const otpu_bundle &b) {
        // the unit instructions of the case, resolved with their registers at issue
        struct Issued {
            otpu_machine *m;
            std::vector<otpu_instr> ins;
        } got{nullptr, {}};
        otpu_error e;
        got.m = otpu_bundle_machine(&b, &e);
        ASSERT_NE(got.m, nullptr) << e.msg;
        otpu_listener l{&got,
                        [](void *u, uint32_t s, uint64_t, uint32_t, const otpu_instr *in) {
                            Issued *g = static_cast<Issued *>(u);
                            otpu_unit un = in ? otpu_op_unit(in->op) : OTPU_UNIT_COUNT;
                            if (in && un < OTPU_UNITS && in->op != OTPU_OP_STREAM &&
                                in->op != OTPU_OP_WAITW && in->op != OTPU_OP_BAR)
                                g->ins.push_back(resolved(in, otpu_machine_view(g->m, s).R));
                        },
                        nullptr, nullptr};
        otpu_machine_set_listener(got.m, &l);
        otpu_machine_run(got.m, 10000000);
        otpu_machine_free(got.m);
        Bench bench(b.cfg);
        for (const otpu_instr &in : got.ins) {
            std::vector<uint32_t> key(reinterpret_cast<const uint32_t *>(&b.cfg),
                                      reinterpret_cast<const uint32_t *>(&b.cfg + 1));
            key.insert(key.end(), in.w, in.w + 8);
            if (seen.insert(key).second && fail.size() < 20)
                try_instruction(bench, in, t, fail);
        }
        (void)c;
    });
    for (const std::string &f : fail)
        ADD_FAILURE() << f;
    std::cout << "instructions tried alone: " << t.instructions << ", ranges: " << t.ranges
              << "\n";
    // every size line of a unit instruction met a 0 at least once
    for (unsigned op = 0; op < 256; op++) {
        otpu_unit un = otpu_op_name(op) ? otpu_op_unit(op) : OTPU_UNIT_COUNT;
        if (un >= OTPU_UNITS || op == OTPU_OP_STREAM || op == OTPU_OP_WAITW)
            continue;
        for (unsigned k = 0; k < otpu_size_count(op); k++) {
            size_t n = t.zeros[{op, otpu_size_name(op, k)}];
            std::cout << "  " << otpu_op_name(op) << " " << otpu_size_name(op, k) << "=0: " << n
                      << " variants\n";
            EXPECT_GT(n, 0u) << otpu_op_name(op) << " " << otpu_size_name(op, k);
        }
    }
    EXPECT_GT(t.ranges, 1000u);
}
