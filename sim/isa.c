/* isa.c - decode, encode, names, disassembly and the bit-level definitions of the ISA. */
#include "isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

otpu_instr otpu_decode(const uint32_t words[8])
{
    otpu_instr ins;
    memcpy(ins.w, words, sizeof ins.w);
    uint32_t w0 = words[0];
    ins.op = (uint8_t)(w0 & 0xFF);
    ins.ra = (uint8_t)((w0 >> 8) & 15);
    ins.rb = (uint8_t)((w0 >> 12) & 15);
    ins.rc = (uint8_t)((w0 >> 16) & 15);
    ins.rd = (uint8_t)((w0 >> 20) & 15);
    ins.flags = (uint8_t)(w0 >> 24);
    return ins;
}

void otpu_encode(const otpu_instr *ins, uint32_t words[8])
{
    memcpy(words, ins->w, sizeof ins->w);
    words[0] = (uint32_t)ins->op | (uint32_t)(ins->ra & 15) << 8 | (uint32_t)(ins->rb & 15) << 12 |
               (uint32_t)(ins->rc & 15) << 16 | (uint32_t)(ins->rd & 15) << 20 |
               (uint32_t)ins->flags << 24;
}

const char *otpu_op_name(unsigned op)
{
    switch (op) {
#define X(NAME, name, code, unit, format) \
    case code:                            \
        return #NAME;
        OTPU_OPCODES(X)
#undef X
    }
    return NULL;
}

otpu_unit otpu_op_unit(unsigned op)
{
    switch (op) {
#define X(NAME, name, code, unit, format) \
    case code:                            \
        return unit;
        OTPU_OPCODES(X)
#undef X
    }
    return OTPU_UNIT_COUNT;
}

otpu_format otpu_op_format(unsigned op)
{
    static const uint8_t format[256] = {
#define X(NAME, name, code, unit, format) [code] = format,
        OTPU_OPCODES(X)
#undef X
    };
    return op < 256 ? (otpu_format)format[op] : OTPU_FMT_NONE;
}

/* ------------------------------------------------------------------ operands */

/* Sets the operand field at x to R[reg] + imm and notes it among o's register operands. */
static void ri(otpu_ops *o, otpu_ri *x, const uint32_t *R, unsigned reg, uint32_t imm)
{
    *x = (otpu_ri){.value = (R && reg ? R[reg] : 0) + imm, .imm = imm, .reg = (uint8_t)reg};
    o->ri_at[o->nri++] = (uint8_t)((char *)x - (char *)o);
}

void otpu_ops_resolve(otpu_ops *o, const uint32_t R[16])
{
    for (unsigned k = 0; k < o->nri; k++) {
        otpu_ri *x = (otpu_ri *)((char *)o + o->ri_at[k]);
        x->value = (x->reg ? R[x->reg] : 0) + x->imm;
    }
}

