/* fuzz_golden.c - the golden-file comparison (otpu-sim check) on any trace and final texts.
 * The input is trace_0.txt, a NUL byte, then final_0.txt (no NUL: final_0.txt alone, no
 * trace); they are compared with a small fixed run: LD, VOP ADD, ST, HALT. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t prog[32] = {
    0x10, 0, 0, 4, 0, 0, 0, 0,                         /* LD   dram 0 -> T0, 4 words */
    0x30, 16, 0, 0, 1 | 4u << 16, 0, 0, 0,             /* VOP  add T16 = T0 + T0 */
    0x11, 64, 16, 4, 0, 0, 0, 0,                       /* ST   T16 -> dram 64 */
    0x01, 0, 0, 0, 0, 0, 0, 0,                         /* HALT */
};
static uint8_t dram[16] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 1, 0, 0x80, 0xff};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *nul = memchr(text, 0, size), *trace = nul ? text : NULL, *final = nul ? nul + 1 : text;
    otpu_bundle b;
    memset(&b, 0, sizeof b);
    b.cfg = otpu_config_default();
    b.cfg.DRAM_BYTES = 4096;
    b.cfg.TMEM_WORDS = 1024;
    uint32_t *progs[1] = {prog};
    uint8_t *drams[1] = {dram};
    size_t prog_words[1] = {32}, dram_len[1] = {sizeof dram};
    b.prog = progs;
    b.prog_words = prog_words;
    b.dram = drams;
    b.dram_len = dram_len;
    char report[2048];
    otpu_golden_compare(&b, "fuzz", trace ? &trace : NULL, &final, 100, report, sizeof report);
    free(text);
    return 0;
}
