/* machine.h - libotpusim's public API: an openTPU machine of S slices, bit-exact with the
 * reference ISA simulator (opentpu/isasim.py).
 *
 * How to use it:
 *
 *     otpu_config cfg = otpu_config_default();      // or a bundle's case.txt (bundle.h)
 *     otpu_error err;
 *     otpu_machine *m = otpu_machine_new(&cfg, &err);        // NULL: err.msg says why
 *     otpu_machine_load_program(m, 0, words, nwords, &err);  // 8 words per instruction
 *     otpu_machine_load_dram(m, 0, 0, image, len, &err);
 *     otpu_machine_set_args(m, args);                // R8..R15 at the start (optional)
 *     if (otpu_machine_run(m, 10000000) != 0)        // 0: every slice halted
 *         puts(otpu_machine_error(m)->msg);          // the simulated error
 *     otpu_machine_free(m);
 *
 * Slices run in turn, each until it halts or blocks (the reference's order): a BAR or GATHER
 * completes when every live slice waits at one; a WAITW polls its word, and when every
 * slice that can run is blocked the host hook is called (the host writes DRAM), then the
 * WAITWs poll again; one that still does not hold when the host has nothing more to do is a
 * timeout error. HALT with CHAIN loads the next program from the slice's DRAM and goes on. A
 * run bundle's host.txt (host.h) is played through the same hook (otpu_bundle_machine attaches
 * it); it may also run a halted slice again.
 *
 * Attach a listener (log.h) to receive every instruction's writes. Errors never exit or
 * abort: the run stops and otpu_machine_error() names the slice, pc, instruction, address. */
#ifndef OTPU_MACHINE_H
#define OTPU_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "error.h"
#include "host.h"
#include "isa.h"
#include "log.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct otpu_machine otpu_machine;

/* Read-only view of one slice's state. */
typedef struct {
    const uint8_t *dram;      /* DRAM_BYTES */
    const uint32_t *tmem;     /* TMEM_WORDS */
    const int8_t *act;        /* act_rows x (ACT_BLOCKS * D) */
    const uint32_t *ascale;   /* act_rows x ACT_BLOCKS */
    const uint32_t *R;        /* 16 registers */
    uint32_t pc;
    uint64_t icount;
    uint64_t stalls;          /* WAITW polls that did not hold */
    int halted;
    int failed;               /* stopped with an error (slice-errors mode) */
    const otpu_instr *prog;
    uint32_t nprog;
    unsigned loop_depth;      /* open LOOPs, outermost first: */
    struct {
        uint32_t start, end, iteration, total; /* iteration counts from 0 */
    } loops[4];
} otpu_slice_view;

/* The host: called when every slice that can run waits and a WAITW polls (and, with a
 * host script, when every slice halted). It returns 1 to be called again after the WAITWs
 * polled once more (it has more to do), 0 when it can do nothing more now: a WAITW that then
 * still does not hold is the timeout. */
typedef int (*otpu_host_fn)(otpu_machine *m, void *user);

/* NULL with err for a bad Config, a bad $OTPU_DOT_PATH (dot.h) or no memory. */
otpu_machine *otpu_machine_new(const otpu_config *cfg, otpu_error *err);
void otpu_machine_free(otpu_machine *m);
const otpu_config *otpu_machine_config(const otpu_machine *m);

/* Load slice s's program (nwords, a multiple of 8, at most IMEM_WORDS) and restart it. */
int otpu_machine_load_program(otpu_machine *m, uint32_t s, const uint32_t *words, size_t nwords,
                              otpu_error *err);
/* Copy bytes into slice s's DRAM at a byte address (a host write: not logged). */
int otpu_machine_load_dram(otpu_machine *m, uint32_t s, uint64_t addr, const void *data,
                           size_t len, otpu_error *err);
/* Read len bytes of the file open at fd, from its offset 0 (pread: the file offset is left
 * alone), straight into slice s's DRAM at a byte address: a DRAM image with one copy and no
 * buffer in between. 0, or -1 with err (a read error, or a file shorter than len; the range
 * then holds part of the file). */
