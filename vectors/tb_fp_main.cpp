// tb_fp_main.cpp - the driver of the Verilated tb_fp bench.
//
//   tb_fp +vec=FILE [+show=N]       check a vector file (tb_fp.sv reads it in its initial block,
//                                   run by the first eval()); exit 0 all match, 1 mismatches,
//                                   2 bad input (no/unreadable/malformed/empty file)
//   tb_fp +hostref=N [+seed=S]      self-check: N random rounds of the IEEE-defined ops against
//                                   the host FPU (tb_fp_hostref.cpp); exit 0 or 1
//   tb_fp +dpi [+level=L] [+seed=S] [+count=N] [+ops=LIST] [+show=N] [+progress=SECONDS]
//              [+rev=NAME]          DPI batch mode (fpvec_dpi.cpp): the level-L vectors of the
//                                   fpvec generator, expected values from sim/fp32.c (the ISA
//                                   revision's functions); exit 0 all match, 1 mismatches, 2 bad
//                                   arguments
//   tb_fp +exhaustive +ops=LIST +lo=N +hi=N [+part=K +parts=N] [+progress=SECONDS] [+rev=NAME]
//                                   every input in [lo, hi) of the one-operand ops (the part's
//                                   chunks, fpvec_exh_dpi.cpp), tallies printed as EXH lines
//                                   for otpu-fpvec exhaustive; exit 0, 1 mismatches, 2 bad
//                                   arguments
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "Vtb_fp.h"
#include "fpvec_dpi.h"
#include "fpvec_exh_dpi.h"
#include "tb_fp_hostref.h"
#include "verilated.h"

