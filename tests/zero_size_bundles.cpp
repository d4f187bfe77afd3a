// zero_size_bundles OUT - a run bundle per size line of sim/isa.def and base instruction, for
// tests/test_zero_sizes.py to run in lockstep: the instruction X with that size field at 0,
// waiting behind a long instruction of its own unit, and younger instructions of other units
// that write the locations X would touch with the field at its base value but, by the table's
// rule, does not touch at 0 (its footprint's ranges then, tests/test_footprint.cpp holding
// them exact). The RTL must let those writes land while X waits and the checker must take them
// as they are: neither may keep a range the 0 emptied. An error row's X must be refused by
// both; LOOP's and HALT's rows run their programs. Each bundle's zero.txt says what to check:
//   op=NAME field=FIELD x=PC rule=empty|error|skip writers=PC,PC,..
// Exit status: 0 written, 1 a row disagrees with the model (named on stderr), 2 bad usage.
#include <sys/stat.h>

#include <cerrno>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "asm.h"
#include "bundle.h"
#include "footprint.h"

using otpu_test::ins;

namespace {

// the memory map (TMEM words, DRAM bytes) of every program: data the prefix loads, X's
// operands below TMEM 0x8000 and DRAM 0x20000, the writers' sources, the long instruction's area
enum : uint32_t {
    DATA_WORDS = 0x1000,  // TMEM [0, DATA_WORDS) loaded from DRAM 0
    WRITER_DRAM = 0x20000, // an LD writer's source word
    WRITER_TMEM = 0xB000,  // a ST writer's source word, a QACT writer's row
    SCRATCH_DRAM = 0x3F000, // a QST writer's scale word
    SLOW_TMEM = 0xC000,    // the long instruction's TMEM
    SLOW_DRAM = 0x30000,   // and DRAM
};

otpu_config config(bool dstep)
{
    otpu_config c = otpu_config_default();
    c.S = 1;
    c.D = dstep ? 128 : 32;
    c.DRAM_BYTES = dstep ? 1u << 20 : 1u << 18;
    c.DSTEP = c.STREAM = dstep;
    return c;
}

otpu_instr ld(uint32_t dram, uint32_t tmem, uint32_t n) { return otpu_test::ld(dram, tmem, n); }
otpu_instr st(uint32_t dram, uint32_t tmem, uint32_t n) { return otpu_test::st(dram, tmem, n); }
otpu_instr vop(unsigned func, uint32_t dst, uint32_t a, uint32_t b, uint32_t rows, uint32_t cols,
               uint32_t drs, uint32_t ars, uint32_t brs, unsigned bmode, uint32_t imm = 0,
               unsigned flags = 0)
{
    return ins(OTPU_OP_VOP, {dst, a, b, rows | cols << 16, drs | ars << 16,
                             brs | func << 16 | bmode << 24, imm}, 0, 0, 0, 0, flags);
}
otpu_instr mm(uint32_t sa, uint32_t ssa, uint32_t out, uint32_t N, uint32_t KB, uint32_t rs,
              uint32_t ors, uint32_t M, uint32_t ab, uint32_t srs, unsigned flags)
{
    return ins(OTPU_OP_MM, {sa, ssa, out, N | KB << 16, rs, ors | M << 16 | ab << 24, srs}, 0, 0,
               0, 0, flags);
}
otpu_instr qact(uint32_t src, uint32_t rows, uint32_t ab, uint32_t KB, uint32_t srs,
                uint32_t cscale, uint32_t rscale, unsigned flags)
{
    return ins(OTPU_OP_QACT, {src, rows | ab << 8 | KB << 16, srs, cscale, rscale}, 0, 0, 0, 0,
               flags);
}
otpu_instr qst(uint32_t src, uint32_t dst, uint32_t sdst, uint32_t rows, uint32_t KB,
               uint32_t srs, uint32_t drs, uint32_t es, unsigned flags)
{
    return ins(OTPU_OP_QST, {src, dst, sdst, rows | KB << 16, srs, drs, es}, 0, 0, 0, 0, flags);
}
otpu_instr gather(uint32_t src, uint32_t dst, uint32_t rows, uint32_t cols, uint32_t srs,
                  uint32_t drs, uint32_t seg)
{
    return ins(OTPU_OP_GATHER, {src, dst, rows | cols << 16, srs, drs, seg});
}
otpu_instr dstep(uint32_t dram, uint32_t qk, uint32_t v, uint32_t rows, uint32_t cols,
                 uint32_t g, uint32_t o, uint32_t gs, unsigned flags = 0)
{
    return ins(OTPU_OP_DSTEP, {dram, qk, v, rows | cols << 16, g, o, gs}, 0, 0, 0, 0, flags);
}

struct Base {
    const char *name;
    otpu_instr in;
    bool dstep; // on the DSTEP Config (D=128)
};

// Instructions of every unit opcode with the flags and broadcast modes whose footprints
// differ, every size field not 0, all their operands in the low memory map.
std::vector<Base> bases()
{
    const uint32_t flt_one = 0x3F800000u;
    return {
        {"ld", ld(0x1000, 0x5000, 64), false},
        {"st", st(0x8000, 0x100, 64), false},
        {"dstep", dstep(0x10000, 0x100, 0x300, 4, 64, 0x400, 0x500, 1), true},
        {"mm", mm(0, 0x2000, 0x6000, 8, 4, 128, 8, 4, 0, 16, 0), false},
        {"mm_acc_ascale", mm(0, 0x700, 0x6000, 8, 4, 128, 8, 4, 0, 0,
                             OTPU_F_UNIT | OTPU_F_ACC | OTPU_F_ASCALE), false},
        {"mm_rmax", mm(0, 0x2000, 0x6000, 8, 4, 128, 8, 4, 0, 16, OTPU_F_RMAX), false},
        {"qact", qact(0x200, 4, 8, 2, 64, 0x300, 0x400, OTPU_F_CSCALE | OTPU_F_RSCALE), false},
        {"qact_row", qact(0x200, 4, 8, 2, 64, 0, 0, OTPU_F_ROW), false},
        {"qst", qst(0x200, 0x9000, 0xA000, 4, 2, 64, 64, 1, 0), false},
        {"qst_row", qst(0x200, 0x9000, 0xA000, 4, 2, 64, 64, 1, OTPU_F_ROW), false},
        {"vop_add_full", vop(OTPU_V_ADD, 0x5000, 0x100, 0x200, 4, 8, 8, 8, 8, OTPU_B_FULL), false},
        {"vop_mul_col", vop(OTPU_V_MUL, 0x5000, 0x100, 0x200, 4, 8, 8, 8, 0, OTPU_B_COL), false},
        {"vop_rdot_row", vop(OTPU_V_RDOT, 0x5000, 0x100, 0x200, 4, 8, 1, 8, 2, OTPU_B_ROW), false},
        {"vop_rsum", vop(OTPU_V_RSUM, 0x5000, 0x100, 0, 4, 8, 1, 8, 0, OTPU_B_FULL), false},
        {"vop_rmax", vop(OTPU_V_RMAX, 0x5000, 0x100, 0, 4, 8, 1, 8, 0, OTPU_B_FULL), false},
        {"vop_argmax", vop(OTPU_V_ARGMAX, 0x5000, 0x100, 0, 4, 8, 2, 8, 0, OTPU_B_FULL), false},
        {"vop_outer", vop(OTPU_V_OUTER, 0x5000, 0x300, 0x200, 4, 8, 8, 0, 1, OTPU_B_ROW, 0x400),
         false},
        {"vop_outer_dscalar", vop(OTPU_V_OUTER, 0x5000, 0x300, 0x200, 4, 8, 8, 0, 1, OTPU_B_ROW,
                                  0x400, OTPU_F_DSCALAR), false},
        {"vop_fill_scalar", vop(OTPU_V_FILL, 0x5000, 0, 0, 4, 8, 8, 0, 0, OTPU_B_SCALAR, flt_one),
         false},
        {"gather", gather(0x100, 0x5000, 4, 8, 8, 8, 32), false},
    };
}

// a long instruction of unit u, in the area nothing else touches
otpu_instr slow(otpu_unit u)
{
    switch (u) {
    case OTPU_UNIT_DMA: return ld(SLOW_DRAM, SLOW_TMEM, 0x3000);
    case OTPU_UNIT_MXU: return mm(SLOW_DRAM, 0, SLOW_TMEM, 64, 8, 256, 64, 8, 32, 0, OTPU_F_UNIT);
    case OTPU_UNIT_QUANT: return qact(SLOW_TMEM, 8, 40, 16, 512, 0, 0, 0);
    case OTPU_UNIT_VPU:
        return vop(OTPU_V_RECIP, SLOW_TMEM + 0x2000, SLOW_TMEM, 0, 64, 64, 64, 64, 0, OTPU_B_FULL);
    default: return gather(SLOW_TMEM, SLOW_TMEM + 0x2000, 64, 64, 64, 64, 4096);
    }
}

// A younger instruction of another unit than x's that writes the location (space, addr) and
// nothing X touches; false when no unit can (the ACT RAM of a QUANT instruction: only QACT
// writes it).
bool writer(otpu_unit x, otpu_space sp, uint64_t addr, const otpu_config &c, otpu_instr *out)
{
    uint32_t a = static_cast<uint32_t>(addr);
    if (sp == OTPU_SP_TMEM)
        *out = x != OTPU_UNIT_DMA
                   ? ld(WRITER_DRAM, a, 1)
                   : vop(OTPU_V_FILL, a, 0, 0, 1, 1, 0, 0, 0, OTPU_B_SCALAR, 0x40000000u);
    else if (sp == OTPU_SP_DRAM) // QST: D bytes from addr, its scale word in the scratch
        *out = x != OTPU_UNIT_DMA ? st(a & ~3u, WRITER_TMEM, 1)
                                  : qst(WRITER_TMEM, a, SCRATCH_DRAM, 1, 1, 0, 0, 1, 0);
    else if (sp == OTPU_SP_ACT && x != OTPU_UNIT_QUANT)
        *out = qact(WRITER_TMEM, 1, static_cast<uint32_t>(addr % (uint64_t(c.ACT_BLOCKS) * c.D) /
                                                          c.D), 1, 0, 0, 0, 0);
    else
        return false;
    return true;
}

bool inside(const otpu_range *r, size_t n, otpu_space sp, uint64_t lo, uint64_t hi)
{
    for (size_t k = 0; k < n; k++)
        if (r[k].space == sp && lo < r[k].hi && r[k].lo < hi)
            return true;
    return false;
}

// The locations (space, first unit) X at its base value touches and at 0 does not: the first
// of each range of base not met by zero's, then the last ones (a DRAM location: a whole D-byte
// chunk, for a QST writer; an ACT one: a whole block).
std::vector<std::pair<otpu_space, uint64_t>> emptied(const otpu_config &c, const otpu_instr &base,
                                                     const otpu_instr &zero)
{
    otpu_range b[OTPU_FOOTPRINT_MAX], z[OTPU_FOOTPRINT_MAX];
    size_t nb = otpu_footprint(&c, &base, nullptr, nullptr, b);
    size_t nz = otpu_footprint(&c, &zero, nullptr, nullptr, z);
    std::vector<std::pair<otpu_space, uint64_t>> out;
    for (int end = 0; end < 2; end++)
        for (size_t k = 0; k < nb; k++) {
            otpu_space sp = static_cast<otpu_space>(b[k].space);
            uint64_t unit = sp == OTPU_SP_TMEM ? 1 : c.D;
            if (sp != OTPU_SP_TMEM && sp != OTPU_SP_DRAM && sp != OTPU_SP_ACT)
                continue;
            uint64_t first = (b[k].lo + unit - 1) / unit * unit, last = b[k].hi / unit * unit;
            uint64_t at = end ? last - unit : first;
            if ((end && last < first + 2 * unit) || at + unit > b[k].hi ||
                inside(z, nz, sp, at, at + unit))
                continue;
            out.push_back({sp, at});
        }
    return out;
}

struct Program {
    std::vector<otpu_instr> ins;
    uint32_t x = 0;
    std::vector<uint32_t> writers;
};

// prefix (data into TMEM, the ACT RAM quantized, a BAR), the long instruction, X, and with a
// rule other than error the writers (as many as the window holds beside the two)
Program program(const otpu_config &c, const otpu_instr &x, const otpu_instr &base, int rule)
{
    Program p;
    p.ins = {ld(0, 0, DATA_WORDS), qact(0, 8, 0, 16, 512, 0, 0, 0), otpu_test::bar()};
    otpu_unit u = otpu_op_unit(x.op);
    p.ins.push_back(slow(u));
    p.x = static_cast<uint32_t>(p.ins.size());
    p.ins.push_back(x);
    for (auto &[sp, at] : emptied(c, base, x)) {
        otpu_instr w;
        if (rule != OTPU_ZERO_ERROR && p.writers.size() < 6 && writer(u, sp, at, c, &w)) {
            p.writers.push_back(static_cast<uint32_t>(p.ins.size()));
            p.ins.push_back(w);
        }
    }
    p.ins.push_back(otpu_test::halt());
    return p;
}

// fp32 data in [0.5, 8) for every word of the image (a fixed sequence)
std::vector<uint8_t> image(size_t bytes)
{
    std::vector<uint8_t> d(bytes);
    uint32_t x = 12345;
    for (size_t i = 0; i + 4 <= bytes; i += 4) {
        x = x * 1103515245u + 12345u;
        uint32_t w = 0x3F000000u + (x >> 9) % 0x01800000u;
        std::memcpy(&d[i], &w, 4);
    }
    return d;
}

const char *rule_name(int rule)
{
    return rule == OTPU_ZERO_ERROR ? "error" : rule == OTPU_ZERO_SKIP ? "skip" : "empty";
}

// Writes bundle OUT/name of p on c; runs the model on it: its outcome must be the rule's
// (an error at X for error, a clean halt otherwise). false with a line on stderr.
bool write(const std::string &out, const std::string &name, const otpu_config &c,
           const Program &p, const std::string &field, int rule)
{
    std::vector<uint32_t> words;
    for (const otpu_instr &i : p.ins) {
        uint32_t w[8];
        otpu_encode(&i, w);
        words.insert(words.end(), w, w + 8);
    }
    std::vector<uint8_t> dram = image(0x40000);
    otpu_error e;
    otpu_machine *m = otpu_machine_new(&c, &e);
    otpu_machine_load_program(m, 0, words.data(), words.size(), &e);
    otpu_machine_load_dram(m, 0, 0, dram.data(), dram.size(), &e);
    int rc = otpu_machine_run(m, 100000);
    const otpu_error *err = otpu_machine_error(m);
    bool agrees = rule == OTPU_ZERO_ERROR ? rc != 0 && err->pc == p.x : rc == 0;
    if (!agrees)
        fprintf(stderr, "zero_size_bundles: %s: the model %s%s, where isa.def's rule is %s\n",
                name.c_str(), rc ? "stops: " : "runs it", rc ? err->msg : "", rule_name(rule));
    otpu_machine_free(m);
    if (!agrees)
        return false;
    otpu_bundle b{};
    b.cfg = c;
    snprintf(b.desc, sizeof b.desc, "%s", name.c_str());
    b.expect_error = rule == OTPU_ZERO_ERROR;
    uint32_t *prog[1] = {words.data()};
    size_t prog_words[1] = {words.size()};
    uint8_t *images[1] = {dram.data()};
    size_t lens[1] = {dram.size()};
    b.prog = prog;
    b.prog_words = prog_words;
    b.dram = images;
    b.dram_len = lens;
    std::string note = std::string("op=") + otpu_op_name(p.ins[p.x].op) + " field=" + field +
                       " x=" + std::to_string(p.x) + " rule=" + rule_name(rule) + " writers=";
    for (size_t k = 0; k < p.writers.size(); k++)
        note += (k ? "," : "") + std::to_string(p.writers[k]);
    char msg[512];
    if (otpu_bundle_write_note((out + "/" + name).c_str(), &b, "zero.txt", (note + "\n").c_str(),
                               msg, sizeof msg)) {
        fprintf(stderr, "zero_size_bundles: %s\n", msg);
        return false;
    }
    return true;
}

// the sequencer's size lines: LOOP's count (skip) and body (error), HALT CHAIN's count (error)
bool sequencer_rows(const std::string &out, int *rows)
{
    otpu_config c = config(false);
    bool ok = true;
    for (unsigned op : {unsigned(OTPU_OP_LOOP), unsigned(OTPU_OP_HALT)})
        for (unsigned k = 0; k < otpu_size_count(op); k++) {
            std::string field = otpu_size_name(op, k);
            Program p;
            otpu_instr x = op == OTPU_OP_HALT ? otpu_test::halt(OTPU_F_CHAIN, 0, 0)
                                              : otpu_test::loop(field == "body" ? 0 : 1,
                                                                field == "count" ? 0 : 1);
            otpu_ops o = otpu_operands(&x, nullptr);
            p.ins = {x, ld(0, 0, 8), otpu_test::halt()};
            p.x = 0;
            ok &= write(out, std::string(otpu_op_name(op)) + "_" + field, c, p, field,
                        otpu_size_zero(&o, k));
            ++*rows;
        }
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: zero_size_bundles OUT\n");
        return 2;
    }
    std::string out = argv[1];
    if (mkdir(out.c_str(), 0777) && errno != EEXIST) {
        fprintf(stderr, "zero_size_bundles: %s: %s\n", out.c_str(), strerror(errno));
        return 2;
    }
    bool ok = true;
    int rows = 0;
    for (const Base &b : bases()) {
        otpu_config c = config(b.dstep);
        otpu_ops o = otpu_operands(&b.in, nullptr);
        for (unsigned k = 0; k < otpu_size_count(b.in.op); k++) {
            otpu_ops z = o;
            otpu_size_set(&z, k, 0);
            int rule = otpu_size_zero(&z, k);
            if (rule < 0)
                continue;
            otpu_instr x;
            otpu_encode_operands(b.in.op, &z, &x);
            std::string field = otpu_size_name(b.in.op, k);
            ok &= write(out, std::string(b.name) + "_" + field, c, program(c, x, b.in, rule),
                        field, rule);
            rows++;
        }
    }
    ok &= sequencer_rows(out, &rows);
    printf("%d bundles in %s\n", rows, out.c_str());
    return ok ? 0 : 1;
}
