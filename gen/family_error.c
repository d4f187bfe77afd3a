/* family_error.c - a random valid prefix, then one ISA error, the kind chosen by the bundle's
 * index in turn, among those the Config and revision can produce (producible). Kinds a bundle
 * cannot produce are not in the list: DEADLOCK (a slice that
 * can neither run nor wait at a collective or a WAITW does not exist), STEP_LIMIT (a tool's
 * option, not the bundle's), NOMEM (the simulator's host), and COLLECTIVE when S = 1.
 * A COLLECTIVE is a BAR the other slices never reach, or GATHERs that disagree. */
#include "families.h"
#include "frame.h"
#include "ops.h"

#include <stdio.h>

static const otpu_err_kind kinds[] = {
    OTPU_ERR_DRAM_ADDR, OTPU_ERR_TMEM_RANGE, OTPU_ERR_PAST_END, OTPU_ERR_LOOP,
    OTPU_ERR_HAZARD,    OTPU_ERR_BOUNDS,     OTPU_ERR_ILLEGAL,  OTPU_ERR_WAITW,
    OTPU_ERR_CHAIN,     OTPU_ERR_COLLECTIVE,
};

/* The first opcode no OTPU_OPCODES row has. */
static unsigned unknown_opcode(void)
{
    unsigned op = 0;
    while (otpu_op_name(op))
        op++;
    return op;
}

/* Emit the failing instruction of kind k in the current slice; its pc is c->want_pc. The
 * kinds with two forms take them in turn (round: the bundles of kind k before this one). */
static void failing(gen_ctx *c, otpu_err_kind k, uint64_t round)
{
    gen_rng *g = &c->rng;
    const otpu_config *cfg = &c->cfg;
    otpu_ops o;
    unsigned op = OTPU_OP_NOP;
    c->want_pc = gen_pc(c);
    switch (k) {
    case OTPU_ERR_DRAM_ADDR: {
        op = OTPU_OP_LD;
        o = gen_random_ops(c, op);
        o.dma.n = o.dma.n ? o.dma.n : 1;
        uint64_t a = gen_rng_chance(g, 50) ? (o.dma.dram.value | (1 + gen_rng_below(g, 3)))
                                           : cfg->DRAM_BYTES - 4 * gen_rng_below(g, o.dma.n);
        o.dma.dram = (otpu_ri){(uint32_t)a, (uint32_t)a, 0};
        break;
    }
    case OTPU_ERR_TMEM_RANGE: {
        if (round % 2 && gen_op_allowed(c, OTPU_OP_STREAM)) { /* rows past TMEM's end */
            c->want_pc = UINT32_MAX; /* (the descriptor's LD comes first) */
            gen_stream_past_end(c);
            return;
        }
        op = gen_rng_chance(g, 50) ? OTPU_OP_LD : OTPU_OP_ST;
        o = gen_random_ops(c, op);
        o.dma.n = 2 + (uint32_t)gen_rng_below(g, 8);
        uint64_t back = o.dma.n - 1 < cfg->TMEM_WORDS ? o.dma.n - 1 : 1; /* the last word past */
        uint64_t t = cfg->TMEM_WORDS - gen_rng_below(g, back) - 1;
        o.dma.tmem = (otpu_ri){(uint32_t)t, (uint32_t)t, 0};
        o.dma.dram = gen_addr(c, &c->dpool, 4ull * o.dma.n, 4);
        break;
    }
    case OTPU_ERR_LOOP:
        op = OTPU_OP_LOOP;
        o = gen_ops(op);
        o.loop.count.imm = 1 + (uint32_t)gen_rng_below(g, 3);
        break;
    case OTPU_ERR_HAZARD: /* element 0 writes what element 1 reads */
        op = OTPU_OP_VOP;
        o = gen_random_ops(c, op);
        o.vop.func = gen_rng_chance(g, 50) ? OTPU_V_ADD : OTPU_V_COPY;
        o.vop.bmode = OTPU_B_SCALAR;
        o.vop.rows = 1;
        o.vop.cols = 2 + (uint32_t)gen_rng_below(g, 80);
        o.vop.a = gen_addr(c, &c->tmem, o.vop.cols + 1, 1);
        o.vop.dst = (otpu_ri){o.vop.a.value + 1, o.vop.a.value + 1, 0};
        o.vop.a = (otpu_ri){o.vop.a.value, o.vop.a.value, 0};
        break;
    case OTPU_ERR_BOUNDS:
        op = OTPU_OP_MM;
        o = gen_random_ops(c, op);
        o.mm.pair = 0;
        if (otpu_config_act_rows(cfg) < 255)
            o.mm.M = otpu_config_act_rows(cfg) + 1;
        else
            o.mm.ab = cfg->ACT_BLOCKS - (o.mm.KB > 1 ? 1 : 0), o.mm.KB = 2;
        break;
    case OTPU_ERR_ILLEGAL:
        op = unknown_opcode();
        o = gen_ops(op);
        break;
    case OTPU_ERR_WAITW: /* a compare that never holds: (v & 0) != 0 */
        op = OTPU_OP_WAITW;
        o = gen_random_ops(c, op);
        o.waitw.mask = 0;
        o.waitw.cmp = OTPU_CMP_NE;
        o.waitw.ref = (otpu_ri){0, 0, 0};
        break;
    case OTPU_ERR_CHAIN: { /* to an address that is not a multiple of D */
        uint32_t a = cfg->D * (uint32_t)gen_rng_below(g, 64) + 1 +
                     (uint32_t)gen_rng_below(g, cfg->D - 1);
        gen_set_reg(c, 1, a);
        gen_set_reg(c, 2, 1 + (uint32_t)gen_rng_below(g, 4));
        op = OTPU_OP_HALT;
        o = gen_ops(op);
        o.halt.chain = 1;
        o.halt.addr.reg = 1;
        o.halt.count.reg = 2;
        c->want_pc = gen_pc(c);
        break;
    }
    case OTPU_ERR_COLLECTIVE: /* a BAR the other slices never reach: they halt */
        op = OTPU_OP_BAR;
        o = gen_ops(op);
        c->want_pc = UINT32_MAX;
        break;
    default:
        o = gen_ops(op);
        break;
    }
    gen_emit(c, op, &o);
}

