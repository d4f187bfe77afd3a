/* config.c - presets and validation of otpu_config. */
#include "config.h"

#include <stdio.h>
#include <string.h>

otpu_config otpu_config_default(void)
{
    otpu_config c = {
        .S = 1, .D = 32, .MCOLS = 8, .ACT_BLOCKS = 64, .TMEM_WORDS = 1u << 16,
        .DRAM_BYTES = 1u << 20, .IMEM_WORDS = 1u << 16, .LANES = 8, .PAIR = 0, .DSTEP = 0,
        .STREAM = 0, .ACT_ROWS = 0, .revision = OTPU_REV_CURRENT,
    };
    return c;
}

otpu_config otpu_config_design(void)
{
    otpu_config c = otpu_config_default();
    c.S = 2, c.D = 128, c.LANES = 16, c.DRAM_BYTES = 1u << 24;
    return c;
}

otpu_config otpu_config_board(void)
{
    otpu_config c = otpu_config_default();
    c.D = 128, c.MCOLS = 4, c.ACT_BLOCKS = 128, c.IMEM_WORDS = 1u << 15;
    c.DRAM_BYTES = (uint64_t)1 << 32;
    return c;
}

#define FIELDS(X) X(S) X(D) X(MCOLS) X(ACT_BLOCKS) X(TMEM_WORDS) X(DRAM_BYTES) X(IMEM_WORDS) \
    X(LANES) X(PAIR) X(DSTEP) X(STREAM) X(ACT_ROWS)

const char *const otpu_config_field_names[OTPU_CONFIG_FIELDS] = {
#define NAME(f) #f,
    FIELDS(NAME)
#undef NAME
};

const char *otpu_config_field_name(int i)
{
    return i >= 0 && i < OTPU_CONFIG_FIELDS ? otpu_config_field_names[i] : NULL;
}

uint64_t otpu_config_get(const otpu_config *c, int i)
{
    int k = 0;
#define GET(f)          \
    if (k++ == i)       \
        return c->f;
    FIELDS(GET)
#undef GET
    return 0;
}

char *otpu_config_str(const otpu_config *c, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < OTPU_CONFIG_FIELDS && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%llu", i ? " " : "",
                                otpu_config_field_names[i],
                                (unsigned long long)otpu_config_get(c, i));
    if (c->revision != OTPU_REV_CURRENT && len < n)
        snprintf(buf + len, n - len, " REV=%s", otpu_rev_name(c->revision));
    return buf;
}

int otpu_config_set(otpu_config *c, const char *name, uint64_t value)
{
#define SET(f)                                                                                 \
    if (strcmp(name, #f) == 0) {                                                               \
        c->f = (__typeof__(c->f))value;                                                        \
        return (uint64_t)c->f == value ? 0 : -2;                                               \
    }
    FIELDS(SET)
#undef SET
    return -1;
}

static int fail(char *err, size_t n, const char *msg, const char *field, uint64_t v)
{
    snprintf(err, n, "config %s=%llu: %s", field, (unsigned long long)v, msg);
    return -1;
}

int otpu_config_check(const otpu_config *c, char *err, size_t n)
{
    if (c->S < 1 || c->S > OTPU_MAX_SLICES)
        return fail(err, n, "slices must be 1..64", "S", c->S);
    if (c->D < 8 || c->D % 8 || c->D > 4096)
        return fail(err, n, "D must be a multiple of 8 in 8..4096", "D", c->D);
    if (c->MCOLS < 1 || c->MCOLS > 255)
        return fail(err, n, "MCOLS must be 1..255", "MCOLS", c->MCOLS);
    if (c->ACT_BLOCKS < 1 || c->ACT_BLOCKS > 65536)
        return fail(err, n, "ACT_BLOCKS must be 1..65536", "ACT_BLOCKS", c->ACT_BLOCKS);
    if (c->ACT_ROWS > 4096)
        return fail(err, n, "ACT_ROWS must be 0..4096", "ACT_ROWS", c->ACT_ROWS);
    if ((uint64_t)otpu_config_act_rows(c) * c->ACT_BLOCKS * c->D > ((uint64_t)1 << 30))
        return fail(err, n, "ACT RAM larger than 1 GiB", "ACT_BLOCKS", c->ACT_BLOCKS);
    if (c->TMEM_WORDS < 1 || c->TMEM_WORDS > ((uint64_t)1 << 28))
        return fail(err, n, "TMEM_WORDS must be 1..2^28", "TMEM_WORDS", c->TMEM_WORDS);
    if (c->DRAM_BYTES < 4 || c->DRAM_BYTES % 4 || c->DRAM_BYTES > ((uint64_t)1 << 32))
        return fail(err, n, "DRAM_BYTES must be a multiple of 4 in 4..2^32", "DRAM_BYTES",
                    c->DRAM_BYTES);
    if (c->IMEM_WORDS < 8 || c->IMEM_WORDS % 8 || c->IMEM_WORDS > ((uint64_t)1 << 27))
        return fail(err, n, "IMEM_WORDS must be a multiple of 8 in 8..2^27", "IMEM_WORDS",
                    c->IMEM_WORDS);
    if (c->LANES < 1 || c->LANES > 256) /* (timing only; the designs have 8 or 16) */
        return fail(err, n, "LANES must be 1..256", "LANES", c->LANES);
    if (c->PAIR > 1)
        return fail(err, n, "must be 0 or 1", "PAIR", c->PAIR);
    if (c->DSTEP > 1)
        return fail(err, n, "must be 0 or 1", "DSTEP", c->DSTEP);
    if (c->STREAM > 1)
        return fail(err, n, "must be 0 or 1", "STREAM", c->STREAM);
    const otpu_rev_desc *rev = otpu_rev_desc_of(c->revision);
    if (!rev)
        return fail(err, n, "unknown ISA revision", "revision", (uint64_t)c->revision);
    for (int k = 0; k < OTPU_REV_MAX_CONFIG && rev->lacks_config[k]; k++)
        for (int i = 0; i < OTPU_CONFIG_FIELDS; i++)
            if (!strcmp(otpu_config_field_names[i], rev->lacks_config[k]) &&
                otpu_config_get(c, i)) {
                snprintf(err, n, "config %s=%llu: ISA revision %s has no %s (it must be 0)",
                         rev->lacks_config[k], (unsigned long long)otpu_config_get(c, i),
                         rev->name, rev->lacks_config[k]);
                return -1;
            }
    return 0;
}
