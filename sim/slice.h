/* slice.h - one slice's architectural state and the primitives instruction bodies use (the
 * sequencer that runs them: sequencer.h).
 *
 * Internal to libotpusim (the public API is machine.h). Every write to TMEM, DRAM, ACT RAM
 * and registers goes through the *_put primitives below, which fill the write log when a
 * listener is attached: no instruction body can forget one. */
#ifndef OTPU_SLICE_H
#define OTPU_SLICE_H

#include <stdint.h>
#include <string.h>

#include "config.h"
#include "error.h"
#include "fp32.h"
#include "isa.h"
#include "log.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libotpusim assumes a little-endian host (DRAM words are little endian)"
#endif

typedef struct {
    uint32_t start, end, count; /* count: iterations left, this one included */
    uint32_t total;             /* the loop's iteration count */
} otpu_loop;

/* One TMEM word's entry in the VOP hazard scoreboard (otpu_stamp_begin). */
typedef struct {
    uint32_t stamp, pos;
} otpu_hz;

typedef struct otpu_slice {
    const otpu_config *cfg;
    const otpu_f32_fns *fp; /* the fp32 composites of the config's ISA revision */
    int rev_lacks;          /* that revision lacks part of the ISA (the current one lacks
                             * nothing): each instruction is checked before it runs */
    unsigned strict;        /* otpu_machine_set_strict: the rules the reference leaves unchecked */
    uint32_t sid;
    /* program */
    otpu_instr *prog;
    otpu_ops *ops;      /* each instruction's operands, decoded at load (resolved to run) */
    uint32_t nprog, prog_cap;
    /* memories */
    uint8_t *dram;      /* DRAM_BYTES, mapped lazily: untouched pages cost nothing */
    uint32_t *tmem;
    int8_t *act;        /* act_rows x (ACT_BLOCKS * D) */
    uint32_t *ascale;   /* act_rows x ACT_BLOCKS fp32 bits */
    uint32_t act_row;   /* ACT_BLOCKS * D */
    /* sequencer */
    uint32_t R[16];
    uint32_t args[8];   /* R8..R15 of each run (HALT CHAIN, a host's run) */
    uint32_t pc;
    otpu_loop stack[4];
    unsigned depth;
    uint64_t icount;
    uint64_t cur_n;     /* dynamic number of the instruction in flight */
    uint32_t cur_pc;    /* and its pc */
    uint64_t stalls;    /* WAITW polls that did not hold */
    int halted;
    int failed;         /* stopped with an error (otpu_machine_set_slice_errors) */
    int waiting;        /* at a BAR or GATHER: the machine completes it */
    int polling;        /* at a WAITW whose word does not hold yet */
    int chain;          /* halted by HALT CHAIN, to reload */
    uint32_t chain_addr, chain_count;
    /* the write log of the instruction in flight */
    int log_on;
    otpu_write *log;
    size_t nlog, log_cap;
    int log_oom;
    /* scratch (grown on demand, never per instruction in steady state) */
    uint32_t *scratch;
    size_t scratch_cap;
    otpu_hz *hz;          /* VOP hazard check, TMEM_WORDS of them */
    uint32_t hz_gen;
    otpu_error *err;    /* the machine's error slot */
    char why[320];      /* the reason of this slice's last error (err->msg's tail) */
} otpu_slice;

/* The machine's slice s (NULL past the last) and its error slot: for the library's files that
 * work on a machine's slices from outside machine.c (machine_access.c). */
struct otpu_machine;
otpu_slice *otpu_machine_slice(struct otpu_machine *m, uint32_t s);
otpu_error *otpu_machine_error_slot(struct otpu_machine *m);
int otpu_machine_stopped(const struct otpu_machine *m); /* a sticky error stopped it */

int otpu_slice_init(otpu_slice *s, const otpu_config *cfg, uint32_t sid, otpu_error *err);
void otpu_slice_free(otpu_slice *s);
/* Start a program (pc 0, R0..R7 = 0, R8..R15 = args, loops cleared); memories are kept. */
void otpu_slice_restart(otpu_slice *s, const uint32_t args[8]);