otpu_ops otpu_operands(const otpu_instr *in, const uint32_t R[16])
{
    const uint32_t *w = in->w;
    unsigned f = in->flags;
    otpu_ops o;
    o.format = otpu_op_format(in->op);
    o.nri = 0;
    switch (o.format) {
    case OTPU_FMT_NONE:
        break;
    case OTPU_FMT_HALT:
        o.halt.chain = f & OTPU_F_CHAIN;
        ri(&o, &o.halt.addr, R, in->ra, 0);
        ri(&o, &o.halt.count, R, in->rb, 0);
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
        o.rld.raw = f & OTPU_F_RAW;
        o.rld.has_mul = f & OTPU_F_MUL;
        break;
    case OTPU_FMT_WAITW:
        ri(&o, &o.waitw.dram, R, in->ra, w[1]);
        ri(&o, &o.waitw.tmem, R, in->rb, w[2]);
        ri(&o, &o.waitw.ref, R, in->rc, w[3]);
        o.waitw.mask = w[4];
        o.waitw.interval = w[5];
        o.waitw.timeout = w[6];
        o.waitw.cmp = f & 3;
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
        o.dstep.rows = w[4] & 0xFFFF;
        o.dstep.cols = w[4] >> 16;
        o.dstep.g = w[5];
        o.dstep.o = w[6];
        o.dstep.gs = w[7];
        o.dstep.zero = f & OTPU_F_DZERO;
        break;
    case OTPU_FMT_STREAM:
        o.stream.desc = w[1] & 0xFFFF;
        o.stream.ks = w[1] >> 16;
        ri(&o, &o.stream.src, R, in->ra, w[2]);
        ri(&o, &o.stream.dst, R, in->ra, w[3]);
        ri(&o, &o.stream.vec, R, in->rb, w[4]);
        ri(&o, &o.stream.x, R, in->rc, w[5]);
        ri(&o, &o.stream.k, R, in->rd, w[6]);
        o.stream.out = w[7];
        o.stream.zero = f & OTPU_F_SZERO;
        o.stream.src_t = f & OTPU_F_SRC_T;
        o.stream.dst_t = f & OTPU_F_DST_T;
        o.stream.nodst = f & OTPU_F_NODST;
        break;
    case OTPU_FMT_MM:
        ri(&o, &o.mm.sa, R, in->ra, w[1]);
        ri(&o, &o.mm.ssa, R, in->rb, w[2]);
        ri(&o, &o.mm.out, R, in->rc, w[3]);
        o.mm.N = w[4] & 0xFFFF;
        o.mm.KB = w[4] >> 16;
        o.mm.rs = w[5];
        o.mm.ors = w[6] & 0xFFFF;
        o.mm.M = (w[6] >> 16) & 0xFF;
        o.mm.ab = w[6] >> 24;
        o.mm.srs = w[7];
        o.mm.wf = (f >> OTPU_WF_SHIFT) & 3;
        o.mm.unit = f & OTPU_F_UNIT;
        o.mm.acc = f & OTPU_F_ACC;
        o.mm.rmax = f & OTPU_F_RMAX;
        o.mm.ascale = f & OTPU_F_ASCALE;
        o.mm.pair = f & OTPU_F_PAIR;
        break;
    case OTPU_FMT_QACT:
        ri(&o, &o.qact.src, R, in->ra, w[1]);
        o.qact.rows = w[2] & 0xFF;
        o.qact.ab = (w[2] >> 8) & 0xFF;
        o.qact.KB = w[2] >> 16;
        o.qact.srs = w[3];
        o.qact.cscale = w[4];
        o.qact.rscale = w[5];
        o.qact.row = f & OTPU_F_ROW;
        o.qact.has_cscale = f & OTPU_F_CSCALE;
        o.qact.has_rscale = f & OTPU_F_RSCALE;
        o.qact.dup = f & OTPU_F_DUP;
        break;
    case OTPU_FMT_QST:
        ri(&o, &o.qst.src, R, in->ra, w[1]);
        ri(&o, &o.qst.dst, R, in->rb, w[2]);
        ri(&o, &o.qst.sdst, R, in->rc, w[3]);
        o.qst.rows = w[4] & 0xFFFF;
        o.qst.KB = w[4] >> 16;
        o.qst.srs = w[5];
        o.qst.drs = w[6];
        o.qst.es = w[7];
        o.qst.row = f & OTPU_F_ROW;
        o.qst.half = f & OTPU_F_HALF;
        break;
    case OTPU_FMT_VOP:
        ri(&o, &o.vop.dst, R, in->ra, w[1]);
        ri(&o, &o.vop.a, R, in->rb, w[2]);
        ri(&o, &o.vop.b, R, in->rc, w[3]);
        o.vop.rows = w[4] & 0xFFFF;
        o.vop.cols = w[4] >> 16;
        o.vop.drs = w[5] & 0xFFFF;
        o.vop.ars = w[5] >> 16;
        o.vop.brs = w[6] & 0xFFFF;
        o.vop.func = (w[6] >> 16) & 0xFF;
        o.vop.bmode = (w[6] >> 24) & 3;
        ri(&o, &o.vop.imm, R, in->rd, w[7]);
        o.vop.dscalar = f & OTPU_F_DSCALAR;
        o.vop.done = f & OTPU_F_DONE;
        break;
    case OTPU_FMT_GATHER:
        ri(&o, &o.gather.src, R, in->ra, w[1]);
        ri(&o, &o.gather.dst, R, in->rb, w[2]);
        o.gather.rows = w[3] & 0xFFFF;
        o.gather.cols = w[3] >> 16;
        o.gather.srs = w[4];
        o.gather.drs = w[5];
        o.gather.seg = w[6];
        break;
    }
    return o;
}

