/* error.h - a simulated error: what the reference raises as SimError.
 *
 * The library never exits or aborts: a failing instruction stops the machine with one of
 * these, naming the slice, pc, dynamic instruction number, the instruction and the address. */
#ifndef OTPU_ERROR_H
#define OTPU_ERROR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    OTPU_ERR_NONE,
    OTPU_ERR_DRAM_ADDR,  /* a DRAM word access misaligned or out of range */
    OTPU_ERR_TMEM_RANGE, /* a TMEM index out of range */
    OTPU_ERR_PAST_END,   /* the pc ran past the end of the program */
    OTPU_ERR_LOOP,       /* empty body, stack overflow, bodies ending together */
    OTPU_ERR_HAZARD,     /* VOP read-after-write inside one instruction */
    OTPU_ERR_BOUNDS,     /* an operand shape or range the unit cannot take */
    OTPU_ERR_ILLEGAL,    /* bad opcode, function, format, flag combination or descriptor */
    OTPU_ERR_COLLECTIVE, /* BAR/GATHER with a halted slice, or slices that disagree */
    OTPU_ERR_DEADLOCK,
    OTPU_ERR_STEP_LIMIT,
    OTPU_ERR_WAITW,      /* a WAITW that never holds (no host, or the host made no progress) */
    OTPU_ERR_CHAIN,      /* HALT CHAIN to a bad address or count */
    OTPU_ERR_NOMEM,      /* the simulator could not allocate memory */
    OTPU_ERR_RULE,       /* strict mode only: a rule of the ISA the reference leaves unchecked
                          * (machine.h, otpu_machine_set_strict) */
    OTPU_ERR_KINDS
} otpu_err_kind;

/* The rules of strict mode, whose breaking is an OTPU_ERR_RULE: a mask of them turns them on
 * (otpu_machine_set_strict, machine.h, says what each one checks). */
enum { OTPU_STRICT_GATHER = 1, OTPU_STRICT_QST = 2, OTPU_STRICT_ALL = 3 };

typedef struct otpu_error {
    otpu_err_kind kind;
    int slice;        /* -1: the machine as a whole */
    uint32_t pc;
    uint64_t n;       /* dynamic instruction number */
    int has_addr;
    uint64_t addr;    /* the offending address, where there is one */
    char msg[640];    /* "slice S: pc P (n N) DISASM: what went wrong" */
} otpu_error;

const char *otpu_err_kind_name(otpu_err_kind k);

/* The kind of a Python reference SimError message (the golden vectors' error= and E lines),
 * so a run can be checked against it by kind rather than wording. */
otpu_err_kind otpu_err_classify(const char *reference_message);

#ifdef __cplusplus
}
#endif
#endif
