/* fuzz_gen.c - the generator on any spec: the input picks the family, the seed, the index, a
 * variant (otpu-gen --cover's candidates; its bit 1 also picks --data finite) and Config
 * overrides (as otpu-gen's KEY=VALUE words);
 * a Config the model or the family refuses is refused, anything else gives a bundle whose
 * recorded outcome the model reproduces. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "generate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t take(const uint8_t **p, size_t *n, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < bytes && *n; k++, (*p)++, (*n)--)
        v |= (uint64_t)**p << (8 * k);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data;
    size_t n = size;
    const gen_family *f = &gen_families[take(&p, &n, 1) % gen_nfamilies];
    uint64_t seed = take(&p, &n, 8), index = take(&p, &n, 2), variant = take(&p, &n, 1) % 4;
    otpu_config cfg = otpu_config_default();
    if (f->defaults)
        f->defaults(&cfg);
    /* KEY=VALUE overrides: a field and a value a byte each (small Configs keep it quick) */
    static const uint64_t vals[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 4096, 65536};
    while (n >= 2) {
        int field = (int)take(&p, &n, 1) % OTPU_CONFIG_FIELDS;
        uint64_t v = vals[take(&p, &n, 1) % (sizeof vals / sizeof vals[0])];
        otpu_config_set(&cfg, otpu_config_field_names[field], v);
    }
    char err[512];
    if (cfg.S > 4 || cfg.TMEM_WORDS > 65536 || cfg.DRAM_BYTES > (1u << 20) ||
        otpu_config_check(&cfg, err, sizeof err) || (f->refuses && f->refuses(&cfg)))
        return 0;
    otpu_bundle b;
    gen_data kind = variant & 2 ? GEN_DATA_FINITE : GEN_DATA_ALL;
    if (otpu_gen_bundle(f, seed, index, variant, kind, &cfg, &b, NULL, err, sizeof err))
        return 0;
    /* what it wrote is what the model does */
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(&b, &e);
    if (m) {
        int failed = otpu_machine_run(m, 400000) != 0;
        if (failed != b.expect_error)
            abort();
        otpu_machine_free(m);
    }
    otpu_bundle_free(&b);
    return 0;
}
