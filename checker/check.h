/* check.h - libotpucheck: the lockstep scoreboard (its events: rtl/EVENTS.md).
 *
 * The RTL side reports events; this side decides. A checker owns a C model of the bundle's
 * machine and steps it in program order as the RTL dispatches instructions, keeps each
 * in-flight instruction's expected writes (from the model's write log), and judges every
 * RTL write as it lands. Every call returns OTPU_CHECK_OK, or OTPU_CHECK_DIVERGED when this
 * event revealed a divergence (the first one is kept in full: otpu_check_first; with
 * keep_going the run goes on and later ones are counted), or OTPU_CHECK_BAD_CALL when the
 * call itself is malformed (an unknown slice or unit, a slot out of range): a bug in the
 * adapter, not in the design; otpu_check_message says what.
 *
 * How to use it (what dpi/ does for a Verilated RTL):
 *
 *     otpu_checker *c = otpu_checker_new(&bundle, &options, err, sizeof err);
 *     each cycle:       otpu_check_cycle(c, cycle);
 *     as events occur:  otpu_check_dispatch / _start / _write / _reg / _complete / _error;
 *     when a slice halts: otpu_check_halt(c, s, &rtl_state_of_slice_s);
 *     at the end:       otpu_check_end(c); then otpu_check_first(c), otpu_check_count(c).
 *
 * Nothing here depends on Verilator; tests drive it with synthetic event streams.
 */
#ifndef OTPU_CHECK_H
#define OTPU_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "bundle.h"
#include "machine.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { OTPU_CHECK_OK = 0, OTPU_CHECK_DIVERGED = 1, OTPU_CHECK_BAD_CALL = -1 };

typedef enum {
    OTPU_DIV_NONE,
    OTPU_DIV_VALUE,     /* a write of the right location with the wrong bits */
    OTPU_DIV_MISSING,   /* an instruction completed without an expected write */
    OTPU_DIV_STRAY,     /* a write no in-flight instruction of that unit makes */
    OTPU_DIV_DUPLICATE, /* a location written more often than the model writes it */
    OTPU_DIV_ORDER,     /* a write landed while an older conflicting instruction was in flight */
    OTPU_DIV_REGISTER,  /* a register write with the wrong value or register */
    OTPU_DIV_CONTROL,   /* the RTL dispatched another instruction than the model's next */
    OTPU_DIV_ERROR,     /* the RTL stopped with an error where the model does not, or the reverse */
    OTPU_DIV_HANG,      /* no event for the hang limit with instructions in flight (hang_cycles) */
    OTPU_DIV_END_STATE, /* the state at halt differs (the backstop) */
    OTPU_DIV_HOST,      /* a host step (host.txt) one side reached and the other did not, or
                         * where the two sides' DRAM reads differ */
    OTPU_DIV_KINDS
} otpu_div_kind;

const char *otpu_div_kind_name(otpu_div_kind k);

typedef struct {
    uint64_t n;        /* dynamic instruction number */
    uint32_t pc;
    char disasm[200];
} otpu_div_instr;

typedef struct {
    char what[24];     /* "dispatch", "start", "complete" */
    uint32_t slice, slot, unit;
    uint64_t cycle;
    otpu_div_instr ins;
} otpu_div_event;

typedef struct {
    otpu_space space;
    uint64_t lo, hi;   /* the input range */
    int found;         /* an earlier instruction wrote into it */
    otpu_div_instr writer;
} otpu_div_input;

enum { OTPU_DIV_HISTORY = 32, OTPU_DIV_INPUTS = 8, OTPU_DIV_INFLIGHT = 32, OTPU_DIV_FACTS = 80 };

/* One value that explains a divergence: "a = T[0x104]" "3f800000 (1)" (checker/REPORT.md). */
typedef struct {
    char name[64];
    char value[192];
} otpu_div_fact;

typedef struct {
    otpu_div_kind kind;
    uint32_t slice;
    uint64_t cycle;
    int has_ins;
    otpu_div_instr ins;        /* the failing instruction */
    uint32_t unit;
    unsigned loop_depth;       /* the LOOPs the failing instruction issued in (or, without
                                * one, the slice's when the divergence was found) */
    struct {
        uint32_t iteration, total, start, end;
    } loops[4];
    /* the location, where there is one */
    int has_loc;
    otpu_space space;
    uint64_t addr;
    int has_tile;              /* VOP/MM outputs: the tile row and column */
    uint32_t row, col;
    int has_expected, has_actual;
    uint32_t expected, actual, mask;
    uint64_t other_diffs;      /* other locations of the same instruction that differ */
    int has_other;             /* ORDER: the older conflicting instruction */
    otpu_div_instr other;
    char detail[320];          /* one sentence: what the design did and what was expected */
    int host_line;             /* HOST: the step's line in host.txt */
    int has_regs;              /* the registers the failing instruction issued with */
    uint32_t regs[16];
    uint32_t expected_mask;    /* DRAM: the bytes the model's write of the location has */
    /* the diverging element's operands and the model's steps from them, read from a replay of
     * the model up to the failing instruction (owned by the checker, or by the reader of a
     * stored report) */
    const otpu_div_fact *operands, *intermediates;
    size_t noperands, nintermediates;
    size_t nhistory;
    otpu_div_event history[OTPU_DIV_HISTORY]; /* oldest first */
    size_t ninputs;
    otpu_div_input inputs[OTPU_DIV_INPUTS];
    size_t ninflight;
    otpu_div_event inflight[OTPU_DIV_INFLIGHT]; /* HANG: the slots in flight */
} otpu_divergence;

