/* isa_table.h - the layout of the tables sim/gen_isa.py writes into isa_table.c from
 * sim/isa.def, which isa_fields.c (the decoder, encoder, flag rules and disassembler) reads:
 * the tables are data, read by isa_fields.c and never calling into it. Not installed: only
 * these two files see it. */
#ifndef OTPU_ISA_TABLE_H
#define OTPU_ISA_TABLE_H

#include "isa.h"

/* What a field of a format is (isa.def's line kinds; a "word" line is bits of width 32). */
enum { OTPU_FLD_REG, OTPU_FLD_RI, OTPU_FLD_BITS, OTPU_FLD_FLAG, OTPU_FLD_FFIELD };

/* One field of a format, where it sits in the instruction and in the format's operands. */
typedef struct {
    uint8_t kind;   /* OTPU_FLD_* */
    uint8_t reg;    /* reg, ri: its register field, 0..3 for ra..rd */
    uint8_t word;   /* ri, bits: its immediate w[word]; 0 for an ri field without one */
    uint8_t lo;     /* bits: its lowest bit in w[word]; ffield: in the flags byte */
    uint8_t width;  /* bits, ffield: how many bits */
    uint8_t shared; /* ri: its register is another field's (encoded by that one) */
    uint8_t mask;   /* flag, ffield: its bits of the flags byte */
    uint16_t at;    /* offsetof(otpu_<format>_ops, field) */
    const char *name; /* isa.def's */
} otpu_field_desc;

/* Every format's fields in description order: format k's are otpu_fields[otpu_format_fields[k]]
 * up to otpu_format_fields[k + 1]. */
extern const otpu_field_desc otpu_fields[];
extern const uint16_t otpu_format_fields[OTPU_FORMATS + 1];
/* Where the formats' operands (the union of otpu_ops) start in otpu_ops. */
extern const size_t otpu_format_ops_at;

/* A forbid line of a format: its flags f are refused when (f & mask) == value. The table ends
 * with a row of format OTPU_FORMATS. */
typedef struct {
    uint8_t format, mask, value;
} otpu_forbid_desc;
extern const otpu_forbid_desc otpu_forbids[];

/* A condition on a field of otpu_fields (of the disassembly's labels and items, and of the size
 * lines): it is not 0 (eq 0), or it is value (eq 1). OTPU_COND_ALWAYS as field: always true
 * (the first row of otpu_conds). */
enum { OTPU_COND_ALWAYS = 0xFFFF };
typedef struct {
    uint16_t field;
    uint8_t eq;
    uint32_t value;
} otpu_cond;
extern const otpu_cond otpu_conds[];

/* A size line of a format: what a 0 in its field means (zero, an otpu_zero_rule) when the
 * condition when holds, unless one of its error alternatives holds, both conditions of it
 * (then the 0 is an error).
 * Format k's are otpu_sizes[otpu_format_sizes[k]] up to otpu_format_sizes[k + 1]. */
typedef struct {
    uint16_t field; /* otpu_fields index */
    uint8_t zero;
    uint16_t when; /* otpu_conds index */
    uint8_t nerror;
    uint16_t error[2][2]; /* otpu_conds indices */
} otpu_size_desc;
extern const otpu_size_desc otpu_sizes[];
extern const uint16_t otpu_format_sizes[OTPU_FORMATS + 1];

/* The label of an item: the text of the first row of its chain whose condition (an
 * otpu_conds index) holds; the last row of a chain is always true. */
typedef struct {
    uint16_t cond;
    const char *text;
} otpu_dis_label;
extern const otpu_dis_label otpu_dis_labels[];

/* How an item prints its value v with its label L. */
enum {
    OTPU_DIS_RI,         /* " L=R3+0x10", " L=0x10" (an ri field) */
    OTPU_DIS_U,          /* " L=%u" */
    OTPU_DIS_X,          /* " L=%#x" */
    OTPU_DIS_REG,        /* " L=R%u" */
    OTPU_DIS_RC,         /* " R%u," */
    OTPU_DIS_HEX,        /* " %#x" */
    OTPU_DIS_FLAG,       /* " L" when v is not 0 */
    OTPU_DIS_NAMES,      /* " L=" names[v] */
    OTPU_DIS_NAMES_BARE, /* " " names[v] */
    OTPU_DIS_VFUNC,      /* " " the VOP function's name, " func%u?" for an unknown one */
};
/* Which part of an ri field an item prints: the whole (OTPU_DIS_RI), its register or imm. */
enum { OTPU_PART_WHOLE, OTPU_PART_REG, OTPU_PART_IMM };

/* One item of a format's disassembly, printed when guard holds. Format k's items are
 * otpu_dis_items[otpu_format_dis[k]] up to otpu_format_dis[k + 1]. */
typedef struct {
    uint8_t kind;  /* OTPU_DIS_* */
    uint16_t field; /* otpu_fields index */
    uint8_t part;  /* OTPU_PART_* */
    uint16_t label; /* otpu_dis_labels index: the first row of its chain */
    uint16_t guard; /* otpu_conds index */
    const char *const *names; /* NAMES, NAMES_BARE: the names of the field's values */
} otpu_dis_item;
extern const otpu_dis_item otpu_dis_items[];
extern const uint16_t otpu_format_dis[OTPU_FORMATS + 1];

#endif
