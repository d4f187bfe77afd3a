/* dram_pages.c - the model's touched DRAM pages from /proc/self/pagemap (dram_pages.h). */
#include "dram_pages.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

int otpu_dram_pages_touched(const otpu_machine *m, uint32_t s, uint8_t *touched)
{
    /* The DRAM is an anonymous mapping (otpu_slice_init). Linux's page map tells, for each
     * page, whether it is present or swapped out; a page that is neither was never touched
     * and reads as zero. */
    uint64_t pages = (otpu_machine_config(m)->DRAM_BYTES + 4095) / 4096;
    memset(touched, 1, pages);
    const uint8_t *dram = otpu_machine_view(m, s).dram;
    int fd = dram && sysconf(_SC_PAGESIZE) == 4096 ? open("/proc/self/pagemap", O_RDONLY) : -1;
    if (fd < 0)
        return -1;
    uint64_t first = (uint64_t)(uintptr_t)dram / 4096, entry[512];
    int rc = 0;
    for (uint64_t p = 0; p < pages && !rc; p += 512) {
        uint64_t n = pages - p < 512 ? pages - p : 512;
        ssize_t got = pread(fd, entry, n * 8, (off_t)((first + p) * 8));
        if (got != (ssize_t)(n * 8)) {
            rc = -1;
            break;
        }
        for (uint64_t k = 0; k < n; k++)
            touched[p + k] = (entry[k] >> 62) != 0; /* bit 63 present, bit 62 swapped */
    }
    close(fd);
    if (rc)
        memset(touched, 1, pages);
    return rc;
}
