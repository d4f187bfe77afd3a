/* family_hazard.c - a small shared pool of TMEM words, DRAM bytes and ACT blocks, so that
 * writes and reads of every unit meet: RAW, WAR and WAW between every pair of units in both
 * orders, through TMEM (GATHERs, on every S, between short segments: the collective unit
 * too), through DRAM (ST then LD, QST then LD) and through the ACT RAM (QACT then MM); and
 * pairs whose ranges meet at exactly the first or the last word of the older one's, or miss
 * it by one word (edge_pair). Data: the pools hold the fp32 words, weights and scales of
 * data.h, TMEM loaded at the start. */
#include "families.h"
#include "frame.h"
#include "layout.h"
#include "ops.h"

/* the units' instructions that read or write memory, in turn, so every ordered pair of units
 * meets in each program */
static const unsigned movers[] = {OTPU_OP_LD, OTPU_OP_VOP, OTPU_OP_QACT, OTPU_OP_MM,
                                  OTPU_OP_ST, OTPU_OP_QST, OTPU_OP_RLD, OTPU_OP_VOP,
                                  OTPU_OP_DSTEP, OTPU_OP_STREAM};

static unsigned pick(gen_ctx *c)
{
    for (;;) {
        unsigned op = movers[gen_rng_below(&c->rng, sizeof movers / sizeof movers[0])];
        if (gen_op_allowed(c, op))
            return op;
    }
}

/* a writer then a reader of the same place */
static void pair(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    switch (gen_rng_below(g, 3)) {
    case 0: { /* ST then LD of the same words (then maybe a VOP on them) */
        otpu_ops st = gen_random_ops(c, OTPU_OP_ST);
        gen_emit(c, OTPU_OP_ST, &st);
        otpu_ops ld = gen_random_ops(c, OTPU_OP_LD);
        ld.dma.dram = st.dma.dram;
        ld.dma.n = st.dma.n;
        gen_emit(c, OTPU_OP_LD, &ld);
        break;
    }
    case 1: { /* QST then an LD of the words holding its bytes */
        otpu_ops q = gen_random_ops(c, OTPU_OP_QST);
        gen_emit(c, OTPU_OP_QST, &q);
        otpu_ops ld = gen_random_ops(c, OTPU_OP_LD);
        ld.dma.dram.reg = 0;
        ld.dma.dram.imm = ld.dma.dram.value = q.qst.dst.value & ~3u;
        ld.dma.n = 1 + (uint32_t)gen_rng_below(g, 16);
        gen_emit(c, OTPU_OP_LD, &ld);
        break;
    }
    default: { /* QACT then an MM over the blocks it wrote */
        otpu_ops q = gen_random_ops(c, OTPU_OP_QACT);
        gen_emit(c, OTPU_OP_QACT, &q);
        otpu_ops m = gen_random_ops(c, OTPU_OP_MM);
        m.mm.ab = q.qact.ab;
        gen_emit(c, OTPU_OP_MM, &m);
        break;
    }
    }
}

/* A start for a range of n units in [lo, hi) with `room` units free on each side, or -1. */
static int64_t inside(gen_ctx *c, uint64_t lo, uint64_t hi, uint64_t n, uint64_t room)
{
    if (hi < lo + n + 2 * room)
        return -1;
    return (int64_t)(lo + room + gen_rng_below(&c->rng, hi - lo - n - 2 * room + 1));
}

/* Where the younger range of m units starts against the older one [t, t + n): it shares
 * exactly the first word, exactly the last, or ends (starts) one word before (after) it. */
static uint64_t edge_start(gen_ctx *c, uint64_t t, uint64_t n, uint64_t m)
{
    switch (gen_rng_below(&c->rng, 4)) {
    case 0: return t + 1 - m;
    case 1: return t + n - 1;
    case 2: return t - m;
    default: return t + n;
    }
}

