/* family_mm.c - the MXU and the ACT RAM: QACT (ROW, CSCALE, RSCALE, DUP) then MMs that read
 * it: M up to ACT_ROWS (replay when ACT_ROWS > MCOLS), ACC chains over consecutive K blocks
 * into one output, RMAX, ASCALE, int4 and fp4 weights, PAIR; the flag combinations in turn.
 * Data: TMEM loaded with the fp32 words of data.h, weights and scale words of every format
 * (every MAC column's result differs), and now and then a "full-scale" chain: activations of
 * one magnitude and sign (each quantizes to 127) times weights of one sign at full scale, so
 * that a K block's integer passes 2^17. The family turns Config PAIR on unless the command
 * line sets it. */
#include "families.h"
#include "frame.h"
#include "ops.h"

#include <string.h>

/* Write n words of one value at DRAM byte a of the current slice's image, then LD them to
 * TMEM word t (in parts of 256 words). */
static void load_value(gen_ctx *c, uint64_t a, uint64_t t, uint64_t n, uint32_t v)
{
    for (uint64_t k = 0; k < n; k++)
        memcpy(c->dram[c->s] + a + 4 * k, &v, 4);
    for (uint64_t k = 0; k < n; k += 256) {
        otpu_ops ld = gen_ops(OTPU_OP_LD);
        ld.dma.n = (uint32_t)(n - k < 256 ? n - k : 256);
        ld.dma.dram = (otpu_ri){(uint32_t)(a + 4 * k), (uint32_t)(a + 4 * k), 0};
        ld.dma.tmem = (otpu_ri){(uint32_t)(t + k), (uint32_t)(t + k), 0};
        gen_emit(c, OTPU_OP_LD, &ld);
    }
}

/* Make the chain q -> m full-scale (see the top), where its words fit the words region. */
static void full_scale(gen_ctx *c, otpu_qact_ops *q, const otpu_mm_ops *m)
{
    gen_rng *g = &c->rng;
    uint64_t D = c->cfg.D, n = (uint64_t)(q->rows - 1) * q->srs + (uint64_t)q->KB * D;
    if (q->src.reg || c->words.hi - c->words.lo < 4 * n || m->sa.value + (uint64_t)m->N * m->rs >
                                                                  c->dram_len)
        return;
    uint32_t sign = gen_rng_chance(g, 50) ? 0x80000000u : 0, mag = 0x3F800000u + (gen_rng_u32(g) & 0x7FFFFF);
    uint64_t a = c->words.lo + gen_rng_below(g, (c->words.hi - c->words.lo - 4 * n) / 4 + 1) * 4;
    load_value(c, a, q->src.value, n, sign | mag);
    q->has_cscale = q->has_rscale = 0; /* (the factors would make the magnitudes differ) */
    uint8_t w = m->wf ? (gen_rng_chance(g, 50) ? 0x77 : 0x99) : (gen_rng_chance(g, 50) ? 0x7F : 0x81);
    uint64_t bytes = (uint64_t)m->KB * (m->wf ? D / 2 : D);
    for (uint64_t k = 0; k < m->N; k++)
        memset(c->dram[c->s] + m->sa.value + k * m->rs, w, bytes);
}

static void chain(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    otpu_ops q = gen_random_ops(c, OTPU_OP_QACT);
    otpu_ops m = gen_random_ops(c, OTPU_OP_MM);
    if (gen_rng_chance(g, 25))
        full_scale(c, &q.qact, &m.mm);
    gen_emit(c, OTPU_OP_QACT, &q);
    unsigned links = 1 + (unsigned)gen_rng_below(g, 4);
    m.mm.ab = q.qact.ab;
    for (unsigned k = 0; k < links; k++) { /* the next K block(s), accumulated */
        gen_emit(c, OTPU_OP_MM, &m);
        m.mm.acc = 1;
        m.mm.ascale = m.mm.ascale && m.mm.unit;
        uint32_t next = m.mm.ab + m.mm.KB;
        if (next + m.mm.KB > c->act_blocks || next > 255)
            break;
        m.mm.ab = next;
        otpu_ops w = gen_random_ops(c, OTPU_OP_MM); /* other weights, same output */
        m.mm.sa = w.mm.sa;
        m.mm.rs = w.mm.rs;
        if (m.mm.wf != w.mm.wf || m.mm.pair != w.mm.pair)
            break;
    }
}

void gen_family_mm_defaults(otpu_config *cfg)
{
    cfg->PAIR = 1;
}

static unsigned pick(gen_ctx *c)
{
    static const unsigned ops[] = {OTPU_OP_QACT, OTPU_OP_MM, OTPU_OP_MM, OTPU_OP_LD,
                                   OTPU_OP_VOP};
    return ops[gen_rng_below(&c->rng, 5)];
}

int gen_family_mm(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    gen_start_all(c);
    for (c->s = 0; c->s < c->cfg.S; c->s++) {
        unsigned n = 4 + (unsigned)gen_rng_below(g, 6);
        for (unsigned i = 0; i < n; i++) {
            if (gen_rng_chance(g, 60))
                chain(c);
            else
                gen_body(c, 2, pick);
        }
    }
    gen_end(c, 0);
    return 0;
}
