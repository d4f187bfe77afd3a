/* revision.c - the ISA revisions, each as its differences from the current ISA (revision.h). */
#include "revision.h"

#include <stdio.h>
#include <string.h>

static const otpu_rev_desc revisions[OTPU_REV_COUNT] = {
    [OTPU_REV_CURRENT] = {
        .name = "current",
        .source = "openTPU isasim.py 6c4c6750, fp32.py 42cef8ba, docs/isa.md (WAITW, RLD MUL)",
        .fp = {.exp2 = otpu_f32_exp2, .recip = otpu_f32_recip, .rsqrt = otpu_f32_rsqrt,
               .log2 = otpu_f32_log2, .ftz = otpu_f32_ftz, .key = otpu_f32_key,
               .max = otpu_f32_max, .min = otpu_f32_min, .abs = otpu_f32_abs},
    },
    /* Facts from that snapshot's opentpu/isa.py, isasim.py and fp32.py
     * (../shared/opentpu/acf0c1c6.md). */
    [OTPU_REV_ACF0C1C6] = {
        .name = "acf0c1c6",
        .source = "openTPU's first public snapshot, commit acf0c1c6 (isa.py, isasim.py, fp32.py)",
        .lacks_op = OTPU_REV_ACF0C1C6_LACKS_OP,          /* isa.def's revision block */
        .lacks_vfunc = {[OTPU_V_OUTER] = 1, [OTPU_V_LOG2] = 1, [OTPU_V_RDOT] = 1,
                        [OTPU_V_ARGMAX] = 1},
        .lacks_flag = OTPU_REV_ACF0C1C6_LACKS_FLAG,
        .lacks_config = {"PAIR", "DSTEP", "STREAM", "ACT_ROWS"},
        .fp = {.exp2 = otpu_f32_exp2_taylor, .recip = otpu_f32_recip_newton3,
               .rsqrt = otpu_f32_rsqrt_newton3, .log2 = NULL, .ftz = otpu_f32_ftz_canon,
               .key = otpu_f32_key_canon, .max = otpu_f32_max_canon,
               .min = otpu_f32_min_canon, .abs = otpu_f32_abs_canon},
        .fp_nan_undefined = 1,
        .fp_no_mm_compare = 1,
        .no_run_args = 1,
    },
};

const otpu_rev_desc *otpu_rev_desc_of(otpu_revision r)
{
    return r >= 0 && r < OTPU_REV_COUNT ? &revisions[r] : NULL;
}

const char *otpu_rev_name(otpu_revision r)
{
    const otpu_rev_desc *d = otpu_rev_desc_of(r);
    return d ? d->name : "?";
}

int otpu_rev_from_name(const char *name, otpu_revision *r)
{
    for (int k = 0; k < OTPU_REV_COUNT; k++)
        if (!strcmp(name, revisions[k].name)) {
            *r = (otpu_revision)k;
            return 0;
        }
    return -1;
}

char *otpu_rev_names(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < OTPU_REV_COUNT && len < n; k++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", k ? ", " : "", revisions[k].name);
    return buf;
}

const char *otpu_rev_flag_lacking(otpu_revision r, unsigned op, unsigned flags)
{
    const otpu_rev_desc *d = otpu_rev_desc_of(r);
    for (const otpu_rev_flag *f = d ? d->lacks_flag : NULL;
         f && f < d->lacks_flag + OTPU_REV_MAX_FLAGS && f->mask; f++)
        if (f->op == op && (flags & f->mask))
            return f->name;
    return NULL;
}

int otpu_rev_lacks(otpu_revision r, const otpu_instr *in, const otpu_ops *o, char *why, size_t n)
{
    const otpu_rev_desc *d = otpu_rev_desc_of(r);
    unsigned op = in->op;
    if (!d)
        return 0;
    if (d->lacks_op[op]) { /* (only opcodes of the ISA are marked: an unknown one is its error) */
        snprintf(why, n, "opcode %s (%#04x)", otpu_op_name(op), op);
        return 1;
    }
    const char *flag = otpu_rev_flag_lacking(r, op, in->flags);
    if (flag) {
        snprintf(why, n, "%s flag %s", otpu_op_name(op), flag);
        return 1;
    }
    if (op == OTPU_OP_VOP) {
        unsigned func = o ? o->vop.func : otpu_operands(in, NULL).vop.func;
        if (d->lacks_vfunc[func & 0xFF]) {
            snprintf(why, n, "VOP function %s (%u)", otpu_vfunc_name(func), func);
            return 1;
        }
    }
    return 0;
}