typedef struct {
    int keep_going;           /* count every divergence instead of stopping at the first */
    uint64_t hang_cycles;     /* 0: 100000. A hang: no event (a dispatch, start, write,
                               * register write, completion, halt or error) for more than
                               * hang_cycles + 4 x the largest work estimate of the started
                               * instructions in flight (footprint.h), while one is in flight */
    int allow_duplicates;     /* the adapter's RTL may write a location twice with one value */
    uint32_t slots;           /* the RTL's window size (slot numbers must be below it); 0: 64 */
} otpu_check_options;

typedef struct otpu_checker otpu_checker;

/* b is borrowed: it must outlive the checker (the report's explanation replays it). */
otpu_checker *otpu_checker_new(const otpu_bundle *b, const otpu_check_options *o, char *err,
                               size_t errlen);
void otpu_checker_free(otpu_checker *c);

/* Time: call once per cycle (or whenever the cycle count moves). Detects hangs. */
int otpu_check_cycle(otpu_checker *c, uint64_t cycle);

/* The sequencer issued the instruction at pc (opcode op) into window slot. The checker steps
 * the model to it through the instructions the sequencer executes itself (NOP, LI, ADDI,
 * LOOP, RLD, HALT CHAIN), whose register writes then wait for otpu_check_reg. */
int otpu_check_dispatch(otpu_checker *c, uint32_t slice, uint32_t slot, uint32_t pc,
                        uint32_t op);
/* Unit began the instruction in slot. Units complete in the order they start. */
int otpu_check_start(otpu_checker *c, uint32_t slice, uint32_t unit, uint32_t slot);
/* A write landed: it belongs to the oldest started, uncompleted instruction of unit and
 * must be one of its expected writes with the same bits (mask: the DRAM bytes written;
 * 0xF elsewhere). It must not land while an older instruction that reads or writes that
 * location is still in flight. */
int otpu_check_write(otpu_checker *c, uint32_t slice, uint32_t unit, otpu_space space,
                     uint64_t addr, uint32_t data, uint32_t mask);
/* The sequencer wrote register r (LI, ADDI, RLD), in program order. */
int otpu_check_reg(otpu_checker *c, uint32_t slice, uint32_t r, uint32_t value);
/* Unit finished its oldest started instruction: every expected write must have landed. */
int otpu_check_complete(otpu_checker *c, uint32_t slice, uint32_t unit);
/* The RTL stopped slice with an error at pc: the model must fail at that instruction. */
int otpu_check_error(otpu_checker *c, uint32_t slice, uint32_t pc);

/* The RTL's state of one slice, for the end-state backstop. */
typedef struct {
    const uint32_t *tmem;     /* TMEM_WORDS */
    const uint8_t *dram;      /* dram_len bytes from address 0; the rest must be zero */
    uint64_t dram_len;
    const int8_t *act;        /* act_rows x ACT_BLOCKS x D, or NULL: not compared */
    const uint32_t *ascale;   /* act_rows x ACT_BLOCKS, or NULL */
    const uint32_t *R;        /* 16 registers, or NULL */
    uint32_t pc;
} otpu_rtl_state;

/* The RTL halted slice (rtl: its final state, or NULL to skip the comparison). The model
 * must halt there too, with nothing in flight; the states must be equal. */
int otpu_check_halt(otpu_checker *c, uint32_t slice, const otpu_rtl_state *rtl);
/* End of run: every slice must have halted or stopped on an expected error. */
int otpu_check_end(otpu_checker *c);
/* After the end, with host steps (host.txt): lets the model's host take the steps it can take
 * after the last instruction, then compares its records with the RTL side's executor (rtl):
 * the same steps reached, the same words read. */
int otpu_check_host(otpu_checker *c, const otpu_host *rtl);

const otpu_divergence *otpu_check_first(const otpu_checker *c); /* NULL: none */
uint64_t otpu_check_count(const otpu_checker *c);
const char *otpu_check_message(const otpu_checker *c); /* the last BAD_CALL's reason */
/* Counters for the verdict line. */
uint64_t otpu_check_instructions(const otpu_checker *c); /* the model's, in program order */
uint64_t otpu_check_retired(const otpu_checker *c);  /* unit instructions judged */
uint64_t otpu_check_writes(const otpu_checker *c);   /* RTL memory writes judged */
uint64_t otpu_check_regs(const otpu_checker *c);     /* RTL register writes judged */
const otpu_machine *otpu_check_model(const otpu_checker *c);

#ifdef __cplusplus
}
#endif
#endif