int otpu_machine_read_dram(otpu_machine *m, uint32_t s, uint64_t addr, int fd, size_t len,
                           otpu_error *err);
/* The run's arguments R8..R15 (taken by every slice now and at each HALT CHAIN). */
void otpu_machine_set_args(otpu_machine *m, const uint32_t args[8]);
void otpu_machine_set_listener(otpu_machine *m, const otpu_listener *l); /* NULL: none */
void otpu_machine_set_host(otpu_machine *m, otpu_host_fn fn, void *user);
/* The host of a run bundle's host.txt (host.h; script borrowed, it must outlive m): its steps
 * run through the host hook; slices start their runs with args. 0, or -1 out of memory. */
int otpu_machine_set_host_script(otpu_machine *m, const otpu_host_script *script,
                                 const uint32_t args[8]);
const otpu_host *otpu_machine_host(const otpu_machine *m); /* NULL without a script */

/* Strict mode (off by default, as the reference): also raise an OTPU_ERR_RULE for what the
 * ISA forbids but opentpu/isasim.py does not check (rules: a mask of these, named in error.h
 * beside OTPU_ERR_RULE, OTPU_STRICT_ALL both):
 *   OTPU_STRICT_GATHER  a GATHER source word its own destination writes (isasim reads every
 *                       source first; an RTL that copies in place differs);
 *   OTPU_STRICT_QST     a QST data byte inside its own scale words (isasim writes every byte,
 *                       then the scales; the reference RTL does the same).
 * The generator runs its programs with both, so that it never writes one; otpu-lockstep
 * refuses a program that breaks the GATHER rule (no RTL copying in place can agree). */
void otpu_machine_set_strict(otpu_machine *m, unsigned rules);

/* Slice errors (off by default): an error stops its own slice only, and the others run on, as
 * the RTL's slices do (a lockstep checker judges every slice to its end). A BAR or GATHER that
 * every live slice waits at while another slice stopped, or one the slices disagree on, then
 * fails on every slice waiting at it. otpu_machine_error is the first error raised; each
 * slice's own is otpu_machine_slice_error. otpu_machine_run then runs every slice to its end
 * and returns -1 when any slice failed. The reference (and otpu_machine_run's default)
 * stops the whole machine at the first error. */
void otpu_machine_set_slice_errors(otpu_machine *m, int on);
/* Slice s's error in slice-errors mode (NULL: that slice did not fail). */
const otpu_error *otpu_machine_slice_error(const otpu_machine *m, uint32_t s);

/* A simulated error stops the machine for good (slice-errors mode: its slice): every later
 * run, step or settle returns -1 and changes nothing, and otpu_machine_error keeps the error.
 * (A step limit is not an error of the program: a later call may run on.) otpu_machine_clear_error
 * forgets it, for a host that loads new programs after it (the reference's Machine.load after a
 * SimError): a slice stopped by its own error counts as halted then. */
void otpu_machine_clear_error(otpu_machine *m);

/* Run until every slice halts (0) or an error (-1). max_steps 0: no limit; otherwise more
 * than max_steps executed instructions is the reference's "step limit exceeded" (a round of
 * WAITW polls counts as one: otpu_machine_settle_counted). */
int otpu_machine_run(otpu_machine *m, uint64_t max_steps);
/* The same run in pieces (for progress output): after about `budget` more instructions it
 * returns 1 with work left; call again to go on. max_steps counts from the machine's start. */
int otpu_machine_run_some(otpu_machine *m, uint64_t max_steps, uint64_t budget);
uint64_t otpu_machine_steps(const otpu_machine *m);   /* instructions executed (and rounds of
                                                       * WAITW polls) so far */
const otpu_error *otpu_machine_error(const otpu_machine *m);

