// Conformance: every case folder of the golden vectors (../shared/vectors/isa), of an older
// ISA revision's (../shared/vectors/rev-<name>/isa and isa-nan, run under their REV=) and
// every benchmark bundle (../shared/bench) must match the Python reference bit for bit:
// identical trace lines, identical final-state hashes, expected errors of the same kind at the
// same instruction. The vectors are read, never regenerated.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cases.h"
#include "golden.h"

using namespace otpu_test;

namespace {

class Golden : public testing::TestWithParam<std::string> {};

TEST_P(Golden, MatchesTheReference)
{
    char report[4096];
    int rc = otpu_golden_check(GetParam().c_str(), OTPU_REV_UNSET, 10000000, report, sizeof report);
    EXPECT_EQ(rc, 0) << report;
}

INSTANTIATE_TEST_SUITE_P(Isa, Golden, testing::ValuesIn(isa_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(Bench, Golden, testing::ValuesIn(bench_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(RevAcf0c1c6, Golden, testing::ValuesIn(rev_cases("acf0c1c6")),
                         case_name);
// NaN, infinite and signalling-NaN operands through copy, abs, max, min, fill, the reductions,
// recip/rsqrt/exp2, arithmetic and MM, recorded from that revision's isasim.py
INSTANTIATE_TEST_SUITE_P(RevAcf0c1c6Nan, Golden,
                         testing::ValuesIn(rev_cases("acf0c1c6", "isa-nan")), case_name);

// Zero cases checked is a failure, not a pass.
TEST(GoldenSet, IsPresent)
{
    size_t n = isa_cases().size(), nb = bench_cases().size(), nr = rev_cases("acf0c1c6").size();
    size_t nn = rev_cases("acf0c1c6", "isa-nan").size();
    std::cout << "golden ISA cases: " << n << ", bench bundles: " << nb
              << ", revision acf0c1c6 cases: " << nr << " (and " << nn << " with NaNs)\n";
    RecordProperty("isa_cases", static_cast<int>(n));
    EXPECT_GE(n, 100u) << "the golden vectors folder is missing or incomplete (OTPU_VECTORS)";
    EXPECT_GE(nb, 1u) << "the bench bundles are missing (OTPU_BENCH)";
    EXPECT_GE(nr, 9u) << "revision acf0c1c6's vectors are missing (OTPU_VECTORS/rev-acf0c1c6)";
    EXPECT_GE(nn, 10u) << "revision acf0c1c6's NaN vectors are missing (rev-acf0c1c6/isa-nan)";
}

// A corrupted golden file must be caught: the checker itself can fail.
TEST(GoldenSet, ACorruptedTraceIsReported)
{
    std::string src = vectors_dir() + "/isa/vop_add_b0";
    char tmpl[] = "/tmp/otpu_golden_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    std::string dst = tmpl;
    std::string cmd = "cp " + src + "/* " + dst + "/ && chmod u+w " + dst + "/* && "
                      "sed -i '3s/.*/T 1 deadbeef/' " + dst + "/trace_0.txt";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    char report[4096];
    EXPECT_EQ(otpu_golden_check(dst.c_str(), OTPU_REV_UNSET, 10000000, report, sizeof report), 1);
    EXPECT_NE(std::string(report).find("trace_0.txt:3"), std::string::npos) << report;
    std::system(("rm -rf " + dst).c_str());
}

} // namespace
