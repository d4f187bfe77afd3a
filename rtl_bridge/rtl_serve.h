// rtl_serve.h - the fork server of a simulator (otpu-rtl-sim --serve), after AFL's: the process
// builds the Verilated model of its Config once, then forks a child per request that runs one
// bundle on it exactly as a process of its own would (rtl_driver.h's usage), so that exec, the
// dynamic loader and the model's construction are paid once per Config, not once per test.
// The server never runs a test itself: a crash or a hang stays in its child. A child dies with
// its server (PR_SET_PDEATHSIG): a server killed leaves no run going on.
//
// A request on stdin: NUL-terminated fields OUT, TIMEOUT, then the run's arguments, ended by an
// empty field. OUT is the file the child's stdout and stderr go to (truncated), TIMEOUT whole
// seconds (0: none; the child's process group is killed when it is over). One line answers each
// request on stdout:
//   exit N SECONDS      the run's exit status
//   signal N SECONDS    the child died of signal N (a crash)
//   timeout SECONDS     killed at TIMEOUT
//   bad WHY             a malformed request (nothing ran)
// The server ends at the end of stdin (exit 0), or with exit 2 on a request it cannot read.
#ifndef OTPU_RTL_SERVE_H
#define OTPU_RTL_SERVE_H

class RtlTop;  // rtl_driver.h (not included: the driver includes this file)

// one run on the prebuilt top: the driver's main with the top already made
using RtlRunOne = int (*)(int argc, char **argv, RtlTop *top);

int rtl_serve(const char *argv0, RtlTop *top, RtlRunOne run);

#endif
