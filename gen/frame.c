/* frame.c - the frame every family's programs share (frame.h): how each slice's program starts
 * and ends, and a collective across all slices. Below the families and generate.c, it calls
 * only the layers below it (layout, ops, program). */
#include "frame.h"

#include "layout.h"
#include "ops.h"

#include <stdlib.h>
#include <string.h>

void gen_start_all(gen_ctx *c)
{
    for (c->s = 0; c->s < c->cfg.S; c->s++) {
        gen_setup_regs(c);
        gen_warm(c);
    }
    c->s = 0;
}

void gen_collective(gen_ctx *c, unsigned op)
{
    unsigned keep = c->s;
    for (c->s = 0; c->s < c->cfg.S; c->s++)
        gen_loop_close_all(c);
    c->s = 0;
    otpu_ops o = gen_random_ops(c, op);
    for (c->s = 0; c->s < c->cfg.S; c->s++) {
        if (op == OTPU_OP_GATHER && c->s) /* each slice its own source and stride */
            gen_gather_source(c, &o.gather);
        gen_emit(c, op, &o);
    }
    c->s = keep;
}

static void emit_halt(gen_ctx *c, unsigned addr_reg, unsigned count_reg)
{
    otpu_ops h = gen_ops(OTPU_OP_HALT);
    h.halt.chain = addr_reg != 0;
    h.halt.addr.reg = (uint8_t)addr_reg;
    h.halt.count.reg = (uint8_t)count_reg;
    gen_emit(c, OTPU_OP_HALT, &h);
}

/* Slice 0's second program, written into its DRAM image at a D-aligned address. */
static int chain_program(gen_ctx *c, uint32_t *addr, uint32_t *count)
{
    uint32_t D = c->cfg.D;
    if (c->dram_len < 2 * GEN_CHAIN_BYTES || GEN_CHAIN_BYTES < 2 * D)
        return -1;
    uint64_t at = (c->dram_len - GEN_CHAIN_BYTES + D - 1) / D * D;
    gen_prog keep = c->prog[0];
    memset(&c->prog[0], 0, sizeof c->prog[0]);
    c->s = 0;
    gen_setup_regs(c);
    gen_body(c, (unsigned)gen_rng_range(&c->rng, 2, 8), NULL);
    emit_halt(c, 0, 0);
    gen_prog chain = c->prog[0];
    c->prog[0] = keep;
    int ok = at + chain.n * 32 <= c->dram_len;
    if (ok)
        for (size_t i = 0; i < chain.n; i++)
            memcpy(c->dram[0] + at + 32 * i, chain.ins[i].w, 32);
    *addr = (uint32_t)at;
    *count = (uint32_t)chain.n;
    free(chain.ins);
    return ok ? 0 : -1;
}

void gen_end(gen_ctx *c, int chain)
{
    c->ending = 1;
    for (c->s = 0; c->s < c->cfg.S; c->s++) {
        gen_loop_close_all(c);
        uint32_t addr, count;
        if (c->s == 0 && chain && gen_flags_usable(c, OTPU_OP_HALT, OTPU_F_CHAIN) &&
            !chain_program(c, &addr, &count)) {
            gen_set_reg(c, 1, addr);
            gen_set_reg(c, 2, count);
            emit_halt(c, 1, 2);
        } else {
            emit_halt(c, 0, 0);
        }
    }
    c->s = 0;
    c->ending = 0;
}
