// test_fp32.cpp - sim/fp32.c against the golden op vectors and a set of edge cases.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bits.h"
#include "fp32.h"

namespace {

constexpr uint32_t PZERO = 0x00000000u;
constexpr uint32_t NZERO = 0x80000000u;
constexpr uint32_t ONE = 0x3F800000u;
constexpr uint32_t MIN_NORMAL = 0x00800000u;
constexpr uint32_t QNAN = OTPU_F32_QNAN;

const char *const kOpNames[15] = {"add", "sub", "mul", "max", "min", "exp2", "recip", "rsqrt",
                                  "i2f", "q8",  "gt",  "abs", "log2", "max_mm", "min_mm"};

// The tb_fp op codes of ops.vec (vectors/FORMAT.md).
bool eval_op(unsigned op, uint32_t a, uint32_t b, uint32_t *out)
{
    switch (op) {
    case 0: *out = otpu_f32_add(a, b); return true;
    case 1: *out = otpu_f32_sub(a, b); return true;
    case 2: *out = otpu_f32_mul(a, b); return true;
    case 3: case 13: *out = otpu_f32_max(a, b); return true;
    case 4: case 14: *out = otpu_f32_min(a, b); return true;
    case 5: *out = otpu_f32_exp2(a); return true;
    case 6: *out = otpu_f32_recip(a); return true;
    case 7: *out = otpu_f32_rsqrt(a); return true;
    case 8: *out = otpu_f32_i2f(static_cast<int64_t>(static_cast<int32_t>(a))); return true;
    case 9: *out = static_cast<uint8_t>(otpu_f32_q8(a)); return true;
    case 10: *out = otpu_f32_gt(a, b) ? 1u : 0u; return true;
    case 11: *out = otpu_f32_abs(a); return true;
    case 12: *out = otpu_f32_log2(a); return true;
    default: return false;
    }
}

std::string vectors_dir()
{
    const char *env = std::getenv("OTPU_VECTORS");
    return (env && *env) ? std::string(env) : std::string("../shared/vectors");
}


} // namespace

TEST(Fp32Vectors, AllOpsMatchGolden)
{
    const std::string path = vectors_dir() + "/fp32/ops.vec";
    std::ifstream in(path);
    ASSERT_TRUE(in.is_open()) << "cannot open " << path << " (set OTPU_VECTORS)";

    uint64_t checked[15] = {};
    uint64_t failed[15] = {};
    uint64_t total = 0, mismatches = 0, bad_lines = 0;
    std::string line;
    size_t lineno = 0;
    while (std::getline(in, line)) {
        lineno++;
        if (line.empty() || line[0] == '#')
            continue;
        unsigned op;
        uint32_t a, b, exp;
        if (std::sscanf(line.c_str(), "%x %" SCNx32 " %" SCNx32 " %" SCNx32, &op, &a, &b,
                        &exp) != 4 || op >= 15) {
            if (++bad_lines <= 5)
                ADD_FAILURE() << path << ":" << lineno << ": unparsable line '" << line << "'";
            continue;
        }
        uint32_t got = 0;
        ASSERT_TRUE(eval_op(op, a, b, &got));
        checked[op]++;
        total++;
        if (got != exp) {
            failed[op]++;
            if (++mismatches <= 20) {
                char buf[160];
                std::snprintf(buf, sizeof buf,
                              "line %zu: op %u (%s) a=%08" PRIx32 " b=%08" PRIx32
                              " expected=%08" PRIx32 " got=%08" PRIx32,
                              lineno, op, kOpNames[op], a, b, exp, got);
                ADD_FAILURE() << buf;
            }
        }
    }
    for (unsigned op = 0; op < 15; op++) {
        std::cout << "  op " << op << " (" << kOpNames[op] << "): " << checked[op]
                  << " checked, " << failed[op] << " mismatches\n";
        RecordProperty(std::string("checked_") + kOpNames[op], std::to_string(checked[op]));
    }
    std::cout << "  total: " << total << " checked, " << mismatches << " mismatches\n";
    RecordProperty("checked_total", std::to_string(total));
    EXPECT_EQ(bad_lines, 0u);
    EXPECT_GT(total, 0u) << "no vectors checked in " << path;
    EXPECT_EQ(mismatches, 0u);
}

