/* hugepage.c - zeroed mappings and the huge page hint (hugepage.h). */
#include "hugepage.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Under AddressSanitizer the dense arrays (huge) come from calloc, whose bounds it checks (a
 * mapping's slack past the end would hide an overrun); DRAM stays a mapping, whose untouched
 * pages the checker's otpu_dram_pages_touched reads from the page map. */
#if defined(__SANITIZE_ADDRESS__)
#define OTPU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OTPU_ASAN 1
#endif
#endif

/* the length mapped for `bytes`: whole pages, or whole 2 MiB blocks for a huge array */
static uint64_t mapped_len(uint64_t bytes, int huge)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), H = OTPU_HUGE_BYTES;
    if (huge && bytes >= OTPU_HUGE_MIN && bytes <= UINT64_MAX - H)
        return (bytes + H - 1) / H * H;
    return bytes <= UINT64_MAX - page ? (bytes + page - 1) / page * page : bytes;
}

void *otpu_map_zeroed(uint64_t bytes, int huge)
{
#ifdef OTPU_ASAN
    if (huge)
        return bytes <= SIZE_MAX ? calloc(bytes ? (size_t)bytes : 1, 1) : NULL;
#endif
    uint64_t H = OTPU_HUGE_BYTES, len = mapped_len(bytes ? bytes : 1, huge);
    uint64_t extra = len >= H && len <= SIZE_MAX - H ? H : 0; /* room to align */
    if (len > SIZE_MAX - extra)
        return NULL;
    uint8_t *d = mmap(NULL, (size_t)(len + extra), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (d == MAP_FAILED)
        return NULL;
    if (extra) { /* cut the ends off so that it starts on a 2 MiB boundary */
        size_t head = (size_t)((H - (uintptr_t)d % H) % H);
        if (head)
            munmap(d, head);
        if (extra - head)
            munmap(d + head + len, (size_t)(extra - head));
        d += head;
    }
    if (huge && len >= H)
        otpu_hint_huge(d, (size_t)len);
    return d;
}

void otpu_unmap_zeroed(void *p, uint64_t bytes, int huge)
{
#ifdef OTPU_ASAN
    if (huge) {
        free(p);
        return;
    }
#endif
    if (p)
        munmap(p, (size_t)mapped_len(bytes ? bytes : 1, huge));
}

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
