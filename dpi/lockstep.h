/* lockstep.h - the lockstep session of a simulation process: the records of rtl/EVENTS.md
 * (kinds, units and ports: sim/protocol.h) translated into libotpucheck calls.
 *
 * The DPI entry points (dpi.c, imported by adapters from otpu_lockstep_dpi.sv) land their
 * arguments in the session attached to the process (otpu_ls_attach): a Verilated model has one
 * DPI scope, so the session is process-wide. Nothing is judged in this layer. */
#ifndef OTPU_LOCKSTEP_H
#define OTPU_LOCKSTEP_H

#include <stdint.h>
#include <stdio.h>

#include "bundle.h"
#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct otpu_ls otpu_ls;

/* Reads one slice's memories from the RTL at its halt (the bridge implements it). */
typedef int (*otpu_ls_state_fn)(void *user, uint32_t slice, otpu_rtl_state *out);

typedef struct {
    otpu_check_options check;
    otpu_ls_state_fn read_state; /* NULL: no end-state comparison */
    void *user;
} otpu_ls_options;

/* A session for the bundle folder (read here), or for a bundle already read (kept by the
 * caller; the session copies what it needs). NULL with one line in err on bad input. */
otpu_ls *otpu_ls_open(const char *bundle, const otpu_ls_options *o, char *err, size_t errlen);
otpu_ls *otpu_ls_open_bundle(const otpu_bundle *b, const otpu_ls_options *o, char *err,
                             size_t errlen);
void otpu_ls_close(otpu_ls *ls);
otpu_checker *otpu_ls_checker(otpu_ls *ls);

/* The process-wide session the DPI entry points forward to (NULL: they do nothing). */
void otpu_ls_attach(otpu_ls *ls);
otpu_ls *otpu_ls_attached(void);

/* EVENTS.md records. kind: OTPU_EV_*; unit: OTPU_UNIT_* (start, complete). Each returns an
 * OTPU_CHECK_* code. */
int otpu_ls_ins(otpu_ls *ls, uint32_t slice, int kind, int unit, uint32_t slot, uint32_t pc,
                uint32_t op);
/* port 0 is the sequencer's register port; the others belong to a unit (EVENTS.md). */
int otpu_ls_wr(otpu_ls *ls, uint32_t slice, uint32_t port, uint32_t space, uint32_t addr,
               uint32_t data, uint32_t mask);
/* kind: OTPU_SS_HALTED (a = pc; judged at otpu_ls_end, when read_state can read the RTL's
 * memories), OTPU_SS_ERROR (a = pc), OTPU_SS_CHAIN (a = address, b = instructions) */
int otpu_ls_state(otpu_ls *ls, uint32_t slice, int kind, uint32_t a, uint32_t b);
int otpu_ls_cycle(otpu_ls *ls, uint64_t cycle);
/* The run ended: the halted slices' states, then the final checks (after a divergence, only
 * with keep_going); timed_out: the run's time limit ended it, so a slice still running is the
 * timeout's verdict, not a divergence. */
int otpu_ls_end(otpu_ls *ls, int timed_out);

/* Set when a call was malformed (an adapter bug): the first such message, or NULL. */
const char *otpu_ls_bad_call(const otpu_ls *ls);

#ifdef __cplusplus
}
#endif
#endif