/* Stepping one slice at a time (what a lockstep checker does). otpu_machine_step executes
 * slice s's next instruction: 0 done (it retired, halted, or now waits at a BAR/GATHER or
 * polls a WAITW: it retires when that completes), -1 error, 1 the slice cannot run (halted
 * or blocked). otpu_machine_settle, when no slice can run: completes the collective every
 * live slice waits at, or asks the host and polls the WAITWs; 1 progressed, 0 nothing to do
 * (a slice can still run, or every slice halted), -1 error (deadlock, WAITW timeout, ...). */
int otpu_machine_step(otpu_machine *m, uint32_t s);
int otpu_machine_settle(otpu_machine *m);
/* otpu_machine_settle for a loop that counts steps: a round of WAITW polls is a step too (the
 * WAITW read again), so that a host's `polls` cannot go on past a step limit: *steps grows by
 * the rounds polled; more than max_steps (0: none) is the step-limit error (-1), raised on the
 * polling slice. Otherwise settle's result. */
int otpu_machine_settle_counted(otpu_machine *m, uint64_t *steps, uint64_t max_steps);

uint32_t otpu_machine_slices(const otpu_machine *m);
otpu_slice_view otpu_machine_view(const otpu_machine *m, uint32_t s);
uint64_t otpu_machine_chains(const otpu_machine *m); /* HALT CHAIN reloads so far */

/* ---- The host's access to a slice's state, and finer running (machine_access.c).
 *
 * Spaces are protocol.h's otpu_space, each with its unit:
 *   OTPU_SP_REG     R0..R15, 32-bit words (R0 reads 0; writing it changes nothing);
 *   OTPU_SP_TMEM    TMEM words (32 bits);
 *   OTPU_SP_DRAM    DRAM bytes;
 *   OTPU_SP_ACT     ACT RAM int8s, at row * ACT_BLOCKS * D + column;
 *   OTPU_SP_ASCALE  ACT scales (fp32 bits, 32-bit words), at row * ACT_BLOCKS + block.
 * addr and count are in units of the space; buf holds count units, little endian. Reads and
 * writes are the host's: no instruction runs and nothing is logged. 0, or -1 with err naming the
 * slice, the space and the range at fault (no such slice or space, a range past the end). */
uint64_t otpu_machine_space_units(const otpu_machine *m, otpu_space sp); /* 0: no such space */
unsigned otpu_machine_space_unit_bytes(otpu_space sp);                  /* 0: no such space */
int otpu_machine_read(const otpu_machine *m, uint32_t s, otpu_space sp, uint64_t addr,
                      uint64_t count, void *buf, otpu_error *err);
int otpu_machine_write(otpu_machine *m, uint32_t s, otpu_space sp, uint64_t addr,
                       uint64_t count, const void *buf, otpu_error *err);
/* Slice s's memory of space sp itself (TMEM, DRAM, ACT or ASCALE; NULL for REG and bad
 * arguments), otpu_machine_space_units units long, for a binding that maps it (numpy): writing
 * through it is a host write. Valid until the machine is freed or its DRAM image is loaded
 * again; take it anew rather than keeping it. */
void *otpu_machine_memory(otpu_machine *m, uint32_t s, otpu_space sp);

/* Run as otpu_machine_run does until slice s is about to execute the instruction at pc: 0,
 * with that instruction not executed. A slice that is there when called executes it first
 * (calling again stops at its next arrival: a loop's next iteration). 1: every slice halted
 * without that; -1: an error (otpu_machine_error), also more than max_steps instructions
 * executed by this call (0: no limit) and a slice s the machine does not have. */
int otpu_machine_run_to(otpu_machine *m, uint32_t s, uint32_t pc, uint64_t max_steps);
/* One step in otpu_machine_run's order: the first slice that can run executes one instruction
 * (*slice: which), or, when none can, the machine settles (*slice = -1: a collective completes,
 * the host acts, the WAITWs poll). 0 done, 1 every slice halted (nothing ran), -1 error. */
int otpu_machine_step_next(otpu_machine *m, int *slice);

#ifdef __cplusplus
}
#endif
#endif