/* The flag bit b when on is set. */
static unsigned fl(int on, unsigned b)
{
    return on ? b : 0;
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
        f = fl(o->halt.chain, OTPU_F_CHAIN);
        out->ra = o->halt.addr.reg;
        out->rb = o->halt.count.reg;
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
        w[1] = o->loop.body;
        out->ra = o->loop.count.reg;
        w[2] = o->loop.count.imm;
        break;
    case OTPU_FMT_RLD:
        out->rd = o->rld.rd;
        out->ra = o->rld.tmem.reg;
        w[1] = o->rld.tmem.imm;
        out->rb = o->rld.mul.reg;
        w[2] = o->rld.mul.imm;
        f = fl(o->rld.raw, OTPU_F_RAW) | fl(o->rld.has_mul, OTPU_F_MUL);
        break;
    case OTPU_FMT_WAITW:
        out->ra = o->waitw.dram.reg;
        w[1] = o->waitw.dram.imm;
        out->rb = o->waitw.tmem.reg;
        w[2] = o->waitw.tmem.imm;
        out->rc = o->waitw.ref.reg;
        w[3] = o->waitw.ref.imm;
        w[4] = o->waitw.mask;
        w[5] = o->waitw.interval;
        w[6] = o->waitw.timeout;
        f = o->waitw.cmp & 3;
        break;
    case OTPU_FMT_DMA:
        out->ra = o->dma.dram.reg;
        w[1] = o->dma.dram.imm;
        out->rb = o->dma.tmem.reg;
        w[2] = o->dma.tmem.imm;
        w[3] = o->dma.n;
        break;
    case OTPU_FMT_DSTEP:
        out->ra = o->dstep.dram.reg;
        w[1] = o->dstep.dram.imm;
        out->rb = o->dstep.qk.reg;
        w[2] = o->dstep.qk.imm;
        out->rc = o->dstep.v.reg;
        w[3] = o->dstep.v.imm;
        w[4] = (o->dstep.rows & 0xFFFF) | o->dstep.cols << 16;
        w[5] = o->dstep.g;
        w[6] = o->dstep.o;
        w[7] = o->dstep.gs;
        f = fl(o->dstep.zero, OTPU_F_DZERO);
        break;
    case OTPU_FMT_STREAM:
        w[1] = (o->stream.desc & 0xFFFF) | o->stream.ks << 16;
        out->ra = o->stream.src.reg;
        w[2] = o->stream.src.imm;
        w[3] = o->stream.dst.imm;
        out->rb = o->stream.vec.reg;
        w[4] = o->stream.vec.imm;
        out->rc = o->stream.x.reg;
        w[5] = o->stream.x.imm;
        out->rd = o->stream.k.reg;
        w[6] = o->stream.k.imm;
        w[7] = o->stream.out;
        f = fl(o->stream.zero, OTPU_F_SZERO) | fl(o->stream.src_t, OTPU_F_SRC_T) |
            fl(o->stream.dst_t, OTPU_F_DST_T) | fl(o->stream.nodst, OTPU_F_NODST);
        break;
    case OTPU_FMT_MM:
        out->ra = o->mm.sa.reg;
        w[1] = o->mm.sa.imm;
        out->rb = o->mm.ssa.reg;
        w[2] = o->mm.ssa.imm;
        out->rc = o->mm.out.reg;
        w[3] = o->mm.out.imm;
        w[4] = (o->mm.N & 0xFFFF) | o->mm.KB << 16;
        w[5] = o->mm.rs;
        w[6] = (o->mm.ors & 0xFFFF) | (o->mm.M & 0xFF) << 16 | o->mm.ab << 24;
        w[7] = o->mm.srs;
        f = (o->mm.wf & 3) << OTPU_WF_SHIFT | fl(o->mm.unit, OTPU_F_UNIT) |
            fl(o->mm.acc, OTPU_F_ACC) | fl(o->mm.rmax, OTPU_F_RMAX) |
            fl(o->mm.ascale, OTPU_F_ASCALE) | fl(o->mm.pair, OTPU_F_PAIR);
        break;
    case OTPU_FMT_QACT:
        out->ra = o->qact.src.reg;
        w[1] = o->qact.src.imm;
        w[2] = (o->qact.rows & 0xFF) | (o->qact.ab & 0xFF) << 8 | o->qact.KB << 16;
        w[3] = o->qact.srs;
        w[4] = o->qact.cscale;
        w[5] = o->qact.rscale;
        f = fl(o->qact.row, OTPU_F_ROW) | fl(o->qact.has_cscale, OTPU_F_CSCALE) |
            fl(o->qact.has_rscale, OTPU_F_RSCALE) | fl(o->qact.dup, OTPU_F_DUP);
        break;
    case OTPU_FMT_QST:
        out->ra = o->qst.src.reg;
        w[1] = o->qst.src.imm;
        out->rb = o->qst.dst.reg;
        w[2] = o->qst.dst.imm;
        out->rc = o->qst.sdst.reg;
        w[3] = o->qst.sdst.imm;
        w[4] = (o->qst.rows & 0xFFFF) | o->qst.KB << 16;
        w[5] = o->qst.srs;
        w[6] = o->qst.drs;
        w[7] = o->qst.es;
        f = fl(o->qst.row, OTPU_F_ROW) | fl(o->qst.half, OTPU_F_HALF);
        break;
    case OTPU_FMT_VOP:
        out->ra = o->vop.dst.reg;
        w[1] = o->vop.dst.imm;
        out->rb = o->vop.a.reg;
        w[2] = o->vop.a.imm;
        out->rc = o->vop.b.reg;
        w[3] = o->vop.b.imm;
        w[4] = (o->vop.rows & 0xFFFF) | o->vop.cols << 16;
        w[5] = (o->vop.drs & 0xFFFF) | o->vop.ars << 16;
        w[6] = (o->vop.brs & 0xFFFF) | (o->vop.func & 0xFF) << 16 | (o->vop.bmode & 3) << 24;
        out->rd = o->vop.imm.reg;
        w[7] = o->vop.imm.imm;
        f = fl(o->vop.dscalar, OTPU_F_DSCALAR) | fl(o->vop.done, OTPU_F_DONE);
        break;
    case OTPU_FMT_GATHER:
        out->ra = o->gather.src.reg;
        w[1] = o->gather.src.imm;
        out->rb = o->gather.dst.reg;
        w[2] = o->gather.dst.imm;
        w[3] = (o->gather.rows & 0xFFFF) | o->gather.cols << 16;
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

const char *otpu_unit_name(otpu_unit u)
{
    return (unsigned)u < OTPU_UNIT_COUNT ? otpu_unit_names[u] : "?";
}

int otpu_vfunc_is_binary(unsigned f)
{
    return f == OTPU_V_ADD || f == OTPU_V_SUB || f == OTPU_V_RSUB || f == OTPU_V_MUL ||
           f == OTPU_V_MAX || f == OTPU_V_MIN || f == OTPU_V_FILL || f == OTPU_V_EXP2SUB;
}

const char *otpu_vfunc_name(unsigned func)
{
    switch (func) {
#define X(name, code, str) \
    case code:             \
        return str;
        OTPU_VFUNCS(X)
#undef X
    }
    return NULL;
}

uint32_t otpu_f2i(uint32_t bits)
{
    unsigned e = (bits >> 23) & 0xFF;
    if (e < 127)
        return 0;
    if (e >= 127 + 31)
        return 0x80000000u;
    uint32_t m = (bits & 0x7FFFFF) | 0x800000;
    uint32_t v = e >= 150 ? m << (e - 150) : m >> (150 - e);
    return bits >> 31 ? (uint32_t)(0u - v) : v;
}

int otpu_flags_allowed(unsigned op, unsigned flags)
{
    switch (op) {
    case OTPU_OP_MM: {
        unsigned wf = (flags >> OTPU_WF_SHIFT) & 3;
        if (wf == 3 || ((flags & OTPU_F_PAIR) && wf == OTPU_WF_INT8))
            return 0;
        return !(flags & OTPU_F_ASCALE) ||
               (flags & (OTPU_F_UNIT | OTPU_F_ACC)) == (OTPU_F_UNIT | OTPU_F_ACC);
    }
    case OTPU_OP_QST:
        return !(flags & OTPU_F_HALF) || (flags & OTPU_F_ROW);
    case OTPU_OP_WAITW:
        return (flags & 3) != 3;
    default:
        return 1;
    }
}

int otpu_waitw_holds(uint32_t v, uint32_t ref, unsigned cmp, uint32_t mask)
{
    uint32_t x = v & mask;
    switch (cmp) {
    case OTPU_CMP_EQ:
        return x == ref;
    case OTPU_CMP_NE:
        return x != ref;
    case OTPU_CMP_GE:
        return (int32_t)(x - ref) >= 0; /* the 32-bit difference as a signed number */
    }
    return 0;
}

const int8_t otpu_dec_int4[16] = {0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1};
/* E2M1 taken as twice its value: magnitudes {0, .5, 1, 1.5, 2, 3, 4, 6} x 2, sign in bit 3 */
const int8_t otpu_dec_fp4[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

/* ------------------------------------------------------------------ STREAM descriptor */

uint32_t otpu_stream_fsafe(uint32_t p)
{
    return ((p >> 23) & 1u) << 31 | 0x80u << 23 | (p & 0x7FFFFF);
}

static int payload(uint32_t w, uint32_t *p, char *err, size_t n)
{
    if (((w >> 23) & 0xFF) != 0x80) {
        snprintf(err, n, "STREAM descriptor word %#010x is not float-safe", w);
        return -1;
    }
    *p = ((w >> 31) & 1u) << 23 | (w & 0x7FFFFF);
    return 0;
}

int otpu_stream_desc_decode(const uint32_t *words, size_t n, otpu_stream_desc *d, char *err,
                            size_t errlen)
{
    uint32_t p[OTPU_STREAM_DESC_FIXED];
    size_t nfixed = n < OTPU_STREAM_DESC_FIXED ? n : OTPU_STREAM_DESC_FIXED;
    for (size_t i = 0; i < nfixed; i++)
        if (payload(words[i], &p[i], err, errlen))
            return -1;
    if (n < OTPU_STREAM_DESC_FIXED) {
        snprintf(err, errlen, "STREAM descriptor: only %zu words below the end of TMEM", n);
        return -1;
    }
    uint32_t c1 = p[1], c2 = p[2];
    memset(d, 0, sizeof *d);
    d->nops = (uint8_t)(c2 & 15);
    if (n < OTPU_STREAM_DESC_FIXED + (size_t)d->nops) {
        snprintf(err, errlen, "STREAM descriptor: fewer words than its ops");
        return -1;
    }
    for (unsigned k = 0; k < d->nops; k++) {
        uint32_t x;
        if (payload(words[OTPU_STREAM_DESC_FIXED + k], &x, err, errlen))
            return -1;
        d->ops[k][0] = (uint8_t)(x & 15);
        d->ops[k][1] = (uint8_t)((x >> 4) & 7);
        d->ops[k][2] = (uint8_t)((x >> 7) & 15);
        d->ops[k][3] = (uint8_t)((x >> 11) & 15);
    }
    d->rows = p[0] & 0xFFF;
    d->cols = p[0] >> 12;
    d->a_en = c1 & 1;
    d->a_op = (c1 >> 1) & 3;
    d->a_idx = (c1 >> 3) & 3;
    d->u_mode = (c1 >> 5) & 3;
    d->g_src = (c1 >> 7) & 3;
    d->g_idx = (c1 >> 9) & 7;
    d->b_src = (c1 >> 12) & 3;
    d->b_idx = (c1 >> 14) & 7;
    d->d_reg = (c1 >> 17) & 7;
    d->q_en = (c1 >> 20) & 1;
    d->q_idx = (c1 >> 21) & 3;
    d->out_p2 = (c1 >> 23) & 1;
    d->rinit = (c2 >> 4) & 15;
    d->rsave = (c2 >> 8) & 15;
    d->q_self = (c2 >> 12) & 1;
    d->o_reg_en = (c2 >> 13) & 1;
    d->o_reg = (c2 >> 14) & 7;
    d->srs = p[4] & 0xFFF;
    d->drs = p[4] >> 12;
    return 0;
}

size_t otpu_stream_desc_encode(const otpu_stream_desc *d, uint32_t *words)
{
    uint32_t c1 = (uint32_t)d->a_en | (uint32_t)d->a_op << 1 | (uint32_t)d->a_idx << 3 |
                  (uint32_t)d->u_mode << 5 | (uint32_t)d->g_src << 7 | (uint32_t)d->g_idx << 9 |
                  (uint32_t)d->b_src << 12 | (uint32_t)d->b_idx << 14 |
                  (uint32_t)d->d_reg << 17 | (uint32_t)d->q_en << 20 |
                  (uint32_t)d->q_idx << 21 | (uint32_t)d->out_p2 << 23;
    uint32_t c2 = (uint32_t)d->nops | (uint32_t)d->rinit << 4 | (uint32_t)d->rsave << 8 |
                  (uint32_t)d->q_self << 12 | (uint32_t)d->o_reg_en << 13 |
                  (uint32_t)d->o_reg << 14;
    uint32_t p[OTPU_STREAM_DESC_FIXED] = {
        (d->rows & 0xFFF) | (d->cols & 0xFFF) << 12, c1, c2, 0,
        (d->srs & 0xFFF) | (d->drs & 0xFFF) << 12};
    size_t n = 0;
    for (; n < OTPU_STREAM_DESC_FIXED; n++)
        words[n] = otpu_stream_fsafe(p[n]);
    for (unsigned k = 0; k < d->nops; k++)
        words[n++] = otpu_stream_fsafe((uint32_t)d->ops[k][0] | (uint32_t)d->ops[k][1] << 4 |
                                       (uint32_t)d->ops[k][2] << 7 |
                                       (uint32_t)d->ops[k][3] << 11);
    return n;
}

/* ------------------------------------------------------------------ disassembly */

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
    static const char *const cmps[] = {"EQ", "NE", "GE", "cmp3?"};
    static const char *const bmodes[] = {"full", "row", "col", "scalar"};
    static const char *const wfs[] = {"int8", "int4", "fp4", "wf3?"};
    otpu_ops o = otpu_operands(in, NULL);
    switch (o.format) {
    case OTPU_FMT_NONE:
        break;
    case OTPU_FMT_HALT:
        if (o.halt.chain)
            put(&s, " CHAIN addr=R%u count=R%u", o.halt.addr.reg, o.halt.count.reg);
        break;
    case OTPU_FMT_LI:
        put(&s, " R%u, %#x", o.li.rd, o.li.imm);
        break;
    case OTPU_FMT_ADDI:
        put(&s, " R%u, R%u, %#x", o.addi.rd, o.addi.sum.reg, o.addi.sum.imm);
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
        put(&s, " %s", cmps[o.waitw.cmp]);
        addr(&s, "ref", o.waitw.ref);
        put(&s, " mask=%#x interval=%u timeout=%u", o.waitw.mask, o.waitw.interval,
            o.waitw.timeout);
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
        put(&s, " rows=%u cols=%u g=%#x o=%#x gs=%u", o.dstep.rows, o.dstep.cols, o.dstep.g,
            o.dstep.o, o.dstep.gs);
        flag(&s, o.dstep.zero, "ZERO");
        break;
    case OTPU_FMT_STREAM:
        put(&s, " desc=%#x ks=%u", o.stream.desc, o.stream.ks);
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
        addr(&s, o.mm.ascale ? "alpha" : "ssa", o.mm.ssa);
        addr(&s, "out", o.mm.out);
        put(&s, " N=%u KB=%u rs=%u ors=%u M=%u ab=%u srs=%u wf=%s", o.mm.N, o.mm.KB, o.mm.rs,
            o.mm.ors, o.mm.M, o.mm.ab, o.mm.srs, wfs[o.mm.wf]);
        flag(&s, o.mm.unit, "UNIT");
        flag(&s, o.mm.acc, "ACC");
        flag(&s, o.mm.rmax, "RMAX");
        flag(&s, o.mm.ascale, "ASCALE");
        flag(&s, o.mm.pair, "PAIR");
        break;
    case OTPU_FMT_QACT:
        addr(&s, "src", o.qact.src);
        put(&s, " rows=%u ab=%u KB=%u srs=%u", o.qact.rows, o.qact.ab, o.qact.KB, o.qact.srs);
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
        put(&s, " rows=%u KB=%u srs=%u drs=%u es=%u", o.qst.rows, o.qst.KB, o.qst.srs,
            o.qst.drs, o.qst.es);
        flag(&s, o.qst.row, "ROW");
        flag(&s, o.qst.half, "HALF");
        break;
    case OTPU_FMT_VOP: {
        unsigned func = o.vop.func;
        const char *fn = otpu_vfunc_name(func);
        if (fn)
            put(&s, " %s", fn);
        else
            put(&s, " func%u?", func);
        addr(&s, "dst", o.vop.dst);
        addr(&s, func == OTPU_V_OUTER ? "decay" : "a", o.vop.a);
        addr(&s, "b", o.vop.b);
        put(&s, " rows=%u cols=%u drs=%u ars=%u brs=%u bmode=%s", o.vop.rows, o.vop.cols,
            o.vop.drs, o.vop.ars, o.vop.brs, bmodes[o.vop.bmode]);
        addr(&s, func == OTPU_V_OUTER ? "cv" : func == OTPU_V_ARGMAX ? "base" : "imm",
             o.vop.imm);
        if (func == OTPU_V_OUTER) {
            flag(&s, o.vop.dscalar, "DSCALAR");
            flag(&s, o.vop.done, "DONE");
        }
        break;
    }
    case OTPU_FMT_GATHER:
        addr(&s, "src", o.gather.src);
        addr(&s, "dst", o.gather.dst);
        put(&s, " rows=%u cols=%u srs=%u drs=%u seg=%u", o.gather.rows, o.gather.cols,
            o.gather.srs, o.gather.drs, o.gather.seg);
        break;
    }
    return (int)s.len;
}
