/* dram_pages.h - which pages of the model's DRAM were ever touched, read from Linux's page map:
 * the end-state comparison skips the rest (they hold zeros, and looking at them would fault
 * them in). An observation of the host's memory, not part of the model. */
#ifndef OTPU_DRAM_PAGES_H
#define OTPU_DRAM_PAGES_H

#include <stdint.h>

#include "machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which 4 KiB pages of slice s's DRAM the model has touched: touched[p] is 0 for a page never
 * read or written (it holds zeros; looking at it would cost a page fault), else non-zero.
 * touched has DRAM_BYTES / 4096 entries (rounded up). Returns 0, or -1 if this is not known
 * (then every page counts as touched). */
int otpu_dram_pages_touched(const otpu_machine *m, uint32_t s, uint8_t *touched);

#ifdef __cplusplus
}
#endif
#endif
