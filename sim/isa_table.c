/* isa_table.c - the tables of the formats of sim/isa.def that isa_fields.c decodes,
 * encodes, checks and disassembles with (their rows: isa_table.h).
 * Written by sim/gen_isa.py from sim/isa.def: edit the description, not this file. */
#include "isa_table.h"

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

const size_t otpu_format_ops_at = offsetof(otpu_ops, halt);

/* kind, reg, word, lo, width, shared, mask, at, name */
const otpu_field_desc otpu_fields[] = {
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x01, offsetof(otpu_halt_ops, chain), "chain"}, /* HALT chain */
    {OTPU_FLD_RI, 0, 0, 0, 0, 0, 0x00, offsetof(otpu_halt_ops, addr), "addr"}, /* HALT addr */
    {OTPU_FLD_RI, 1, 0, 0, 0, 0, 0x00, offsetof(otpu_halt_ops, count), "count"}, /* HALT count */
    {OTPU_FLD_REG, 3, 0, 0, 0, 0, 0x00, offsetof(otpu_li_ops, rd), "rd"}, /* LI rd */
    {OTPU_FLD_BITS, 0, 1, 0, 32, 0, 0x00, offsetof(otpu_li_ops, imm), "imm"}, /* LI imm */
    {OTPU_FLD_REG, 3, 0, 0, 0, 0, 0x00, offsetof(otpu_addi_ops, rd), "rd"}, /* ADDI rd */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_addi_ops, sum), "sum"}, /* ADDI sum */
    {OTPU_FLD_BITS, 0, 1, 0, 32, 0, 0x00, offsetof(otpu_loop_ops, body), "body"}, /* LOOP body */
    {OTPU_FLD_RI, 0, 2, 0, 0, 0, 0x00, offsetof(otpu_loop_ops, count), "count"}, /* LOOP count */
    {OTPU_FLD_REG, 3, 0, 0, 0, 0, 0x00, offsetof(otpu_rld_ops, rd), "rd"}, /* RLD rd */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_rld_ops, tmem), "tmem"}, /* RLD tmem */
    {OTPU_FLD_RI, 1, 2, 0, 0, 0, 0x00, offsetof(otpu_rld_ops, mul), "mul"}, /* RLD mul */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x01, offsetof(otpu_rld_ops, raw), "raw"}, /* RLD raw */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x02, offsetof(otpu_rld_ops, has_mul), "has_mul"}, /* RLD has_mul */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_waitw_ops, dram), "dram"}, /* WAITW dram */
    {OTPU_FLD_RI, 1, 2, 0, 0, 0, 0x00, offsetof(otpu_waitw_ops, tmem), "tmem"}, /* WAITW tmem */
    {OTPU_FLD_RI, 2, 3, 0, 0, 0, 0x00, offsetof(otpu_waitw_ops, ref), "ref"}, /* WAITW ref */
    {OTPU_FLD_BITS, 0, 4, 0, 32, 0, 0x00, offsetof(otpu_waitw_ops, mask), "mask"}, /* WAITW mask */
    {OTPU_FLD_BITS, 0, 5, 0, 32, 0, 0x00, offsetof(otpu_waitw_ops, interval), "interval"}, /* WAITW interval */
    {OTPU_FLD_BITS, 0, 6, 0, 32, 0, 0x00, offsetof(otpu_waitw_ops, timeout), "timeout"}, /* WAITW timeout */
    {OTPU_FLD_FFIELD, 0, 0, 0, 2, 0, 0x03, offsetof(otpu_waitw_ops, cmp), "cmp"}, /* WAITW cmp */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_dma_ops, dram), "dram"}, /* DMA dram */
    {OTPU_FLD_RI, 1, 2, 0, 0, 0, 0x00, offsetof(otpu_dma_ops, tmem), "tmem"}, /* DMA tmem */
    {OTPU_FLD_BITS, 0, 3, 0, 32, 0, 0x00, offsetof(otpu_dma_ops, n), "n"}, /* DMA n */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_dstep_ops, dram), "dram"}, /* DSTEP dram */
    {OTPU_FLD_RI, 1, 2, 0, 0, 0, 0x00, offsetof(otpu_dstep_ops, qk), "qk"}, /* DSTEP qk */
    {OTPU_FLD_RI, 2, 3, 0, 0, 0, 0x00, offsetof(otpu_dstep_ops, v), "v"}, /* DSTEP v */
    {OTPU_FLD_BITS, 0, 4, 0, 16, 0, 0x00, offsetof(otpu_dstep_ops, rows), "rows"}, /* DSTEP rows */
    {OTPU_FLD_BITS, 0, 4, 16, 16, 0, 0x00, offsetof(otpu_dstep_ops, cols), "cols"}, /* DSTEP cols */
    {OTPU_FLD_BITS, 0, 5, 0, 32, 0, 0x00, offsetof(otpu_dstep_ops, g), "g"}, /* DSTEP g */
    {OTPU_FLD_BITS, 0, 6, 0, 32, 0, 0x00, offsetof(otpu_dstep_ops, o), "o"}, /* DSTEP o */
    {OTPU_FLD_BITS, 0, 7, 0, 32, 0, 0x00, offsetof(otpu_dstep_ops, gs), "gs"}, /* DSTEP gs */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x01, offsetof(otpu_dstep_ops, zero), "zero"}, /* DSTEP zero */
    {OTPU_FLD_BITS, 0, 1, 0, 16, 0, 0x00, offsetof(otpu_stream_ops, desc), "desc"}, /* STREAM desc */
    {OTPU_FLD_BITS, 0, 1, 16, 16, 0, 0x00, offsetof(otpu_stream_ops, ks), "ks"}, /* STREAM ks */
    {OTPU_FLD_RI, 0, 2, 0, 0, 0, 0x00, offsetof(otpu_stream_ops, src), "src"}, /* STREAM src */
    {OTPU_FLD_RI, 0, 3, 0, 0, 1, 0x00, offsetof(otpu_stream_ops, dst), "dst"}, /* STREAM dst */
    {OTPU_FLD_RI, 1, 4, 0, 0, 0, 0x00, offsetof(otpu_stream_ops, vec), "vec"}, /* STREAM vec */
    {OTPU_FLD_RI, 2, 5, 0, 0, 0, 0x00, offsetof(otpu_stream_ops, x), "x"}, /* STREAM x */
    {OTPU_FLD_RI, 3, 6, 0, 0, 0, 0x00, offsetof(otpu_stream_ops, k), "k"}, /* STREAM k */
    {OTPU_FLD_BITS, 0, 7, 0, 32, 0, 0x00, offsetof(otpu_stream_ops, out), "out"}, /* STREAM out */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x01, offsetof(otpu_stream_ops, zero), "zero"}, /* STREAM zero */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x02, offsetof(otpu_stream_ops, src_t), "src_t"}, /* STREAM src_t */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x04, offsetof(otpu_stream_ops, dst_t), "dst_t"}, /* STREAM dst_t */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x08, offsetof(otpu_stream_ops, nodst), "nodst"}, /* STREAM nodst */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_mm_ops, sa), "sa"}, /* MM sa */
    {OTPU_FLD_RI, 1, 2, 0, 0, 0, 0x00, offsetof(otpu_mm_ops, ssa), "ssa"}, /* MM ssa */
    {OTPU_FLD_RI, 2, 3, 0, 0, 0, 0x00, offsetof(otpu_mm_ops, out), "out"}, /* MM out */
    {OTPU_FLD_BITS, 0, 4, 0, 16, 0, 0x00, offsetof(otpu_mm_ops, N), "N"}, /* MM N */
    {OTPU_FLD_BITS, 0, 4, 16, 16, 0, 0x00, offsetof(otpu_mm_ops, KB), "KB"}, /* MM KB */
    {OTPU_FLD_BITS, 0, 5, 0, 32, 0, 0x00, offsetof(otpu_mm_ops, rs), "rs"}, /* MM rs */
    {OTPU_FLD_BITS, 0, 6, 0, 16, 0, 0x00, offsetof(otpu_mm_ops, ors), "ors"}, /* MM ors */
    {OTPU_FLD_BITS, 0, 6, 16, 8, 0, 0x00, offsetof(otpu_mm_ops, M), "M"}, /* MM M */
    {OTPU_FLD_BITS, 0, 6, 24, 8, 0, 0x00, offsetof(otpu_mm_ops, ab), "ab"}, /* MM ab */
    {OTPU_FLD_BITS, 0, 7, 0, 32, 0, 0x00, offsetof(otpu_mm_ops, srs), "srs"}, /* MM srs */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x01, offsetof(otpu_mm_ops, unit), "unit"}, /* MM unit */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x02, offsetof(otpu_mm_ops, acc), "acc"}, /* MM acc */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x04, offsetof(otpu_mm_ops, rmax), "rmax"}, /* MM rmax */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x08, offsetof(otpu_mm_ops, ascale), "ascale"}, /* MM ascale */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x40, offsetof(otpu_mm_ops, pair), "pair"}, /* MM pair */
    {OTPU_FLD_FFIELD, 0, 0, 4, 2, 0, 0x30, offsetof(otpu_mm_ops, wf), "wf"}, /* MM wf */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_qact_ops, src), "src"}, /* QACT src */
    {OTPU_FLD_BITS, 0, 2, 0, 8, 0, 0x00, offsetof(otpu_qact_ops, rows), "rows"}, /* QACT rows */
    {OTPU_FLD_BITS, 0, 2, 8, 8, 0, 0x00, offsetof(otpu_qact_ops, ab), "ab"}, /* QACT ab */
    {OTPU_FLD_BITS, 0, 2, 16, 16, 0, 0x00, offsetof(otpu_qact_ops, KB), "KB"}, /* QACT KB */
    {OTPU_FLD_BITS, 0, 3, 0, 32, 0, 0x00, offsetof(otpu_qact_ops, srs), "srs"}, /* QACT srs */
    {OTPU_FLD_BITS, 0, 4, 0, 32, 0, 0x00, offsetof(otpu_qact_ops, cscale), "cscale"}, /* QACT cscale */
    {OTPU_FLD_BITS, 0, 5, 0, 32, 0, 0x00, offsetof(otpu_qact_ops, rscale), "rscale"}, /* QACT rscale */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x01, offsetof(otpu_qact_ops, row), "row"}, /* QACT row */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x02, offsetof(otpu_qact_ops, has_cscale), "has_cscale"}, /* QACT has_cscale */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x04, offsetof(otpu_qact_ops, has_rscale), "has_rscale"}, /* QACT has_rscale */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x08, offsetof(otpu_qact_ops, dup), "dup"}, /* QACT dup */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_qst_ops, src), "src"}, /* QST src */
    {OTPU_FLD_RI, 1, 2, 0, 0, 0, 0x00, offsetof(otpu_qst_ops, dst), "dst"}, /* QST dst */
    {OTPU_FLD_RI, 2, 3, 0, 0, 0, 0x00, offsetof(otpu_qst_ops, sdst), "sdst"}, /* QST sdst */
    {OTPU_FLD_BITS, 0, 4, 0, 16, 0, 0x00, offsetof(otpu_qst_ops, rows), "rows"}, /* QST rows */
    {OTPU_FLD_BITS, 0, 4, 16, 16, 0, 0x00, offsetof(otpu_qst_ops, KB), "KB"}, /* QST KB */
    {OTPU_FLD_BITS, 0, 5, 0, 32, 0, 0x00, offsetof(otpu_qst_ops, srs), "srs"}, /* QST srs */
    {OTPU_FLD_BITS, 0, 6, 0, 32, 0, 0x00, offsetof(otpu_qst_ops, drs), "drs"}, /* QST drs */
    {OTPU_FLD_BITS, 0, 7, 0, 32, 0, 0x00, offsetof(otpu_qst_ops, es), "es"}, /* QST es */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x01, offsetof(otpu_qst_ops, row), "row"}, /* QST row */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x02, offsetof(otpu_qst_ops, half), "half"}, /* QST half */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_vop_ops, dst), "dst"}, /* VOP dst */
    {OTPU_FLD_RI, 1, 2, 0, 0, 0, 0x00, offsetof(otpu_vop_ops, a), "a"}, /* VOP a */
    {OTPU_FLD_RI, 2, 3, 0, 0, 0, 0x00, offsetof(otpu_vop_ops, b), "b"}, /* VOP b */
    {OTPU_FLD_BITS, 0, 4, 0, 16, 0, 0x00, offsetof(otpu_vop_ops, rows), "rows"}, /* VOP rows */
    {OTPU_FLD_BITS, 0, 4, 16, 16, 0, 0x00, offsetof(otpu_vop_ops, cols), "cols"}, /* VOP cols */
    {OTPU_FLD_BITS, 0, 5, 0, 16, 0, 0x00, offsetof(otpu_vop_ops, drs), "drs"}, /* VOP drs */
    {OTPU_FLD_BITS, 0, 5, 16, 16, 0, 0x00, offsetof(otpu_vop_ops, ars), "ars"}, /* VOP ars */
    {OTPU_FLD_BITS, 0, 6, 0, 16, 0, 0x00, offsetof(otpu_vop_ops, brs), "brs"}, /* VOP brs */
    {OTPU_FLD_BITS, 0, 6, 16, 8, 0, 0x00, offsetof(otpu_vop_ops, func), "func"}, /* VOP func */
    {OTPU_FLD_BITS, 0, 6, 24, 2, 0, 0x00, offsetof(otpu_vop_ops, bmode), "bmode"}, /* VOP bmode */
    {OTPU_FLD_RI, 3, 7, 0, 0, 0, 0x00, offsetof(otpu_vop_ops, imm), "imm"}, /* VOP imm */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x01, offsetof(otpu_vop_ops, dscalar), "dscalar"}, /* VOP dscalar */
    {OTPU_FLD_FLAG, 0, 0, 0, 0, 0, 0x02, offsetof(otpu_vop_ops, done), "done"}, /* VOP done */
    {OTPU_FLD_RI, 0, 1, 0, 0, 0, 0x00, offsetof(otpu_gather_ops, src), "src"}, /* GATHER src */
    {OTPU_FLD_RI, 1, 2, 0, 0, 0, 0x00, offsetof(otpu_gather_ops, dst), "dst"}, /* GATHER dst */
    {OTPU_FLD_BITS, 0, 3, 0, 16, 0, 0x00, offsetof(otpu_gather_ops, rows), "rows"}, /* GATHER rows */
    {OTPU_FLD_BITS, 0, 3, 16, 16, 0, 0x00, offsetof(otpu_gather_ops, cols), "cols"}, /* GATHER cols */
    {OTPU_FLD_BITS, 0, 4, 0, 32, 0, 0x00, offsetof(otpu_gather_ops, srs), "srs"}, /* GATHER srs */
    {OTPU_FLD_BITS, 0, 5, 0, 32, 0, 0x00, offsetof(otpu_gather_ops, drs), "drs"}, /* GATHER drs */
    {OTPU_FLD_BITS, 0, 6, 0, 32, 0, 0x00, offsetof(otpu_gather_ops, seg), "seg"}, /* GATHER seg */
};
const uint16_t otpu_format_fields[OTPU_FORMATS + 1] = {0, 0, 3, 5, 7, 9, 14, 21, 24, 33, 45, 61, 72, 82, 95, 102};

