/* family_mix.c - every opcode of the OTPU_OPCODES rows the Config allows (each at least
 * once, in a random order), every VOP function in turn, flag combinations in turn, all
 * units busy at once, LOOP nests (now and then 4 deep) with stepping address registers, RLD,
 * HALT CHAIN, BAR and GATHER between segments of every slice, and now and then slices that
 * wait for the host at their start (host.txt). */
#include "families.h"
#include "frame.h"
#include "host_steps.h"
#include "ops.h"

static const unsigned opcodes[] = {
#define X(NAME, name, code, unit, format) OTPU_OP_##NAME,
    OTPU_OPCODES(X)
#undef X
};
enum { NOPS = sizeof opcodes / sizeof opcodes[0] };

_Static_assert(NOPS <= sizeof ((gen_ctx *)0)->todo[0], "gen_ctx.todo holds every opcode");

/* The slice's opcodes still to cover first, else any. */
static unsigned pick(gen_ctx *c)
{
    unsigned *n = &c->ntodo[c->s];
    if (*n && gen_rng_chance(&c->rng, 60))
        return c->todo[c->s][--*n];
    return gen_pick_op(c);
}

int gen_family_mix(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    gen_start_all(c);
    gen_host_handshake(c);
    for (unsigned s = 0; s < c->cfg.S; s++) {
        uint8_t *todo = c->todo[s];
        unsigned n = 0;
        for (unsigned i = 0; i < NOPS; i++) {
            unsigned op = opcodes[i];
            if (op != OTPU_OP_LOOP && op != OTPU_OP_HALT && op != OTPU_OP_BAR &&
                op != OTPU_OP_GATHER && gen_op_allowed(c, op))
                todo[n++] = (uint8_t)op;
        }
        for (unsigned i = n; i > 1; i--) { /* shuffle */
            unsigned j = (unsigned)gen_rng_below(g, i);
            uint8_t t = todo[i - 1];
            todo[i - 1] = todo[j];
            todo[j] = t;
        }
        c->ntodo[s] = n;
    }
    c->vfunc_next = (unsigned)gen_rng_below(g, 32);
    unsigned segs = 1 + (unsigned)gen_rng_below(g, 3);
    for (unsigned k = 0; k < segs; k++) {
        for (c->s = 0; c->s < c->cfg.S; c->s++) {
            gen_body(c, 6 + (unsigned)gen_rng_below(g, 10), pick);
            if (gen_rng_chance(g, 25)) /* four open LOOPs */
                gen_nest(c, 1 + (unsigned)gen_rng_below(g, 3), pick);
        }
        c->s = 0;
        gen_collective(c, gen_rng_chance(g, 50) ? OTPU_OP_BAR : OTPU_OP_GATHER);
    }
    for (c->s = 0; c->s < c->cfg.S; c->s++)
        while (c->ntodo[c->s])
            gen_random_op(c, c->todo[c->s][--c->ntodo[c->s]]);
    c->s = 0;
    gen_end(c, gen_rng_chance(g, 40));
    return 0;
}
