/* dpi.h - what the driver hands the DPI-C entry points (dpi_entry.h, implemented by the C
 * files of dpi/) and what they hand back. The entry points land data, nothing more: the lockstep records go
 * to the process's lockstep session (lockstep.h, otpu_ls_attach) and an observer (dpi.c); the
 * bundle's contents are read from the bundle given here (bundle_dpi.c); the final state's words
 * and the host's calls are forwarded to the receivers given here (dump_dpi.c, host_dpi.c).
 * DPI-C functions have no context argument: each of these is one per process. */
#ifndef OTPU_DPI_H
#define OTPU_DPI_H

#include <stdint.h>

#include "bundle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sees every record as it lands (the arguments of the DPI calls). */
typedef struct {
    void *user;
    void (*ins)(void *user, int sid, int kind, int unit, int slot, uint32_t pc, int op);
    void (*wr)(void *user, int sid, int port, int space, uint32_t addr, uint32_t data, int mask);
    void (*state)(void *user, int sid, int kind, uint32_t a, uint32_t b);
} otpu_dpi_observer;

/* The observer of this process's records (NULL: none). */
void otpu_dpi_observe(const otpu_dpi_observer *o);

/* The bundle otpu_bundle_word and otpu_bundle_info read (NULL: none, they answer 0); the
 * caller keeps it alive while the RTL runs. */
void otpu_dpi_load(const otpu_bundle *b);

/* Receives each word of the final state: space a write space (otpu_space) or OTPU_SP_STATE,
 * OTPU_SP_SLOT (dpi_entry.h); idx as the RTL gives it. */
typedef void (*otpu_dpi_dump_fn)(void *user, uint32_t sid, int space, uint64_t idx,
                                 uint32_t data);
void otpu_dpi_on_dump(otpu_dpi_dump_fn fn, void *user);

/* The host of a run bundle (sim/host.h), as the RTL's host calls reach it (dpi_entry.h:
 * otpu_host_*; the same meanings, with the slice checked not negative). */
typedef struct {
    void *user;
    void (*poll)(void *user, uint32_t sid, int waiting);
    void (*level)(void *user, uint32_t sid, int halted, int error, int collective);
    int (*dram)(void *user, uint32_t sid, uint32_t *addr, uint32_t *data);
    void (*dram_read)(void *user, uint32_t sid, uint32_t addr, uint32_t data);
    int (*run)(void *user, uint32_t sid);
    uint32_t (*prog_word)(void *user, uint32_t sid, uint32_t idx);
    uint32_t (*arg)(void *user, uint32_t sid, uint32_t k);
} otpu_dpi_host;
/* The host the calls go to (NULL: none). */
void otpu_dpi_serve_host(const otpu_dpi_host *h);

#ifdef __cplusplus
}
#endif
#endif
