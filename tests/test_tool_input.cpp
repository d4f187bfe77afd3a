// otpu-sim on bad input: one clear line on stderr naming the file (and line), exit status 2,
// never a crash. Each case builds a small bundle in a temporary folder.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

struct Result {
    int status;
    std::string out, err;
};

std::string sim() { const char *p = std::getenv("OTPU_SIM"); return p ? p : "otpu-sim"; }

Result run(const std::string &args)
{
    char tmpl[] = "/tmp/otpu_err_XXXXXX";
    int fd = mkstemp(tmpl);
    close(fd);
    std::string cmd = sim() + " " + args + " 2>" + tmpl;
    Result r;
    FILE *p = popen(cmd.c_str(), "r");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        r.out.append(buf, n);
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::ifstream f(tmpl);
    r.err.assign(std::istreambuf_iterator<char>(f), {});
    std::remove(tmpl);
    return r;
}

class Bundle {
public:
    Bundle()
    {
        char tmpl[] = "/tmp/otpu_bundle_XXXXXX";
        dir = mkdtemp(tmpl);
        write("case.txt", "desc=t\nS=1\nD=32\nDRAM_BYTES=4096\nexpect=ok\n");
        write("prog_0.hex", "00000001\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n");
        write("dram_0.bin", "");
    }
    ~Bundle() { std::system(("rm -rf " + dir).c_str()); }
    void write(const std::string &name, const std::string &text)
    {
        std::ofstream(dir + "/" + name, std::ios::binary) << text;
    }
    std::string dir;
};

void expect_bad(const Result &r, const std::string &phrase)
{
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(phrase), std::string::npos) << "stderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
}

TEST(ToolInput, AGoodBundleRuns)
{
    Bundle b;
    Result r = run("run " + b.dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("slice 0: halted icount=1 pc=0"), std::string::npos) << r.out;
}

TEST(ToolInput, MissingBundle) { expect_bad(run("run /nonexistent/bundle"), "/nonexistent/bundle"); }

TEST(ToolInput, MissingFiles)
{
    Bundle b;
    std::remove((b.dir + "/prog_0.hex").c_str());
    expect_bad(run("run " + b.dir), "prog_0.hex: cannot open");
    Bundle c;
    std::remove((c.dir + "/case.txt").c_str());
    expect_bad(run("check " + c.dir), "case.txt: cannot open");
}

TEST(ToolInput, HexLinesMustBeEightHexDigits)
{
    Bundle b;
    b.write("prog_0.hex", "00000001\n0000000g\n");
    expect_bad(run("run " + b.dir), "prog_0.hex:2: expected 8 hex digits");
    b.write("prog_0.hex", "00000001\n123\n");
    expect_bad(run("run " + b.dir), "prog_0.hex:2");
}

TEST(ToolInput, ProgramNotAWholeNumberOfInstructions)
{
    Bundle b;
    b.write("prog_0.hex", "00000001\n00000000\n00000000\n");
    expect_bad(run("run " + b.dir), "not a whole number of instructions");
}

TEST(ToolInput, ProgramLargerThanImem)
{
    Bundle b;
    b.write("case.txt", "S=1\nIMEM_WORDS=8\nDRAM_BYTES=4096\n");
    std::string two;
    for (int i = 0; i < 16; i++)
        two += i == 0 || i == 8 ? "00000001\n" : "00000000\n";
    b.write("prog_0.hex", two);
    expect_bad(run("run " + b.dir), "IMEM_WORDS");
}

TEST(ToolInput, DramImageLargerThanDram)
{
    Bundle b;
    b.write("dram_0.bin", std::string(4100, 'x'));
    expect_bad(run("run " + b.dir), "larger than DRAM_BYTES");
}

TEST(ToolInput, UnknownAndMalformedCaseKeys)
{
    Bundle b;
    b.write("case.txt", "S=1\nWIDTH=3\n");
    expect_bad(run("run " + b.dir), "case.txt:2: unknown key 'WIDTH'");
    b.write("case.txt", "S=1\nD\n");
    expect_bad(run("run " + b.dir), "case.txt:2: expected key=value");
    b.write("case.txt", "S=1\nD=abc\n");
    expect_bad(run("run " + b.dir), "case.txt:2: D=abc is not a non-negative integer");
    b.write("case.txt", "S=1\nARGS=1,2,3,4,5,6,7,8,9\n");
    expect_bad(run("run " + b.dir), "at most 8 run arguments");
}

TEST(ToolInput, ConfigsTheReferenceRefuses)
{
    Bundle b;
    b.write("case.txt", "S=1\nD=12\n");
    expect_bad(run("run " + b.dir), "D=12");
    b.write("case.txt", "S=1\nDRAM_BYTES=6\n");
    expect_bad(run("run " + b.dir), "DRAM_BYTES=6");
    b.write("case.txt", "S=0\n");
    expect_bad(run("run " + b.dir), "S=0");
}

TEST(ToolInput, BadOptionsAndDisasm)
{
    expect_bad(run("frobnicate"), "unknown command");
    Bundle b;
    expect_bad(run("run " + b.dir + " --max-steps x"), "--max-steps");
    expect_bad(run("run " + b.dir + " --bogus"), "unknown option");
    expect_bad(run("disasm " + b.dir + "/case.txt"), "expected 8 hex digits");
    Result r = run("disasm " + b.dir + "/prog_0.hex");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("0: HALT"), std::string::npos) << r.out;
    EXPECT_EQ(run("--help").status, 0);
    EXPECT_EQ(run("run --help").status, 0);
}

TEST(ToolInput, SimulatedErrorsExitOne)
{
    Bundle b;
    b.write("prog_0.hex", "00000010\n00000003\n00000000\n00000001\n00000000\n00000000\n00000000\n00000000\n");
    Result r = run("run " + b.dir);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("bad DRAM word address"), std::string::npos) << r.err;
}

} // namespace
