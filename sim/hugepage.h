/* hugepage.h - asking for 2 MiB pages where a large image is about to be written at once.
 *
 * Internal to libotpusim. Filling a DRAM image 4 KiB page by page costs one page fault each,
 * and on a virtual machine a fault can cost tens of microseconds: a 10 MB image then takes
 * longer to land in memory than the run that uses it. Linux's transparent huge pages (often in
 * "madvise" mode) back an advised range with 2 MiB pages instead: one fault for 512 pages.
 * A hint only: without THP, or on another system, nothing changes. Pages stay zero until
 * written, so a page the model never wrote still reads as zero (otpu_machine_dram_pages may
 * count it as touched, which it allows). */
#ifndef OTPU_HUGEPAGE_H
#define OTPU_HUGEPAGE_H

#include <stddef.h>

enum { OTPU_HUGE_BYTES = 2u << 20 };

/* Advises the 2 MiB blocks lying wholly inside [p, p + len) (anonymous private memory the
 * caller owns) for huge pages. */
void otpu_hint_huge(void *p, size_t len);

#endif
