/* isa_fields.c - decoding, encoding, flag rules and disassembly of the operand formats, read
 * from the tables sim/gen_isa.py writes from sim/isa.def into isa_table.c (isa_table.h). */
#include "isa_table.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static uint32_t low_bits(unsigned width)
{
    return width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1;
}

/* The field f of the operands of a format that start at x. */
static void *member(void *x, const otpu_field_desc *f)
{
    return (char *)x + f->at;
}

static const void *cmember(const void *x, const otpu_field_desc *f)
{
    return (const char *)x + f->at;
}

/* An instruction's register field r (0..3: ra..rd). */
static uint8_t *instr_reg(otpu_instr *in, unsigned r)
{
    uint8_t *regs[4] = {&in->ra, &in->rb, &in->rc, &in->rd};
    return regs[r & 3];
}

static uint8_t instr_reg_value(const otpu_instr *in, unsigned r)
{
    const uint8_t regs[4] = {in->ra, in->rb, in->rc, in->rd};
    return regs[r & 3];
}

static const otpu_field_desc *fields_of(otpu_format fmt, const otpu_field_desc **end)
{
    *end = otpu_fields + otpu_format_fields[fmt + 1];
    return otpu_fields + otpu_format_fields[fmt];
}

void otpu_set_flags(otpu_format fmt, void *x, unsigned f)
{
    const otpu_field_desc *end, *d = fields_of(fmt, &end);
    for (; d < end; d++) {
        if (d->kind == OTPU_FLD_FLAG)
            *(int *)member(x, d) = (int)(f & d->mask);
        else if (d->kind == OTPU_FLD_FFIELD)
            *(uint32_t *)member(x, d) = (f >> d->lo) & low_bits(d->width);
    }
}

unsigned otpu_flag_mask(unsigned op)
{
    const otpu_format_flags *t = &otpu_format_flag_table[otpu_op_format(op)];
    unsigned mask = 0;
    for (unsigned k = 0; k < t->n; k++)
        mask |= t->f[k].mask;
    return mask;
}

otpu_ops otpu_operands(const otpu_instr *in, const uint32_t R[16])
{
    otpu_ops o;
    o.format = otpu_op_format(in->op);
    o.nri = 0;
    void *x = (char *)&o + otpu_format_ops_at;
    const otpu_field_desc *end, *d = fields_of(o.format, &end);
    for (; d < end; d++) {
        if (d->kind == OTPU_FLD_REG) {
            *(uint8_t *)member(x, d) = instr_reg_value(in, d->reg);
        } else if (d->kind == OTPU_FLD_RI) {
            /* R[reg] + imm, noted among o's register operands (otpu_ops_resolve) */
            unsigned reg = instr_reg_value(in, d->reg);
            uint32_t imm = d->word ? in->w[d->word] : 0;
            *(otpu_ri *)member(x, d) =
                (otpu_ri){.value = (R && reg ? R[reg] : 0) + imm, .imm = imm, .reg = (uint8_t)reg};
            o.ri_at[o.nri++] = (uint8_t)(otpu_format_ops_at + d->at);
        } else if (d->kind == OTPU_FLD_BITS) {
            *(uint32_t *)member(x, d) = (in->w[d->word] >> d->lo) & low_bits(d->width);
        }
    }
    otpu_set_flags(o.format, x, in->flags);
    return o;
}

