/* program.c - the program builder (program.h). */
#include "program.h"

#include <stdlib.h>
#include <string.h>

gen_prog *gen_cur(gen_ctx *c)
{
    return &c->prog[c->s];
}

uint32_t gen_pc(gen_ctx *c)
{
    return (uint32_t)gen_cur(c)->n;
}

otpu_ops gen_ops(unsigned op)
{
    otpu_ops o;
    memset(&o, 0, sizeof o);
    o.format = otpu_op_format(op);
    return o;
}

static void forget(gen_prog *p, unsigned r)
{
    if (r)
        p->reg[r].known = 0;
}

int64_t gen_emit(gen_ctx *c, unsigned op, const otpu_ops *o)
{
    gen_prog *p = gen_cur(c);
    /* the last GEN_RESERVE places are for the program's end (HALT CHAIN and its registers) */
    uint64_t room = c->cfg.IMEM_WORDS / 8 - p->n;
    if (!room || (op != OTPU_OP_HALT && room <= GEN_RESERVE && !c->ending))
        return -1;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        otpu_instr *ins = realloc(p->ins, cap * sizeof *ins);
        if (!ins)
            return -1;
        p->ins = ins;
        p->cap = cap;
    }
    otpu_encode_operands(op, o, &p->ins[p->n]);
    /* registers the generator does not track any more */
    if (op == OTPU_OP_LI)
        forget(p, o->li.rd);
    else if (op == OTPU_OP_ADDI)
        forget(p, o->addi.rd);
    else if (op == OTPU_OP_RLD)
        forget(p, o->rld.rd);
    return (int64_t)p->n++;
}

static void set_known(gen_prog *p, unsigned r, int64_t v)
{
    p->reg[r] = (gen_reg){1, v, v, v, 0};
}

void gen_set_reg(gen_ctx *c, unsigned r, uint32_t v)
{
    gen_rng *g = &c->rng;
    otpu_ops o = gen_ops(OTPU_OP_LI);
    o.li.rd = (uint8_t)r;
    if (gen_rng_chance(g, 40)) { /* LI above the value, then ADDI a negative immediate */
        uint32_t up = (uint32_t)gen_rng_range(g, 1, 0x7FFFFFFF);
        o.li.imm = v + up;
        otpu_ops a = gen_ops(OTPU_OP_ADDI);
        a.addi.rd = (uint8_t)r;
        a.addi.sum.reg = (uint8_t)r;
        a.addi.sum.imm = 0u - up;
        if (gen_emit(c, OTPU_OP_LI, &o) < 0 || gen_emit(c, OTPU_OP_ADDI, &a) < 0)
            return;
    } else {
        o.li.imm = v;
        if (gen_emit(c, OTPU_OP_LI, &o) < 0)
            return;
    }
    set_known(gen_cur(c), r, v);
}

static uint64_t iters(const gen_prog *p)
{
    uint64_t t = 1;
    for (unsigned k = 0; k < p->depth; k++)
        t *= p->count[k];
    return t;
}

unsigned gen_free_ptr(gen_ctx *c)
{
    gen_prog *p = gen_cur(c);
    unsigned start = 1 + (unsigned)gen_rng_below(&c->rng, GEN_ADDR_REGS);
    for (unsigned i = 0; i < GEN_ADDR_REGS; i++) {
        unsigned r = 1 + (start - 1 + i) % GEN_ADDR_REGS;
        int used = !p->reg[r].known;
        for (unsigned k = 0; k < p->depth; k++)
            used |= p->ptr[k] == (int)r;
        if (!used)
            return r;
    }
    return 0;
}

