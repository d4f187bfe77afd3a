// rtl_verdict.h - the outcome of a run: the host's steps (host.txt) and, with --lockstep, the
// verdict: a divergence's report, or the outcome RTL and model agree on against the bundle's
// expect= (sim/outcome.h judges it).
#ifndef OTPU_RTL_VERDICT_H
#define OTPU_RTL_VERDICT_H

#include <cstdint>
#include <string>

#include "bundle.h"
#include "host.h"
#include "lockstep.h"
#include "rtl_args.h"

// host.txt's outcome (h: nullptr without one): one line; true when a step failed or was never
// reached (then the line goes to stderr with the tool's name, or into *why)
bool host_verdict(const otpu_host *h, const char *tool, std::string *why);

// The lockstep verdict of the session ls on bundle b (at its path): the report files, one line
// on stdout; the exit status (0 pass, 1 divergence, 2 an adapter error, 3 a hang, 6 an outcome
// the bundle's expect= contradicts). fst: the waveform ("" none); marker: its time of the
// first divergence.
int lockstep_verdict(otpu_ls *ls, const otpu_bundle &b, const LockstepArgs &la,
                     const std::string &bundle, const std::string &fst, uint64_t cycles,
                     uint64_t marker);

#endif
