/* isa_table.c - decoding, encoding, flags and disassembly of the formats of sim/isa.def.
 * Written by sim/gen_isa.py from sim/isa.def: edit the description, not this file. */
#include "isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Sets the operand field at x to R[reg] + imm and notes it among o's register operands. */
static void ri(otpu_ops *o, otpu_ri *x, const uint32_t *R, unsigned reg, uint32_t imm)
{
    *x = (otpu_ri){.value = (R && reg ? R[reg] : 0) + imm, .imm = imm, .reg = (uint8_t)reg};
    o->ri_at[o->nri++] = (uint8_t)((char *)x - (char *)o);
}

/* The flag bit b when on is set. */
static unsigned fl(int on, unsigned b)
{
    return on ? b : 0;
}

typedef struct {
    char *buf;
    size_t n, len;
} sbuf;

static void put(sbuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = s->len < s->n ? s->n - s->len : 0;
    int k = vsnprintf(room ? s->buf + s->len : NULL, room, fmt, ap);
    va_end(ap);
    if (k > 0)
        s->len += (size_t)k;
}

/* "R3+0x10", or "0x10" when the register is R0 */
static void addr(sbuf *s, const char *name, otpu_ri x)
{
    if (x.reg)
        put(s, " %s=R%u+%#x", name, x.reg, x.imm);
    else
        put(s, " %s=%#x", name, x.imm);
}

static void flag(sbuf *s, int on, const char *name)
{
    if (on)
        put(s, " %s", name);
}

/* a VOP function's name, " func%u?" for an unknown one */
static void vfunc(sbuf *s, unsigned func)
{
    const char *fn = otpu_vfunc_name(func);
    if (fn)
        put(s, " %s", fn);
    else
        put(s, " func%u?", func);
}

const otpu_format_flags otpu_format_flag_table[OTPU_FORMATS] = {
    [OTPU_FMT_HALT] = {1, {{"chain", 0x01, 0, 0, NULL}}},
    [OTPU_FMT_RLD] = {2, {{"raw", 0x01, 0, 0, NULL}, {"mul", 0x02, 0, 0, NULL}}},
    [OTPU_FMT_WAITW] = {1, {{"cmp", 0x03, 0, 4, (const char *const[]){"eq", "ne", "ge", "3"}}}},
    [OTPU_FMT_DSTEP] = {1, {{"zero", 0x01, 0, 0, NULL}}},
    [OTPU_FMT_STREAM] = {4, {{"szero", 0x01, 0, 0, NULL}, {"src_t", 0x02, 0, 0, NULL}, {"dst_t", 0x04, 0, 0, NULL}, {"nodst", 0x08, 0, 0, NULL}}},
    [OTPU_FMT_MM] = {6, {{"unit", 0x01, 0, 0, NULL}, {"acc", 0x02, 0, 0, NULL}, {"rmax", 0x04, 0, 0, NULL}, {"ascale", 0x08, 0, 0, NULL}, {"pair", 0x40, 0, 0, NULL}, {"wf", 0x30, 4, 4, (const char *const[]){"int8", "int4", "fp4", "3"}}}},
    [OTPU_FMT_QACT] = {4, {{"row", 0x01, 0, 0, NULL}, {"cscale", 0x02, 0, 0, NULL}, {"rscale", 0x04, 0, 0, NULL}, {"dup", 0x08, 0, 0, NULL}}},
    [OTPU_FMT_QST] = {2, {{"row", 0x01, 0, 0, NULL}, {"half", 0x02, 0, 0, NULL}}},
    [OTPU_FMT_VOP] = {2, {{"dscalar", 0x01, 0, 0, NULL}, {"done", 0x02, 0, 0, NULL}}},
};

unsigned otpu_flag_mask(unsigned op)
{
    switch (otpu_op_format(op)) {
    case OTPU_FMT_HALT: return 0x01;
    case OTPU_FMT_RLD: return 0x03;
    case OTPU_FMT_WAITW: return 0x03;
    case OTPU_FMT_DSTEP: return 0x01;
    case OTPU_FMT_STREAM: return 0x0f;
    case OTPU_FMT_MM: return 0x7f;
    case OTPU_FMT_QACT: return 0x0f;
    case OTPU_FMT_QST: return 0x03;
    case OTPU_FMT_VOP: return 0x03;
    default: return 0;
    }
}

