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
    e->done = calloc(n, 1);
    if (!e->loc || !e->hash || !e->done) {
        otpu_expect_free(e);
        return -1;
    }
    for (size_t i = 0; i < n;) {
        uint64_t k = key_of(e->rec[i].space, e->rec[i].addr);
        size_t j = i;
        while (j < n && key_of(e->rec[j].space, e->rec[j].addr) == k)
            j++;
        otpu_expect_loc *l = &e->loc[e->nloc];
        *l = (otpu_expect_loc){k, (uint32_t)i, (uint32_t)(j - i), 0, {0, 0, 0, 0}};
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
    free(e->done);
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

int otpu_expect_writes(const otpu_expect *e, otpu_space space, uint64_t addr, uint32_t mask)
{
    const otpu_expect_loc *l = find(e, key_of(space, addr));
    if (!l || space != OTPU_SP_DRAM)
        return l != NULL;
    for (uint32_t k = 0; k < l->count; k++)
        if (e->rec[l->first + k].mask & mask)
            return 1;
    return 0;
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
    /* DRAM: bytes are independent; only the order of writes to one byte matters. Each byte
     * the RTL writes takes the next record that writes that byte. */
    uint32_t idx[4] = {0, 0, 0, 0};
    for (int b = 0; b < 4; b++) {
        if (!(mask >> b & 1))
            continue;
        uint32_t k = l->bcur[b];
        while (k < l->count && !(e->rec[l->first + k].mask >> b & 1))
            k++;
        if (k >= l->count) {
            int ever = 0;
            for (uint32_t q = 0; q < l->count; q++)
                ever |= e->rec[l->first + q].mask >> b & 1;
            const otpu_write *last = &e->rec[l->first + l->count - 1];
            *want = last->val;
            *wmask = last->mask;
            return ever ? OTPU_MATCH_DUPLICATE : OTPU_MATCH_STRAY;
        }
        const otpu_write *r = &e->rec[l->first + k];
        if (((r->val ^ data) >> (8 * b)) & 0xFF) {
            *want = r->val;
            *wmask = r->mask;
            return OTPU_MATCH_VALUE;
        }
        idx[b] = k;
    }
    for (int b = 0; b < 4; b++) {
        if (!(mask >> b & 1))
            continue;
        uint32_t g = l->first + idx[b];
        e->done[g] |= (uint8_t)(1u << b);
        l->bcur[b] = idx[b] + 1;
        if (e->done[g] == (e->rec[g].mask & 0xF))
            e->consumed++;
    }
    return OTPU_MATCH_OK;
}

const otpu_write *otpu_expect_missing(const otpu_expect *e, size_t *remaining)
{
    const otpu_write *first = NULL;
    size_t left = 0;
    for (size_t i = 0; i < e->nloc; i++) {
        const otpu_expect_loc *l = &e->loc[i];
        const otpu_write *m = NULL;
        if ((l->key >> 56) == OTPU_SP_DRAM) {
            for (uint32_t k = 0; k < l->count && !m; k++)
                if (e->done[l->first + k] != (e->rec[l->first + k].mask & 0xF))
                    m = &e->rec[l->first + k];
        } else if (l->cursor < l->count) {
            m = &e->rec[l->first + l->cursor];
        }
        if (m) {
            if (!first)
                first = m;
            left++;
        }
    }
    *remaining = left;
    return first;
}