void otpu_encode_operands(unsigned op, const otpu_ops *o, otpu_instr *out)
{
    memset(out, 0, sizeof *out);
    out->op = (uint8_t)op;
    uint32_t *w = out->w;
    unsigned f = 0;
    const void *x = (const char *)o + otpu_format_ops_at;
    const otpu_field_desc *end, *d = fields_of(otpu_op_format(op), &end);
    for (; d < end; d++) {
        const void *v = cmember(x, d);
        if (d->kind == OTPU_FLD_REG) {
            *instr_reg(out, d->reg) = *(const uint8_t *)v;
        } else if (d->kind == OTPU_FLD_RI) {
            if (!d->shared)
                *instr_reg(out, d->reg) = ((const otpu_ri *)v)->reg;
            if (d->word)
                w[d->word] |= ((const otpu_ri *)v)->imm;
        } else if (d->kind == OTPU_FLD_BITS) {
            w[d->word] |= (*(const uint32_t *)v & low_bits(d->width)) << d->lo;
        } else if (d->kind == OTPU_FLD_FLAG) {
            f |= *(const int *)v ? d->mask : 0;
        } else {
            f |= (*(const uint32_t *)v & low_bits(d->width)) << d->lo;
        }
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
    unsigned fmt = otpu_op_format(op);
    for (const otpu_forbid_desc *r = otpu_forbids; r->format != OTPU_FORMATS; r++)
        if (r->format == fmt && (f & r->mask) == r->value)
            return 0;
    return 1;
}

/* ---- the disassembler (and the conditions of size fields) */

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

/* A field's value (of an ri field: its register or its imm, as part says). */
static uint32_t field_value(const void *x, const otpu_field_desc *f, unsigned part)
{
    const void *v = cmember(x, f);
    switch (f->kind) {
    case OTPU_FLD_REG:
        return *(const uint8_t *)v;
    case OTPU_FLD_RI:
        return part == OTPU_PART_REG ? ((const otpu_ri *)v)->reg : ((const otpu_ri *)v)->imm;
    case OTPU_FLD_FLAG:
        return (uint32_t)*(const int *)v;
    default:
        return *(const uint32_t *)v;
    }
}

static int holds(const void *x, unsigned cond)
{
    const otpu_cond *c = &otpu_conds[cond];
    if (c->field == OTPU_COND_ALWAYS)
        return 1;
    uint32_t v = field_value(x, &otpu_fields[c->field], OTPU_PART_WHOLE);
    return c->eq ? v == c->value : v != 0;
}

static const char *label_of(const void *x, unsigned first)
{
    const otpu_dis_label *l = &otpu_dis_labels[first];
    while (!holds(x, l->cond))
        l++;
    return l->text;
}

static void dis_item(sbuf *s, const void *x, const otpu_dis_item *it)
{
    const otpu_field_desc *f = &otpu_fields[it->field];
    uint32_t v = field_value(x, f, it->part);
    const char *label = label_of(x, it->label);
    switch (it->kind) {
    case OTPU_DIS_RI: { /* "R3+0x10", or "0x10" when the register is R0 */
        const otpu_ri *r = cmember(x, f);
        if (r->reg)
            put(s, " %s=R%u+%#x", label, r->reg, r->imm);
        else
            put(s, " %s=%#x", label, r->imm);
        break;
    }
    case OTPU_DIS_U: put(s, " %s=%u", label, v); break;
    case OTPU_DIS_X: put(s, " %s=%#x", label, v); break;
    case OTPU_DIS_REG: put(s, " %s=R%u", label, v); break;
    case OTPU_DIS_RC: put(s, " R%u,", v); break;
    case OTPU_DIS_HEX: put(s, " %#x", v); break;
    case OTPU_DIS_FLAG:
        if (v)
            put(s, " %s", label);
        break;
    case OTPU_DIS_NAMES: put(s, " %s=%s", label, it->names[v]); break;
    case OTPU_DIS_NAMES_BARE: put(s, " %s", it->names[v]); break;
    default: { /* OTPU_DIS_VFUNC */
        const char *fn = otpu_vfunc_name(v);
        if (fn)
            put(s, " %s", fn);
        else
            put(s, " func%u?", v);
    }
    }
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
    otpu_ops o = otpu_operands(in, NULL);
    const void *x = (const char *)&o + otpu_format_ops_at;
    for (unsigned k = otpu_format_dis[o.format]; k < otpu_format_dis[o.format + 1]; k++)
        if (holds(x, otpu_dis_items[k].guard))
            dis_item(&s, x, &otpu_dis_items[k]);
    return (int)s.len;
}

/* ---- size fields */

static const otpu_size_desc *size_desc(otpu_format fmt, unsigned k)
{
    unsigned at = otpu_format_sizes[fmt] + k;
    return at < otpu_format_sizes[fmt + 1] ? &otpu_sizes[at] : NULL;
}

unsigned otpu_size_count(unsigned op)
{
    otpu_format fmt = otpu_op_format(op);
    return (unsigned)(otpu_format_sizes[fmt + 1] - otpu_format_sizes[fmt]);
}

const char *otpu_size_name(unsigned op, unsigned k)
{
    const otpu_size_desc *z = size_desc(otpu_op_format(op), k);
    return z ? otpu_fields[z->field].name : NULL;
}

uint32_t otpu_size_get(const otpu_ops *o, unsigned k)
{
    const otpu_size_desc *z = size_desc(o->format, k);
    if (!z)
        return 0;
    const otpu_field_desc *f = &otpu_fields[z->field];
    const void *v = cmember((const char *)o + otpu_format_ops_at, f);
    return f->kind == OTPU_FLD_RI ? ((const otpu_ri *)v)->value : *(const uint32_t *)v;
}

void otpu_size_set(otpu_ops *o, unsigned k, uint32_t v)
{
    const otpu_size_desc *z = size_desc(o->format, k);
    if (!z)
        return;
    const otpu_field_desc *f = &otpu_fields[z->field];
    void *x = member((char *)o + otpu_format_ops_at, f);
    if (f->kind == OTPU_FLD_RI)
        *(otpu_ri *)x = (otpu_ri){.value = v, .imm = v, .reg = 0};
    else
        *(uint32_t *)x = v & low_bits(f->width);
}

int otpu_size_zero(const otpu_ops *o, unsigned k)
{
    const otpu_size_desc *z = size_desc(o->format, k);
    const void *x = (const char *)o + otpu_format_ops_at;
    if (!z || !holds(x, z->when))
        return -1;
    for (unsigned e = 0; e < z->nerror; e++)
        if (holds(x, z->error[e][0]) && holds(x, z->error[e][1]))
            return OTPU_ZERO_ERROR;
    return z->zero;
}
