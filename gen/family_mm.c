/* family_mm.c - the MXU and the ACT RAM: QACT (ROW, CSCALE, RSCALE, DUP) then MMs that read
 * it: M up to ACT_ROWS (replay when ACT_ROWS > MCOLS), ACC chains over consecutive K blocks
 * into one output, RMAX, ASCALE, int4 and fp4 weights, PAIR; the flag combinations in turn.
 * The family turns Config PAIR on unless the command line sets it. */
#include "generate.h"
#include "ops.h"

static void chain(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    otpu_ops q = gen_random_ops(c, OTPU_OP_QACT);
    gen_emit(c, OTPU_OP_QACT, &q);
    otpu_ops m = gen_random_ops(c, OTPU_OP_MM);
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