namespace {

// The numeric value of +name=VALUE, or dflt when absent.
long long plus_number(VerilatedContext& ctx, const char* name, long long dflt) {
    const std::string key = std::string{name} + "=";
    const std::string arg = ctx.commandArgsPlusMatch(key.c_str());
    if (arg.empty()) return dflt;
    return std::strtoll(arg.c_str() + 1 + key.size(), nullptr, 0);
}

// The text of +name=VALUE, or "" when absent.
std::string plus_text(VerilatedContext& ctx, const char* name) {
    const std::string key = std::string{name} + "=";
    const std::string arg = ctx.commandArgsPlusMatch(key.c_str());
    return arg.empty() ? std::string{} : arg.substr(1 + key.size());
}

// +rev=NAME (default the current revision); false (said) for a name that is none
bool rev_option(VerilatedContext& ctx, const otpu_rev_desc** out) {
    const std::string rev = plus_text(ctx, "rev");
    otpu_revision r = OTPU_REV_CURRENT;
    if (!rev.empty() && otpu_rev_from_name(rev.c_str(), &r) != 0) {
        std::printf("tb_fp: error: +rev=%s: not an ISA revision\n", rev.c_str());
        return false;
    }
    *out = otpu_rev_desc_of(r);
    return true;
}

// The DPI mode's options from the plusargs; false (and a message) when one is bad.
bool dpi_options(VerilatedContext& ctx, FpvecDpiOptions& o) {
    o.level = static_cast<int>(plus_number(ctx, "level", 1));
    o.seed = static_cast<uint64_t>(plus_number(ctx, "seed", 1));
    const long long count = plus_number(ctx, "count", 0);
    o.show = static_cast<long>(plus_number(ctx, "show", 20));
    o.progress = static_cast<double>(plus_number(ctx, "progress", 5));
    if (o.level < 1 || o.level > FPVEC_MAX_LEVEL) {
        std::printf("tb_fp: error: +level=%d: levels are 1..%d\n", o.level, FPVEC_MAX_LEVEL);
        return false;
    }
    if (count < 0) {
        std::printf("tb_fp: error: +count must be >= 0\n");
        return false;
    }
    o.count = static_cast<uint64_t>(count);
    if (!rev_option(ctx, &o.rev)) return false;
    o.ops = fpvec_rev_ops(o.rev);
    const std::string ops = plus_text(ctx, "ops");
    if (!ops.empty()) {
        char bad[64];
        if (fpvec_parse_ops(ops.c_str(), &o.ops, bad, sizeof bad) != 0) {
            std::printf("tb_fp: error: +ops: unknown op '%s'\n", bad);
            return false;
        }
        if (o.ops & ~fpvec_rev_ops(o.rev)) {
            std::printf("tb_fp: error: +ops: an op ISA revision %s's fp32 unit lacks\n",
                        o.rev->name);
            return false;
        }
    }
    return true;
}

// The exhaustive mode's options; false (and a message) when one is bad.
bool exh_options(VerilatedContext& ctx, FpvecExhOptions& o) {
    const long long lo = plus_number(ctx, "lo", -1), hi = plus_number(ctx, "hi", -1);
    const long long part = plus_number(ctx, "part", 0), parts = plus_number(ctx, "parts", 1);
    o.progress = static_cast<double>(plus_number(ctx, "progress", 1));
    if (lo < 0 || hi <= lo || hi > (1LL << 32)) {
        std::printf("tb_fp: error: +lo=N +hi=N: need 0 <= lo < hi <= 2^32\n");
        return false;
    }
    if (parts < 1 || part < 0 || part >= parts) {
        std::printf("tb_fp: error: +part=K +parts=N: need 0 <= K < N\n");
        return false;
    }
    o.lo = static_cast<uint64_t>(lo);
    o.hi = static_cast<uint64_t>(hi);
    o.part = static_cast<unsigned>(part);
    o.parts = static_cast<unsigned>(parts);
    if (!rev_option(ctx, &o.rev)) return false;
    char bad[64];
    const std::string ops = plus_text(ctx, "ops");
    if (fpvec_parse_ops(ops.c_str(), &o.ops, bad, sizeof bad) != 0) {
        std::printf("tb_fp: error: +ops: unknown op '%s'\n", bad);
        return false;
    }
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if ((o.ops & (1u << op)) && (!fpvec_op_unary(op) || !(fpvec_rev_ops(o.rev) & (1u << op)))) {
            std::printf("tb_fp: error: +ops: %s is not a one-operand op of revision %s\n",
                        fpvec_op_name(op), o.rev->name);
            return false;
        }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
    ctx->commandArgs(argc, argv);
    const long long hostref = plus_number(*ctx, "hostref", -1);
    const bool dpi = std::string{ctx->commandArgsPlusMatch("dpi")} == "+dpi";
    const bool exh = std::string{ctx->commandArgsPlusMatch("exhaustive")} == "+exhaustive";
    if ((dpi || exh || hostref >= 0) && !plus_text(*ctx, "vec").empty()) {
        std::printf("tb_fp: error: +vec=FILE is a mode of its own (not with +dpi, +exhaustive "
                    "or +hostref)\n");
        return 2;
    }
    if (hostref >= 0 || dpi || exh) {
        const char* batch[] = {"+batch"};  // no file to read
        ctx->commandArgsAdd(1, batch);
    }
    const std::unique_ptr<Vtb_fp> top{new Vtb_fp{ctx.get(), "tb_fp"}};
    top->eval_op = 0;
    top->eval_a = 0;
    top->eval_b = 0;
    top->eval();  // runs the file reader (or nothing, in batch mode)
    int status = top->status;
    if (status == 0 && hostref >= 0) {
        const long long seed = plus_number(*ctx, "seed", 1);
        const long long show = plus_number(*ctx, "show", 20);
        status = tb_fp_hostcheck(*top, hostref, static_cast<uint64_t>(seed),
                                 static_cast<int>(show)) == 0 ? 0 : 1;
    } else if (status == 0 && dpi) {
        FpvecDpiOptions opt;
        const std::string scope = std::string{top->name()} + ".tb_fp";
        status = dpi_options(*ctx, opt) ? fpvec_dpi_run(scope.c_str(), opt) : 2;
    } else if (status == 0 && exh) {
        FpvecExhOptions opt;
        const std::string scope = std::string{top->name()} + ".tb_fp";
        status = exh_options(*ctx, opt) ? fpvec_exh_run(scope.c_str(), opt) : 2;
    }
    top->final();
    std::fflush(stdout);
    return status;
}