/* Raise an error for the instruction at pc. Always returns -1. */
int otpu_fail(otpu_slice *s, otpu_err_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int otpu_fail_at(otpu_slice *s, otpu_err_kind kind, uint64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Scratch words for an instruction's temporaries; NULL (and the error raised) if out of
 * memory. The buffer is reused by the next call. */
uint32_t *otpu_scratch(otpu_slice *s, size_t words);

/* Start a new generation of the TMEM stamp scoreboard (hz[x].stamp == hz_gen marks word x in
 * the current pass; hz[x].pos holds what the pass records for it). 0, or -1 raised. */
int otpu_stamp_begin(otpu_slice *s);

void otpu_log_push(otpu_slice *s, otpu_space sp, uint64_t addr, uint32_t old, uint32_t val,
                   uint8_t mask);

/* Neither halted nor stopped with its own error; runnable: live and not blocked (at a BAR or
 * GATHER, or polling a WAITW). */
static inline int otpu_slice_live(const otpu_slice *s)
{
    return !s->halted && !s->failed;
}

static inline int otpu_slice_runnable(const otpu_slice *s)
{
    return otpu_slice_live(s) && !s->waiting && !s->polling;
}

/* ---- register / memory primitives */

static inline uint32_t otpu_reg(const otpu_slice *s, unsigned r)
{
    return r ? s->R[r] : 0;
}

static inline void otpu_reg_put(otpu_slice *s, unsigned r, uint32_t v)
{
    if (!r)
        return;
    if (s->log_on)
        otpu_log_push(s, OTPU_SP_REG, r, s->R[r], v, 0xF);
    s->R[r] = v;
}

static inline void otpu_tmem_put(otpu_slice *s, uint64_t a, uint32_t v)
{
    if (s->log_on)
        otpu_log_push(s, OTPU_SP_TMEM, a, s->tmem[a], v, 0xF);
    s->tmem[a] = v;
}

static inline uint32_t otpu_m32(const otpu_slice *s, uint64_t byteaddr)
{
    uint32_t v;
    memcpy(&v, s->dram + byteaddr, 4);
    return v;
}

static inline void otpu_m32_put(otpu_slice *s, uint64_t byteaddr, uint32_t v)
{
    if (s->log_on)
        otpu_log_push(s, OTPU_SP_DRAM, byteaddr, otpu_m32(s, byteaddr), v, 0xF);
    memcpy(s->dram + byteaddr, &v, 4);
}

static inline void otpu_m8_put(otpu_slice *s, uint64_t byteaddr, uint8_t v)
{
    if (s->log_on) {
        uint64_t wa = byteaddr & ~(uint64_t)3;
        uint32_t old = otpu_m32(s, wa), sh = (uint32_t)(byteaddr & 3) * 8;
        uint32_t val = (old & ~(0xFFu << sh)) | (uint32_t)v << sh;
        otpu_log_push(s, OTPU_SP_DRAM, wa, old, val, (uint8_t)(1u << (byteaddr & 3)));
    }
    s->dram[byteaddr] = v;
}

static inline void otpu_act_put(otpu_slice *s, uint32_t row, uint64_t col, int8_t v)
{
    uint64_t a = (uint64_t)row * s->act_row + col;
    if (s->log_on)
        otpu_log_push(s, OTPU_SP_ACT, a, (uint8_t)s->act[a], (uint8_t)v, 1);
    s->act[a] = v;
}

static inline void otpu_ascale_put(otpu_slice *s, uint32_t row, uint32_t block, uint32_t v)
{
    uint64_t a = (uint64_t)row * s->cfg->ACT_BLOCKS + block;
    if (s->log_on)
        otpu_log_push(s, OTPU_SP_ASCALE, a, s->ascale[a], v, 0xF);
    s->ascale[a] = v;
}

/* ---- bounds checks (the reference's _tidx and _widx), on affine index sets
 * base + r*rs + c*cs for r < rows, c < cols (all terms non-negative). 0 ok, -1 raised. */
int otpu_bounds_tmem(otpu_slice *s, uint64_t base, uint64_t rows, uint64_t rs, uint64_t cols,
                     uint64_t cs);
int otpu_bounds_dram_words(otpu_slice *s, uint64_t base, uint64_t rows, uint64_t rs,
                           uint64_t cols, uint64_t cs);

/* ---- instruction bodies: otpu_exec_<name> for every row of OTPU_OPCODES (isa.h), in the
 * exec_*.c file of its unit (the sequencer's and the collectives' waits in sequencer.c, which
 * dispatches to them all: a body never calls the sequencer). o holds
 * the operands decoded with the slice's registers. 0: done, the sequencer moves past it;
 * OTPU_EXEC_HELD: the body moved the pc itself or the slice now waits (LOOP, HALT, BAR,
 * GATHER, a WAITW that polls); -1: error raised. */
enum { OTPU_EXEC_HELD = 1 };
typedef int otpu_exec_fn(otpu_slice *s, const otpu_instr *in, const otpu_ops *o);
#define X(NAME, name, code, unit, format) otpu_exec_fn otpu_exec_##name;
OTPU_OPCODES(X)
#undef X

#endif
