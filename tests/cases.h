// cases.h - where the golden vectors and bench bundles are ($OTPU_VECTORS, $OTPU_BENCH; meson
// sets them), the case folders inside, and gtest names for them.
#pragma once

#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

namespace otpu_test {

inline std::string vectors_dir()
{
    const char *v = std::getenv("OTPU_VECTORS");
    return v && *v ? v : "../shared/vectors";
}

inline std::string bench_dir()
{
    const char *v = std::getenv("OTPU_BENCH");
    return v && *v ? v : "../shared/bench";
}

// the sub-folders of dir, sorted (empty when dir is missing)
inline std::vector<std::string> folders(const std::string &dir)
{
    std::vector<std::string> out;
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.' && e->d_type == DT_DIR)
                out.push_back(dir + "/" + e->d_name);
        closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

inline std::vector<std::string> isa_cases() { return folders(vectors_dir() + "/isa"); }
// the run bundles of an older ISA revision (REV=name in their case.txt): its isa/ folder, or
// another set of its (isa-nan/)
inline std::vector<std::string> rev_cases(const std::string &name, const std::string &set = "isa")
{
    return folders(vectors_dir() + "/rev-" + name + "/" + set);
}
inline std::vector<std::string> bench_cases() { return folders(bench_dir()); }

inline std::string case_name(const testing::TestParamInfo<std::string> &p)
{
    std::string n = p.param.substr(p.param.rfind('/') + 1);
    for (char &c : n)
        if (!isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return n;
}

} // namespace otpu_test