// ---- flush to zero ----------------------------------------------------------------------------

TEST(Fp32Ftz, DenormalsBecomeSignedZeroNaNKept)
{
    EXPECT_EQ(otpu_f32_ftz(0x00000001u), PZERO);
    EXPECT_EQ(otpu_f32_ftz(0x807FFFFFu), NZERO);
    EXPECT_EQ(otpu_f32_ftz(MIN_NORMAL), MIN_NORMAL);
    EXPECT_EQ(otpu_f32_ftz(0xFFC12345u), 0xFFC12345u);  // NaN bits kept
    EXPECT_EQ(otpu_f32_ftz(0x7F800001u), 0x7F800001u);
}

TEST(Fp32Ftz, DenormalInputsAreZero)
{
    // denormal + denormal would be a normal number without FTZ on the inputs
    EXPECT_EQ(otpu_f32_add(0x00400000u, 0x00400000u), PZERO);
    EXPECT_EQ(otpu_f32_add(0x80400000u, 0x80400000u), NZERO);
    // a denormal times a huge number would be large without FTZ
    EXPECT_EQ(otpu_f32_mul(0x00000001u, 0x7F000000u), PZERO);
    EXPECT_EQ(otpu_f32_mul(0x80000001u, 0x7F000000u), NZERO);
    EXPECT_EQ(otpu_f32_add(0x00000001u, ONE), ONE);
}

TEST(Fp32Ftz, DenormalResultsFlush)
{
    // 2^-100 * 2^-30 = 2^-130: denormal, flushed with its sign
    EXPECT_EQ(otpu_f32_mul(0x0D800000u, 0x30800000u), PZERO);
    EXPECT_EQ(otpu_f32_mul(0x8D800000u, 0x30800000u), NZERO);
    // min_normal * 0.5 = 2^-127, flushed
    EXPECT_EQ(otpu_f32_mul(MIN_NORMAL, 0x3F000000u), PZERO);
    // 1.5*2^-126 - 2^-126 = 2^-127: a denormal difference flushes, with its sign
    EXPECT_EQ(otpu_f32_sub(0x00C00000u, MIN_NORMAL), PZERO);
    EXPECT_EQ(otpu_f32_sub(MIN_NORMAL, 0x00C00000u), NZERO);
}

TEST(Fp32Ftz, ProductRoundingUpToMinNormalIsKept)
{
    // 0.5 * (2^-126 * (2 - 2^-23)) = 2^-126 * (1 - 2^-24): rounds on the subnormal grid to 2^-126
    EXPECT_EQ(otpu_f32_mul(0x3F000000u, 0x00FFFFFFu), MIN_NORMAL);
    EXPECT_EQ(otpu_f32_mul(0xBF000000u, 0x00FFFFFFu), 0x80800000u);
    // one ulp less on the big operand does not round up
    EXPECT_EQ(otpu_f32_mul(0x3F000000u, 0x00FFFFFEu), PZERO);
}

// ---- NaN ----------------------------------------------------------------------------------------

TEST(Fp32NaN, ArithmeticGivesCanonicalNaN)
{
    EXPECT_EQ(otpu_f32_add(0xFFC00001u, ONE), QNAN);
    EXPECT_EQ(otpu_f32_add(ONE, 0x7F800001u), QNAN);
    EXPECT_EQ(otpu_f32_sub(OTPU_F32_PINF, OTPU_F32_PINF), QNAN);
    EXPECT_EQ(otpu_f32_add(OTPU_F32_PINF, OTPU_F32_NINF), QNAN);
    EXPECT_EQ(otpu_f32_mul(PZERO, OTPU_F32_NINF), QNAN);
    EXPECT_EQ(otpu_f32_mul(0x00000001u, OTPU_F32_PINF), QNAN);  // the denormal is a zero
    EXPECT_EQ(otpu_f32_mul(0xFFFFFFFFu, 0xFFFFFFFFu), QNAN);
}

