// The MXU's int8 dot product paths (sim/dot.h): every path this build knows against the
// portable one on random shapes, extreme values and unaligned pointers, and the golden MM
// cases and bench bundles run with each path forced. A path this CPU lacks is skipped, with
// the reason, never counted as a pass.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bundle.h"
#include "cases.h"
#include "dot.h"
#include "golden.h"

using namespace otpu_test;

namespace {

std::vector<std::string> known_paths()
{
    std::vector<std::string> out;
    for (const char *const *p = otpu_dot_paths_known(); *p; p++)
        out.push_back(*p);
    return out;
}

// Selects a path for one test and restores the automatic choice after it.
class Path : public testing::TestWithParam<std::string> {
  protected:
    void SetUp() override
    {
        if (otpu_dot_available(GetParam().c_str()) != 1)
            GTEST_SKIP() << "this CPU lacks the '" << GetParam() << "' path";
        char err[256];
        ASSERT_EQ(otpu_dot_select(GetParam().c_str(), err, sizeof err), 0) << err;
        ASSERT_EQ(std::string(otpu_dot_path()), GetParam());
    }
    void TearDown() override
    {
        char err[256];
        EXPECT_EQ(otpu_dot_select(nullptr, err, sizeof err), 0) << err;
    }
};

// Random bytes, with a run of extremes in some: -128 and 127 are where an int8 x int8 kernel
// built on unsigned x signed products goes wrong.
void fill(std::vector<int8_t> &v, std::mt19937 &rng)
{
    for (int8_t &x : v)
        x = static_cast<int8_t>(rng());
    int mode = rng() % 4;
    for (size_t i = 0; mode && i < v.size(); i++)
        if (mode == 1 || rng() % 3 == 0)
            v[i] = rng() % 2 ? -128 : 127;
}

TEST_P(Path, DotEqualsPortableOnEveryLengthTo600)
{
    std::mt19937 rng(11);
    std::vector<int8_t> a(600 + 64), b(600 + 64);
    for (size_t n = 0; n <= 600; n++) {
        fill(a, rng);
        fill(b, rng);
        size_t oa = rng() % 64, ob = rng() % 64; // unaligned, and differently so
        const int8_t *pa = a.data() + oa, *pb = b.data() + ob;
        ASSERT_EQ(otpu_dot_i8(pa, pb, n), otpu_dot_i8_portable(pa, pb, n))
            << "n=" << n << " offsets " << oa << "," << ob;
    }
}

TEST_P(Path, ExtremesUpToTheLargestExactLength)
{
    // 131071 * 128 * 128 is the largest |sum| below 2^31: a biased kernel's lanes hold far
    // more than that before the correction, and must still come out exact.
    const size_t n = 131071;
    std::vector<int8_t> lo(n + 1, -128), hi(n + 1, 127);
    EXPECT_EQ(otpu_dot_i8(lo.data(), lo.data(), n), 131071 * 16384);
    EXPECT_EQ(otpu_dot_i8(lo.data() + 1, hi.data(), n), -131071 * 16256);
    EXPECT_EQ(otpu_dot_i8(hi.data(), hi.data() + 1, n), 131071 * 16129);
    for (size_t m : {1u, 63u, 64u, 65u, 4096u, 4097u})
        EXPECT_EQ(otpu_dot_i8(lo.data(), hi.data(), m), -static_cast<int32_t>(m) * 16256) << m;
}

TEST_P(Path, BlocksAndRowsEqualPortable)
{
    std::mt19937 rng(5);
    std::vector<int8_t> act(16 * 4200 + 64), w(4200 + 64);
    size_t tried = 0;
    for (size_t n : {0u, 1u, 7u, 8u, 24u, 31u, 32u, 33u, 63u, 64u, 65u, 96u, 127u, 128u, 129u,
                     200u, 256u, 272u, 512u, 600u, 1024u, 4096u})
        for (size_t nblocks : {1u, 2u, 3u, 8u})
            for (size_t rows : {1u, 2u, 5u, 9u}) {
                if (n * nblocks > 4200)
                    continue;
                fill(act, rng);
                fill(w, rng);
                size_t stride = n * nblocks + rng() % 40, oa = rng() % 64, ow = rng() % 64;
                if ((rows - 1) * stride + n * nblocks + oa > act.size())
                    continue;
                const int8_t *pa = act.data() + oa, *pw = w.data() + ow;
                std::vector<int32_t> out(rows * nblocks, 0x5A5A5A5A), one(rows, 0x5A5A5A5A);
                otpu_dot_i8_blocks(pa, stride, rows, pw, n, nblocks, out.data());
                otpu_dot_i8_rows(pa, stride, rows, pw, n, one.data());
                for (size_t j = 0; j < rows; j++) {
                    for (size_t k = 0; k < nblocks; k++)
                        ASSERT_EQ(out[j * nblocks + k],
                                  otpu_dot_i8_portable(pa + j * stride + k * n, pw + k * n, n))
                            << "n=" << n << " blocks " << nblocks << " rows " << rows
                            << " row " << j << " block " << k;
                    ASSERT_EQ(one[j], out[j * nblocks]) << "rows n=" << n << " row " << j;
                }
                tried++;
            }
    EXPECT_GT(tried, 200u);
}

bool runs_mm(const std::string &dir)
{
    otpu_bundle b;
    char err[1024];
    if (otpu_bundle_read(dir.c_str(), &b, err, sizeof err))
        return false;
    bool mm = false;
    for (uint32_t s = 0; s < b.cfg.S && !mm; s++)
        for (size_t i = 0; i + 8 <= b.prog_words[s] && !mm; i += 8)
            mm = otpu_decode(&b.prog[s][i]).op == OTPU_OP_MM;
    otpu_bundle_free(&b);
    return mm;
}

// Every golden ISA case and bench bundle whose programs use MM, run with this path: the final
// state hashes (and traces) must be the reference's.
TEST_P(Path, GoldenMmCasesMatchTheReference)
{
    std::vector<std::string> dirs = isa_cases(), bench = bench_cases();
    dirs.insert(dirs.end(), bench.begin(), bench.end());
    size_t checked = 0;
    for (const std::string &dir : dirs) {
        if (!runs_mm(dir))
            continue;
        char report[4096];
        EXPECT_EQ(otpu_golden_check(dir.c_str(), OTPU_REV_UNSET, 10000000, report, sizeof report),
                  0)
            << report;
        checked++;
    }
    std::cout << "MM cases checked with " << GetParam() << ": " << checked << "\n";
    EXPECT_GE(checked, 20u) << "the golden vectors are missing (OTPU_VECTORS)";
}

std::string path_name(const testing::TestParamInfo<std::string> &p)
{
    return p.param;
}

INSTANTIATE_TEST_SUITE_P(Dot, Path, testing::ValuesIn(known_paths()), path_name);

TEST(DotPaths, ListsAndSelection)
{
    std::vector<std::string> known = known_paths(), have;
    for (const char *const *p = otpu_dot_paths(); *p; p++)
        have.push_back(*p);
    ASSERT_FALSE(have.empty());
    EXPECT_EQ(known.back(), "portable");
    EXPECT_EQ(have.back(), "portable");
    for (const std::string &h : have)
        EXPECT_EQ(otpu_dot_available(h.c_str()), 1) << h;
    EXPECT_EQ(otpu_dot_available("sse9"), -1);
    std::cout << "paths this CPU has:";
    for (const std::string &h : have)
        std::cout << " " << h;
    std::cout << "\n";

    char err[256];
    ASSERT_EQ(otpu_dot_select("auto", err, sizeof err), 0) << err;
    EXPECT_EQ(std::string(otpu_dot_path()), have.front()); // the best one
    EXPECT_EQ(otpu_dot_select("sse9", err, sizeof err), -1);
    EXPECT_NE(strstr(err, "unknown int8 dot product path 'sse9'"), nullptr) << err;
    EXPECT_EQ(std::string(otpu_dot_path()), have.front()); // unchanged
    for (const std::string &k : known)
        if (otpu_dot_available(k.c_str()) == 0) {
            EXPECT_EQ(otpu_dot_select(k.c_str(), err, sizeof err), -1) << k;
            EXPECT_NE(strstr(err, "this CPU cannot run"), nullptr) << err;
        }
    ASSERT_EQ(otpu_dot_select("portable", err, sizeof err), 0) << err;
    EXPECT_EQ(std::string(otpu_dot_path()), "portable");
    ASSERT_EQ(otpu_dot_select(nullptr, err, sizeof err), 0) << err;
}

// A bad OTPU_DOT_PATH is an error of the run (no machine), never silently another path.
TEST(DotPaths, BadEnvironmentValueIsAnError)
{
    char err[256];
    otpu_config c = otpu_config_default();
    otpu_error e;
    setenv("OTPU_DOT_PATH", "avx9000", 1);
    EXPECT_EQ(otpu_dot_env_check(err, sizeof err), -1);
    EXPECT_NE(strstr(err, "OTPU_DOT_PATH: unknown"), nullptr) << err;
    EXPECT_EQ(otpu_machine_new(&c, &e), nullptr);
    EXPECT_NE(strstr(e.msg, "OTPU_DOT_PATH"), nullptr) << e.msg;
    setenv("OTPU_DOT_PATH", "portable", 1);
    EXPECT_EQ(otpu_dot_env_check(err, sizeof err), 0) << err;
    otpu_machine *m = otpu_machine_new(&c, &e);
    EXPECT_NE(m, nullptr) << e.msg;
    otpu_machine_free(m);
    unsetenv("OTPU_DOT_PATH");
    EXPECT_EQ(otpu_dot_env_check(err, sizeof err), 0) << err;
}

} // namespace
