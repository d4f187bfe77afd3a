/* isa.h - openTPU ISA v1 at the bit level (openTPU docs/isa.md "Encoding").
 *
 * The instructions and their operand formats are described once, in sim/isa.def: every
 * opcode (name, code, unit, format), every format's fields (where in w0..w7 they sit, their
 * widths), its flags and the combinations the ISA refuses, its disassembly, and what each older
 * revision lacks. sim/gen_isa.py writes from it isa_formats.h (OTPU_OPCODES, the opcode, format
 * and flag enums, the operand structs of otpu_ops), isa_table.c (the tables of fields, forbid
 * lines and disassembly items that isa_fields.c's operand decoder and encoder,
 * otpu_flags_allowed and disassembler read, the flag tables the coverage model and the
 * generator read) and python/otpu/_isa.py; the meson test isa-generated fails when they are
 * stale. OTPU_OPCODES drives the names and units (isa.c), the execution dispatch (sequencer.c:
 * otpu_exec_<name>) and the footprints (footprint.c: one function per name); a missing
 * function is a compile error. Everything that needs a field (execution, footprints, the
 * checker, the tools) reads it in otpu_ops (otpu_operands).
 *
 * Adding a flag or an instruction: docs/isa-table.md (a line of isa.def, then its semantics:
 * the execute function otpu_exec_<name> in an exec_*.c of its unit, declared in slice.h; its
 * footprint function in footprint.c; its tests). The reference RTL (rtl/) has its own decoder:
 * it is the second implementation, written independently, not from the table.
 */
#ifndef OTPU_ISA_H
#define OTPU_ISA_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An operand the ISA forms as R[reg] + imm, wrapping at 32 bits: value is that sum with the
 * registers the instruction was decoded with (imm alone when decoded without registers). */
typedef struct {
    uint32_t value, imm;
    uint8_t reg;
} otpu_ri;

/* the opcodes, formats, flags and operand structs (otpu_ops) of sim/isa.def */
#include "isa_formats.h"

enum { OTPU_WF_INT8 = 0, OTPU_WF_INT4 = 1, OTPU_WF_FP4 = 2 };
enum { OTPU_NSUB = 4 }; /* 4-bit MM: sub-blocks per K-block, each with its multiplier */

/* WAITW compares (flags[1:0]) */
enum { OTPU_CMP_EQ = 0, OTPU_CMP_NE = 1, OTPU_CMP_GE = 2 };

/* VOP functions */
#define OTPU_VFUNCS(X)                                                                         \
    X(ADD, 0, "add") X(SUB, 1, "sub") X(RSUB, 2, "rsub") X(MUL, 3, "mul") X(MAX, 4, "max")     \
    X(MIN, 5, "min") X(OUTER, 6, "outer") X(COPY, 8, "copy") X(EXP2, 9, "exp2")                \
    X(RECIP, 10, "recip") X(RSQRT, 11, "rsqrt") X(ABS, 12, "abs") X(FILL, 13, "fill")          \
    X(EXP2SUB, 14, "exp2sub") X(LOG2, 15, "log2") X(RSUM, 16, "rsum") X(RMAX, 17, "rmax")      \
    X(RSSQ, 18, "rssq") X(RDOT, 19, "rdot") X(ARGMAX, 20, "argmax")
enum {
#define X(name, code, str) OTPU_V_##name = code,
    OTPU_VFUNCS(X)
#undef X
};
enum { OTPU_B_FULL = 0, OTPU_B_ROW = 1, OTPU_B_COL = 2, OTPU_B_SCALAR = 3 };
enum { OTPU_OUTER_MAX_COLS = 256, OTPU_DSTEP_MAX_ROWS = 256 };

/* One instruction: w[0] is the raw w0, w[1..7] the immediates, as openTPU docs/isa.md numbers them.
 */
typedef struct {
    uint32_t w[8];
    uint8_t op, ra, rb, rc, rd, flags;
} otpu_instr;

otpu_instr otpu_decode(const uint32_t words[8]);
void otpu_encode(const otpu_instr *ins, uint32_t words[8]); /* w0 rebuilt from the fields */

const char *otpu_op_name(unsigned op);  /* NULL for an unknown opcode */
otpu_unit otpu_op_unit(unsigned op);    /* OTPU_UNIT_COUNT for an unknown opcode; units and
                                         * their numbers: protocol.h */
otpu_format otpu_op_format(unsigned op); /* OTPU_FMT_NONE for an unknown opcode */
const char *otpu_unit_name(otpu_unit u);
const char *otpu_vfunc_name(unsigned func); /* NULL for an unknown function */
/* An elementwise VOP function of a and b (b broadcast by bmode): ADD SUB RSUB MUL MAX MIN FILL
 * EXP2SUB. */
int otpu_vfunc_is_binary(unsigned func);

/* Decode an instruction's operands by its format, with the registers R (NULL: none, every
 * value is its immediate). */
otpu_ops otpu_operands(const otpu_instr *ins, const uint32_t R[16]);
/* The inverse of otpu_operands: an instruction of opcode op with the operands o (of op's
 * format; the values of its otpu_ri fields are ignored: their imm and reg are encoded). Bits no
 * field of the format defines are zero; w[0] holds the op, register and flag fields. STREAM's
 * src and dst share ra: src.reg is encoded. */