TEST(Fp32NaN, CompositesOnNaN)
{
    EXPECT_EQ(otpu_f32_exp2(0xFFC00000u), OTPU_F32_PINF);  // canonicalized first: +NaN >= 128
    EXPECT_EQ(otpu_f32_exp2(QNAN), OTPU_F32_PINF);
    EXPECT_EQ(otpu_f32_recip(QNAN), PZERO);
    EXPECT_EQ(otpu_f32_recip(0xFFC00000u), NZERO);
    EXPECT_EQ(otpu_f32_rsqrt(QNAN), QNAN);
    EXPECT_EQ(otpu_f32_rsqrt(0xFFC00000u), PZERO);
    EXPECT_EQ(otpu_f32_log2(0x7FC00001u), QNAN);
    EXPECT_EQ(otpu_f32_log2(0xFFC00000u), QNAN);
    EXPECT_EQ(otpu_f32_q8(QNAN), 0);
    EXPECT_EQ(otpu_f32_abs(0xFFC12345u), 0x7FC12345u);
    EXPECT_EQ(otpu_f32_max(0x7FC12345u, ONE), 0x7FC12345u);
    EXPECT_EQ(otpu_f32_min(0xFFC12345u, OTPU_F32_NINF), 0xFFC12345u);
}

// ---- compares, max / min ------------------------------------------------------------------------

TEST(Fp32Order, TotalOrderOnZeros)
{
    EXPECT_TRUE(otpu_f32_gt(PZERO, NZERO));
    EXPECT_FALSE(otpu_f32_gt(NZERO, PZERO));
    EXPECT_FALSE(otpu_f32_gt(PZERO, PZERO));
    EXPECT_EQ(otpu_f32_max(NZERO, PZERO), PZERO);
    EXPECT_EQ(otpu_f32_max(PZERO, NZERO), PZERO);
    EXPECT_EQ(otpu_f32_min(NZERO, PZERO), NZERO);
    EXPECT_EQ(otpu_f32_min(PZERO, NZERO), NZERO);
    // a negative denormal is -0 and so below a positive denormal (+0)
    EXPECT_TRUE(otpu_f32_gt(0x00000005u, 0x80000005u));
    // equal after the flush: neither is greater
    EXPECT_FALSE(otpu_f32_gt(0x00000005u, PZERO));
    EXPECT_FALSE(otpu_f32_gt(PZERO, 0x00000005u));
}

TEST(Fp32Order, MaxMinReturnFlushedOperand)
{
    EXPECT_EQ(otpu_f32_max(0x00000005u, 0x80000001u), PZERO);
    EXPECT_EQ(otpu_f32_min(0x00000005u, 0x80000001u), NZERO);
    EXPECT_EQ(otpu_f32_max(0x80000001u, NZERO), NZERO);  // ties return ftz(b)
    EXPECT_EQ(otpu_f32_max(0x807FFFFFu, 0xBF800000u), NZERO);
}

TEST(Fp32Order, NaNsAtTheEnds)
{
    EXPECT_TRUE(otpu_f32_gt(QNAN, OTPU_F32_PINF));
    EXPECT_TRUE(otpu_f32_gt(OTPU_F32_NINF, 0xFFC00000u));
    EXPECT_TRUE(otpu_f32_gt(0x3F800001u, ONE));
    EXPECT_TRUE(otpu_f32_gt(0xBF800000u, 0xBF800001u));
    EXPECT_LT(otpu_f32_key(NZERO), otpu_f32_key(PZERO));
    EXPECT_EQ(otpu_f32_key(0x80000001u), otpu_f32_key(NZERO));
}

TEST(Fp32Order, Abs)
{
    EXPECT_EQ(otpu_f32_abs(0xBF800000u), ONE);
    EXPECT_EQ(otpu_f32_abs(0x807FFFFFu), PZERO);
    EXPECT_EQ(otpu_f32_abs(OTPU_F32_NINF), OTPU_F32_PINF);
}

