/* scoreboard.h - the lockstep checker's state and the pieces its files share (internal to
 * libotpucheck; the contract is check.h). In layers, each calling only those below it
 * (checker/meson.build): scoreboard.c holds the model's side and the helpers the others share;
 * explain.c and divergence.c fill the record of the first divergence; check_order.c judges the
 * order of conflicting instructions, check_writes.c writes and register writes, check_events.c
 * the instruction events (dispatch, start, complete, error, time), check_state.c the halt and
 * the end of the run, check_host.c the host's steps. */
#ifndef OTPU_SCOREBOARD_H
#define OTPU_SCOREBOARD_H

#include "check.h"
#include "expect.h"
#include "footprint.h"

#define HISTORY 32
#define PRODUCERS 4096 /* retired model instructions remembered for "who wrote this input" */

enum { POLL_SLACK = 1024 }; /* model polls allowed past the RTL's cycle count */

/* One windowed instruction (a unit's), from the model's issue to the RTL's completion. */
typedef struct rec {
    uint64_t n, seq;          /* dynamic number; dispatch order within the slice */
    uint32_t pc, slot, unit;
    otpu_instr ins;
    otpu_ops ops;             /* its operands, with the registers it issued with */
    uint32_t R[16];           /* those registers */
    unsigned loop_depth;      /* the LOOPs it issued in (otpu_slice_view's, outermost first) */
    struct {
        uint32_t start, end, iteration, total;
    } loops[4];
    otpu_range fp[OTPU_FOOTPRINT_MAX];
    size_t nfp;
    uint64_t work;            /* otpu_footprint_work's estimate: its time before a hang */
    int retired;              /* the model has finished it: exp holds its writes */
    int faulted;              /* the model raised its error here */
    int dispatched, started;
    otpu_expect exp;
    uint64_t diffs;           /* locations that diverged (keep-going count) */
    int early;                /* it started while `early_by` (older, writing an input) ran */
    otpu_div_instr early_by;
    struct rec *next;         /* the slice's queue, program order */
} rec;

typedef struct {
    uint32_t r, v;
    uint64_t n;
    uint32_t pc;
} regw;

typedef struct {
    rec *head, *tail;         /* issued by the model, not yet completed by the RTL */
    rec **slot;               /* dispatched, by slot */
    rec **fifo[OTPU_UNIT_COUNT]; /* started, per unit, in start order (ring) */
    uint32_t fhead[OTPU_UNIT_COUNT], flen[OTPU_UNIT_COUNT];
    regw *regq;               /* register writes the model made, awaiting the RTL's */
    uint32_t rhead, rlen;
    uint64_t seq;
    int reg_overflow;         /* the model ran more than REGQ register writes ahead */
    int rtl_halted, rtl_error;
    int model_error;          /* the model stopped this slice with an error (its own: the
                               * model runs in slice-errors mode, machine.h, as the RTL's
                               * slices fail one by one), at model_error_pc */
    uint32_t model_error_pc;
    uint32_t rtl_R[16];       /* the RTL's registers as its register writes left them */
    int has_last;             /* the last instruction both sides dispatched (control flow) */
    uint32_t last_pc;
    uint64_t last_n;
    otpu_instr last_ins;
} slice_state;

typedef struct {
    uint32_t slice, pc;
    uint64_t n;
    otpu_instr ins;           /* disassembled only when a report names it */
    otpu_range w[OTPU_FOOTPRINT_MAX];
    uint8_t nw;
} producer;

/* One entry of the ring of recent events; disassembled only when a report takes it. */
typedef struct {
    const char *what; /* "dispatch", "start", "complete", "halt" */
    uint32_t slice, slot, unit;
    uint64_t cycle;
    int has_ins;
    uint64_t n;
    uint32_t pc;
    otpu_instr ins;
} event;

struct otpu_checker {
    otpu_check_options o;
    otpu_machine *m;
    const otpu_config *cfg;
    slice_state *sl;
    uint64_t cycle, last_progress, count, retired, writes, regs;
    uint64_t model_polls;          /* the model's rounds of WAITW polls, at most the RTL's cycles
                                    * + POLL_SLACK (ck_model_step) */
    uint64_t allowance, allowance_for; /* hang_allowance, computed at last_progress */
    otpu_divergence first;
    int have_first;
    char message[256];
    event hist[HISTORY];
    uint64_t nhist;
    producer *prod;
    uint64_t nprod;
    const otpu_bundle *bundle; /* (borrowed) for the replay that explains a divergence */
    otpu_div_fact *facts;      /* the first divergence's operands and intermediates */
};

enum { REGQ = 4096 };

/* scoreboard.c */
int ck_bad_call(otpu_checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ck_check_slice(otpu_checker *c, uint32_t s);
int ck_windowed(unsigned op);
int ck_model_step(otpu_checker *c, uint32_t s);
int ck_model_next(otpu_checker *c, uint32_t s, rec **out);
const char *ck_model_error(const otpu_checker *c, uint32_t s);
rec *ck_unit_head(slice_state *ss, uint32_t unit);
void ck_ensure_retired(otpu_checker *c, uint32_t s, rec *r);
/* explain.c: fills d's operands and intermediates at its location; 0, or -1 (none) */
int ck_explain(otpu_checker *c, uint32_t s, const rec *r, otpu_divergence *d);
/* explain.c: the operands of the sequencer's instruction that made register write w, as the
 * model formed them (its registers before it) and as the RTL did (rtl_R); 0, or -1 (none) */
int ck_explain_register(otpu_checker *c, uint32_t s, const regw *w, const uint32_t rtl_R[16],
                        otpu_divergence *d);
/* explain.c: where the two sides' paths split, for a control-flow divergence at slice s: the
 * RTL went to rtl_pc (UINT32_MAX: it halted), the model to model_pc (UINT32_MAX: halted) */
void ck_explain_split(otpu_checker *c, uint32_t s, uint32_t rtl_pc, uint32_t model_pc,
                      otpu_divergence *d);
/* divergence.c */
/* Where a stray write of r's unit landed against r's own writes in that space: "past the end
 * of its TMEM range [lo, hi) by 3 words", "before its start by ...", "inside its range, in a
 * gap it does not write (row 2, column 70 of 64)" or "it writes no TMEM at all". */
void ck_stray_place(const rec *r, otpu_space space, uint64_t addr, char *out, size_t n);
void ck_describe(const rec *r, otpu_div_instr *d);
void ck_remember(otpu_checker *c, const char *what, uint32_t s, uint32_t slot, uint32_t unit,
                 const rec *r);
otpu_divergence *ck_at_location(otpu_divergence *d, otpu_space space, uint64_t addr);
otpu_divergence *ck_written(otpu_divergence *d, otpu_space space, uint64_t addr, uint32_t data,
                            uint32_t mask);
/* Records a divergence (the first in full); returns OTPU_CHECK_DIVERGED. */
int ck_diverge(otpu_checker *c, otpu_div_kind kind, uint32_t s, const rec *r,
               otpu_divergence *d, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* check_order.c (the other checks call it) */
void ck_note_early_start(slice_state *ss, rec *r);
int ck_order_violation(otpu_checker *c, uint32_t s, const rec *r, otpu_space space,
                       uint64_t addr, uint32_t data, uint32_t mask);

#endif