/* format, mask, value: the forbid lines */
const otpu_forbid_desc otpu_forbids[] = {
    {OTPU_FMT_WAITW, 0x03, 0x03}, /* cmp=3 */
    {OTPU_FMT_MM, 0x30, 0x30}, /* wf=3 */
    {OTPU_FMT_MM, 0x70, 0x40}, /* pair wf=int8 */
    {OTPU_FMT_MM, 0x09, 0x08}, /* ascale !unit */
    {OTPU_FMT_MM, 0x0a, 0x08}, /* ascale !acc */
    {OTPU_FMT_QST, 0x03, 0x02}, /* half !row */
    {OTPU_FORMATS, 0, 0},
};

/* the names of the disassembly's named fields */
static const char *const waitw_cmp_names[4] = {"EQ", "NE", "GE", "cmp3?"};
static const char *const mm_wf_names[4] = {"int8", "int4", "fp4", "wf3?"};
static const char *const vop_bmode_names[4] = {"full", "row", "col", "scalar"};

/* field, eq, value: the conditions of labels, items and sizes */
const otpu_cond otpu_conds[] = {
    {OTPU_COND_ALWAYS, 0, 0},
    {0, 0, 0},
    {13, 0, 0},
    {58, 0, 0},
    {69, 0, 0},
    {70, 0, 0},
    {90, 1, OTPU_V_OUTER},
    {90, 1, OTPU_V_ARGMAX},
    {57, 0, 0},
    {80, 0, 0},
    {75, 0, 0},
    {90, 1, OTPU_V_RMAX},
};

