/* host_dpi.c - the DPI-C entry points of a run bundle's host (otpu_host_*: dpi_entry.h), each
 * forwarded to the driver's host (dpi.h, otpu_dpi_serve_host). Without one the RTL sees a
 * host that does nothing: no DRAM access, no restart. */
#include "dpi.h"

#include "dpi_entry.h"

#ifdef OTPU_DPI_HEADER
#include OTPU_DPI_HEADER
#endif

static otpu_dpi_host host;
static int served;

void otpu_dpi_serve_host(const otpu_dpi_host *h)
{
    served = h != NULL;
    host = h ? *h : (otpu_dpi_host){0};
}

void otpu_host_poll(int sid, int waiting)
{
    if (served && sid >= 0)
        host.poll(host.user, (uint32_t)sid, waiting != 0);
}

void otpu_host_level(int sid, int halted, int error, int collective)
{
    if (served && sid >= 0)
        host.level(host.user, (uint32_t)sid, halted != 0, error != 0, collective != 0);
}

int otpu_host_dram(int sid, unsigned int *addr, unsigned int *data)
{
    /* outputs always written: the RTL's variables (and a waveform of them) hold no stale stack
       bytes on a cycle without a host access */
    *addr = 0;
    *data = 0;
    return served && sid >= 0 ? host.dram(host.user, (uint32_t)sid, addr, data) : 0;
}

void otpu_host_dram_read(int sid, unsigned int addr, unsigned int data)
{
    if (served && sid >= 0)
        host.dram_read(host.user, (uint32_t)sid, addr, data);
}

int otpu_host_run(int sid)
{
    return served && sid >= 0 ? host.run(host.user, (uint32_t)sid) : -1;
}

unsigned int otpu_host_prog_word(int sid, int idx)
{
    return served && sid >= 0 && idx >= 0 ? host.prog_word(host.user, (uint32_t)sid, (uint32_t)idx)
                                          : 0u;
}

unsigned int otpu_host_arg(int sid, int k)
{
    return served && sid >= 0 && k >= 0 && k < 8 ? host.arg(host.user, (uint32_t)sid, (uint32_t)k)
                                                 : 0u;
}