void otpu_set_flags_halt(otpu_halt_ops *x, unsigned f)
{
    x->chain = (int)(f & OTPU_F_CHAIN);
}

void otpu_set_flags_rld(otpu_rld_ops *x, unsigned f)
{
    x->raw = (int)(f & OTPU_F_RAW);
    x->has_mul = (int)(f & OTPU_F_MUL);
}

void otpu_set_flags_waitw(otpu_waitw_ops *x, unsigned f)
{
    x->cmp = (f >> 0) & 3;
}

void otpu_set_flags_dstep(otpu_dstep_ops *x, unsigned f)
{
    x->zero = (int)(f & OTPU_F_DZERO);
}

void otpu_set_flags_stream(otpu_stream_ops *x, unsigned f)
{
    x->zero = (int)(f & OTPU_F_SZERO);
    x->src_t = (int)(f & OTPU_F_SRC_T);
    x->dst_t = (int)(f & OTPU_F_DST_T);
    x->nodst = (int)(f & OTPU_F_NODST);
}

void otpu_set_flags_mm(otpu_mm_ops *x, unsigned f)
{
    x->unit = (int)(f & OTPU_F_UNIT);
    x->acc = (int)(f & OTPU_F_ACC);
    x->rmax = (int)(f & OTPU_F_RMAX);
    x->ascale = (int)(f & OTPU_F_ASCALE);
    x->pair = (int)(f & OTPU_F_PAIR);
    x->wf = (f >> 4) & 3;
}

void otpu_set_flags_qact(otpu_qact_ops *x, unsigned f)
{
    x->row = (int)(f & OTPU_F_ROW);
    x->has_cscale = (int)(f & OTPU_F_CSCALE);
    x->has_rscale = (int)(f & OTPU_F_RSCALE);
    x->dup = (int)(f & OTPU_F_DUP);
}

void otpu_set_flags_qst(otpu_qst_ops *x, unsigned f)
{
    x->row = (int)(f & OTPU_F_ROW);
    x->half = (int)(f & OTPU_F_HALF);
}

void otpu_set_flags_vop(otpu_vop_ops *x, unsigned f)
{
    x->dscalar = (int)(f & OTPU_F_DSCALAR);
    x->done = (int)(f & OTPU_F_DONE);
}

