// rtl_events.h - the event log (--events FILE): every lockstep record the RTL reports, one
// line each, as the DPI layer sees it land (dpi.h's observer).
#ifndef OTPU_RTL_EVENTS_H
#define OTPU_RTL_EVENTS_H

#include <cstdint>
#include <cstdio>

struct EventLog {
  FILE *f = nullptr;             // nullptr: no log
  const uint64_t *cycle = nullptr;  // the run's cycle, printed on each line
};

// Shows every record to log (until the process ends): log must outlive the run.
void event_log_start(EventLog *log);

#endif
