// rtl_args.cpp - the simulator's command line (rtl_args.h).
#include "rtl_args.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "cmdline.h"

int usage(const std::string &why) {
  fprintf(stderr, "otpu-rtl: %s (usage: rtl_bridge/rtl_driver.h)\n", printable(why).c_str());
  return 2;
}

bool parse_args(int argc, char **argv, DriverArgs *o, std::string *why) {
  auto number = [](const std::string &v, uint64_t *out) {
    errno = 0;
    char *end = nullptr;
    *out = std::strtoull(v.c_str(), &end, 10);
    return !v.empty() && !*end && v[0] >= '0' && v[0] <= '9' && errno == 0;
  };
  LockstepArgs &la = o->la;
  ArgWalk args(argc, argv, 1);
  for (std::string a; args.next(&a);) {
    std::string v;
    bool ok = true;
    if (a == "--dump") ok = args.value(&o->dump_dir);
    else if (a == "--fst") ok = args.value(&o->fst);
    else if (a == "--events") ok = args.value(&o->events);
    else if (a == "--coverage") ok = args.value(&o->coverage) && !o->coverage.empty();
    else if (a == "--wave") ok = args.value(&o->wave) && !o->wave.empty();
    else if (a == "--wave-window") ok = args.value(&v) && number(v, &o->wave_window);
    else if (a == "--snapshot-every") ok = args.value(&v) && number(v, &o->snapshot_every);
    else if (a == "--code-coverage") ok = args.value(&o->code_cov) && !o->code_cov.empty();
    else if (a == "--lockstep") la.on = true;
    else if (a == "--keep-going") la.keep_going = true;
    else if (a == "--progress") la.progress = true;
    else if (a == "--quiet") la.quiet = true;
    else if (a == "--report") ok = args.value(&la.report);
    else if (a == "--repro") ok = args.value(&la.repro);
    else if (a == "--hang-cycles") ok = args.value(&v) && number(v, &la.hang_cycles);
    else if (a == "--fst-from") ok = args.value(&v) && number(v, &la.fst_from);
    else if (a == "--max-cycles") ok = args.value(&v) && number(v, &o->max_cycles);
    else if (!a.empty() && a[0] == '+') o->plusargs.push_back(a);  // the RTL reads it
    else if ((!a.empty() && a[0] == '-') || !o->bundle.empty()) ok = false;
    else o->bundle = a;
    if (!ok) {
      *why = (a[0] == '-' ? "bad option or value: " : "unexpected argument: ") + printable(a) +
             (v.empty() ? "" : " '" + printable(v) + "'");
      return false;
    }
  }
  *why = "no BUNDLE";
  return !o->bundle.empty();
}
