// fpvec_dpi.cpp - the DPI batch mode of tb_fp (see fpvec_dpi.h).
//
// A batch holds up to kFpvecBatch vectors of one op. The driver generates the operands and computes
// the expected values with sim/fp32.c (fpvec_expected, the revision's functions), then calls
// tb_fp's exported
// fpvec_dpi_eval(n): the SV side reads each vector through fpvec_dpi_get and returns the
// otpu_fp result through fpvec_dpi_put. The RTL never sees the C model.
#include "fpvec_dpi.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <memory>

#include "Vtb_fp__Dpi.h"
#include "svdpi.h"

namespace {

// The batch the SV side is evaluating: DPI imports are plain C functions, so the driver lands
// it here for the duration of one fpvec_dpi_eval call.
FpvecDpiBatch* g_batch = nullptr;
uint32_t g_op = 0;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

extern "C" void fpvec_dpi_get(int i, unsigned int* op, unsigned int* a, unsigned int* b) {
    *op = g_op;
    *a = g_batch->a[i];
    *b = g_batch->b[i];
}

extern "C" void fpvec_dpi_put(int i, unsigned int res) { g_batch->got[i] = res; }

void fpvec_dpi_eval_batch(uint32_t op, size_t n, FpvecDpiBatch& batch) {
    g_batch = &batch;
    g_op = op;
    fpvec_dpi_eval(static_cast<int>(n));
    g_batch = nullptr;
}

bool fpvec_dpi_set_scope(const char* scope_name) {
    const svScope scope = svGetScopeFromName(scope_name);
    if (!scope) {
        std::printf("tb_fp: error: no DPI scope %s\n", scope_name);
        return false;
    }
    svSetScope(scope);
    return true;
}

int fpvec_dpi_run(const char* scope_name, const FpvecDpiOptions& opt) {
    if (!fpvec_dpi_set_scope(scope_name)) return 2;

    uint64_t per_op = opt.count ? opt.count : fpvec_level_count(opt.level);
    uint64_t total = 0;
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if (opt.ops & (1u << op)) total += per_op;
    std::printf("FPVEC mode=dpi level=%d seed=%" PRIu64 " count=%" PRIu64 " vectors=%" PRIu64
                " rev=%s\n", opt.level, opt.seed, per_op, total, opt.rev->name);
    std::fflush(stdout);

    const std::unique_ptr<FpvecDpiBatch> batch{new FpvecDpiBatch};
    const std::unique_ptr<fpvec_gen> gen{new fpvec_gen};
    uint64_t cases[FPVEC_NOPS] = {};
    uint64_t errors[FPVEC_NOPS] = {};
    uint64_t done = 0, errs = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double next_report = opt.progress;

    for (unsigned op = 0; op < FPVEC_NOPS; op++) {
        if (!(opt.ops & (1u << op))) continue;
        fpvec_gen_init(gen.get(), op, opt.level, opt.seed, opt.count, opt.rev->fp_nan_undefined);
        for (;;) {
            const size_t n = fpvec_gen_fill(gen.get(), batch->a, batch->b, kFpvecBatch);
            if (n == 0) break;
            for (size_t i = 0; i < n; i++)
                batch->expected[i] = fpvec_expected(&opt.rev->fp, op, batch->a[i], batch->b[i]);
            fpvec_dpi_eval_batch(op, n, *batch);
            for (size_t i = 0; i < n; i++) {
                if (batch->got[i] == batch->expected[i]) continue;
                if (static_cast<long>(errs) < opt.show)
                    fpvec_print_mismatch(stdout, op, batch->a[i], batch->b[i],
                                         batch->expected[i], batch->got[i], done + i + 1);
                errs++;
                errors[op]++;
            }
            cases[op] += n;
            done += n;
            if (opt.progress > 0 && seconds_since(t0) >= next_report) {
                const double s = seconds_since(t0);
                std::fprintf(stderr,
                             "tb_fp: dpi: %" PRIu64 " of %" PRIu64 " vectors (%.0f%%), %" PRIu64
                             " mismatches, %.2f M vectors/s\n",
                             done, total, 100.0 * static_cast<double>(done) /
                             static_cast<double>(total ? total : 1), errs,
                             static_cast<double>(done) / s / 1e6);
                next_report = s + opt.progress;
            }
        }
    }
    const double secs = seconds_since(t0);

    if (static_cast<long>(errs) > opt.show)
        std::printf("tb_fp: %" PRIu64 " more mismatches not shown\n",
                    errs - static_cast<uint64_t>(opt.show < 0 ? 0 : opt.show));
    fpvec_report(stdout, "tb_fp", opt.ops, cases, errors);
    std::printf("FPVEC rate: %" PRIu64 " vectors in %.3f s, %.0f vectors/s\n", done, secs,
                secs > 0 ? static_cast<double>(done) / secs : 0.0);
    std::fflush(stdout);
    if (done == 0) {
        std::printf("tb_fp: error: no vectors selected\n");
        return 2;
    }
    return errs == 0 ? 0 : 1;
}
