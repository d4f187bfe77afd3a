/* error.c - error kinds and the mapping of the reference's messages onto them. */
#include "error.h"

#include <string.h>

const char *otpu_err_kind_name(otpu_err_kind k)
{
    static const char *const names[OTPU_ERR_KINDS] = {
        "none", "dram-address", "tmem-range", "past-end", "loop-rule", "hazard", "bounds",
        "illegal", "collective", "deadlock", "step-limit", "waitw-timeout", "chain", "no-memory",
        "isa-rule"};
    return (unsigned)k < OTPU_ERR_KINDS ? names[k] : "?";
}

/* Phrases of opentpu/isasim.py's SimError messages, most specific first. */
static const struct {
    const char *phrase;
    otpu_err_kind kind;
} phrases[] = {
    {"bad DRAM word address", OTPU_ERR_DRAM_ADDR},
    {"TMEM index out of range", OTPU_ERR_TMEM_RANGE},
    {"past end of program", OTPU_ERR_PAST_END},
    {"LOOP with empty body", OTPU_ERR_LOOP},
    {"loop stack overflow", OTPU_ERR_LOOP},
    {"nested loop bodies", OTPU_ERR_LOOP},
    {"hazard", OTPU_ERR_HAZARD},
    {"HALT CHAIN", OTPU_ERR_CHAIN},
    {"collective", OTPU_ERR_COLLECTIVE},
    {"disagree", OTPU_ERR_COLLECTIVE},
    {"deadlock", OTPU_ERR_DEADLOCK},
    {"step limit", OTPU_ERR_STEP_LIMIT},
    {"WAITW", OTPU_ERR_WAITW},
    {"bad opcode", OTPU_ERR_ILLEGAL},
    {"bad weight format", OTPU_ERR_ILLEGAL},
    {"bad func", OTPU_ERR_ILLEGAL},
    {"bad scalar op", OTPU_ERR_ILLEGAL},
    {"bad B source", OTPU_ERR_ILLEGAL},
    {"needs", OTPU_ERR_ILLEGAL},        /* HALF needs ROW, ASCALE needs UNIT and ACC, ... */
    {"must be ROW", OTPU_ERR_ILLEGAL},  /* VOP OUTER bmode */
    {"either Q's dot or a register", OTPU_ERR_ILLEGAL},
    {"descriptor", OTPU_ERR_ILLEGAL},
    {"float-safe", OTPU_ERR_ILLEGAL},
    {"STREAM: ", OTPU_ERR_BOUNDS},      /* rows/cols zero, slot index, chunk alignment */
    {"out of bounds", OTPU_ERR_BOUNDS},
    {"out of range", OTPU_ERR_BOUNDS},
    {"DSTEP", OTPU_ERR_BOUNDS},
    {"aligned", OTPU_ERR_BOUNDS},
    {"multiples of", OTPU_ERR_BOUNDS},  /* MM PAIR scale words */
    {"bounds", OTPU_ERR_BOUNDS},
};

otpu_err_kind otpu_err_classify(const char *m)
{
    /* "MM: PAIR needs ..." and "RMAX and ASCALE need M <= MCOLS" are shape limits */
    if (strstr(m, "M <= MCOLS") || strstr(m, "2*M <= MCOLS"))
        return OTPU_ERR_BOUNDS;
    for (size_t i = 0; i < sizeof phrases / sizeof phrases[0]; i++)
        if (strstr(m, phrases[i].phrase))
            return phrases[i].kind;
    return OTPU_ERR_NONE;
}
