/* isa.c - decode, encode, names and the bit-level definitions of the ISA (the operands, flags and
 * disassembly of each format: isa_table.c, written from isa.def). */
#include "isa.h"

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

void otpu_ops_resolve(otpu_ops *o, const uint32_t R[16])
{
    for (unsigned k = 0; k < o->nri; k++) {
        otpu_ri *x = (otpu_ri *)((char *)o + o->ri_at[k]);
        x->value = (x->reg ? R[x->reg] : 0) + x->imm;
    }
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