/* field, zero, when, nerror, error: the size lines */
const otpu_size_desc otpu_sizes[] = {
    {2, OTPU_ZERO_ERROR, 1, 0, {{0, 0}}}, /* HALT count */
    {7, OTPU_ZERO_ERROR, 0, 0, {{0, 0}}}, /* LOOP body */
    {8, OTPU_ZERO_SKIP, 0, 0, {{0, 0}}}, /* LOOP count */
    {23, OTPU_ZERO_EMPTY, 0, 0, {{0, 0}}}, /* DMA n */
    {27, OTPU_ZERO_ERROR, 0, 0, {{0, 0}}}, /* DSTEP rows */
    {28, OTPU_ZERO_ERROR, 0, 0, {{0, 0}}}, /* DSTEP cols */
    {48, OTPU_ZERO_EMPTY, 0, 1, {{8, 0}}}, /* MM N */
    {49, OTPU_ZERO_EMPTY, 0, 0, {{0, 0}}}, /* MM KB */
    {52, OTPU_ZERO_ERROR, 0, 0, {{0, 0}}}, /* MM M */
    {62, OTPU_ZERO_EMPTY, 0, 0, {{0, 0}}}, /* QACT rows */
    {64, OTPU_ZERO_EMPTY, 0, 0, {{0, 0}}}, /* QACT KB */
    {75, OTPU_ZERO_EMPTY, 0, 0, {{0, 0}}}, /* QST rows */
    {76, OTPU_ZERO_EMPTY, 0, 1, {{9, 10}}}, /* QST KB */
    {85, OTPU_ZERO_EMPTY, 0, 0, {{0, 0}}}, /* VOP rows */
    {86, OTPU_ZERO_EMPTY, 0, 2, {{11, 0}, {7, 0}}}, /* VOP cols */
    {97, OTPU_ZERO_EMPTY, 0, 0, {{0, 0}}}, /* GATHER rows */
    {98, OTPU_ZERO_EMPTY, 0, 0, {{0, 0}}}, /* GATHER cols */
};
const uint16_t otpu_format_sizes[OTPU_FORMATS + 1] = {0, 0, 1, 1, 1, 3, 3, 3, 4, 6, 6, 9, 11, 13, 15, 17};