/* A COLLECTIVE of another kind: every slice ends with a GATHER (each its own source), the
 * wanted slice's differs from the others' in one field they must agree on (seg most often). */
static void disagreeing_gather(gen_ctx *c, const otpu_ops *shared)
{
    otpu_ops o = *shared;
    otpu_gather_ops *x = &o.gather;
    if (c->s)
        gen_gather_source(c, x);
    if (c->s == c->want_slice) {
        unsigned field = (unsigned)gen_rng_below(&c->rng, 6);
        if (field == 0)
            x->drs++;
        else if (field == 1)
            x->dst.imm++, x->dst.value++;
        else
            x->seg = x->seg > 1 && gen_rng_chance(&c->rng, 50) ? x->seg - 1 : x->seg + 1;
        c->want_pc = UINT32_MAX;
    }
    gen_emit(c, OTPU_OP_GATHER, &o);
}

/* Can this Config and ISA revision produce kind k? (a collective needs two slices; WAITW and
 * HALT CHAIN are not in every revision) */
static int producible(const gen_ctx *c, otpu_err_kind k)
{
    switch (k) {
    case OTPU_ERR_COLLECTIVE: return c->cfg.S > 1;
    case OTPU_ERR_WAITW: return gen_op_allowed(c, OTPU_OP_WAITW);
    case OTPU_ERR_CHAIN: return gen_flags_usable(c, OTPU_OP_HALT, OTPU_F_CHAIN);
    default: return 1;
    }
}

int gen_family_error(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    otpu_err_kind usable[sizeof kinds / sizeof kinds[0]];
    size_t n = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (producible(c, kinds[i]))
            usable[n++] = kinds[i];
    otpu_err_kind k = usable[c->index % n];
    c->want_error = 1;
    c->want_kind = k;
    c->want_slice = (uint32_t)gen_rng_below(g, c->cfg.S);
    snprintf(c->note, sizeof c->note, "expects a %s error", otpu_err_kind_name(k));
    gen_start_all(c);
    int gather = k == OTPU_ERR_COLLECTIVE && (c->index / n) % 2 == 0; /* in turn with BAR */
    otpu_ops shared = gather ? gen_random_ops(c, OTPU_OP_GATHER) : gen_ops(OTPU_OP_NOP);
    for (c->s = 0; c->s < c->cfg.S; c->s++) {
        c->ending = 0;
        gen_body(c, 3 + (unsigned)gen_rng_below(g, 8), NULL);
        c->ending = 1; /* the failing instruction and the HALT use the reserved places */
        if (gather) {
            disagreeing_gather(c, &shared);
        } else if (c->s == c->want_slice) {
            failing(c, k, c->index / n);
            if (k == OTPU_ERR_PAST_END) {
                c->want_pc = gen_pc(c);
                continue;
            }
        }
        gen_emit(c, OTPU_OP_HALT, &(otpu_ops){0});
    }
    c->s = 0;
    c->ending = 0;
    return 0;
}