otpu_ops otpu_operands(const otpu_instr *in, const uint32_t R[16])
{
    const uint32_t *w = in->w;
    unsigned f = in->flags;
    otpu_ops o;
    o.format = otpu_op_format(in->op);
    o.nri = 0;
    (void)w;
    (void)f;
    switch (o.format) {
    case OTPU_FMT_NONE:
        break;
    case OTPU_FMT_HALT:
        ri(&o, &o.halt.addr, R, in->ra, 0);
        ri(&o, &o.halt.count, R, in->rb, 0);
        otpu_set_flags_halt(&o.halt, f);
        break;
    case OTPU_FMT_LI:
        o.li.rd = in->rd;
        o.li.imm = w[1];
        break;
    case OTPU_FMT_ADDI:
        o.addi.rd = in->rd;
        ri(&o, &o.addi.sum, R, in->ra, w[1]);
        break;
    case OTPU_FMT_LOOP:
        o.loop.body = w[1];
        ri(&o, &o.loop.count, R, in->ra, w[2]);
        break;
    case OTPU_FMT_RLD:
        o.rld.rd = in->rd;
        ri(&o, &o.rld.tmem, R, in->ra, w[1]);
        ri(&o, &o.rld.mul, R, in->rb, w[2]);
        otpu_set_flags_rld(&o.rld, f);
        break;
    case OTPU_FMT_WAITW:
        ri(&o, &o.waitw.dram, R, in->ra, w[1]);
        ri(&o, &o.waitw.tmem, R, in->rb, w[2]);
        ri(&o, &o.waitw.ref, R, in->rc, w[3]);
        o.waitw.mask = w[4];
        o.waitw.interval = w[5];
        o.waitw.timeout = w[6];
        otpu_set_flags_waitw(&o.waitw, f);
        break;
    case OTPU_FMT_DMA:
        ri(&o, &o.dma.dram, R, in->ra, w[1]);
        ri(&o, &o.dma.tmem, R, in->rb, w[2]);
        o.dma.n = w[3];
        break;
    case OTPU_FMT_DSTEP:
        ri(&o, &o.dstep.dram, R, in->ra, w[1]);
        ri(&o, &o.dstep.qk, R, in->rb, w[2]);
        ri(&o, &o.dstep.v, R, in->rc, w[3]);
        o.dstep.rows = w[4] & 0xffff;
        o.dstep.cols = w[4] >> 16;
        o.dstep.g = w[5];
        o.dstep.o = w[6];
        o.dstep.gs = w[7];
        otpu_set_flags_dstep(&o.dstep, f);
        break;
    case OTPU_FMT_STREAM:
        o.stream.desc = w[1] & 0xffff;
        o.stream.ks = w[1] >> 16;
        ri(&o, &o.stream.src, R, in->ra, w[2]);
        ri(&o, &o.stream.dst, R, in->ra, w[3]);
        ri(&o, &o.stream.vec, R, in->rb, w[4]);
        ri(&o, &o.stream.x, R, in->rc, w[5]);
        ri(&o, &o.stream.k, R, in->rd, w[6]);
        o.stream.out = w[7];
        otpu_set_flags_stream(&o.stream, f);
        break;
    case OTPU_FMT_MM:
        ri(&o, &o.mm.sa, R, in->ra, w[1]);
        ri(&o, &o.mm.ssa, R, in->rb, w[2]);
        ri(&o, &o.mm.out, R, in->rc, w[3]);
        o.mm.N = w[4] & 0xffff;
        o.mm.KB = w[4] >> 16;
        o.mm.rs = w[5];
        o.mm.ors = w[6] & 0xffff;
        o.mm.M = (w[6] >> 16) & 0xff;
        o.mm.ab = w[6] >> 24;
        o.mm.srs = w[7];
        otpu_set_flags_mm(&o.mm, f);
        break;
    case OTPU_FMT_QACT:
        ri(&o, &o.qact.src, R, in->ra, w[1]);
        o.qact.rows = w[2] & 0xff;
        o.qact.ab = (w[2] >> 8) & 0xff;
        o.qact.KB = w[2] >> 16;
        o.qact.srs = w[3];
        o.qact.cscale = w[4];
        o.qact.rscale = w[5];
        otpu_set_flags_qact(&o.qact, f);
        break;
    case OTPU_FMT_QST:
        ri(&o, &o.qst.src, R, in->ra, w[1]);
        ri(&o, &o.qst.dst, R, in->rb, w[2]);
        ri(&o, &o.qst.sdst, R, in->rc, w[3]);
        o.qst.rows = w[4] & 0xffff;
        o.qst.KB = w[4] >> 16;
        o.qst.srs = w[5];
        o.qst.drs = w[6];
        o.qst.es = w[7];
        otpu_set_flags_qst(&o.qst, f);
        break;
    case OTPU_FMT_VOP:
        ri(&o, &o.vop.dst, R, in->ra, w[1]);
        ri(&o, &o.vop.a, R, in->rb, w[2]);
        ri(&o, &o.vop.b, R, in->rc, w[3]);
        o.vop.rows = w[4] & 0xffff;
        o.vop.cols = w[4] >> 16;
        o.vop.drs = w[5] & 0xffff;
        o.vop.ars = w[5] >> 16;
        o.vop.brs = w[6] & 0xffff;
        o.vop.func = (w[6] >> 16) & 0xff;
        o.vop.bmode = (w[6] >> 24) & 0x3;
        ri(&o, &o.vop.imm, R, in->rd, w[7]);
        otpu_set_flags_vop(&o.vop, f);
        break;
    case OTPU_FMT_GATHER:
        ri(&o, &o.gather.src, R, in->ra, w[1]);
        ri(&o, &o.gather.dst, R, in->rb, w[2]);
        o.gather.rows = w[3] & 0xffff;
        o.gather.cols = w[3] >> 16;
        o.gather.srs = w[4];
        o.gather.drs = w[5];
        o.gather.seg = w[6];
        break;
    }
    return o;
}

