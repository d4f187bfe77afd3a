/* fuzz_fpvec.c - the fp vector line parser (otpu-fpvec, tb_fp's rules) on any bytes, one line
 * at a time; every vector it accepts is computed by sim/fp32.c (any operand bits), with every
 * ISA revision's functions. */
#include <stdint.h>
#include <string.h>

#include "fpvec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        fpvec_vec v;
        char why[128];
        if (fpvec_parse_line(p, len, &v, why, sizeof why) == 0)
            for (int r = 0; r < OTPU_REV_COUNT; r++) /* every revision's functions */
                fpvec_expected(&otpu_rev_desc_of((otpu_revision)r)->fp, v.op, v.a, v.b);
        p += len + 1;
    }
    return 0;
}
