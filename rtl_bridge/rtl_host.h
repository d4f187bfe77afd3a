// rtl_host.h - host.txt on the RTL (sim/host.h): the driver plays the host of a run bundle.
// It runs the bundle's steps every cycle through libotpusim's executor, on a device made of
// the levels the RTL reports (dpi/dpi.h, otpu_dpi_host: a WAITW that polls, a slice halted or
// at a BAR) and the host's DRAM words and restarts the RTL takes, one edge later. Steps before the
// first wait run during reset, before any instruction, as the model runs them before its first.
#ifndef OTPU_RTL_HOST_H
#define OTPU_RTL_HOST_H

#include <cstdint>

#include "bundle.h"
#include "host.h"

// Opens the host of bundle b (nothing to do without host.txt); false when out of memory.
// drop_write (a fault, +otpu_host_drop_write=N): the N-th write step is skipped (0: none).
bool rtl_host_open(const otpu_bundle &b, uint64_t drop_write = 0);
void rtl_host_close();
// One round of steps at this time (clock edges since the start, reset included; it only
// grows): as otpu_host_advance (OTPU_HOST_BUSY, OTPU_HOST_TIME, 0 waits or done, -1 stopped);
// 0 without host.txt, and
// once a slice stopped with an error (the run is over, as in the model).
int rtl_host_advance(uint64_t cycle);
// True when the host saw every slice halted or stopped (the RTL reports it an edge after it
// happens), or without host.txt.
bool rtl_host_saw_stop();
// The executor, or nullptr without host.txt.
const otpu_host *rtl_host();

#endif