// ---- conversions ----------------------------------------------------------------------------

TEST(Fp32Convert, I2fRoundsToNearestEven)
{
    EXPECT_EQ(otpu_f32_i2f(0), PZERO);
    EXPECT_EQ(otpu_f32_i2f(-1), 0xBF800000u);
    EXPECT_EQ(otpu_f32_i2f(16777216), 0x4B800000u);
    EXPECT_EQ(otpu_f32_i2f(16777217), 0x4B800000u);  // tie -> even (down)
    EXPECT_EQ(otpu_f32_i2f(16777219), 0x4B800002u);  // tie -> even (up)
    EXPECT_EQ(otpu_f32_i2f(16777218), 0x4B800001u);
    EXPECT_EQ(otpu_f32_i2f(-16777219), 0xCB800002u);
    EXPECT_EQ(otpu_f32_i2f(INT32_MAX), 0x4F000000u);
    EXPECT_EQ(otpu_f32_i2f(INT32_MIN), 0xCF000000u);
    EXPECT_EQ(otpu_f32_i2f(INT64_MIN), 0xDF000000u);
    EXPECT_EQ(otpu_f32_i2f(INT64_MAX), 0x5F000000u);
    // 2^40 + 2^16 + 1: just above the tie at 24 bits, rounds up
    EXPECT_EQ(otpu_f32_i2f((int64_t{1} << 40) + (int64_t{1} << 16) + 1), 0x53800001u);
    EXPECT_EQ(otpu_f32_i2f((int64_t{1} << 40) + (int64_t{1} << 16)), 0x53800000u);
    // agrees with the host conversion (RNE) on a sweep of magnitudes
    for (int sh = 0; sh < 62; sh++)
        for (int64_t d = -3; d <= 3; d++) {
            int64_t v = (int64_t{1} << sh) * 3 + d;
            ASSERT_EQ(otpu_f32_i2f(v), otpu_bits_of(static_cast<float>(v))) << v;
            ASSERT_EQ(otpu_f32_i2f(-v), otpu_bits_of(static_cast<float>(-v))) << -v;
        }
}

// The MM's int32 fast path (the host conversion) against the integer i2f: every int32 of
// magnitude below 2^21, the ends of the range, and for each exponent with rounding (2^24 and
// up) random high bits with every pattern of the bits rounded away, both signs.
TEST(Fp32Convert, I2f32InlineMatchesI2f)
{
    auto same = [](int64_t v) {
        int32_t i = static_cast<int32_t>(v);
        return otpu_f32_i2f32_inline(i) == otpu_f32_i2f(i);
    };
    for (int64_t v = -(int64_t{1} << 21); v <= (int64_t{1} << 21); v++)
        ASSERT_TRUE(same(v)) << v;
    for (int64_t d = 0; d < 65536; d++) {
        ASSERT_TRUE(same(int64_t{INT32_MIN} + d)) << INT32_MIN + d;
        ASSERT_TRUE(same(int64_t{INT32_MAX} - d)) << INT32_MAX - d;
    }
    uint64_t seed = 42;
    for (int p = 24; p <= 30; p++) {
        int sh = p - 23; // the bits below the 24-bit significand
        for (int rep = 0; rep < 2000; rep++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            int64_t hi = (int64_t{1} << 23) | static_cast<int64_t>((seed >> 40) & 0x7FFFFF);
            for (int64_t lo = 0; lo < (int64_t{1} << sh); lo++) {
                int64_t v = (hi << sh) | lo;
                ASSERT_TRUE(same(v)) << v;
                ASSERT_TRUE(same(-v)) << -v;
            }
        }
    }
}

// The same on every int32 (about 10 s; run with --gtest_also_run_disabled_tests).
TEST(Fp32Convert, DISABLED_I2f32InlineMatchesI2fOnEveryInt32)
{
    uint64_t bad = 0;
    int64_t first_bad = 0;
    for (int64_t v = INT32_MIN; v <= INT32_MAX; v++) {
        int32_t i = static_cast<int32_t>(v);
        if (otpu_f32_i2f32_inline(i) != otpu_f32_i2f(i) && bad++ == 0)
            first_bad = v;
    }
    EXPECT_EQ(bad, 0u) << "first at " << first_bad;
}