/* Two DMA instructions whose TMEM (or DRAM) ranges meet at an edge: RAW (the writer, then a
 * reader), WAR (a reader, then the writer), WAW. TMEM: LD writes, ST reads; DRAM the other
 * way round. */
static void edge_pair(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    int dram = gen_rng_chance(g, 40);
    unsigned kind = (unsigned)gen_rng_below(g, 3); /* RAW, WAR, WAW */
    unsigned writer = dram ? OTPU_OP_ST : OTPU_OP_LD, reader = dram ? OTPU_OP_LD : OTPU_OP_ST;
    unsigned first = kind == 1 ? reader : writer, second = kind == 0 ? reader : writer;
    uint64_t n = 2 + gen_rng_below(g, 24), m = 1 + gen_rng_below(g, 24);
    const gen_pool *pool = dram ? &c->dpool : &c->tmem;
    uint64_t u = dram ? 4 : 1, lo = (pool->lo + u - 1) / u, hi = pool->hi / u; /* in words */
    int64_t t = inside(c, lo, hi, n, m);
    if (t < 0)
        return;
    uint64_t j = edge_start(c, (uint64_t)t, n, m);
    otpu_ops a = gen_ops(first), b = gen_ops(second);
    a.dma.n = (uint32_t)n;
    b.dma.n = (uint32_t)m;
    if (dram) {
        a.dma.dram = (otpu_ri){(uint32_t)(4 * t), (uint32_t)(4 * t), 0};
        b.dma.dram = (otpu_ri){(uint32_t)(4 * j), (uint32_t)(4 * j), 0};
        a.dma.tmem = gen_addr(c, &c->tmem, n, 1);
        b.dma.tmem = gen_addr(c, &c->tmem, m, 1);
    } else {
        a.dma.tmem = (otpu_ri){(uint32_t)t, (uint32_t)t, 0};
        b.dma.tmem = (otpu_ri){(uint32_t)j, (uint32_t)j, 0};
        a.dma.dram = gen_addr(c, &c->dpool, 4 * n, 4);
        b.dma.dram = gen_addr(c, &c->dpool, 4 * m, 4);
    }
    gen_emit(c, first, &a);
    gen_emit(c, second, &b);
}

int gen_family_hazard(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    uint64_t tw = c->cfg.TMEM_WORDS, D = c->cfg.D;
    uint64_t span = 4 * D + 160;
    uint64_t t0 = tw > span ? gen_rng_below(g, (tw - span < 2048 ? tw - span : 2048) + 1) : 0;
    c->tmem = (gen_pool){t0, t0 + span < tw ? t0 + span : tw};
    uint64_t dspan = 8 * D + 256;
    c->dpool = (gen_pool){0, dspan < c->dpool.hi ? dspan : c->dpool.hi};
    gen_layout_data(c);
    c->act_blocks = c->cfg.ACT_BLOCKS < 3 ? c->cfg.ACT_BLOCKS : 3;
    c->max_rows = 2;
    c->max_cols = 40;
    gen_start_all(c);
    /* segments a few instructions long between GATHERs (one or two), so that the collective
     * unit's reads and writes meet the others' in the sequencer's window */
    unsigned segs = 3 + (unsigned)gen_rng_below(g, 4);
    for (unsigned k = 0; k < segs; k++) {
        for (c->s = 0; c->s < c->cfg.S; c->s++) {
            unsigned n = 1 + (unsigned)gen_rng_below(g, 4);
            for (unsigned i = 0; i < n; i++) {
                if (gen_rng_chance(g, 20))
                    edge_pair(c);
                else if (gen_rng_chance(g, 30))
                    pair(c);
                else
                    gen_body(c, 1 + (unsigned)gen_rng_below(g, 3), pick);
            }
        }
        if (k + 1 < segs) {
            gen_collective(c, OTPU_OP_GATHER);
            if (gen_rng_chance(g, 30))
                gen_collective(c, OTPU_OP_GATHER);
        }
    }
    gen_end(c, 0);
    return 0;
}
