// tb_fp_main.cpp - the driver of the Verilated tb_fp bench.
//
//   tb_fp +vec=FILE [+show=N]       check a vector file (tb_fp.sv reads it in its initial block,
//                                   run by the first eval()); exit 0 all match, 1 mismatches,
//                                   2 bad input (no/unreadable/malformed/empty file)
//   tb_fp +hostref=N [+seed=S]      self-check: N random rounds of the IEEE-defined ops against
//                                   the host FPU (tb_fp_hostref.cpp); exit 0 or 1
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "Vtb_fp.h"
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

}  // namespace

int main(int argc, char** argv) {
    const std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
    ctx->commandArgs(argc, argv);
    const long long hostref = plus_number(*ctx, "hostref", -1);
    if (hostref >= 0) {
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
    }
    top->final();
    std::fflush(stdout);
    return status;
}
