// lockstep_cov.h - otpu-lockstep run --coverage: the functional coverage (cov/coverage.h) of a
// bundle, from the C model's run of it and from the RTL's event log (rtl/EVENTS.md records as the
// simulator's --events writes them: "CYCLE sS KIND [unit=U] [slot=N] pc=P op=OP").
#ifndef OTPU_LOCKSTEP_COV_H
#define OTPU_LOCKSTEP_COV_H

#include <string>

// Runs the model on the bundle with coverage, adds the RTL's dispatch/start/complete records of
// the event log, writes the JSON file out. "" when done, else one line saying why.
std::string lockstep_coverage(const std::string &bundle, const std::string &events,
                              const std::string &out);

#endif
