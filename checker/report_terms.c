/* report_terms.c - the divergence kinds' and memory spaces' names, and the ulp distance
 * (report_terms.h). */
#include "report_terms.h"

const char *otpu_div_kind_name(otpu_div_kind k)
{
    static const char *const names[OTPU_DIV_KINDS] = {
        "none", "wrong-value", "missing-write", "stray-write", "duplicate-write",
        "order-violation", "register-mismatch", "control-flow", "error-flag-mismatch",
        "hang", "end-state-mismatch", "host-step"};
    return (unsigned)k < OTPU_DIV_KINDS ? names[k] : "?";
}

const char *otpu_space_label(otpu_space s)
{
    static const char *const names[] = {"register", "TMEM", "DRAM", "ACT", "ASCALE"};
    return (unsigned)s <= OTPU_SP_ASCALE ? names[s] : "?";
}

/* fp32 bits onto a line where adjacent floats are adjacent integers */
static int64_t ordered(uint32_t b)
{
    return (b >> 31) ? -(int64_t)(b & 0x7FFFFFFF) : (int64_t)b;
}

uint64_t otpu_ulp_distance(uint32_t a, uint32_t b)
{
    int64_t d = ordered(a) - ordered(b);
    return (uint64_t)(d < 0 ? -d : d);
}
