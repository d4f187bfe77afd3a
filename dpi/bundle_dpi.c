/* bundle_dpi.c - the DPI-C entry points that load a run bundle into the RTL's memories at
 * time 0 (otpu_bundle_word, otpu_bundle_info: dpi_entry.h), read from the bundle the driver
 * hands over (dpi.h, otpu_dpi_load). */
#include "dpi.h"

#include "dpi_entry.h"

#ifdef OTPU_DPI_HEADER
#include OTPU_DPI_HEADER
#endif

static const otpu_bundle *loaded;

void otpu_dpi_load(const otpu_bundle *b)
{
    loaded = b;
}

unsigned int otpu_bundle_word(int sid, int space, long long idx)
{
    if (!loaded || sid < 0 || (uint32_t)sid >= loaded->cfg.S || idx < 0)
        return 0u;
    size_t i = (size_t)idx;
    if (space == OTPU_SP_IMEM)
        return i < loaded->prog_words[sid] ? loaded->prog[sid][i] : 0u;
    if (space != OTPU_SP_DRAM)
        return 0u;
    /* DRAM words are little endian; the image may end inside a word */
    const uint8_t *d = loaded->dram[sid];
    size_t len = loaded->dram_len[sid];
    uint32_t w = 0;
    for (size_t k = 0; k < 4 && 4 * i + k < len; k++)
        w |= (uint32_t)d[4 * i + k] << (8 * k);
    return w;
}

unsigned int otpu_bundle_info(int sid, int what)
{
    if (!loaded || sid < 0 || (uint32_t)sid >= loaded->cfg.S)
        return 0u;
    if (what == OTPU_BI_PROG_LEN)
        return (unsigned)(loaded->prog_words[sid] / 8);
    if (what == OTPU_BI_DRAM_WORDS)
        return (unsigned)((loaded->dram_len[sid] + 3) / 4);
    if (what >= OTPU_BI_ARG0 && what < OTPU_BI_ARG0 + 8) {
        unsigned k = (unsigned)(what - OTPU_BI_ARG0);
        return k < loaded->nargs ? loaded->args[k] : 0u;
    }
    return 0u;
}