TEST(Fp32Convert, Q8TiesAndSaturation)
{
    EXPECT_EQ(otpu_f32_q8(0x3F000000u), 0);     // 0.5 -> 0
    EXPECT_EQ(otpu_f32_q8(0x3FC00000u), 2);     // 1.5 -> 2
    EXPECT_EQ(otpu_f32_q8(0x40200000u), 2);     // 2.5 -> 2
    EXPECT_EQ(otpu_f32_q8(0xC0200000u), -2);    // -2.5 -> -2
    EXPECT_EQ(otpu_f32_q8(0xBF000000u), 0);     // -0.5 -> 0
    EXPECT_EQ(otpu_f32_q8(0x3F000001u), 1);     // just above 0.5
    EXPECT_EQ(otpu_f32_q8(0x3EFFFFFFu), 0);     // just below 0.5
    EXPECT_EQ(otpu_f32_q8(0x42FD0000u), 126);   // 126.5 -> 126
    EXPECT_EQ(otpu_f32_q8(0x42FF0000u), 127);   // 127.5 -> 128 -> 127
    EXPECT_EQ(otpu_f32_q8(0xC2FF0000u), -127);
    EXPECT_EQ(otpu_f32_q8(0x43000000u), 127);   // 128
    EXPECT_EQ(otpu_f32_q8(OTPU_F32_NINF), -127);
    EXPECT_EQ(otpu_f32_q8(0x00000001u), 0);
}

// ---- composite functions --------------------------------------------------------------------

TEST(Fp32Recip, SpecialInputs)
{
    EXPECT_EQ(otpu_f32_recip(PZERO), PZERO);
    EXPECT_EQ(otpu_f32_recip(NZERO), PZERO);           // +0 for either zero
    EXPECT_EQ(otpu_f32_recip(0x80000001u), PZERO);     // a denormal is a zero
    EXPECT_EQ(otpu_f32_recip(OTPU_F32_PINF), PZERO);
    EXPECT_EQ(otpu_f32_recip(OTPU_F32_NINF), NZERO);
    EXPECT_EQ(otpu_f32_recip(0x7E800000u), PZERO);     // 2^126
    EXPECT_EQ(otpu_f32_recip(0xFE800000u), NZERO);
    EXPECT_EQ(otpu_f32_recip(0x7E7FFFFFu), MIN_NORMAL);  // just below 2^126: 2^-126 kept
    EXPECT_EQ(otpu_f32_recip(0x7E000000u), 0x01000000u); // 2^125 -> 2^-125
    EXPECT_EQ(otpu_f32_recip(ONE), ONE);
    EXPECT_EQ(otpu_f32_recip(0xC0000000u), 0xBF000000u); // -2 -> -0.5
    EXPECT_EQ(otpu_f32_recip(MIN_NORMAL), 0x7E800000u);  // 2^-126 -> 2^126
    EXPECT_EQ(otpu_f32_recip(0x40400000u), 0x3EAAAAABu); // 1/3 correctly rounded
}

TEST(Fp32Rsqrt, SpecialInputs)
{
    EXPECT_EQ(otpu_f32_rsqrt(PZERO), PZERO);
    EXPECT_EQ(otpu_f32_rsqrt(NZERO), PZERO);
    EXPECT_EQ(otpu_f32_rsqrt(OTPU_F32_PINF), PZERO);
    EXPECT_EQ(otpu_f32_rsqrt(OTPU_F32_NINF), PZERO);
    EXPECT_EQ(otpu_f32_rsqrt(0xBF800000u), PZERO);     // negative
    EXPECT_EQ(otpu_f32_rsqrt(0x00000001u), PZERO);     // denormal: a zero
    EXPECT_EQ(otpu_f32_rsqrt(ONE), ONE);
    EXPECT_EQ(otpu_f32_rsqrt(0x40800000u), 0x3F000000u); // 4 -> 0.5
    EXPECT_EQ(otpu_f32_rsqrt(MIN_NORMAL), 0x5F000000u);  // 2^-126 -> 2^63 (scaled path)
    EXPECT_EQ(otpu_f32_rsqrt(0x7E800000u), 0x20000000u); // 2^126 -> 2^-63 (scaled path)
    // largest finite: the result stays a normal number near 2^-64
    uint32_t r = otpu_f32_rsqrt(0x7F7FFFFFu);
    EXPECT_EQ(r & 0x7F800000u, 0x1F800000u);
}