/* condition, text: the labels' chains */
const otpu_dis_label otpu_dis_labels[] = {
    {0, "CHAIN"},
    {0, "addr"},
    {0, "count"},
    {0, "rd"},
    {0, "imm"},
    {0, "sum"},
    {0, "body"},
    {0, "tmem"},
    {0, "RAW"},
    {0, "MUL"},
    {0, "dram"},
    {0, "cmp"},
    {0, "ref"},
    {0, "mask"},
    {0, "interval"},
    {0, "timeout"},
    {0, "n"},
    {0, "qk"},
    {0, "v"},
    {0, "rows"},
    {0, "cols"},
    {0, "g"},
    {0, "o"},
    {0, "gs"},
    {0, "ZERO"},
    {0, "desc"},
    {0, "ks"},
    {0, "src"},
    {0, "dst"},
    {0, "vec"},
    {0, "x"},
    {0, "k"},
    {0, "SRC_T"},
    {0, "DST_T"},
    {0, "NODST"},
    {0, "sa"},
    {3, "alpha"},
    {0, "ssa"},
    {0, "out"},
    {0, "N"},
    {0, "KB"},
    {0, "rs"},
    {0, "ors"},
    {0, "M"},
    {0, "ab"},
    {0, "srs"},
    {0, "wf"},
    {0, "UNIT"},
    {0, "ACC"},
    {0, "RMAX"},
    {0, "ASCALE"},
    {0, "PAIR"},
    {0, "ROW"},
    {0, "CSCALE"},
    {0, "RSCALE"},
    {0, "DUP"},
    {0, "sdst"},
    {0, "drs"},
    {0, "es"},
    {0, "HALF"},
    {0, "func"},
    {6, "decay"},
    {0, "a"},
    {0, "b"},
    {0, "ars"},
    {0, "brs"},
    {0, "bmode"},
    {6, "cv"},
    {7, "base"},
    {0, "imm"},
    {0, "DSCALAR"},
    {0, "DONE"},
    {0, "seg"},
};