void otpu_encode_operands(unsigned op, const otpu_ops *o, otpu_instr *out);

/* Whether the ISA accepts opcode op with flags (w0[31:24]) whatever its other operands: 0 the
 * combination is illegal (MM: weight format 3, PAIR with int8 weights, ASCALE without UNIT and
 * ACC; QST: HALF without ROW; WAITW: compare 3), 1 it is accepted. The execute functions
 * raise these as ILLEGAL in their own order among their other checks (the reference's);
 * isa.def's forbid lines are the rules;
 * tests/test_sim.cpp holds the two to agreement. */
int otpu_flags_allowed(unsigned op, unsigned flags);
/* Size fields (isa.def's size lines, docs/isa-table.md "Sizes"): the counts and dimensions of
 * an instruction and what a 0 in each means, the one rule the footprints, the generator, the
 * coverage model and the tests follow. op's format has otpu_size_count(op) of them, k-th named
 * otpu_size_name(op, k) (NULL past the end). otpu_size_get: its value in decoded operands o (an
 * R[reg] + imm field: the resolved value); otpu_size_set: sets it (an R[reg] + imm field
 * becomes the immediate v, register R0). otpu_size_zero: what a 0 there means for an
 * instruction with o's other operands, an otpu_zero_rule, or -1 where the field is no size
 * (HALT's count without CHAIN). */
unsigned otpu_size_count(unsigned op);
const char *otpu_size_name(unsigned op, unsigned k);
uint32_t otpu_size_get(const otpu_ops *o, unsigned k);
void otpu_size_set(otpu_ops *o, unsigned k, uint32_t v);
int otpu_size_zero(const otpu_ops *o, unsigned k);
/* Recompute the R[reg] + imm operands of decoded operands with other registers (a decoded
 * program is resolved before each instruction runs, not decoded again). */
void otpu_ops_resolve(otpu_ops *o, const uint32_t R[16]);

/* One line of assembly-like text (no newline). Returns the length snprintf would write. */
int otpu_disasm(const otpu_instr *ins, char *buf, size_t n);

/* RLD's fp32 -> int32 conversion: truncation toward zero; |x| < 1 -> 0; |x| >= 2^31, inf and
 * NaN -> 0x80000000. */
uint32_t otpu_f2i(uint32_t bits);

/* WAITW's compare of (v & mask) against ref; cmp 3 is invalid (returns 0). */
int otpu_waitw_holds(uint32_t v, uint32_t ref, unsigned cmp, uint32_t mask);

/* 4-bit weight decode: the integer the MXU multiplies for a nibble (openTPU docs/isa.md). */
extern const int8_t otpu_dec_int4[16];
extern const int8_t otpu_dec_fp4[16];

/* ---- STREAM descriptor (openTPU docs/stream.md; opentpu/isa.py StreamDesc) */
enum { OTPU_STREAM_SLOTS = 4, OTPU_STREAM_MAX_OPS = 15, OTPU_STREAM_DESC_FIXED = 5 };
enum { OTPU_A_SLOT, OTPU_A_SELF, OTPU_A_CONST, OTPU_A_MAX };
enum { OTPU_U_PASS, OTPU_U_FMMA, OTPU_U_MUL, OTPU_U_ADD };
enum { OTPU_G_REG, OTPU_G_SLOT, OTPU_G_CONST, OTPU_G_ONE };
enum { OTPU_BS_SLOT, OTPU_BS_CONST, OTPU_BS_REG };
enum { OTPU_SC_ADD, OTPU_SC_SUB, OTPU_SC_MUL, OTPU_SC_MAX, OTPU_SC_MIN, OTPU_SC_MOV,
       OTPU_SC_RSQRT, OTPU_SC_RECIP, OTPU_SC_EXP2, OTPU_SC_LOG2, OTPU_SC_EXP2SUB };
enum { OTPU_OPD_A = 8, OTPU_OPD_X = 9, OTPU_OPD_K0 = 10, OTPU_OPD_ZERO = 14, OTPU_OPD_ONE = 15 };

typedef struct {
    uint32_t rows, cols;
    uint8_t a_en, a_op, a_idx, u_mode, g_src, g_idx, b_src, b_idx, d_reg;
    uint8_t q_en, q_idx, q_self, out_p2, o_reg_en, o_reg, rinit, rsave;
    uint32_t srs, drs;
    uint8_t nops;
    uint8_t ops[OTPU_STREAM_MAX_OPS][4]; /* op, dst, a, b */
} otpu_stream_desc;

/* Decode a descriptor from its float-safe words (n available). Returns 0, or -1 with the
 * reason in err (a word that is not float-safe, fewer words than the descriptor needs). */
int otpu_stream_desc_decode(const uint32_t *words, size_t n, otpu_stream_desc *d, char *err,
                            size_t errlen);
/* A 24-bit payload as a float-safe word (exponent field 0x80), as a FILL writes it. */
uint32_t otpu_stream_fsafe(uint32_t payload);
/* Encode a descriptor into its words (5 + nops of them); returns the count. */
size_t otpu_stream_desc_encode(const otpu_stream_desc *d, uint32_t *words);

#ifdef __cplusplus
}
#endif
#endif