TEST(Fp32Exp2, RangeAndExactPowers)
{
    EXPECT_EQ(otpu_f32_exp2(PZERO), ONE);
    EXPECT_EQ(otpu_f32_exp2(NZERO), ONE);
    EXPECT_EQ(otpu_f32_exp2(0x3F800000u), 0x40000000u);  // 2^1
    EXPECT_EQ(otpu_f32_exp2(0xBF800000u), 0x3F000000u);  // 2^-1
    EXPECT_EQ(otpu_f32_exp2(0xC2FC0000u), MIN_NORMAL);   // 2^-126
    EXPECT_EQ(otpu_f32_exp2(0xC2FC0001u), PZERO);        // below -126
    EXPECT_EQ(otpu_f32_exp2(OTPU_F32_NINF), PZERO);
    EXPECT_EQ(otpu_f32_exp2(0x42FE0000u), 0x7F000000u);  // 2^127
    EXPECT_EQ(otpu_f32_exp2(0x43000000u), OTPU_F32_PINF); // 128
    EXPECT_EQ(otpu_f32_exp2(OTPU_F32_PINF), OTPU_F32_PINF);
}

TEST(Fp32Log2, SpecialInputs)
{
    EXPECT_EQ(otpu_f32_log2(PZERO), OTPU_F32_NINF);
    EXPECT_EQ(otpu_f32_log2(NZERO), OTPU_F32_NINF);
    EXPECT_EQ(otpu_f32_log2(0x00000001u), OTPU_F32_NINF);  // denormal -> zero
    EXPECT_EQ(otpu_f32_log2(0xBF800000u), QNAN);
    EXPECT_EQ(otpu_f32_log2(OTPU_F32_NINF), QNAN);
    EXPECT_EQ(otpu_f32_log2(OTPU_F32_PINF), OTPU_F32_PINF);
    EXPECT_EQ(otpu_f32_log2(ONE), PZERO);
    EXPECT_EQ(otpu_f32_log2(0x41000000u), 0x40400000u);  // log2(8) = 3
}

// ---- sums -----------------------------------------------------------------------------------

// -(1.5 * 2^-126) + 2^-126 = -2^-127 flushes to -0: the way a sum becomes -0.
constexpr uint32_t M15 = 0x80C00000u;  // -(1.5 * 2^-126)

// otpu_f32_traced: the same result as the plain call, and each composite's steps in order.
TEST(Fp32Traced, StepsAndResults)
{
    otpu_f32_trace t;
    const uint32_t x = 0x3FC00000u; // 1.5
    EXPECT_EQ(otpu_f32_traced(otpu_f32_exp2, x, &t), otpu_f32_exp2(x));
    ASSERT_EQ(t.n, 9u); // i, f, seven Horner steps
    EXPECT_STREQ(t.step[0].name, "i = floor(x) (integer)");
    EXPECT_EQ(t.step[0].v, 1u);
    EXPECT_EQ(t.step[1].v, 0x3F000000u); // f = 0.5
    EXPECT_EQ(otpu_f32_traced(otpu_f32_exp2_taylor, x, &t), otpu_f32_exp2_taylor(x));
    EXPECT_EQ(t.n, 9u);
    EXPECT_EQ(otpu_f32_traced(otpu_f32_log2, x, &t), otpu_f32_log2(x));
    EXPECT_EQ(t.n, 12u); // e, m, t, eight Horner steps, q*t
    EXPECT_EQ(otpu_f32_traced(otpu_f32_recip, x, &t), otpu_f32_recip(x));
    EXPECT_EQ(t.n, 6u);
    EXPECT_EQ(otpu_f32_traced(otpu_f32_rsqrt, x, &t), otpu_f32_rsqrt(x));
    EXPECT_EQ(t.n, 7u);
    EXPECT_EQ(otpu_f32_traced(otpu_f32_recip_newton3, x, &t), otpu_f32_recip_newton3(x));
    EXPECT_EQ(t.n, 4u);
    EXPECT_EQ(otpu_f32_traced(otpu_f32_rsqrt_newton3, x, &t), otpu_f32_rsqrt_newton3(x));
    EXPECT_EQ(t.n, 5u);
    EXPECT_EQ(otpu_f32_traced(otpu_f32_abs, 0xBF800000u, &t), ONE); // no steps of its own
    EXPECT_EQ(t.n, 0u);
}

