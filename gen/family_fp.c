/* family_fp.c - the VPU on fp32 edge values: DRAM full of signed zeros, subnormals (which
 * flush), infinities, NaNs, values one ulp around ties, and exponents at the limits of exp2,
 * recip, rsqrt and log2; loaded, worked on by every VOP function and row lengths past 64,
 * stored back. */
#include "generate.h"
#include "ops.h"

static unsigned pick(gen_ctx *c)
{
    unsigned k = (unsigned)gen_rng_below(&c->rng, 10);
    unsigned rld = gen_op_allowed(c, OTPU_OP_RLD) ? OTPU_OP_RLD : OTPU_OP_LD;
    return k < 6 ? OTPU_OP_VOP : k < 8 ? OTPU_OP_LD : k < 9 ? OTPU_OP_ST : rld;
}

enum { POOL = 1024, PART = 256 }; /* TMEM words the VOPs work in, loaded in parts */

int gen_family_fp(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    c->edge_pct = 45;
    c->max_rows = 3;
    if (c->tmem.hi > POOL)
        c->tmem.hi = POOL;
    gen_start_all(c);
    for (c->s = 0; c->s < c->cfg.S; c->s++) {
        /* the whole pool full of the DRAM's edge values first */
        for (uint64_t t = c->tmem.lo; t < c->tmem.hi; t += PART) {
            otpu_ops ld = gen_ops(OTPU_OP_LD);
            ld.dma.n = (uint32_t)(c->tmem.hi - t < PART ? c->tmem.hi - t : PART);
            ld.dma.dram = gen_addr(c, &c->dpool, 4ull * ld.dma.n, 4);
            ld.dma.tmem = (otpu_ri){(uint32_t)t, (uint32_t)t, 0};
            gen_emit(c, OTPU_OP_LD, &ld);
        }
        gen_body(c, 14 + (unsigned)gen_rng_below(g, 14), pick);
    }
    gen_end(c, 0);
    return 0;
}
