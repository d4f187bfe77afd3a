// fpvec_exh_dpi.cpp - the exhaustive mode of tb_fp (see fpvec_exh_dpi.h).
#include "fpvec_exh_dpi.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <memory>

#include "fpvec_dpi.h"
#include "fpvec_exh.h"
#include "svdpi.h"

namespace {

constexpr uint64_t kChunk = uint64_t{1} << 16;  // inputs a part takes at a time

}  // namespace

int fpvec_exh_run(const char* scope_name, const FpvecExhOptions& opt) {
    if (!fpvec_dpi_set_scope(scope_name)) return 2;
    const std::unique_ptr<FpvecDpiBatch> buf{new FpvecDpiBatch{}};
    const std::unique_ptr<fpvec_exh_tally> tally{new fpvec_exh_tally{}};
    const auto t0 = std::chrono::steady_clock::now();
    double next_report = opt.progress;
    uint64_t done = 0, errs = 0;
    const uint64_t stride = kChunk * opt.parts;

    for (unsigned op = 0; op < FPVEC_NOPS; op++) {
        if (!(opt.ops & (1u << op))) continue;
        *tally = fpvec_exh_tally{};
        // NaN operands are left out where the revision leaves them undefined (i2f has none)
        const bool skip_nan = opt.rev->fp_nan_undefined;
        for (uint64_t c = opt.lo + kChunk * opt.part; c < opt.hi; c += stride) {
            const uint64_t end = std::min(c + kChunk, opt.hi);
            for (uint64_t x = c; x < end;) {
                size_t n = 0;
                for (; n < kFpvecBatch && x < end; x++) {
                    const uint32_t a = static_cast<uint32_t>(x);
                    if (skip_nan && fpvec_nan_operand(op, a, 0)) {
                        tally->skipped++;
                        continue;
                    }
                    buf->a[n] = a;
                    buf->b[n] = 0;
                    buf->expected[n] = fpvec_expected(&opt.rev->fp, op, a, 0);
                    n++;
                }
                if (n) fpvec_dpi_eval_batch(op, n, *buf);
                for (size_t i = 0; i < n; i++)
                    if (buf->got[i] != buf->expected[i]) {
                        fpvec_exh_mismatch(tally.get(), op, buf->a[i], buf->expected[i],
                                           buf->got[i]);
                        errs++;
                    }
                tally->inputs += n;
            }
            done += end - c;
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (opt.progress > 0 && s >= next_report) {
                std::printf("EXH progress done=%" PRIu64 "\n", done);
                std::fflush(stdout);
                next_report = s + opt.progress;
            }
        }
        fpvec_exh_print(stdout, op, tally.get());
        std::fflush(stdout);
    }
    std::printf("EXH end\n");
    std::fflush(stdout);
    return errs == 0 ? 0 : 1;
}
