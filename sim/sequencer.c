/* sequencer.c - a slice's sequencer (Slice.step / advance of the reference): the dispatch of
 * every instruction to its body, and the bodies of the instructions executed in the sequencer
 * (NOP, HALT, LI, ADDI, LOOP, RLD), WAITW's poll and the collectives' wait. */
#include "sequencer.h"

/* ------------------------------------------------------------------ sequencer */

void otpu_slice_advance(otpu_slice *s)
{
    uint32_t pc = s->pc;
    if (s->depth && s->stack[s->depth - 1].end == pc) {
        otpu_loop *top = &s->stack[s->depth - 1];
        if (top->count > 1) {
            top->count--;
            s->pc = top->start;
            return;
        }
        s->depth--;
    }
    s->pc = pc + 1;
}

/* ------------------------------------------------------------------ the sequencer's own */

int otpu_exec_nop(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)s, (void)in, (void)o;
    return 0;
}

int otpu_exec_halt(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    s->halted = 1;
    if (o->halt.chain) {
        s->chain = 1;
        s->chain_addr = o->halt.addr.value;
        s->chain_count = o->halt.count.value;
    }
    return OTPU_EXEC_HELD;
}

int otpu_exec_li(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    otpu_reg_put(s, o->li.rd, o->li.imm);
    return 0;
}

int otpu_exec_addi(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    otpu_reg_put(s, o->addi.rd, o->addi.sum.value);
    return 0;
}

int otpu_exec_loop(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    uint32_t count = o->loop.count.value, body = o->loop.body;
    if (body < 1)
        return otpu_fail(s, OTPU_ERR_LOOP, "LOOP with empty body");
    if (count == 0) {
        s->pc += 1 + body;
        return OTPU_EXEC_HELD;
    }
    if (s->depth >= 4)
        return otpu_fail(s, OTPU_ERR_LOOP, "loop stack overflow (depth 4)");
    uint32_t end = s->pc + body;
    for (unsigned k = 0; k < s->depth; k++)
        if (s->stack[k].end == end)
            return otpu_fail(s, OTPU_ERR_LOOP,
                             "nested loop bodies end on the same instruction (pc %u)", end);
    s->stack[s->depth++] = (otpu_loop){s->pc + 1, end, count, count};
    s->pc++;
    return OTPU_EXEC_HELD;
}

int otpu_exec_rld(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    uint32_t a = o->rld.tmem.value;
    if (otpu_bounds_tmem(s, a, 1, 0, 1, 0))
        return -1;
    uint32_t v = s->tmem[a];
    if (!o->rld.raw)
        v = otpu_f2i(v);
    if (o->rld.has_mul)
        v *= o->rld.mul.value;
    otpu_reg_put(s, o->rld.rd, v);
    return 0;
}

/* BAR and GATHER: the slice waits; the machine completes the collective on every slice. */
int otpu_exec_bar(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in, (void)o;
    s->waiting = 1;
    return OTPU_EXEC_HELD;
}

int otpu_exec_gather(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    return otpu_exec_bar(s, in, o);
}

int otpu_slice_poll(otpu_slice *s)
{
    otpu_ops *o = &s->ops[s->pc];
    otpu_ops_resolve(o, s->R);
    uint32_t dram = o->waitw.dram.value, tm = o->waitw.tmem.value;
    if (o->waitw.cmp == 3)
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "WAITW: bad compare 3 (EQ 0, NE 1, GE 2)");
    if (otpu_bounds_dram_words(s, dram, 1, 0, 1, 0) || otpu_bounds_tmem(s, tm, 1, 0, 1, 0))
        return -1;
    uint32_t v = otpu_m32(s, dram);
    if (!otpu_waitw_holds(v, o->waitw.ref.value, o->waitw.cmp, o->waitw.mask)) {
        s->stalls++;
        return 0;
    }
    otpu_tmem_put(s, tm, v);
    s->polling = 0;
    otpu_slice_advance(s);
    return 1;
}

/* WAITW: polls its word now, and again (otpu_slice_poll) until it holds. */
int otpu_exec_waitw(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in, (void)o;
    s->polling = 1;
    return otpu_slice_poll(s) < 0 ? -1 : OTPU_EXEC_HELD;
}

/* ------------------------------------------------------------------ dispatch */

static otpu_exec_fn *const exec_table[256] = {
#define X(NAME, name, code, unit, format) [code] = otpu_exec_##name,
    OTPU_OPCODES(X)
#undef X
};

int otpu_slice_step(otpu_slice *s)
{
    s->cur_n = s->icount;
    s->cur_pc = s->pc;
    if (s->pc >= s->nprog)
        return otpu_fail(s, OTPU_ERR_PAST_END, "pc %u past end of program (%u instructions)",
                         s->pc, s->nprog);
    const otpu_instr *in = &s->prog[s->pc];
    s->icount++;
    otpu_exec_fn *exec = exec_table[in->op];
    if (!exec)
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "bad opcode %#x", in->op);
    otpu_ops *o = &s->ops[s->pc];
    char why[96];
    if (s->rev_lacks && otpu_rev_lacks(s->cfg->revision, in, o, why, sizeof why))
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "%s is not in ISA revision %s", why,
                         otpu_rev_name(s->cfg->revision));
    otpu_ops_resolve(o, s->R);
    int r = exec(s, in, o);
    if (r < 0)
        return -1;
    if (r != OTPU_EXEC_HELD)
        otpu_slice_advance(s);
    return 0;
}
