/* isa_formats.h - the instruction table and the operand formats of sim/isa.def (isa.h
 * includes it). Written by sim/gen_isa.py from sim/isa.def: edit the description, not this file. */
#ifndef OTPU_ISA_FORMATS_H
#define OTPU_ISA_FORMATS_H

/* Operand formats: how w0..w7 hold an instruction's operands (otpu_ops below). */
typedef enum {
    OTPU_FMT_NONE,
    OTPU_FMT_HALT,
    OTPU_FMT_LI,
    OTPU_FMT_ADDI,
    OTPU_FMT_LOOP,
    OTPU_FMT_RLD,
    OTPU_FMT_WAITW,
    OTPU_FMT_DMA,
    OTPU_FMT_DSTEP,
    OTPU_FMT_STREAM,
    OTPU_FMT_MM,
    OTPU_FMT_QACT,
    OTPU_FMT_QST,
    OTPU_FMT_VOP,
    OTPU_FMT_GATHER,
} otpu_format;
enum { OTPU_FORMATS = 15 };

/*  X(NAME, name, opcode, unit, format): name is NAME in lower case, for otpu_exec_<name> */
#define OTPU_OPCODES(X) \
    X(NOP, nop, 0x00, OTPU_UNIT_SEQ, OTPU_FMT_NONE) \
    X(HALT, halt, 0x01, OTPU_UNIT_SEQ, OTPU_FMT_HALT) \
    X(LI, li, 0x02, OTPU_UNIT_SEQ, OTPU_FMT_LI) \
    X(ADDI, addi, 0x03, OTPU_UNIT_SEQ, OTPU_FMT_ADDI) \
    X(LOOP, loop, 0x04, OTPU_UNIT_SEQ, OTPU_FMT_LOOP) \
    X(BAR, bar, 0x05, OTPU_UNIT_COLL, OTPU_FMT_NONE) \
    X(RLD, rld, 0x06, OTPU_UNIT_SEQ, OTPU_FMT_RLD) \
    X(WAITW, waitw, 0x07, OTPU_UNIT_DMA, OTPU_FMT_WAITW) \
    X(LD, ld, 0x10, OTPU_UNIT_DMA, OTPU_FMT_DMA) \
    X(ST, st, 0x11, OTPU_UNIT_DMA, OTPU_FMT_DMA) \
    X(DSTEP, dstep, 0x12, OTPU_UNIT_DMA, OTPU_FMT_DSTEP) \
    X(STREAM, stream, 0x13, OTPU_UNIT_DMA, OTPU_FMT_STREAM) \
    X(MM, mm, 0x20, OTPU_UNIT_MXU, OTPU_FMT_MM) \
    X(QACT, qact, 0x21, OTPU_UNIT_QUANT, OTPU_FMT_QACT) \
    X(QST, qst, 0x22, OTPU_UNIT_QUANT, OTPU_FMT_QST) \
    X(VOP, vop, 0x30, OTPU_UNIT_VPU, OTPU_FMT_VOP) \
    X(GATHER, gather, 0x40, OTPU_UNIT_COLL, OTPU_FMT_GATHER) \

enum {
    OTPU_OP_NOP = 0x00,
    OTPU_OP_HALT = 0x01,
    OTPU_OP_LI = 0x02,
    OTPU_OP_ADDI = 0x03,
    OTPU_OP_LOOP = 0x04,
    OTPU_OP_BAR = 0x05,
    OTPU_OP_RLD = 0x06,
    OTPU_OP_WAITW = 0x07,
    OTPU_OP_LD = 0x10,
    OTPU_OP_ST = 0x11,
    OTPU_OP_DSTEP = 0x12,
    OTPU_OP_STREAM = 0x13,
    OTPU_OP_MM = 0x20,
    OTPU_OP_QACT = 0x21,
    OTPU_OP_QST = 0x22,
    OTPU_OP_VOP = 0x30,
    OTPU_OP_GATHER = 0x40,
};

/* flags (w0[31:24]) */
enum {
    OTPU_F_CHAIN = 0x1, /* HALT */
    OTPU_F_RAW = 0x1, /* RLD */
    OTPU_F_MUL = 0x2, /* RLD */
    OTPU_CMP_SHIFT = 0, /* WAITW */
    OTPU_F_DZERO = 0x1, /* DSTEP */
    OTPU_F_SZERO = 0x1, /* STREAM */
    OTPU_F_SRC_T = 0x2, /* STREAM */
    OTPU_F_DST_T = 0x4, /* STREAM */
    OTPU_F_NODST = 0x8, /* STREAM */
    OTPU_F_UNIT = 0x1, /* MM */
    OTPU_F_ACC = 0x2, /* MM */
    OTPU_F_RMAX = 0x4, /* MM */
    OTPU_F_ASCALE = 0x8, /* MM */
    OTPU_F_PAIR = 0x40, /* MM */
    OTPU_WF_SHIFT = 4, /* MM */
    OTPU_F_ROW = 0x1, /* QACT QST */
    OTPU_F_CSCALE = 0x2, /* QACT */
    OTPU_F_RSCALE = 0x4, /* QACT */
    OTPU_F_DUP = 0x8, /* QACT */
    OTPU_F_HALF = 0x2, /* QST */
    OTPU_F_DSCALAR = 0x1, /* VOP */
    OTPU_F_DONE = 0x2, /* VOP */
};