TEST(Fp32Isum, ChainStartsFromPositiveZero)
{
    // -0 + -0 = -0, but the chain starts at +0: +0 + -0 + -0 = +0
    const uint32_t negz[3] = {NZERO, NZERO, NZERO};
    EXPECT_EQ(otpu_f32_isum(negz, 3, 1, 4, 0), PZERO);
    EXPECT_EQ(otpu_f32_isum(negz, 3, 1, 1, 0), PZERO);
    // a chain that flushes on its last add ends at -0
    const uint32_t x[2] = {M15, MIN_NORMAL};
    EXPECT_EQ(otpu_f32_isum(x, 2, 1, 1, 0), NZERO);
    EXPECT_EQ(otpu_f32_isum(x, 2, 1, 1, 1), NZERO);  // n is a multiple of P = 1: no pad term
}

TEST(Fp32Isum, PadTermsTurnNegativeZeroPartialsIntoPositiveZero)
{
    // P = 4, p_q = +0 + x_q + x_{q+4} (+ x_{q+8}): every partial flushes to -0
    const uint32_t y[10] = {M15,        M15,        M15,        M15,
                            MIN_NORMAL, MIN_NORMAL, MIN_NORMAL, MIN_NORMAL,
                            NZERO,      NZERO};
    // n = 8: no pad terms either way; tree of four -0 partials = -0
    EXPECT_EQ(otpu_f32_isum(y, 8, 1, 4, 0), NZERO);
    EXPECT_EQ(otpu_f32_isum(y, 8, 1, 4, 1), NZERO);
    // n = 10: the pad adds +0 to partials 2 and 3 (-0 -> +0): (p0 + p2) + (p1 + p3) = +0;
    // without pad terms (MM) every partial stays -0
    EXPECT_EQ(otpu_f32_isum(y, 10, 1, 4, 0), NZERO);
    EXPECT_EQ(otpu_f32_isum(y, 10, 1, 4, 1), PZERO);
    // n = 7: partial 3 is +0 + x3 alone (normal), so it decides the sum
    EXPECT_EQ(otpu_f32_isum(y, 7, 1, 4, 0), M15);
    // P = 64 (the VOP sums): x[q] and x[q + 64] share partial q and flush it to -0
    std::vector<uint32_t> row(130, NZERO);
    for (unsigned q = 0; q < 64; q++) {
        row[q] = M15;
        row[q + 64] = MIN_NORMAL;
    }
    // n = 128: all 64 partials -0, no pad -> -0
    EXPECT_EQ(otpu_f32_isum(row.data(), 128, 1, 64, 1), NZERO);
    // n = 130: partials 2..63 get a +0 pad term -> +0; with pad == 0 they stay -0
    EXPECT_EQ(otpu_f32_isum(row.data(), 130, 1, 64, 1), PZERO);
    EXPECT_EQ(otpu_f32_isum(row.data(), 130, 1, 64, 0), NZERO);
}

