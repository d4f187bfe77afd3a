/* lockstep.h - the DPI-C side of a lockstep run: the events of rtl/EVENTS.md (units 0 DMA ..
 * 4 COLL, write ports 0..10) translated into libotpucheck calls, and the verdict.
 *
 * The DPI entry points (dpi.c, declared in otpu_lockstep_dpi.sv) land their arguments here;
 * nothing is judged in this layer. One session per simulation process: a Verilated model has
 * one DPI scope, so the session is process-wide (otpu_ls_attach). */
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

/* EVENTS.md records. kind: 0 dispatch, 1 executed by the sequencer, 2 start, 3 complete;
 * unit: 0 DMA, 1 MXU, 2 QUANT, 3 VPU, 4 COLL. Each returns an OTPU_CHECK_* code. */
int otpu_ls_ins(otpu_ls *ls, uint32_t slice, int kind, int unit, uint32_t slot, uint32_t pc,
                uint32_t op);
/* port 0 is the sequencer's register port; the others belong to a unit (EVENTS.md). */
int otpu_ls_wr(otpu_ls *ls, uint32_t slice, uint32_t port, uint32_t space, uint32_t addr,
               uint32_t data, uint32_t mask);
/* kind: 0 halted, 1 error (a = pc), 2 HALT CHAIN (a = address, b = instructions) */
int otpu_ls_state(otpu_ls *ls, uint32_t slice, int kind, uint32_t a, uint32_t b);
int otpu_ls_cycle(otpu_ls *ls, uint64_t cycle);
/* The run ended: final checks. */
int otpu_ls_end(otpu_ls *ls);

/* Set when a call was malformed (an adapter bug): the first such message, or NULL. */
const char *otpu_ls_bad_call(const otpu_ls *ls);

#ifdef __cplusplus
}
#endif
#endif
