/* hugepage.c - the huge page hint (hugepage.h). */
#include "hugepage.h"

#include <stdint.h>
#include <sys/mman.h>

void otpu_hint_huge(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
    uintptr_t a = (uintptr_t)p, z = a + len, H = OTPU_HUGE_BYTES;
    uintptr_t lo = (a + H - 1) / H * H, hi = z / H * H;
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: its failure changes nothing */
#else
    (void)p, (void)len;
#endif
}
