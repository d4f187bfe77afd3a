/* signature.c - a divergence's bucket (signature.h): the facts that name a cause, with the
 * facts that name one occurrence (addresses, seeds, values, columns, cycles) left out. */
#include "signature.h"

#include <stdio.h>
#include <string.h>

#include "report_terms.h"

/* The instruction of a disassembly: its first word ("MM", "QST", ...), and for a VOP its
 * function too ("VOP.abs"): VOP's functions are different instructions of different units of
 * the VPU, and an RTL's known difference is often one function's; "-" for none. */
static void opcode_of(const otpu_div_instr *i, int has, char *out, size_t n)
{
    const char *s = has ? i->disasm : "";
    size_t len = strcspn(s, " ");
    int vop = len == 3 && !strncmp(s, "VOP", 3) && s[3] == ' ';
    if (vop)
        len += 1 + strcspn(s + 4, " ");
    if (!len || len >= n)
        len = 0;
    memcpy(out, s, len);
    out[len] = 0;
    if (vop && len)
        out[3] = '.';
    if (!len)
        snprintf(out, n, "-");
}

static const char *space_of(const otpu_divergence *d)
{
    return d->has_loc ? otpu_space_label(d->space) : "-";
}

/* The shape of a wrong value, in classes that one cause keeps from occurrence to occurrence. */
static const char *value_shape(const otpu_divergence *d, const char **words)
{
    uint32_t e = d->expected, a = d->actual;
    int bytes = d->space == OTPU_SP_DRAM && ((d->mask && d->mask != 0xF) ||
                                             (d->expected_mask && d->expected_mask != 0xF));
    if (!d->has_expected || !d->has_actual)
        return *words = "", "-";
    if (bytes) {
        if ((d->expected_mask ? d->expected_mask : 0xF) != (d->mask ? d->mask : 0xF))
            return *words = "other bytes of the word written", "byte-mask";
        return *words = "wrong byte values", "bytes";
    }
    /* An MM's result is a sum of many products: one cause (a sign-extension, a narrowed
     * accumulator) shows as any difference, sometimes +inf against -inf or one ulp, so the
     * MXU's TMEM results, like ACT bytes and registers, have one shape. */
    if (d->space == OTPU_SP_REG || d->space == OTPU_SP_ACT ||
        (d->has_ins && d->unit == OTPU_UNIT_MXU))
        return *words = "a wrong value", "value";
    if (!((e | a) & 0x7FFFFFFFu))
        return *words = "the sign of a zero", "zero-sign";
    if ((e ^ a) == 0x80000000u)
        return *words = "the sign", "sign";
    if (otpu_ulp_distance(e, a) == 1 && ((e ^ a) >> 31) == 0)
        return *words = "off by one ulp", "1-ulp";
    return *words = "a wrong value", "value";
}

void otpu_div_signature(const otpu_divergence *d, otpu_signature *sig)
{
    char op[32], older[32];
    opcode_of(&d->ins, d->has_ins, op, sizeof op);
    opcode_of(&d->other, d->has_other, older, sizeof older);
    const char *kind = otpu_div_kind_name(d->kind);
    const char *unit = d->has_ins ? otpu_unit_name((otpu_unit)d->unit) : "-";
    const char *space = space_of(d), *shape = "-", *shape_words = "";
    switch (d->kind) {
    case OTPU_DIV_VALUE:
        shape = value_shape(d, &shape_words);
        break;
    case OTPU_DIV_ORDER: /* the cause is the older instruction's range, not its reader */
        snprintf(op, sizeof op, "%s", older);
        unit = "-";
        break;
    case OTPU_DIV_ERROR:
        shape = strstr(d->detail, "the RTL stopped") ? "rtl-error" : "model-error";
        shape_words = shape[0] == 'r' ? "the RTL stopped with an error the model does not raise"
                                      : "the model stops with an error the RTL does not raise";
        break;
    case OTPU_DIV_HANG:
        if (d->ninflight) /* the oldest instruction in flight */
            opcode_of(&d->inflight[0].ins, 1, op, sizeof op), unit = otpu_unit_name(
                (otpu_unit)d->inflight[0].unit);
        break;
    case OTPU_DIV_END_STATE:
    case OTPU_DIV_HOST:
        unit = "-";
        snprintf(op, sizeof op, "-");
        break;
    default:
        break;
    }
    snprintf(sig->key, sizeof sig->key, "%s/%s/%s/%s/%s", kind, unit, op, space, shape);
    int n = snprintf(sig->words, sizeof sig->words, "%s", kind);
    if (d->kind == OTPU_DIV_ORDER)
        n += snprintf(sig->words + n, sizeof sig->words - (size_t)n,
                      ": a write landed while an older %s of that location was in flight", op);
    else if (strcmp(op, "-"))
        n += snprintf(sig->words + n, sizeof sig->words - (size_t)n, ": %s %s", unit, op);
    if (strcmp(space, "-"))
        n += snprintf(sig->words + n, sizeof sig->words - (size_t)n, ", %s", space);
    if (shape_words[0])
        snprintf(sig->words + n, sizeof sig->words - (size_t)n, ", %s", shape_words);
}
