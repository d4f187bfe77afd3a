// rtl_events.cpp - the event log (rtl_events.h).
#include "rtl_events.h"

#include <cinttypes>

#include "dpi.h"
#include "isa.h"
#include "protocol.h"

namespace {

void log_ins(void *user, int sid, int kind, int unit, int slot, uint32_t pc, int op) {
  const EventLog &log = *static_cast<const EventLog *>(user);
  const char *name = otpu_op_name(unsigned(op));
  fprintf(log.f, "%" PRIu64 " s%d %s", *log.cycle, sid,
          kind >= 0 && kind <= OTPU_EV_COMPLETE ? otpu_event_names[kind] : "?");
  if (unit >= 0 && unit < OTPU_UNITS) fprintf(log.f, " unit=%s", otpu_unit_names[unit]);
  if (kind != OTPU_EV_EXEC) fprintf(log.f, " slot=%d", slot);
  fprintf(log.f, " pc=%u op=%s\n", pc, name ? name : "?");
}

void log_wr(void *user, int sid, int port, int space, uint32_t addr, uint32_t data, int mask) {
  const EventLog &log = *static_cast<const EventLog *>(user);
  fprintf(log.f, "%" PRIu64 " s%d write port=%s space=%s addr=%u data=%08x mask=%x\n",
          *log.cycle, sid, port >= 0 && port < OTPU_PORTS ? otpu_port_names[port] : "?",
          space >= 0 && space < OTPU_SPACES ? otpu_space_names[space] : "?", addr, data,
          unsigned(mask));
}

void log_state(void *user, int sid, int kind, uint32_t a, uint32_t b) {
  const EventLog &log = *static_cast<const EventLog *>(user);
  if (kind == OTPU_SS_CHAIN)
    fprintf(log.f, "%" PRIu64 " s%d chain addr=%u n=%u\n", *log.cycle, sid, a, b);
  else
    fprintf(log.f, "%" PRIu64 " s%d %s pc=%u icount=%u\n", *log.cycle, sid,
            kind == OTPU_SS_HALTED ? "halt" : "error", a, b);
}

}  // namespace

void event_log_start(EventLog *log) {
  otpu_dpi_observer o{log, log_ins, log_wr, log_state};
  otpu_dpi_observe(&o);
}
