/* family_stream.c - DSTEP and STREAM: descriptors with random modes and edge shapes (1 row,
 * past 64 columns, row strides, TMEM and DRAM streams, NODST, ZERO), DSTEP at every legal
 * column count. The family turns DSTEP and STREAM on unless the command line sets them. */
#include "families.h"
#include "frame.h"
#include "ops.h"

void gen_family_stream_defaults(otpu_config *cfg)
{
    cfg->DSTEP = 1;
    cfg->STREAM = 1;
}

static unsigned pick(gen_ctx *c)
{
    static const unsigned ops[] = {OTPU_OP_STREAM, OTPU_OP_DSTEP, OTPU_OP_STREAM, OTPU_OP_LD,
                                   OTPU_OP_VOP};
    for (;;) {
        unsigned op = ops[gen_rng_below(&c->rng, 5)];
        if (gen_op_allowed(c, op))
            return op;
    }
}

const char *gen_family_stream_refuses(const otpu_config *cfg)
{
    return cfg->DSTEP || cfg->STREAM ? NULL : "it needs DSTEP=1 or STREAM=1";
}

int gen_family_stream(gen_ctx *c)
{
    gen_start_all(c);
    for (c->s = 0; c->s < c->cfg.S; c->s++)
        gen_body(c, 8 + (unsigned)gen_rng_below(&c->rng, 12), pick);
    gen_end(c, 0);
    return 0;
}