void otpu_encode_operands(unsigned op, const otpu_ops *o, otpu_instr *out)
{
    memset(out, 0, sizeof *out);
    out->op = (uint8_t)op;
    uint32_t *w = out->w;
    unsigned f = 0;
    switch (otpu_op_format(op)) {
    case OTPU_FMT_NONE:
        break;
    case OTPU_FMT_HALT:
        out->ra = o->halt.addr.reg;
        out->rb = o->halt.count.reg;
        f = fl(o->halt.chain, OTPU_F_CHAIN);
        break;
    case OTPU_FMT_LI:
        out->rd = o->li.rd;
        w[1] = o->li.imm;
        break;
    case OTPU_FMT_ADDI:
        out->rd = o->addi.rd;
        out->ra = o->addi.sum.reg;
        w[1] = o->addi.sum.imm;
        break;
    case OTPU_FMT_LOOP:
        out->ra = o->loop.count.reg;
        w[1] = o->loop.body;
        w[2] = o->loop.count.imm;
        break;
    case OTPU_FMT_RLD:
        out->rd = o->rld.rd;
        out->ra = o->rld.tmem.reg;
        out->rb = o->rld.mul.reg;
        w[1] = o->rld.tmem.imm;
        w[2] = o->rld.mul.imm;
        f = fl(o->rld.raw, OTPU_F_RAW) | fl(o->rld.has_mul, OTPU_F_MUL);
        break;
    case OTPU_FMT_WAITW:
        out->ra = o->waitw.dram.reg;
        out->rb = o->waitw.tmem.reg;
        out->rc = o->waitw.ref.reg;
        w[1] = o->waitw.dram.imm;
        w[2] = o->waitw.tmem.imm;
        w[3] = o->waitw.ref.imm;
        w[4] = o->waitw.mask;
        w[5] = o->waitw.interval;
        w[6] = o->waitw.timeout;
        f = (o->waitw.cmp & 3) << 0;
        break;
    case OTPU_FMT_DMA:
        out->ra = o->dma.dram.reg;
        out->rb = o->dma.tmem.reg;
        w[1] = o->dma.dram.imm;
        w[2] = o->dma.tmem.imm;
        w[3] = o->dma.n;
        break;
    case OTPU_FMT_DSTEP:
        out->ra = o->dstep.dram.reg;
        out->rb = o->dstep.qk.reg;
        out->rc = o->dstep.v.reg;
        w[1] = o->dstep.dram.imm;
        w[2] = o->dstep.qk.imm;
        w[3] = o->dstep.v.imm;
        w[4] = (o->dstep.rows & 0xffff) | (o->dstep.cols & 0xffff) << 16;
        w[5] = o->dstep.g;
        w[6] = o->dstep.o;
        w[7] = o->dstep.gs;
        f = fl(o->dstep.zero, OTPU_F_DZERO);
        break;
    case OTPU_FMT_STREAM:
        out->ra = o->stream.src.reg;
        out->rb = o->stream.vec.reg;
        out->rc = o->stream.x.reg;
        out->rd = o->stream.k.reg;
        w[1] = (o->stream.desc & 0xffff) | (o->stream.ks & 0xffff) << 16;
        w[2] = o->stream.src.imm;
        w[3] = o->stream.dst.imm;
        w[4] = o->stream.vec.imm;
        w[5] = o->stream.x.imm;
        w[6] = o->stream.k.imm;
        w[7] = o->stream.out;
        f = fl(o->stream.zero, OTPU_F_SZERO) | fl(o->stream.src_t, OTPU_F_SRC_T) | fl(o->stream.dst_t, OTPU_F_DST_T) | fl(o->stream.nodst, OTPU_F_NODST);
        break;
    case OTPU_FMT_MM:
        out->ra = o->mm.sa.reg;
        out->rb = o->mm.ssa.reg;
        out->rc = o->mm.out.reg;
        w[1] = o->mm.sa.imm;
        w[2] = o->mm.ssa.imm;
        w[3] = o->mm.out.imm;
        w[4] = (o->mm.N & 0xffff) | (o->mm.KB & 0xffff) << 16;
        w[5] = o->mm.rs;
        w[6] = (o->mm.ors & 0xffff) | (o->mm.M & 0xff) << 16 | (o->mm.ab & 0xff) << 24;
        w[7] = o->mm.srs;
        f = fl(o->mm.unit, OTPU_F_UNIT) | fl(o->mm.acc, OTPU_F_ACC) | fl(o->mm.rmax, OTPU_F_RMAX) | fl(o->mm.ascale, OTPU_F_ASCALE) | fl(o->mm.pair, OTPU_F_PAIR) | (o->mm.wf & 3) << 4;
        break;
    case OTPU_FMT_QACT:
        out->ra = o->qact.src.reg;
        w[1] = o->qact.src.imm;
        w[2] = (o->qact.rows & 0xff) | (o->qact.ab & 0xff) << 8 | (o->qact.KB & 0xffff) << 16;
        w[3] = o->qact.srs;
        w[4] = o->qact.cscale;
        w[5] = o->qact.rscale;
        f = fl(o->qact.row, OTPU_F_ROW) | fl(o->qact.has_cscale, OTPU_F_CSCALE) | fl(o->qact.has_rscale, OTPU_F_RSCALE) | fl(o->qact.dup, OTPU_F_DUP);
        break;
    case OTPU_FMT_QST:
        out->ra = o->qst.src.reg;
        out->rb = o->qst.dst.reg;
        out->rc = o->qst.sdst.reg;
        w[1] = o->qst.src.imm;
        w[2] = o->qst.dst.imm;
        w[3] = o->qst.sdst.imm;
        w[4] = (o->qst.rows & 0xffff) | (o->qst.KB & 0xffff) << 16;
        w[5] = o->qst.srs;
        w[6] = o->qst.drs;
        w[7] = o->qst.es;
        f = fl(o->qst.row, OTPU_F_ROW) | fl(o->qst.half, OTPU_F_HALF);
        break;
    case OTPU_FMT_VOP:
        out->ra = o->vop.dst.reg;
        out->rb = o->vop.a.reg;
        out->rc = o->vop.b.reg;
        out->rd = o->vop.imm.reg;
        w[1] = o->vop.dst.imm;
        w[2] = o->vop.a.imm;
        w[3] = o->vop.b.imm;
        w[4] = (o->vop.rows & 0xffff) | (o->vop.cols & 0xffff) << 16;
        w[5] = (o->vop.drs & 0xffff) | (o->vop.ars & 0xffff) << 16;
        w[6] = (o->vop.brs & 0xffff) | (o->vop.func & 0xff) << 16 | (o->vop.bmode & 0x3) << 24;
        w[7] = o->vop.imm.imm;
        f = fl(o->vop.dscalar, OTPU_F_DSCALAR) | fl(o->vop.done, OTPU_F_DONE);
        break;
    case OTPU_FMT_GATHER:
        out->ra = o->gather.src.reg;
        out->rb = o->gather.dst.reg;
        w[1] = o->gather.src.imm;
        w[2] = o->gather.dst.imm;
        w[3] = (o->gather.rows & 0xffff) | (o->gather.cols & 0xffff) << 16;
        w[4] = o->gather.srs;
        w[5] = o->gather.drs;
        w[6] = o->gather.seg;
        break;
    }
    out->flags = (uint8_t)f;
    out->ra &= 15;
    out->rb &= 15;
    out->rc &= 15;
    out->rd &= 15;
    w[0] = (uint32_t)out->op | (uint32_t)out->ra << 8 | (uint32_t)out->rb << 12 |
           (uint32_t)out->rc << 16 | (uint32_t)out->rd << 20 | (uint32_t)out->flags << 24;
}