/* The operands of each format (openTPU docs/isa.md, instruction by instruction). */
typedef struct { int chain; otpu_ri addr, count; } otpu_halt_ops;
typedef struct { uint8_t rd; uint32_t imm; } otpu_li_ops;
typedef struct { uint8_t rd; otpu_ri sum; } otpu_addi_ops;
typedef struct { uint32_t body; otpu_ri count; } otpu_loop_ops;
typedef struct { uint8_t rd; otpu_ri tmem, mul; int raw, has_mul; } otpu_rld_ops;
typedef struct { otpu_ri dram, tmem, ref; uint32_t mask, interval, timeout, cmp; } otpu_waitw_ops;
typedef struct { otpu_ri dram, tmem; uint32_t n; } otpu_dma_ops;
typedef struct { otpu_ri dram, qk, v; uint32_t rows, cols, g, o, gs; int zero; } otpu_dstep_ops;
typedef struct { uint32_t desc, ks; otpu_ri src, dst, vec, x, k; uint32_t out; int zero, src_t, dst_t, nodst; } otpu_stream_ops;
typedef struct { otpu_ri sa, ssa, out; uint32_t N, KB, rs, ors, M, ab, srs; int unit, acc, rmax, ascale, pair; uint32_t wf; } otpu_mm_ops;
typedef struct { otpu_ri src; uint32_t rows, ab, KB, srs, cscale, rscale; int row, has_cscale, has_rscale, dup; } otpu_qact_ops;
typedef struct { otpu_ri src, dst, sdst; uint32_t rows, KB, srs, drs, es; int row, half; } otpu_qst_ops;
typedef struct { otpu_ri dst, a, b; uint32_t rows, cols, drs, ars, brs, func, bmode; otpu_ri imm; int dscalar, done; } otpu_vop_ops;
typedef struct { otpu_ri src, dst; uint32_t rows, cols, srs, drs, seg; } otpu_gather_ops;

/* The operands of one instruction: the member of its format. */
typedef struct {
    otpu_format format;
    uint8_t nri, ri_at[6];             /* where its R[reg] + imm operands are (resolve) */
    union {
        otpu_halt_ops halt;
        otpu_li_ops li;
        otpu_addi_ops addi;
        otpu_loop_ops loop;
        otpu_rld_ops rld;
        otpu_waitw_ops waitw;
        otpu_dma_ops dma;
        otpu_dstep_ops dstep;
        otpu_stream_ops stream;
        otpu_mm_ops mm;
        otpu_qact_ops qact;
        otpu_qst_ops qst;
        otpu_vop_ops vop;
        otpu_gather_ops gather;
    };
} otpu_ops;

/* The flags each format defines: flag bits (nvals 0) and fields of the flags byte (nvals
 * values, named by vals), in description order. */
typedef struct {
    const char *name;            /* coverage name */
    uint8_t mask, shift, nvals;
    const char *const *vals;
} otpu_flag_desc;
typedef struct { uint8_t n; otpu_flag_desc f[6]; } otpu_format_flags;
extern const otpu_format_flags otpu_format_flag_table[OTPU_FORMATS];
/* Every flag bit op's format defines (0 for an unknown opcode). */
unsigned otpu_flag_mask(unsigned op);
/* Sets the flag members of operands x of format fmt (&o.<format> of an otpu_ops) from a flags
 * byte, as otpu_operands does. */
void otpu_set_flags(otpu_format fmt, void *x, unsigned f);

/* What a 0 in a size field means (isa.def's size lines; otpu_size_zero). */
typedef enum { OTPU_ZERO_EMPTY, OTPU_ZERO_ERROR, OTPU_ZERO_SKIP } otpu_zero_rule;

/* What each older revision lacks (revision.c's otpu_rev_desc). */
#define OTPU_REV_ACF0C1C6_LACKS_OP {[OTPU_OP_RLD] = 1, [OTPU_OP_WAITW] = 1, [OTPU_OP_DSTEP] = 1, [OTPU_OP_STREAM] = 1}
#define OTPU_REV_ACF0C1C6_LACKS_FLAG {{OTPU_OP_HALT, 0x01, "CHAIN"}, {OTPU_OP_MM, 0x30, "4-bit weights"}, {OTPU_OP_MM, 0x40, "PAIR"}, {OTPU_OP_QACT, 0x08, "DUP"}, {OTPU_OP_QST, 0x02, "HALF"}}

#endif
