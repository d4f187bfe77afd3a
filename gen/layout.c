/* layout.c - the data generated programs run on (gen/README.md, "Data"): where the DRAM
 * images hold which kind (data.h) and the instructions that load them before a program's
 * first, so that the datapath's instructions run on data, not zeros. */
#include "layout.h"

#include "data.h"

/* The DRAM pool's regions: fp32 words in its first half, weights in the next quarter, scale
 * words in the last (D-aligned); each slice's image filled with its own data (gen/README.md,
 * "Data"). A family that narrows dpool calls it again. */
void gen_layout_data(gen_ctx *c)
{
    uint64_t D = c->cfg.D, hi = c->dpool.hi, half = hi / 2 / D * D, three = hi * 3 / 4 / D * D;
    c->words = (gen_pool){c->dpool.lo, half > c->dpool.lo ? half : hi};
    c->weights = (gen_pool){half, three > half ? three : hi};
    c->scales = (gen_pool){three, hi};
    size_t n = hi > 16384 ? (size_t)hi : 16384; /* (the words past the pool: the LDs of dma) */
    if (n > c->dram_len)
        n = c->dram_len;
    for (unsigned s = 0; s < c->cfg.S; s++) {
        gen_fill_words(&c->rng, c->dram[s], n / 4, c->edge_pct, c->data);
        if (c->weights.hi > c->weights.lo && c->weights.hi <= n)
            gen_fill_weights(&c->rng, c->dram[s] + c->weights.lo, c->weights.hi - c->weights.lo);
        if (c->scales.hi > c->scales.lo && c->scales.hi <= n)
            gen_fill_scales(&c->rng, c->dram[s] + c->scales.lo, c->scales.hi - c->scales.lo);
    }
}

/* LDs that fill the current slice's TMEM pool (its first 4096 words) from the words region. */
static void warm_tmem(gen_ctx *c)
{
    enum { PART = 256, MOST = 4096 }; /* words an LD, words warmed */
    uint64_t hi = c->tmem.hi - c->tmem.lo > MOST ? c->tmem.lo + MOST : c->tmem.hi;
    uint64_t wlen = c->words.hi - c->words.lo;
    for (uint64_t t = c->tmem.lo; t < hi;) {
        otpu_ops ld = gen_ops(OTPU_OP_LD);
        ld.dma.n = (uint32_t)(hi - t < PART ? hi - t : PART);
        if (wlen < 4ull * ld.dma.n)
            ld.dma.n = (uint32_t)(wlen / 4);
        if (!ld.dma.n)
            return;
        ld.dma.dram = gen_addr(c, &c->words, 4ull * ld.dma.n, 4);
        ld.dma.tmem = (otpu_ri){(uint32_t)t, (uint32_t)t, 0};
        gen_emit(c, OTPU_OP_LD, &ld);
        t += ld.dma.n;
    }
}

/* The current slice's whole ACT RAM quantized from the loaded TMEM words, each row by its own
 * factor (RSCALE), so that an MM reads data wherever it reads: QACTs of every row over the
 * blocks, in parts, their source rows one TMEM stretch (a row stride of 0). */
static void warm_act(gen_ctx *c)
{
    uint32_t D = c->cfg.D, rows = otpu_config_act_rows(&c->cfg);
    uint64_t warm = c->tmem.hi - c->tmem.lo < 4096 ? c->tmem.hi - c->tmem.lo : 4096;
    uint64_t per = warm / D < 255 ? warm / D : 255; /* blocks a QACT */
    if (rows > 255 || rows > warm || !per)
        return;
    for (uint32_t ab = 0; ab < c->act_blocks && ab <= 255; ab += (uint32_t)per) { /* (ab: 8 bits) */
        otpu_ops q = gen_ops(OTPU_OP_QACT);
        q.qact.rows = rows;
        q.qact.ab = ab;
        q.qact.KB = (uint32_t)(c->act_blocks - ab < per ? c->act_blocks - ab : per);
        q.qact.srs = 0;
        q.qact.src = (otpu_ri){(uint32_t)c->tmem.lo, (uint32_t)c->tmem.lo, 0};
        q.qact.has_rscale = 1;
        q.qact.rscale = (uint32_t)(c->tmem.lo + gen_rng_below(&c->rng, warm - rows + 1));
        gen_emit(c, OTPU_OP_QACT, &q);
    }
}

void gen_warm(gen_ctx *c)
{
    warm_tmem(c);
    warm_act(c);
}