TEST(Fp32Isum, InterleavedOrderAndTree)
{
    // 2^24 + 1 + 1: the order decides. Chain (P = 1): (2^24 + 1) + 1 = 2^24 (ties to even twice)
    const uint32_t two24 = 0x4B800000u;
    const uint32_t t[3] = {two24, ONE, ONE};
    EXPECT_EQ(otpu_f32_isum(t, 3, 1, 1, 0), two24);
    // P = 2: p0 = 2^24 + 1 = 2^24, p1 = 1, tree: 2^24 + 1 = 2^24
    EXPECT_EQ(otpu_f32_isum(t, 3, 1, 2, 0), two24);
    // reorder: {1, 2^24, 1} with P = 2: p0 = 1 + 1 = 2, p1 = 2^24 -> 2^24 + 2 exact
    const uint32_t u[3] = {ONE, two24, ONE};
    EXPECT_EQ(otpu_f32_isum(u, 3, 1, 2, 0), 0x4B800001u);
    EXPECT_EQ(otpu_f32_isum(u, 3, 1, 1, 0), two24);  // chain: (1 + 2^24) + 1
    // P = 4 tree is (p0 + p2) + (p1 + p3): p0 = 2^24, p2 = 1, p1 = 1, p3 = 1
    // -> (2^24 + 1) + (1 + 1) = 2^24 + 2; a left fold would give 2^24
    const uint32_t w[4] = {two24, ONE, ONE, ONE};
    EXPECT_EQ(otpu_f32_isum(w, 4, 1, 4, 0), 0x4B800001u);
    // stride 2: the elements 1, 2^24, 1
    // (the +inf in between must not be read)
    const uint32_t s[6] = {ONE, 0x7F800000u, two24, 0x7F800000u, ONE, 0x7F800000u};
    EXPECT_EQ(otpu_f32_isum(s, 3, 2, 1, 0), two24);        // (1 + 2^24) + 1
    EXPECT_EQ(otpu_f32_isum(s, 3, 2, 2, 0), 0x4B800001u);  // (1 + 1) + 2^24
    // empty sums are +0
    EXPECT_EQ(otpu_f32_isum(nullptr, 0, 1, 64, 1), PZERO);
    EXPECT_EQ(otpu_f32_isum(nullptr, 0, 1, 4, 0), PZERO);
    // a partial count that is not a power of two up to 64 has no defined sum: the canonical NaN
    EXPECT_EQ(otpu_f32_isum(t, 3, 1, 3, 0), QNAN);
    EXPECT_EQ(otpu_f32_isum(t, 3, 1, 128, 0), QNAN);
    EXPECT_EQ(otpu_f32_isum(t, 3, 1, 0, 0), QNAN);
}

TEST(Fp32Isum, SixtyFourPartialsMatchDirectDefinition)
{
    // a pseudo-random row of 200 values, isum_64 computed here from the definition
    std::vector<uint32_t> row(200);
    uint32_t st = 12345u;
    for (auto &v : row) {
        st = st * 1664525u + 1013904223u;
        v = (st & 0x807FFFFFu) | ((100u + ((st >> 23) & 31u)) << 23);
    }
    for (int pad = 0; pad <= 1; pad++) {
        uint32_t p[64];
        for (unsigned q = 0; q < 64; q++) {
            uint32_t acc = PZERO;
            for (size_t j = q; j < 256; j += 64)
                if (j < row.size())
                    acc = otpu_f32_add(acc, row[j]);
                else if (pad)
                    acc = otpu_f32_add(acc, PZERO);
            p[q] = acc;
        }
        for (unsigned h = 32; h >= 1; h /= 2)
            for (unsigned i = 0; i < h; i++)
                p[i] = otpu_f32_add(p[i], p[i + h]);
        EXPECT_EQ(otpu_f32_isum(row.data(), row.size(), 1, 64, pad), p[0]);
    }
    // P = 1 is the plain left-to-right chain, and for this row the order matters
    uint32_t chain = PZERO;
    for (uint32_t v : row)
        chain = otpu_f32_add(chain, v);
    EXPECT_EQ(otpu_f32_isum(row.data(), row.size(), 1, 1, 0), chain);
    EXPECT_NE(otpu_f32_isum(row.data(), row.size(), 1, 64, 1), chain);
}
