/* family_fp.c - the VPU on fp32 data: a fifth of the words edge values (signed zeros,
 * subnormals, which flush, infinities, NaNs, values one ulp around ties, exponents at the limits
 * of exp2, recip, rsqrt and log2), the rest the ordinary runs of data.h (random mantissas whose
 * results round, near-ties, cancellation); loaded, worked on by every VOP function and row
 * lengths past 64, stored back. */
#include "families.h"
#include "frame.h"
#include "layout.h"
#include "ops.h"

static unsigned pick(gen_ctx *c)
{
    unsigned k = (unsigned)gen_rng_below(&c->rng, 10);
    unsigned rld = gen_op_allowed(c, OTPU_OP_RLD) ? OTPU_OP_RLD : OTPU_OP_LD;
    return k < 6 ? OTPU_OP_VOP : k < 8 ? OTPU_OP_LD : k < 9 ? OTPU_OP_ST : rld;
}

enum { POOL = 1024 }; /* TMEM words the VOPs work in */

int gen_family_fp(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    c->edge_pct = 20;
    gen_layout_data(c);
    c->max_rows = 3;
    if (c->tmem.hi > POOL)
        c->tmem.hi = POOL;
    gen_start_all(c); /* (the whole pool loaded) */
    for (c->s = 0; c->s < c->cfg.S; c->s++)
        gen_body(c, 14 + (unsigned)gen_rng_below(g, 14), pick);
    gen_end(c, 0);
    return 0;
}
