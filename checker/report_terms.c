/* report_terms.c - memory space names and the ulp distance (report_terms.h). */
#include "report_terms.h"

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
