/* ops.h - random operands for one instruction of any opcode, shaped so that most are valid
 * in the context's pools (the model has the last word: generate.c repairs the rest). */
#ifndef OTPU_GEN_OPS_H
#define OTPU_GEN_OPS_H

#include "program.h"

/* Emit one instruction of opcode op with random operands (LOOP and HALT excepted: the
 * builder and the families place those; BAR and GATHER only where every slice has them).
 * STREAM also loads its descriptor. Returns its pc or -1. */
int64_t gen_random_op(gen_ctx *c, unsigned op);
/* A STREAM (its descriptor loaded first) from TMEM to TMEM one word on whose rows run past
 * TMEM's end after the first few: a TMEM range error after those. Returns its pc or -1. */
int64_t gen_stream_past_end(gen_ctx *c);
/* Random operands of op (no instruction emitted; STREAM: the descriptor is not loaded). */
otpu_ops gen_random_ops(gen_ctx *c, unsigned op);
/* A GATHER source (and source row stride) of the current slice's own for operands x of
 * another slice: beside x's destination, register-relative now and then (every slice's
 * registers differ). */
void gen_gather_source(gen_ctx *c, otpu_gather_ops *x);
/* Flags (w0[31:24]) for an instruction of op: every combination the ISA accepts and the
 * Config allows, in turn (the bundle's index plus the instructions of op before it, modulo
 * their number), so that a family's bundles go through all of them. */
unsigned gen_flags(gen_ctx *c, unsigned op);
/* The next VOP function of the OTPU_VFUNCS rows, in turn. */
unsigned gen_next_vfunc(gen_ctx *c);
/* An opcode of the OTPU_OPCODES rows the Config allows here (no LOOP, HALT, BAR, GATHER). */
unsigned gen_pick_op(gen_ctx *c);
/* Whether the Config enables op (DSTEP, STREAM) and its revision has it. */
int gen_op_allowed(const gen_ctx *c, unsigned op);
/* Whether the ISA accepts op with flags f, the revision has them and the Config has what they
 * need (MM PAIR: Config PAIR; PAIR and QACT DUP: two MXU columns at least). */
int gen_flags_usable(const gen_ctx *c, unsigned op, unsigned f);

/* n instructions chosen by pick (gen_pick_op when NULL), with LOOPs opened and closed at
 * random around them (address registers stepping by positive or negative strides). Loops
 * are closed at the end. */
void gen_body(gen_ctx *c, unsigned n, unsigned (*pick)(gen_ctx *c));

/* Loops opened down to GEN_MAX_DEPTH (1 or 2 iterations each, an instruction in each level),
 * n instructions in the innermost, all closed. */
void gen_nest(gen_ctx *c, unsigned n, unsigned (*pick)(gen_ctx *c));

#endif
