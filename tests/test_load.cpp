// Loading a bundle's DRAM images (issue 16: loading must not dwarf running): both readers
// (otpu_bundle_read, and otpu_bundle_read_lazy that reads the images straight into the
// machine's DRAM) give a DRAM that reads back as the image, byte for byte, and leave the
// pages past the image untouched (the checker's otpu_dram_pages_touched: the lockstep end-state
// comparison takes an untouched page to be zero). The image has holes (zero pages) and a size that is
// not a multiple of 4096, and is large enough for the huge page path (hugepage.h).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "asm.h"
#include "bundle.h"
#include "dram_pages.h"

using namespace otpu_test;

namespace {

const uint64_t DRAM = 8u << 20, PAGE = 4096, HUGE2M = 2u << 20;

struct Bundle {
    std::string dir;
    std::vector<uint8_t> image;
    Bundle()
    {
        char tmpl[] = "/tmp/otpu_test_load_XXXXXX";
        dir = mkdtemp(tmpl) ? tmpl : "";
        // 3 MiB and 3 pages and 123 bytes; holes: page 1, pages 100..599 (2 MB), the page
        // before the last one
        size_t len = (3u << 20) + 3 * PAGE + 123;
        image.resize(len);
        std::mt19937 rng(16);
        for (auto &b : image)
            b = uint8_t(rng() | 1);
        auto hole = [&](size_t p0, size_t p1) {
            memset(image.data() + p0 * PAGE, 0, (p1 - p0) * PAGE);
        };
        hole(1, 2);
        hole(100, 600);
        hole(len / PAGE - 1, len / PAGE);
        write("case.txt", "S=1\nD=32\nMCOLS=8\nACT_BLOCKS=64\nTMEM_WORDS=65536\nDRAM_BYTES=" +
                              std::to_string(DRAM) +
                              "\nIMEM_WORDS=65536\nLANES=8\nPAIR=0\nDSTEP=0\nSTREAM=0\n"
                              "ACT_ROWS=0\nexpect=ok\n");
        std::string prog;
        char line[16];
        for (uint32_t w : words({halt()}))
            snprintf(line, sizeof line, "%08x\n", w), prog += line;
        write("prog_0.hex", prog);
        write("dram_0.bin", std::string(image.begin(), image.end()));
    }
    ~Bundle()
    {
        for (const char *f : {"case.txt", "prog_0.hex", "dram_0.bin"})
            unlink((dir + "/" + f).c_str());
        rmdir(dir.c_str());
    }
    void write(const char *name, const std::string &text) const
    {
        FILE *f = fopen((dir + "/" + name).c_str(), "wb");
        ASSERT_TRUE(f);
        ASSERT_EQ(fwrite(text.data(), 1, text.size(), f), text.size());
        ASSERT_EQ(fclose(f), 0);
    }
};

using Reader = int (*)(const char *, otpu_bundle *, char *, size_t);

// The machine's DRAM after loading: the touched pages first (looking touches), then the bytes.
void check_machine(const Bundle &t, const otpu_bundle &b)
{
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(&b, &e);
    ASSERT_TRUE(m) << e.msg;
    std::vector<uint8_t> touched(DRAM / PAGE);
    if (otpu_dram_pages_touched(m, 0, touched.data())) {
        otpu_machine_free(m);
        GTEST_SKIP() << "no /proc/self/pagemap: the touched pages are not known here";
    }
    const uint8_t *d = otpu_machine_view(m, 0).dram;
    size_t len = t.image.size();
    // pages of the image that hold data are touched; no page past the image's last 2 MiB
    // block is (the huge page hint may round up to it, never beyond)
    for (size_t p = 0; p * PAGE < len; p++) {
        bool data = false;
        for (size_t i = p * PAGE; i < len && i < (p + 1) * PAGE; i++)
            data |= t.image[i] != 0;
        if (data) {
            EXPECT_TRUE(touched[p]) << "page " << p << " holds image data";
        }
    }
    size_t beyond = (len + HUGE2M - 1) / HUGE2M * HUGE2M / PAGE, untouched = 0;
    for (size_t p = beyond; p < touched.size(); p++) {
        EXPECT_FALSE(touched[p]) << "page " << p << " lies past the image";
        untouched += !touched[p];
    }
    EXPECT_GT(untouched, 0u);
    // untouched pages hold zeros; the image reads back byte for byte, zeros after it
    for (size_t p = 0; p < touched.size(); p++)
        if (!touched[p]) {
            bool zero = true;
            for (size_t i = 0; i < PAGE; i++)
                zero &= d[p * PAGE + i] == 0;
            EXPECT_TRUE(zero) << "untouched page " << p << " is not zero";
        }
    EXPECT_EQ(memcmp(d, t.image.data(), len), 0);
    bool rest_zero = true;
    for (size_t i = len; i < DRAM; i++)
        rest_zero &= d[i] == 0;
    EXPECT_TRUE(rest_zero);
    EXPECT_EQ(otpu_machine_run(m, 100), 0) << otpu_machine_error(m)->msg;
    otpu_machine_free(m);
}

class Load : public testing::TestWithParam<Reader> {};

TEST_P(Load, ImageReadsBackAndPagesPastItStayUntouched)
{
    Bundle t;
    otpu_bundle b;
    char err[1024];
    ASSERT_EQ(GetParam()(t.dir.c_str(), &b, err, sizeof err), 0) << err;
    ASSERT_EQ(b.dram_len[0], t.image.size());
    check_machine(t, b);
    check_machine(t, b); // a second machine from the same bundle loads the same image
    otpu_bundle_free(&b);
}

INSTANTIATE_TEST_SUITE_P(Readers, Load,
                         testing::Values(&otpu_bundle_read, &otpu_bundle_read_lazy),
                         [](const testing::TestParamInfo<Reader> &i) {
                             return std::string(i.param == &otpu_bundle_read ? "eager" : "lazy");
                         });

TEST(LoadLazy, ImageThatShrankAfterTheReadIsAnErrorNotACrash)
{
    Bundle t;
    otpu_bundle b;
    char err[1024];
    ASSERT_EQ(otpu_bundle_read_lazy(t.dir.c_str(), &b, err, sizeof err), 0) << err;
    EXPECT_EQ(b.dram[0], nullptr);
    ASSERT_EQ(truncate((t.dir + "/dram_0.bin").c_str(), 5000), 0);
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(&b, &e);
    EXPECT_EQ(m, nullptr);
    EXPECT_NE(strstr(e.msg, "shrank"), nullptr) << e.msg;
    otpu_machine_free(m);
    // and a bundle whose images were not read is not written out as if they were empty
    EXPECT_EQ(otpu_bundle_write((t.dir + "/copy").c_str(), &b, err, sizeof err), -1);
    EXPECT_NE(strstr(err, "not read"), nullptr) << err;
    otpu_bundle_free(&b);
}

TEST(LoadLazy, RefusesWhatTheEagerReaderRefuses)
{
    Bundle t;
    char err[1024];
    otpu_bundle b;
    std::string img = t.dir + "/dram_0.bin";
    ASSERT_EQ(truncate(img.c_str(), DRAM + 1), 0);
    EXPECT_EQ(otpu_bundle_read_lazy(t.dir.c_str(), &b, err, sizeof err), -1);
    EXPECT_NE(strstr(err, "dram_0.bin: 8388609 bytes is more than"), nullptr) << err;
    ASSERT_EQ(unlink(img.c_str()), 0);
    ASSERT_EQ(mkfifo(img.c_str(), 0600), 0);
    EXPECT_EQ(otpu_bundle_read_lazy(t.dir.c_str(), &b, err, sizeof err), -1);
    EXPECT_NE(strstr(err, "FIFO"), nullptr) << err;
    EXPECT_EQ(strchr(err, '\n'), nullptr);
}

} // namespace
