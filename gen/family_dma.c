/* family_dma.c - the DMA and the quantizer's byte stores: LD and ST at every word offset in a
 * DRAM chunk, QST at every byte offset, lengths around LANES and chunk sizes, strided rows,
 * stores that share chunks, loads of what was just stored, and the highest legal DRAM and
 * TMEM addresses. */
#include "families.h"
#include "frame.h"
#include "ops.h"

static uint32_t length(gen_ctx *c)
{
    uint32_t D = c->cfg.D, L = c->cfg.LANES;
    uint32_t around[] = {1, 2, L, D / 4, D / 2, D, 2 * D / 4};
    uint32_t n = around[gen_rng_below(&c->rng, 7)] + (uint32_t)gen_rng_below(&c->rng, 3) - 1;
    return n ? n : 1;
}

int gen_family_dma(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    const otpu_config *cfg = &c->cfg;
    uint64_t D = cfg->D;
    gen_start_all(c);
    for (c->s = 0; c->s < cfg->S; c->s++) {
        unsigned n = 14 + (unsigned)gen_rng_below(g, 14);
        for (unsigned i = 0; i < n; i++) {
            unsigned kind = (unsigned)gen_rng_below(g, 6);
            otpu_ops o;
            if (kind <= 1) { /* LD/ST at word offset i of a chunk; ST then LD it back */
                o = gen_random_ops(c, OTPU_OP_ST);
                o.dma.n = length(c);
                uint64_t chunk = gen_rng_below(g, (c->dpool.hi - 4 * o.dma.n) / D + 1) * D;
                uint64_t a = chunk + 4 * (i % (D / 4));
                o.dma.dram = (otpu_ri){(uint32_t)a, (uint32_t)a, 0};
                gen_emit(c, kind ? OTPU_OP_ST : OTPU_OP_LD, &o);
                if (kind) {
                    otpu_ops l = gen_random_ops(c, OTPU_OP_LD);
                    l.dma.dram = o.dma.dram;
                    l.dma.n = o.dma.n;
                    gen_emit(c, OTPU_OP_LD, &l);
                }
            } else if (kind == 2) { /* the highest DRAM words and TMEM words */
                o = gen_random_ops(c, gen_rng_chance(g, 50) ? OTPU_OP_ST : OTPU_OP_LD);
                o.dma.n = length(c);
                uint64_t a = cfg->DRAM_BYTES - 4ull * o.dma.n, t = cfg->TMEM_WORDS - o.dma.n;
                if (4ull * o.dma.n > cfg->DRAM_BYTES || o.dma.n > cfg->TMEM_WORDS)
                    continue;
                o.dma.dram = (otpu_ri){(uint32_t)a, (uint32_t)a, 0};
                if (gen_rng_chance(g, 50))
                    o.dma.tmem = (otpu_ri){(uint32_t)t, (uint32_t)t, 0};
                gen_emit(c, gen_rng_chance(g, 50) ? OTPU_OP_ST : OTPU_OP_LD, &o);
            } else if (kind == 3) { /* QST at byte offset i of a chunk, with strides */
                o = gen_random_ops(c, OTPU_OP_QST);
                uint64_t a = o.qst.dst.value / D * D + i % D;
                o.qst.dst = (otpu_ri){(uint32_t)a, (uint32_t)a, 0};
                gen_emit(c, OTPU_OP_QST, &o);
                otpu_ops l = gen_random_ops(c, OTPU_OP_LD); /* and read the words back */
                l.dma.dram = (otpu_ri){(uint32_t)(a & ~3ull), (uint32_t)(a & ~3ull), 0};
                l.dma.n = length(c);
                gen_emit(c, OTPU_OP_LD, &l);
            } else if (kind == 4) { /* stores that share one chunk */
                uint64_t chunk = gen_rng_below(g, c->dpool.hi / D - 1) * D;
                for (unsigned k = 0; k < 3; k++) {
                    o = gen_random_ops(c, OTPU_OP_ST);
                    o.dma.n = 1 + (uint32_t)gen_rng_below(g, 3);
                    uint64_t a = chunk + 4 * gen_rng_below(g, D / 4);
                    o.dma.dram = (otpu_ri){(uint32_t)a, (uint32_t)a, 0};
                    gen_emit(c, OTPU_OP_ST, &o);
                }
            } else { /* strided rows in a loop */
                gen_body(c, 2, NULL);
            }
        }
    }
    gen_end(c, 0);
    return 0;
}
