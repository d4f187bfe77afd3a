/* logbuf.c - the buffering write-log listener (logbuf.h). */
#include "logbuf.h"

#include <stdlib.h>
#include <string.h>

struct otpu_logbuf {
    otpu_logged *rec;
    size_t nrec, rec_cap;
    otpu_write *w;
    size_t nw, w_cap;
    int lost;
};

otpu_logbuf *otpu_logbuf_new(void)
{
    return calloc(1, sizeof(otpu_logbuf));
}

void otpu_logbuf_free(otpu_logbuf *b)
{
    if (!b)
        return;
    free(b->rec);
    free(b->w);
    free(b);
}

/* Room for `more` elements of size `size` in *p (holding n of cap); 0, or -1 out of memory. */
static int grow(void **p, size_t *cap, size_t n, size_t more, size_t size)
{
    if (more <= *cap - n)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c - n < more)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static void on_retire(void *user, const otpu_retired *r)
{
    otpu_logbuf *b = user;
    if (grow((void **)&b->rec, &b->rec_cap, b->nrec, 1, sizeof *b->rec) ||
        grow((void **)&b->w, &b->w_cap, b->nw, r->nwrites, sizeof *b->w)) {
        b->lost = 1;
        return;
    }
    otpu_logged *l = &b->rec[b->nrec++];
    memset(l, 0, sizeof *l);
    l->n = r->n;
    l->first = b->nw;
    l->nwrites = r->nwrites;
    l->slice = r->slice;
    l->pc = r->pc;
    if (r->ins) {
        memcpy(l->words, r->ins->w, sizeof l->words); /* the words as loaded */
        l->has_ins = 1;
    }
    l->faulted = (uint8_t)(r->faulted != 0);
    l->chain = (uint8_t)(r->chain != 0);
    l->chain_addr = r->chain_addr;
    l->chain_count = r->chain_count;
    if (r->nwrites)
        memcpy(b->w + b->nw, r->writes, r->nwrites * sizeof *b->w);
    b->nw += r->nwrites;
}

void otpu_logbuf_attach(otpu_logbuf *b, otpu_machine *m)
{
    otpu_listener l = {b, NULL, on_retire, NULL};
    otpu_machine_set_listener(m, &l);
}

void otpu_logbuf_clear(otpu_logbuf *b)
{
    b->nrec = b->nw = 0;
    b->lost = 0;
}

size_t otpu_logbuf_count(const otpu_logbuf *b) { return b->nrec; }
const otpu_logged *otpu_logbuf_records(const otpu_logbuf *b) { return b->rec; }
const otpu_write *otpu_logbuf_writes(const otpu_logbuf *b) { return b->w; }
int otpu_logbuf_lost(const otpu_logbuf *b) { return b->lost; }