/* kind, field, part, label, guard, names */
const otpu_dis_item otpu_dis_items[] = {
    {OTPU_DIS_FLAG, 0, OTPU_PART_WHOLE, 0, 0, NULL}, /* HALT chain */
    {OTPU_DIS_REG, 1, OTPU_PART_REG, 1, 1, NULL}, /* HALT addr */
    {OTPU_DIS_REG, 2, OTPU_PART_REG, 2, 1, NULL}, /* HALT count */
    {OTPU_DIS_RC, 3, OTPU_PART_WHOLE, 3, 0, NULL}, /* LI rd */
    {OTPU_DIS_HEX, 4, OTPU_PART_WHOLE, 4, 0, NULL}, /* LI imm */
    {OTPU_DIS_RC, 5, OTPU_PART_WHOLE, 3, 0, NULL}, /* ADDI rd */
    {OTPU_DIS_RC, 6, OTPU_PART_REG, 5, 0, NULL}, /* ADDI sum */
    {OTPU_DIS_HEX, 6, OTPU_PART_IMM, 5, 0, NULL}, /* ADDI sum */
    {OTPU_DIS_U, 7, OTPU_PART_WHOLE, 6, 0, NULL}, /* LOOP body */
    {OTPU_DIS_RI, 8, OTPU_PART_WHOLE, 2, 0, NULL}, /* LOOP count */
    {OTPU_DIS_RC, 9, OTPU_PART_WHOLE, 3, 0, NULL}, /* RLD rd */
    {OTPU_DIS_RI, 10, OTPU_PART_WHOLE, 7, 0, NULL}, /* RLD tmem */
    {OTPU_DIS_FLAG, 12, OTPU_PART_WHOLE, 8, 0, NULL}, /* RLD raw */
    {OTPU_DIS_RI, 11, OTPU_PART_WHOLE, 9, 2, NULL}, /* RLD mul */
    {OTPU_DIS_RI, 14, OTPU_PART_WHOLE, 10, 0, NULL}, /* WAITW dram */
    {OTPU_DIS_RI, 15, OTPU_PART_WHOLE, 7, 0, NULL}, /* WAITW tmem */
    {OTPU_DIS_NAMES_BARE, 20, OTPU_PART_WHOLE, 11, 0, waitw_cmp_names}, /* WAITW cmp */
    {OTPU_DIS_RI, 16, OTPU_PART_WHOLE, 12, 0, NULL}, /* WAITW ref */
    {OTPU_DIS_X, 17, OTPU_PART_WHOLE, 13, 0, NULL}, /* WAITW mask */
    {OTPU_DIS_U, 18, OTPU_PART_WHOLE, 14, 0, NULL}, /* WAITW interval */
    {OTPU_DIS_U, 19, OTPU_PART_WHOLE, 15, 0, NULL}, /* WAITW timeout */
    {OTPU_DIS_RI, 21, OTPU_PART_WHOLE, 10, 0, NULL}, /* DMA dram */
    {OTPU_DIS_RI, 22, OTPU_PART_WHOLE, 7, 0, NULL}, /* DMA tmem */
    {OTPU_DIS_U, 23, OTPU_PART_WHOLE, 16, 0, NULL}, /* DMA n */
    {OTPU_DIS_RI, 24, OTPU_PART_WHOLE, 10, 0, NULL}, /* DSTEP dram */
    {OTPU_DIS_RI, 25, OTPU_PART_WHOLE, 17, 0, NULL}, /* DSTEP qk */
    {OTPU_DIS_RI, 26, OTPU_PART_WHOLE, 18, 0, NULL}, /* DSTEP v */
    {OTPU_DIS_U, 27, OTPU_PART_WHOLE, 19, 0, NULL}, /* DSTEP rows */
    {OTPU_DIS_U, 28, OTPU_PART_WHOLE, 20, 0, NULL}, /* DSTEP cols */
    {OTPU_DIS_X, 29, OTPU_PART_WHOLE, 21, 0, NULL}, /* DSTEP g */
    {OTPU_DIS_X, 30, OTPU_PART_WHOLE, 22, 0, NULL}, /* DSTEP o */
    {OTPU_DIS_U, 31, OTPU_PART_WHOLE, 23, 0, NULL}, /* DSTEP gs */
    {OTPU_DIS_FLAG, 32, OTPU_PART_WHOLE, 24, 0, NULL}, /* DSTEP zero */
    {OTPU_DIS_X, 33, OTPU_PART_WHOLE, 25, 0, NULL}, /* STREAM desc */
    {OTPU_DIS_U, 34, OTPU_PART_WHOLE, 26, 0, NULL}, /* STREAM ks */
    {OTPU_DIS_RI, 35, OTPU_PART_WHOLE, 27, 0, NULL}, /* STREAM src */
    {OTPU_DIS_RI, 36, OTPU_PART_WHOLE, 28, 0, NULL}, /* STREAM dst */
    {OTPU_DIS_RI, 37, OTPU_PART_WHOLE, 29, 0, NULL}, /* STREAM vec */
    {OTPU_DIS_RI, 38, OTPU_PART_WHOLE, 30, 0, NULL}, /* STREAM x */
    {OTPU_DIS_RI, 39, OTPU_PART_WHOLE, 31, 0, NULL}, /* STREAM k */
    {OTPU_DIS_X, 40, OTPU_PART_WHOLE, 22, 0, NULL}, /* STREAM out */
    {OTPU_DIS_FLAG, 41, OTPU_PART_WHOLE, 24, 0, NULL}, /* STREAM zero */
    {OTPU_DIS_FLAG, 42, OTPU_PART_WHOLE, 32, 0, NULL}, /* STREAM src_t */
    {OTPU_DIS_FLAG, 43, OTPU_PART_WHOLE, 33, 0, NULL}, /* STREAM dst_t */
    {OTPU_DIS_FLAG, 44, OTPU_PART_WHOLE, 34, 0, NULL}, /* STREAM nodst */
    {OTPU_DIS_RI, 45, OTPU_PART_WHOLE, 35, 0, NULL}, /* MM sa */
    {OTPU_DIS_RI, 46, OTPU_PART_WHOLE, 36, 0, NULL}, /* MM ssa */
    {OTPU_DIS_RI, 47, OTPU_PART_WHOLE, 38, 0, NULL}, /* MM out */
    {OTPU_DIS_U, 48, OTPU_PART_WHOLE, 39, 0, NULL}, /* MM N */
    {OTPU_DIS_U, 49, OTPU_PART_WHOLE, 40, 0, NULL}, /* MM KB */
    {OTPU_DIS_U, 50, OTPU_PART_WHOLE, 41, 0, NULL}, /* MM rs */
    {OTPU_DIS_U, 51, OTPU_PART_WHOLE, 42, 0, NULL}, /* MM ors */
    {OTPU_DIS_U, 52, OTPU_PART_WHOLE, 43, 0, NULL}, /* MM M */
    {OTPU_DIS_U, 53, OTPU_PART_WHOLE, 44, 0, NULL}, /* MM ab */
    {OTPU_DIS_U, 54, OTPU_PART_WHOLE, 45, 0, NULL}, /* MM srs */
    {OTPU_DIS_NAMES, 60, OTPU_PART_WHOLE, 46, 0, mm_wf_names}, /* MM wf */
    {OTPU_DIS_FLAG, 55, OTPU_PART_WHOLE, 47, 0, NULL}, /* MM unit */
    {OTPU_DIS_FLAG, 56, OTPU_PART_WHOLE, 48, 0, NULL}, /* MM acc */
    {OTPU_DIS_FLAG, 57, OTPU_PART_WHOLE, 49, 0, NULL}, /* MM rmax */
    {OTPU_DIS_FLAG, 58, OTPU_PART_WHOLE, 50, 0, NULL}, /* MM ascale */
    {OTPU_DIS_FLAG, 59, OTPU_PART_WHOLE, 51, 0, NULL}, /* MM pair */
    {OTPU_DIS_RI, 61, OTPU_PART_WHOLE, 27, 0, NULL}, /* QACT src */
    {OTPU_DIS_U, 62, OTPU_PART_WHOLE, 19, 0, NULL}, /* QACT rows */
    {OTPU_DIS_U, 63, OTPU_PART_WHOLE, 44, 0, NULL}, /* QACT ab */
    {OTPU_DIS_U, 64, OTPU_PART_WHOLE, 40, 0, NULL}, /* QACT KB */
    {OTPU_DIS_U, 65, OTPU_PART_WHOLE, 45, 0, NULL}, /* QACT srs */
    {OTPU_DIS_FLAG, 68, OTPU_PART_WHOLE, 52, 0, NULL}, /* QACT row */
    {OTPU_DIS_X, 66, OTPU_PART_WHOLE, 53, 4, NULL}, /* QACT cscale */
    {OTPU_DIS_X, 67, OTPU_PART_WHOLE, 54, 5, NULL}, /* QACT rscale */
    {OTPU_DIS_FLAG, 71, OTPU_PART_WHOLE, 55, 0, NULL}, /* QACT dup */
    {OTPU_DIS_RI, 72, OTPU_PART_WHOLE, 27, 0, NULL}, /* QST src */
    {OTPU_DIS_RI, 73, OTPU_PART_WHOLE, 28, 0, NULL}, /* QST dst */
    {OTPU_DIS_RI, 74, OTPU_PART_WHOLE, 56, 0, NULL}, /* QST sdst */
    {OTPU_DIS_U, 75, OTPU_PART_WHOLE, 19, 0, NULL}, /* QST rows */
    {OTPU_DIS_U, 76, OTPU_PART_WHOLE, 40, 0, NULL}, /* QST KB */
    {OTPU_DIS_U, 77, OTPU_PART_WHOLE, 45, 0, NULL}, /* QST srs */
    {OTPU_DIS_U, 78, OTPU_PART_WHOLE, 57, 0, NULL}, /* QST drs */
    {OTPU_DIS_U, 79, OTPU_PART_WHOLE, 58, 0, NULL}, /* QST es */
    {OTPU_DIS_FLAG, 80, OTPU_PART_WHOLE, 52, 0, NULL}, /* QST row */
    {OTPU_DIS_FLAG, 81, OTPU_PART_WHOLE, 59, 0, NULL}, /* QST half */
    {OTPU_DIS_VFUNC, 90, OTPU_PART_WHOLE, 60, 0, NULL}, /* VOP func */
    {OTPU_DIS_RI, 82, OTPU_PART_WHOLE, 28, 0, NULL}, /* VOP dst */
    {OTPU_DIS_RI, 83, OTPU_PART_WHOLE, 61, 0, NULL}, /* VOP a */
    {OTPU_DIS_RI, 84, OTPU_PART_WHOLE, 63, 0, NULL}, /* VOP b */
    {OTPU_DIS_U, 85, OTPU_PART_WHOLE, 19, 0, NULL}, /* VOP rows */
    {OTPU_DIS_U, 86, OTPU_PART_WHOLE, 20, 0, NULL}, /* VOP cols */
    {OTPU_DIS_U, 87, OTPU_PART_WHOLE, 57, 0, NULL}, /* VOP drs */
    {OTPU_DIS_U, 88, OTPU_PART_WHOLE, 64, 0, NULL}, /* VOP ars */
    {OTPU_DIS_U, 89, OTPU_PART_WHOLE, 65, 0, NULL}, /* VOP brs */
    {OTPU_DIS_NAMES, 91, OTPU_PART_WHOLE, 66, 0, vop_bmode_names}, /* VOP bmode */
    {OTPU_DIS_RI, 92, OTPU_PART_WHOLE, 67, 0, NULL}, /* VOP imm */
    {OTPU_DIS_FLAG, 93, OTPU_PART_WHOLE, 70, 6, NULL}, /* VOP dscalar */
    {OTPU_DIS_FLAG, 94, OTPU_PART_WHOLE, 71, 6, NULL}, /* VOP done */
    {OTPU_DIS_RI, 95, OTPU_PART_WHOLE, 27, 0, NULL}, /* GATHER src */
    {OTPU_DIS_RI, 96, OTPU_PART_WHOLE, 28, 0, NULL}, /* GATHER dst */
    {OTPU_DIS_U, 97, OTPU_PART_WHOLE, 19, 0, NULL}, /* GATHER rows */
    {OTPU_DIS_U, 98, OTPU_PART_WHOLE, 20, 0, NULL}, /* GATHER cols */
    {OTPU_DIS_U, 99, OTPU_PART_WHOLE, 45, 0, NULL}, /* GATHER srs */
    {OTPU_DIS_U, 100, OTPU_PART_WHOLE, 57, 0, NULL}, /* GATHER drs */
    {OTPU_DIS_U, 101, OTPU_PART_WHOLE, 72, 0, NULL}, /* GATHER seg */
};
const uint16_t otpu_format_dis[OTPU_FORMATS + 1] = {0, 0, 3, 5, 8, 10, 14, 21, 24, 33, 45, 61, 70, 80, 93, 100};