static int64_t gcd(int64_t a, int64_t b)
{
    a = llabs(a);
    b = llabs(b);
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int gen_loop_open(gen_ctx *c, uint32_t count, unsigned ptr, int32_t step)
{
    gen_prog *p = gen_cur(c);
    if (p->depth == GEN_MAX_DEPTH || iters(p) * count > GEN_MAX_ITERS || !count ||
        (p->n + 4) * 8 > c->cfg.IMEM_WORDS)
        return -1;
    otpu_ops o = gen_ops(OTPU_OP_LOOP);
    o.loop.count.imm = count;
    /* a register-relative count: an argument or a known address register, and the
     * difference as a (often negative) immediate */
    unsigned r = (unsigned)gen_rng_below(&c->rng, 16);
    if (r && p->reg[r].known && p->reg[r].lo == p->reg[r].hi && gen_rng_chance(&c->rng, 50)) {
        o.loop.count.reg = (uint8_t)r;
        o.loop.count.imm = count - (uint32_t)p->reg[r].lo;
    }
    int64_t pc = gen_emit(c, OTPU_OP_LOOP, &o);
    if (pc < 0)
        return -1;
    p->open[p->depth] = (uint32_t)pc;
    p->count[p->depth] = count;
    p->ptr[p->depth] = (int)ptr;
    p->ptr_step[p->depth] = step;
    p->depth++;
    if (ptr) { /* every value the pointer takes from now on */
        gen_reg *g = &p->reg[ptr];
        int64_t span = (int64_t)step * (int64_t)iters(p);
        if (span < 0)
            g->lo += span;
        else
            g->hi += span;
        g->step = gcd(g->step, step); /* every value is base + a multiple of it */
    }
    return 0;
}

void gen_loop_close(gen_ctx *c)
{
    gen_prog *p = gen_cur(c);
    if (!p->depth)
        return;
    unsigned k = p->depth - 1;
    uint32_t start = p->open[k];
    if (p->ptr[k]) {
        otpu_ops a = gen_ops(OTPU_OP_ADDI);
        a.addi.rd = (uint8_t)p->ptr[k];
        a.addi.sum.reg = (uint8_t)p->ptr[k];
        a.addi.sum.imm = (uint32_t)p->ptr_step[k];
        gen_reg keep = p->reg[p->ptr[k]];
        gen_emit(c, OTPU_OP_ADDI, &a);
        p->reg[p->ptr[k]] = keep;
    }
    /* a body is not empty and does not end where an inner body ends */
    if (p->n == start + 1 || (int64_t)p->n - 1 == p->last_end)
        gen_emit(c, OTPU_OP_NOP, &(otpu_ops){0});
    otpu_instr *l = &p->ins[start];
    l->w[1] = (uint32_t)(p->n - 1 - start);
    p->last_end = (int64_t)p->n - 1;
    p->depth--;
}

void gen_loop_close_all(gen_ctx *c)
{
    while (gen_cur(c)->depth)
        gen_loop_close(c);
}

otpu_ri gen_addr_in(gen_ctx *c, uint64_t lo, uint64_t hi, uint64_t len, uint64_t align)
{
    gen_rng *g = &c->rng;
    gen_prog *p = gen_cur(c);
    if (!align)
        align = 1;
    otpu_ri x = {0, 0, 0};
    if (hi < lo + len) /* does not fit: the family's problem (the model will say so) */
        return (otpu_ri){lo, (uint32_t)lo, 0};
    int64_t top = (int64_t)(hi - len); /* the highest start */
    unsigned start = (unsigned)gen_rng_below(g, 16);
    for (unsigned i = 0; i < 16 && gen_rng_chance(g, 70); i++) {
        unsigned r = (start + i) % 16;
        gen_reg *rg = &p->reg[r];
        if (!r || !rg->known || (rg->step && rg->step % (int64_t)align))
            continue;
        /* t = the value at base: t - base + lo_r >= lo, t - base + hi_r <= top */
        int64_t tlo = (int64_t)lo + rg->base - rg->lo, thi = top + rg->base - rg->hi;
        tlo = (tlo + (int64_t)align - 1) / (int64_t)align * (int64_t)align;
        if (tlo < 0 || thi < tlo)
            continue;
        uint64_t steps = (uint64_t)(thi - tlo) / align + 1;
        int64_t t = tlo + (int64_t)gen_rng_below(g, steps) * (int64_t)align;
        x.reg = (uint8_t)r;
        x.imm = (uint32_t)(t - rg->base);
        x.value = (uint32_t)t;
        return x;
    }
    uint64_t a = (lo + align - 1) / align * align;
    if (a > (uint64_t)top)
        return (otpu_ri){(uint32_t)lo, (uint32_t)lo, 0};
    /* often the lowest or the highest start: the edges of the pool */
    uint64_t n = ((uint64_t)top - a) / align;
    uint64_t k = gen_rng_chance(g, 10) ? 0 : gen_rng_chance(g, 10) ? n : gen_rng_below(g, n + 1);
    x.imm = x.value = (uint32_t)(a + k * align);
    return x;
}

otpu_ri gen_addr(gen_ctx *c, const gen_pool *pool, uint64_t len, uint64_t align)
{
    return gen_addr_in(c, pool->lo, pool->hi, len, align);
}

void gen_setup_regs(gen_ctx *c)
{
    gen_prog *p = gen_cur(c);
    for (unsigned r = 0; r < 16; r++)
        p->reg[r] = (gen_reg){0};
    p->reg[0] = (gen_reg){1, 0, 0, 0, 0};
    for (unsigned r = 8; r < 16; r++)
        p->reg[r] = (gen_reg){1, c->args[r - 8], c->args[r - 8], c->args[r - 8], 0};
    for (unsigned r = 1; r <= GEN_ADDR_REGS; r++) {
        const gen_pool *pool = gen_rng_chance(&c->rng, 50) ? &c->tmem : &c->dpool;
        uint64_t v = gen_rng_range(&c->rng, pool->lo, pool->hi ? pool->hi - 1 : 0);
        if (gen_rng_chance(&c->rng, 70))
            v &= ~(uint64_t)63;
        gen_set_reg(c, r, (uint32_t)v);
    }
}