int otpu_flags_allowed(unsigned op, unsigned f)
{
    switch (otpu_op_format(op)) {
    case OTPU_FMT_WAITW:
        if (((f >> 0) & 3) == 3)
            return 0;
        return 1;
    case OTPU_FMT_MM:
        if (((f >> 4) & 3) == 3)
            return 0;
        if ((f & 0x40) && ((f >> 4) & 3) == 0)
            return 0;
        if ((f & 0x8) && !(f & 0x1))
            return 0;
        if ((f & 0x8) && !(f & 0x2))
            return 0;
        return 1;
    case OTPU_FMT_QST:
        if ((f & 0x2) && !(f & 0x1))
            return 0;
        return 1;
    default:
        return 1;
    }
}

/* the names of the disassembly's named fields */
static const char *const waitw_cmp_names[4] = {"EQ", "NE", "GE", "cmp3?"};
static const char *const mm_wf_names[4] = {"int8", "int4", "fp4", "wf3?"};
static const char *const vop_bmode_names[4] = {"full", "row", "col", "scalar"};

int otpu_disasm(const otpu_instr *in, char *buf, size_t n)
{
    sbuf s = {buf, n, 0};
    if (n)
        buf[0] = 0;
    const uint32_t *w = in->w;
    const char *name = otpu_op_name(in->op);
    if (!name) {
        put(&s, ".word %08x %08x %08x %08x %08x %08x %08x %08x", w[0], w[1], w[2], w[3], w[4],
            w[5], w[6], w[7]);
        return (int)s.len;
    }
    put(&s, "%s", name);
    otpu_ops o = otpu_operands(in, NULL);
    switch (o.format) {
    case OTPU_FMT_NONE:
        break;
    case OTPU_FMT_HALT:
        flag(&s, o.halt.chain, "CHAIN");
        if (o.halt.chain)
            put(&s, " addr=R%u", o.halt.addr.reg);
        if (o.halt.chain)
            put(&s, " count=R%u", o.halt.count.reg);
        break;
    case OTPU_FMT_LI:
        put(&s, " R%u,", o.li.rd);
        put(&s, " %#x", o.li.imm);
        break;
    case OTPU_FMT_ADDI:
        put(&s, " R%u,", o.addi.rd);
        put(&s, " R%u,", o.addi.sum.reg);
        put(&s, " %#x", o.addi.sum.imm);
        break;
    case OTPU_FMT_LOOP:
        put(&s, " body=%u", o.loop.body);
        addr(&s, "count", o.loop.count);
        break;
    case OTPU_FMT_RLD:
        put(&s, " R%u,", o.rld.rd);
        addr(&s, "tmem", o.rld.tmem);
        flag(&s, o.rld.raw, "RAW");
        if (o.rld.has_mul)
            addr(&s, "MUL", o.rld.mul);
        break;
    case OTPU_FMT_WAITW:
        addr(&s, "dram", o.waitw.dram);
        addr(&s, "tmem", o.waitw.tmem);
        put(&s, " %s", waitw_cmp_names[o.waitw.cmp]);
        addr(&s, "ref", o.waitw.ref);
        put(&s, " mask=%#x", o.waitw.mask);
        put(&s, " interval=%u", o.waitw.interval);
        put(&s, " timeout=%u", o.waitw.timeout);
        break;
    case OTPU_FMT_DMA:
        addr(&s, "dram", o.dma.dram);
        addr(&s, "tmem", o.dma.tmem);
        put(&s, " n=%u", o.dma.n);
        break;
    case OTPU_FMT_DSTEP:
        addr(&s, "dram", o.dstep.dram);
        addr(&s, "qk", o.dstep.qk);
        addr(&s, "v", o.dstep.v);
        put(&s, " rows=%u", o.dstep.rows);
        put(&s, " cols=%u", o.dstep.cols);
        put(&s, " g=%#x", o.dstep.g);
        put(&s, " o=%#x", o.dstep.o);
        put(&s, " gs=%u", o.dstep.gs);
        flag(&s, o.dstep.zero, "ZERO");
        break;
    case OTPU_FMT_STREAM:
        put(&s, " desc=%#x", o.stream.desc);
        put(&s, " ks=%u", o.stream.ks);
        addr(&s, "src", o.stream.src);
        addr(&s, "dst", o.stream.dst);
        addr(&s, "vec", o.stream.vec);
        addr(&s, "x", o.stream.x);
        addr(&s, "k", o.stream.k);
        put(&s, " o=%#x", o.stream.out);
        flag(&s, o.stream.zero, "ZERO");
        flag(&s, o.stream.src_t, "SRC_T");
        flag(&s, o.stream.dst_t, "DST_T");
        flag(&s, o.stream.nodst, "NODST");
        break;
    case OTPU_FMT_MM:
        addr(&s, "sa", o.mm.sa);
        addr(&s, (o.mm.ascale ? "alpha" : "ssa"), o.mm.ssa);
        addr(&s, "out", o.mm.out);
        put(&s, " N=%u", o.mm.N);
        put(&s, " KB=%u", o.mm.KB);
        put(&s, " rs=%u", o.mm.rs);
        put(&s, " ors=%u", o.mm.ors);
        put(&s, " M=%u", o.mm.M);
        put(&s, " ab=%u", o.mm.ab);
        put(&s, " srs=%u", o.mm.srs);
        put(&s, " wf=%s", mm_wf_names[o.mm.wf]);
        flag(&s, o.mm.unit, "UNIT");
        flag(&s, o.mm.acc, "ACC");
        flag(&s, o.mm.rmax, "RMAX");
        flag(&s, o.mm.ascale, "ASCALE");
        flag(&s, o.mm.pair, "PAIR");
        break;
    case OTPU_FMT_QACT:
        addr(&s, "src", o.qact.src);
        put(&s, " rows=%u", o.qact.rows);
        put(&s, " ab=%u", o.qact.ab);
        put(&s, " KB=%u", o.qact.KB);
        put(&s, " srs=%u", o.qact.srs);
        flag(&s, o.qact.row, "ROW");
        if (o.qact.has_cscale)
            put(&s, " CSCALE=%#x", o.qact.cscale);
        if (o.qact.has_rscale)
            put(&s, " RSCALE=%#x", o.qact.rscale);
        flag(&s, o.qact.dup, "DUP");
        break;
    case OTPU_FMT_QST:
        addr(&s, "src", o.qst.src);
        addr(&s, "dst", o.qst.dst);
        addr(&s, "sdst", o.qst.sdst);
        put(&s, " rows=%u", o.qst.rows);
        put(&s, " KB=%u", o.qst.KB);
        put(&s, " srs=%u", o.qst.srs);
        put(&s, " drs=%u", o.qst.drs);
        put(&s, " es=%u", o.qst.es);
        flag(&s, o.qst.row, "ROW");
        flag(&s, o.qst.half, "HALF");
        break;
    case OTPU_FMT_VOP:
        vfunc(&s, o.vop.func);
        addr(&s, "dst", o.vop.dst);
        addr(&s, (o.vop.func == OTPU_V_OUTER ? "decay" : "a"), o.vop.a);
        addr(&s, "b", o.vop.b);
        put(&s, " rows=%u", o.vop.rows);
        put(&s, " cols=%u", o.vop.cols);
        put(&s, " drs=%u", o.vop.drs);
        put(&s, " ars=%u", o.vop.ars);
        put(&s, " brs=%u", o.vop.brs);
        put(&s, " bmode=%s", vop_bmode_names[o.vop.bmode]);
        addr(&s, (o.vop.func == OTPU_V_OUTER ? "cv" : (o.vop.func == OTPU_V_ARGMAX ? "base" : "imm")), o.vop.imm);
        if (o.vop.func == OTPU_V_OUTER)
            flag(&s, o.vop.dscalar, "DSCALAR");
        if (o.vop.func == OTPU_V_OUTER)
            flag(&s, o.vop.done, "DONE");
        break;
    case OTPU_FMT_GATHER:
        addr(&s, "src", o.gather.src);
        addr(&s, "dst", o.gather.dst);
        put(&s, " rows=%u", o.gather.rows);
        put(&s, " cols=%u", o.gather.cols);
        put(&s, " srs=%u", o.gather.srs);
        put(&s, " drs=%u", o.gather.drs);
        put(&s, " seg=%u", o.gather.seg);
        break;
    }
    return (int)s.len;
}
