/* dump_dpi.c - the DPI-C entry point of the RTL's final state (otpu_dump_word: dpi_entry.h):
 * each word goes to the driver's receiver (dpi.h, otpu_dpi_on_dump), which keeps it. */
#include "dpi.h"

#include "dpi_entry.h"

#ifdef OTPU_DPI_HEADER
#include OTPU_DPI_HEADER
#endif

static otpu_dpi_dump_fn receiver;
static void *receiver_user;

void otpu_dpi_on_dump(otpu_dpi_dump_fn fn, void *user)
{
    receiver = fn;
    receiver_user = user;
}

void otpu_dump_word(int sid, int space, long long idx, unsigned int data)
{
    if (receiver && sid >= 0 && idx >= 0)
        receiver(receiver_user, (uint32_t)sid, space, (uint64_t)idx, data);
}
