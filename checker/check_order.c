/* check_order.c - the order of conflicting instructions: a write that lands while an older
 * instruction that reads or writes its location is in flight, and an instruction that
 * starts before an older writer of its inputs completed. */
#include "scoreboard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does the older in-flight q write into one of r's input ranges? */
static int writes_input_of(const rec *q, const rec *r)
{
    for (size_t k = 0; k < q->nfp; k++) {
        if (!q->fp[k].write)
            continue;
        for (size_t j = 0; j < r->nfp; j++)
            if (!r->fp[j].write && r->fp[j].space == q->fp[k].space &&
                r->fp[j].lo < q->fp[k].hi && q->fp[k].lo < r->fp[j].hi)
                return 1;
    }
    return 0;
}

/* An instruction that started while an older one that writes one of its inputs was still in
 * flight: noted on r (whatever its symptom later, the root cause is the order). */
void ck_note_early_start(slice_state *ss, rec *r)
{
    for (rec *q = ss->head; q && q != r; q = q->next)
        if (q->dispatched && q->seq < r->seq && writes_input_of(q, r)) {
            r->early = 1;
            ck_describe(q, &r->early_by);
            break;
        }
}

/* Does the read range hold the location written? DRAM: one of the bytes of mask (the word's
 * other bytes are not written, so a reader of only those does not conflict). */
static int reads_written(const otpu_range *fp, otpu_space space, uint64_t addr, uint32_t mask)
{
    if (space != OTPU_SP_DRAM)
        return otpu_range_hits(fp, space, addr);
    for (uint32_t b = 0; b < 4; b++)
        if ((mask >> b & 1) && fp->space == space && addr + b >= fp->lo && addr + b < fp->hi)
            return 1;
    return 0;
}

/* A write of r that lands while an older instruction still in flight reads or writes its
 * location: the divergence, else OTPU_CHECK_OK. */
int ck_order_violation(otpu_checker *c, uint32_t s, const rec *r, otpu_space space,
                       uint64_t addr, uint32_t data, uint32_t mask)
{
    slice_state *ss = &c->sl[s];
    otpu_divergence d; /* filled on the failure path */
    for (rec *q = ss->head; q && q != r; q = q->next) {
        if (!q->dispatched || q->seq > r->seq)
            continue;
        int writes = q->retired && otpu_expect_writes(&q->exp, space, addr, mask);
        int hit = writes;
        for (size_t k = 0; !hit && k < q->nfp; k++)
            hit = !q->fp[k].write && reads_written(&q->fp[k], space, addr, mask);
        if (hit) {
            ck_written(&d, space, addr, data, mask);
            d.has_other = 1;
            ck_describe(q, &d.other);
            return ck_diverge(c, OTPU_DIV_ORDER, s, r, &d,
                           "this write landed while the older pc %u (n %llu), which %s this "
                           "location, was still in flight", q->pc, (unsigned long long)q->n,
                           writes ? "writes" : "reads");
        }
    }
    return OTPU_CHECK_OK;
}
