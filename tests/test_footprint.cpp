// Footprints: on every golden case, every location the model writes lies inside the write
// ranges otpu_footprint gives for that instruction (computed from the state at issue).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bundle.h"
#include "cases.h"
#include "footprint.h"

namespace {

struct Probe {
    otpu_machine *m = nullptr;
    std::vector<std::vector<otpu_range>> ranges; // per slice: the instruction in flight
    std::string failure;
    size_t checked = 0;
};

void on_issue(void *u, uint32_t s, uint64_t, uint32_t, const otpu_instr *in)
{
    Probe *p = static_cast<Probe *>(u);
    otpu_slice_view v = otpu_machine_view(p->m, s);
    otpu_range r[OTPU_FOOTPRINT_MAX];
    size_t n = in ? otpu_footprint(otpu_machine_config(p->m), in, v.R, v.tmem, r) : 0;
    p->ranges[s].assign(r, r + n);
}

void on_retire(void *u, const otpu_retired *r)
{
    Probe *p = static_cast<Probe *>(u);
    if (r->chain || r->faulted || !p->failure.empty())
        return;
    for (size_t i = 0; i < r->nwrites; i++) {
        const otpu_write &w = r->writes[i];
        bool in = false;
        for (const otpu_range &g : p->ranges[r->slice])
            in |= g.write && otpu_range_hits(&g, static_cast<otpu_space>(w.space), w.addr);
        p->checked++;
        if (!in) {
            char d[256];
            otpu_disasm(r->ins, d, sizeof d);
            p->failure = "slice " + std::to_string(r->slice) + " pc " + std::to_string(r->pc) +
                         " " + d + ": write to space " + std::to_string(w.space) + " address " +
                         std::to_string(w.addr) + " outside its footprint";
            return;
        }
    }
}

TEST(Footprint, CoversEveryWriteOfEveryGoldenCase)
{
    std::vector<std::string> cases = otpu_test::isa_cases();
    ASSERT_FALSE(cases.empty()) << otpu_test::vectors_dir();
    size_t total = 0;
    for (const std::string &c : cases) {
        otpu_bundle b;
        char err[1024];
        ASSERT_EQ(otpu_bundle_read(c.c_str(), &b, err, sizeof err), 0) << err;
        otpu_error e;
        Probe p;
        p.m = otpu_bundle_machine(&b, &e);
        ASSERT_NE(p.m, nullptr) << e.msg;
        p.ranges.resize(b.cfg.S);
        otpu_listener l{&p, on_issue, on_retire, nullptr};
        otpu_machine_set_listener(p.m, &l);
        otpu_machine_run(p.m, 10000000);
        EXPECT_EQ(p.failure, "") << c;
        total += p.checked;
        otpu_machine_free(p.m);
        otpu_bundle_free(&b);
    }
    std::cout << "writes checked: " << total << " in " << cases.size() << " cases\n";
    EXPECT_GT(total, 10000u);
}

} // namespace
