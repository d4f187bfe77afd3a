/* dpi.h - the DPI-C entry points of the lockstep records (dpi.c; their SystemVerilog imports:
 * otpu_lockstep_dpi.sv). Each lands its record in the process's lockstep session
 * (lockstep.h, otpu_ls_attach) and shows it to an observer, if one is set (the driver's event
 * log): nothing is judged here. */
#ifndef OTPU_DPI_H
#define OTPU_DPI_H

#include <stdint.h>

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

#ifdef __cplusplus
}
#endif
#endif
