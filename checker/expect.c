/* expect.c - expected write sets: the model's records grouped per location, so each RTL write
 * is matched against the next value the model wrote there. */
#include "expect.h"

#include <stdlib.h>
#include <string.h>

static uint64_t key_of(unsigned space, uint64_t addr)
{
    return (uint64_t)space << 56 | addr;
}

static size_t slot_of(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)(k & (cap - 1));
}

static int by_key(const void *a, const void *b)
{
    const otpu_write *x = a, *y = b;
    uint64_t kx = key_of(x->space, x->addr), ky = key_of(y->space, y->addr);
    if (kx != ky)
        return kx < ky ? -1 : 1;
    return 0;
}

int otpu_expect_init(otpu_expect *e, const otpu_write *w, size_t n)
{
    memset(e, 0, sizeof *e);
    if (!n)
        return 0;
    /* a stable sort by location keeps each location's writes in order: sort (key, index) */
    e->rec = malloc(n * sizeof *e->rec);
    size_t *idx = malloc(n * sizeof *idx);
    if (!e->rec || !idx) {
        free(idx);
        otpu_expect_free(e);
        return -1;
    }
    /* pack the original index into the record's pad-free copy through a side array */
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    /* insertion into buckets: sort indices by (key, index) */
    const otpu_write *src = w;
    size_t *tmp = idx;
    /* simple merge sort on indices (n can be large) */
    size_t *buf = malloc(n * sizeof *buf);
    if (!buf) {
        free(idx);
        otpu_expect_free(e);
        return -1;
    }
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                buf[o++] = by_key(&src[tmp[b]], &src[tmp[a]]) < 0 ? tmp[b++] : tmp[a++];
            while (a < mid)
                buf[o++] = tmp[a++];
            while (b < hi)
                buf[o++] = tmp[b++];
        }
        size_t *t = tmp;
        tmp = buf;
        buf = t;
    }
    for (size_t i = 0; i < n; i++)
        e->rec[i] = src[tmp[i]];
    free(idx == tmp ? buf : idx);
    free(tmp);
    e->nrec = n;
    /* locations */
    e->loc = malloc(n * sizeof *e->loc);
    e->hcap = 16;
    while (e->hcap < 2 * n)
        e->hcap *= 2;
    e->hash = calloc(e->hcap, sizeof *e->hash);
    if (!e->loc || !e->hash) {
        otpu_expect_free(e);
        return -1;
    }
    for (size_t i = 0; i < n;) {
        uint64_t k = key_of(e->rec[i].space, e->rec[i].addr);
        size_t j = i;
        while (j < n && key_of(e->rec[j].space, e->rec[j].addr) == k)
            j++;
        otpu_expect_loc *l = &e->loc[e->nloc];
        *l = (otpu_expect_loc){k, (uint32_t)i, (uint32_t)(j - i), 0};
        size_t h = slot_of(k, e->hcap);
        while (e->hash[h])
            h = (h + 1) & (e->hcap - 1);
        e->hash[h] = (uint32_t)(++e->nloc);
        i = j;
    }
    return 0;
}

void otpu_expect_free(otpu_expect *e)
{
    free(e->rec);
    free(e->loc);
    free(e->hash);
    memset(e, 0, sizeof *e);
}

static otpu_expect_loc *find(const otpu_expect *e, uint64_t k)
{
    if (!e->hcap)
        return NULL;
    for (size_t h = slot_of(k, e->hcap); e->hash[h]; h = (h + 1) & (e->hcap - 1))
        if (e->loc[e->hash[h] - 1].key == k)
            return &e->loc[e->hash[h] - 1];
    return NULL;
}

int otpu_expect_writes(const otpu_expect *e, otpu_space space, uint64_t addr)
{
    return find(e, key_of(space, addr)) != NULL;
}

static uint32_t bytes(uint32_t mask)
{
    uint32_t m = 0;
    for (int b = 0; b < 4; b++)
        if (mask >> b & 1)
            m |= 0xFFu << (8 * b);
    return m;
}

otpu_match otpu_expect_take(otpu_expect *e, otpu_space space, uint64_t addr, uint32_t data,
                            uint32_t mask, uint32_t *want, uint32_t *wmask)
{
    otpu_expect_loc *l = find(e, key_of(space, addr));
    if (!l)
        return OTPU_MATCH_STRAY;
    if (l->cursor >= l->count) {
        const otpu_write *last = &e->rec[l->first + l->count - 1];
        *want = last->val;
        *wmask = last->mask;
        return OTPU_MATCH_DUPLICATE;
    }
    if (space != OTPU_SP_DRAM) {
        const otpu_write *r = &e->rec[l->first + l->cursor];
        *want = r->val;
        *wmask = 0xF;
        if (r->val != data)
            return OTPU_MATCH_VALUE;
        l->cursor++;
        e->consumed++;
        return OTPU_MATCH_OK;
    }
    /* DRAM: the RTL may write several of the model's byte records at once. Consume records
     * in order while their bytes lie within the RTL's mask; each byte must equal the last
     * consumed record's value for it. */
    uint32_t covered = 0, expect = 0;
    uint32_t cur = l->cursor;
    while (cur < l->count) {
        const otpu_write *r = &e->rec[l->first + cur];
        uint32_t rm = r->mask & 0xF;
        /* one RTL write takes a byte once: a later record of the same byte is a later write */
        if (!rm || (rm & ~mask & 0xF) || (rm & covered))
            break;
        expect = (expect & ~bytes(rm)) | (r->val & bytes(rm));
        covered |= rm;
        cur++;
    }
    *want = expect;
    *wmask = covered;
    if (!covered) {
        const otpu_write *r = &e->rec[l->first + l->cursor];
        *want = r->val;
        *wmask = r->mask;
        return OTPU_MATCH_VALUE;
    }
    if ((mask & 0xF) != covered || (data & bytes(covered)) != (expect & bytes(covered)))
        return OTPU_MATCH_VALUE;
    e->consumed += cur - l->cursor;
    l->cursor = cur;
    return OTPU_MATCH_OK;
}

const otpu_write *otpu_expect_missing(const otpu_expect *e, size_t *remaining)
{
    const otpu_write *first = NULL;
    size_t left = 0;
    for (size_t i = 0; i < e->nloc; i++)
        if (e->loc[i].cursor < e->loc[i].count) {
            if (!first)
                first = &e->rec[e->loc[i].first + e->loc[i].cursor];
            left++;
        }
    *remaining = left;
    return first;
}
