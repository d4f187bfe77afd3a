/* family_hazard.c - a small shared pool of TMEM words, DRAM bytes and ACT blocks, so that
 * writes and reads of every unit meet: RAW, WAR and WAW between every pair of units in both
 * orders, through TMEM (GATHERs, on every S, between short segments: the collective unit
 * too), through DRAM (ST then LD, QST then LD) and through the ACT RAM (QACT then MM). */
#include "generate.h"
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

int gen_family_hazard(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    uint64_t tw = c->cfg.TMEM_WORDS, D = c->cfg.D;
    uint64_t span = 4 * D + 160;
    uint64_t t0 = tw > span ? gen_rng_below(g, (tw - span < 2048 ? tw - span : 2048) + 1) : 0;
    c->tmem = (gen_pool){t0, t0 + span < tw ? t0 + span : tw};
    uint64_t dspan = 8 * D + 256;
    c->dpool = (gen_pool){0, dspan < c->dpool.hi ? dspan : c->dpool.hi};
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
                if (gen_rng_chance(g, 30))
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
