/* program.h - building one run's programs and DRAM images: the generator's context, the
 * instruction emitter (on otpu_ops + otpu_encode_operands), loop nesting, and register-relative
 * addresses that stay in range on every loop iteration. */
#ifndef OTPU_GEN_PROGRAM_H
#define OTPU_GEN_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "data.h"
#include "error.h"
#include "isa.h"
#include "rng.h"

enum {
    GEN_MAX_DEPTH = 4,         /* loop nesting the generator opens (the ISA's limit) */
    GEN_ADDR_REGS = 5,         /* R1..R5: address registers (known values) */
    GEN_SCRATCH_REG = 6,       /* R6, R7: LI/ADDI/RLD results (unknown values) */
    GEN_MAX_ITERS = 48,        /* product of the open loops' counts */
    GEN_RESERVE = 8,           /* program places kept for its end */
    GEN_TURN_VOP = 256,        /* gen_ctx.turn: after one entry per opcode, VOP functions */
    GEN_CHAIN_BYTES = 4096,    /* top of each DRAM image: slice 0's HALT CHAIN program */
};

/* What a register can hold whenever an instruction reads it: base + i*step within [lo, hi]. */
typedef struct {
    int known;
    int64_t lo, hi, base, step;
} gen_reg;

typedef struct {
    otpu_instr *ins;
    size_t n, cap;
    uint32_t open[GEN_MAX_DEPTH];   /* pcs of the open LOOPs */
    uint32_t count[GEN_MAX_DEPTH];  /* their iteration counts */
    int ptr[GEN_MAX_DEPTH];         /* the address register each steps at its end (0: none) */
    int32_t ptr_step[GEN_MAX_DEPTH];
    unsigned depth;
    int64_t last_end;               /* pc of the last instruction of the last closed body */
    gen_reg reg[16];
} gen_prog;

/* One memory pool: addresses the family draws from. */
typedef struct {
    uint64_t lo, hi; /* [lo, hi) */
} gen_pool;

typedef struct gen_ctx {
    gen_rng rng;
    otpu_config cfg;
    gen_prog prog[OTPU_MAX_SLICES];
    uint8_t *dram[OTPU_MAX_SLICES]; /* dram_len bytes each */
    size_t dram_len;
    uint32_t args[8];
    unsigned s;                     /* the slice being built */
    uint64_t index;                 /* the bundle's index (the error family's kind) */
    gen_pool tmem, dpool;           /* TMEM words, DRAM bytes */
    gen_pool words, weights, scales; /* DRAM image regions (data.h): fp32 words the LDs read,
                                      * the MMs' weights, their scale words; all in dpool */
    uint32_t act_blocks;            /* ACT blocks drawn from: [0, act_blocks) */
    uint32_t max_rows, max_cols;    /* VOP / QST shapes */
    unsigned edge_pct;              /* fp32 edge values among the data */
    gen_data data;                  /* which edge values and runs (data.h) */
    unsigned vfunc_next;            /* the next VOP function to cover */
    /* how many instructions of each opcode (and, from GEN_TURN_VOP, VOP operands b of each
     * function) took their flag combination (broadcast mode) in turn so far (ops.c) */
    uint32_t turn[GEN_TURN_VOP + 32];
    uint8_t todo[OTPU_MAX_SLICES][32]; /* family mix: opcodes each slice has still to cover */
    unsigned ntodo[OTPU_MAX_SLICES];
    /* an error the family means to raise: its kind and where (pc UINT32_MAX: any) */
    int ending;                     /* emitting the end: the reserved places are open */
    int want_error;
    otpu_err_kind want_kind;
    uint32_t want_slice, want_pc;
    char note[128];                 /* desc= */
    char host[4096];                /* host.txt ("": none; host_steps.c) */
    size_t host_len;
} gen_ctx;

/* The current slice's program. */
gen_prog *gen_cur(gen_ctx *c);
uint32_t gen_pc(gen_ctx *c);
/* Append one instruction (registers written are tracked). Returns its pc, or -1 when the
 * program is full (IMEM_WORDS). */
int64_t gen_emit(gen_ctx *c, unsigned op, const otpu_ops *o);
/* A zeroed otpu_ops of op's format. */
otpu_ops gen_ops(unsigned op);
/* Load register r (1..5) with v (LI, or LI and an ADDI with a negative immediate). */
void gen_set_reg(gen_ctx *c, unsigned r, uint32_t v);
/* Open a LOOP of count iterations (its count register-relative now and then); ptr (0: none)
 * is an address register stepped by step at the end of each iteration. 0, or -1 if the
 * nesting or the iteration budget is full. */
int gen_loop_open(gen_ctx *c, uint32_t count, unsigned ptr, int32_t step);
void gen_loop_close(gen_ctx *c);
void gen_loop_close_all(gen_ctx *c);
/* An R[reg] + imm operand whose value, on every iteration, is a start of len units inside
 * pool and below limit, a multiple of align. Falls back to an absolute address (R0). */
otpu_ri gen_addr(gen_ctx *c, const gen_pool *pool, uint64_t len, uint64_t align);
/* The same, anywhere in [lo, hi). */
otpu_ri gen_addr_in(gen_ctx *c, uint64_t lo, uint64_t hi, uint64_t len, uint64_t align);
/* A fresh address-register setup: each of R1..R5 loaded with a random start in pool. */
void gen_setup_regs(gen_ctx *c);
/* A pointer register free to step (not stepped by an open loop), 0 if none. */
unsigned gen_free_ptr(gen_ctx *c);

#endif
