/* dpi.c - the DPI-C entry points of the lockstep records (dpi_entry.h; the observer: dpi.h).
 * Every C file of dpi/ is compiled against the header Verilator generates from the SystemVerilog
 * imports (OTPU_DPI_HEADER, e.g. "Votpu_rtl_tb__Dpi.h") as well as dpi_entry.h, so a signature
 * that drifts from dpi/dpi.def fails the build. */
#include "dpi.h"

#include "dpi_entry.h"

#include <stddef.h>

#include "lockstep.h"

#ifdef OTPU_DPI_HEADER
#include OTPU_DPI_HEADER
#endif

static otpu_dpi_observer observer;

void otpu_dpi_observe(const otpu_dpi_observer *o)
{
    observer = o ? *o : (otpu_dpi_observer){0};
}

void otpu_ev_ins(int sid, int kind, int unit, int slot, unsigned int pc, int op)
{
    otpu_ls *ls = otpu_ls_attached();
    if (ls)
        otpu_ls_ins(ls, (uint32_t)sid, kind, unit, (uint32_t)slot, pc, (uint32_t)op);
    if (observer.ins)
        observer.ins(observer.user, sid, kind, unit, slot, pc, op);
}

void otpu_ev_wr(int sid, int port, int space, unsigned int addr, unsigned int data, int mask)
{
    otpu_ls *ls = otpu_ls_attached();
    if (ls)
        otpu_ls_wr(ls, (uint32_t)sid, (uint32_t)port, (uint32_t)space, addr, data,
                   (uint32_t)mask);
    if (observer.wr)
        observer.wr(observer.user, sid, port, space, addr, data, mask);
}

void otpu_ev_state(int sid, int kind, unsigned int a, unsigned int b)
{
    otpu_ls *ls = otpu_ls_attached();
    if (ls)
        otpu_ls_state(ls, (uint32_t)sid, kind, a, b);
    if (observer.state)
        observer.state(observer.user, sid, kind, a, b);
}
