/* hugepage.h - the model's large arrays (DRAM, TMEM, the ACT RAM, the TMEM scoreboard) as
 * zeroed mappings, with 2 MiB pages where they pay.
 *
 * Internal to libotpusim. Touching a fresh 4 KiB page costs one page fault, and on a virtual
 * machine a fault can cost tens of microseconds: a 10 MB DRAM image, or a run that writes a
 * few hundred KiB of TMEM, then spends longer faulting its memory in than running. Linux's
 * transparent huge pages (often in "madvise" mode) back an advised range with 2 MiB pages
 * instead: one fault for 512 pages. Only a hint: without THP, or on another system, nothing
 * changes. Pages stay zero until written, so a page the model never wrote still reads as
 * zero (the checker's otpu_dram_pages_touched may count it as touched, which it allows). */
#ifndef OTPU_HUGEPAGE_H
#define OTPU_HUGEPAGE_H

#include <stddef.h>
#include <stdint.h>

enum { OTPU_HUGE_BYTES = 2u << 20 };

/* A zeroed anonymous private mapping of at least `bytes` (pages cost nothing until touched).
 * One of 2 MiB or more starts on a 2 MiB boundary, so that huge pages can back it; with
 * `huge`, one of OTPU_HUGE_MIN bytes or more is also mapped in whole 2 MiB blocks and advised
 * for huge pages at once (for arrays filled densely from the start: TMEM, the ACT RAM, the
 * scoreboard; DRAM is advised where an image lands, otpu_hint_huge, since a program may touch
 * a large DRAM sparsely). NULL when out of memory; otpu_unmap_zeroed(p, bytes, huge) frees it. */
void *otpu_map_zeroed(uint64_t bytes, int huge);
void otpu_unmap_zeroed(void *p, uint64_t bytes, int huge);
enum { OTPU_HUGE_MIN = 128u << 10 };

/* Advises the 2 MiB blocks lying wholly inside [p, p + len) (anonymous private memory the
 * caller owns) for huge pages. */
void otpu_hint_huge(void *p, size_t len);

#endif
