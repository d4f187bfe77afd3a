/* trace.c - the trace writer (a write-log listener) and the final-state file. */
#include "trace.h"

#include "sha256.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct otpu_tracer {
    FILE **files;
    uint32_t n;
    size_t *order;
    size_t cap;
    uint64_t act_row, blocks; /* ACT RAM geometry, to print (row, column) */
};

otpu_tracer *otpu_tracer_new(FILE *const *files, uint32_t nslices, const otpu_config *cfg)
{
    otpu_tracer *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->files = calloc(nslices, sizeof *t->files);
    if (!t->files) {
        free(t);
        return NULL;
    }
    memcpy(t->files, files, nslices * sizeof *files);
    t->n = nslices;
    t->act_row = (uint64_t)cfg->ACT_BLOCKS * cfg->D;
    t->blocks = cfg->ACT_BLOCKS;
    return t;
}

void otpu_tracer_free(otpu_tracer *t)
{
    if (!t)
        return;
    free(t->files);
    free(t->order);
    free(t);
}

static void on_issue(void *user, uint32_t s, uint64_t n, uint32_t pc, const otpu_instr *ins)
{
    otpu_tracer *t = user;
    if (s >= t->n || !t->files[s])
        return;
    const char *name = ins ? otpu_op_name(ins->op) : "PASTEND";
    if (!name)
        name = "UNKNOWN";
    fprintf(t->files[s], "I %" PRIu64 " %" PRIu32 " %s\n", n, pc, name);
}

/* qsort has no context argument in C11: the tracer sorts one record list at a time. */
static _Thread_local const otpu_write *sort_recs;

static int by_location(const void *a, const void *b)
{
    const otpu_write *x = &sort_recs[*(const size_t *)a], *y = &sort_recs[*(const size_t *)b];
    if (x->space != y->space)
        return x->space < y->space ? -1 : 1;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    size_t i = *(const size_t *)a, j = *(const size_t *)b; /* keep write order */
    return i < j ? -1 : i > j;
}

static void print_change(FILE *f, uint64_t act_row, uint64_t blocks, const otpu_write *w,
                         uint32_t val)
{
    switch (w->space) {
    case OTPU_SP_REG: fprintf(f, "R %" PRIu64 " %08" PRIx32 "\n", w->addr, val); break;
    case OTPU_SP_TMEM: fprintf(f, "T %" PRIu64 " %08" PRIx32 "\n", w->addr, val); break;
    case OTPU_SP_DRAM: fprintf(f, "M %" PRIu64 " %08" PRIx32 "\n", w->addr, val); break;
    case OTPU_SP_ACT:
        fprintf(f, "A %" PRIu64 " %" PRIu64 " %02" PRIx32 "\n", w->addr / act_row,
                w->addr % act_row, val & 0xFF);
        break;
    default:
        fprintf(f, "S %" PRIu64 " %" PRIu64 " %08" PRIx32 "\n", w->addr / blocks,
                w->addr % blocks, val);
        break;
    }
}

static void on_retire(void *user, const otpu_retired *r)
{
    otpu_tracer *t = user;
    if (r->slice >= t->n || !t->files[r->slice])
        return;
    FILE *f = t->files[r->slice];
    if (r->nwrites > t->cap) {
        size_t *p = realloc(t->order, r->nwrites * sizeof *p);
        if (!p)
            return;
        t->order = p;
        t->cap = r->nwrites;
    }
    for (size_t i = 0; i < r->nwrites; i++)
        t->order[i] = i;
    sort_recs = r->writes;
    if (r->nwrites)
        qsort(t->order, r->nwrites, sizeof *t->order, by_location);
    for (size_t i = 0; i < r->nwrites;) {
        const otpu_write *first = &r->writes[t->order[i]];
        size_t j = i;
        while (j + 1 < r->nwrites && r->writes[t->order[j + 1]].space == first->space &&
               r->writes[t->order[j + 1]].addr == first->addr)
            j++;
        uint32_t val = r->writes[t->order[j]].val;
        if (val != first->old)
            print_change(f, t->act_row, t->blocks, first, val);
        i = j + 1;
    }
    if (r->chain)
        fprintf(f, "C %" PRIu32 " %" PRIu32 "\n", r->chain_addr, r->chain_count);
}

static void on_error(void *user, uint32_t s, const otpu_error *e)
{
    otpu_tracer *t = user;
    if (s < t->n && t->files[s])
        fprintf(t->files[s], "E %s\n", e->msg);
}

otpu_listener otpu_tracer_listener(otpu_tracer *t)
{
    otpu_listener l = {t, on_issue, on_retire, on_error};
    return l;
}

/* The DRAM hash: from the whole image, or piece by piece through the reader. */
static int dram_hash(const otpu_final_state *st, char out[65])
{
    if (st->dram) {
        otpu_sha256_hex(st->dram, st->dram_bytes, out);
        return 0;
    }
    enum { PIECE = 1 << 20 };
    otpu_sha256 *h = otpu_sha256_new();
    uint8_t *buf = malloc(PIECE);
    int rc = h && buf ? 0 : -1;
    for (uint64_t a = 0; !rc && a < st->dram_bytes; a += PIECE) {
        size_t n = st->dram_bytes - a < PIECE ? (size_t)(st->dram_bytes - a) : PIECE;
        rc = st->dram_piece(st->user, a, buf, n);
        if (!rc)
            otpu_sha256_update(h, buf, n);
    }
    if (h)
        otpu_sha256_final(h, out);
    free(buf);
    return rc;
}

int otpu_final_write_state(FILE *f, const otpu_final_state *st)
{
    char h[65];
    fprintf(f, "halted=%d\npc=%" PRIu32 "\nicount=%" PRIu64 "\nR=", st->halted ? 1 : 0, st->pc,
            st->icount);
    for (int r = 0; r < 16; r++)
        fprintf(f, "%s%08" PRIx32, r ? " " : "", r ? st->R[r] : 0);
    otpu_sha256_hex(st->tmem, st->tmem_words * 4, h);
    fprintf(f, "\ntmem_sha256=%s\n", h);
    if (dram_hash(st, h))
        return -1;
    fprintf(f, "dram_sha256=%s\n", h);
    otpu_sha256_hex(st->act, st->act_bytes, h);
    fprintf(f, "act_sha256=%s\n", h);
    otpu_sha256_hex(st->ascale, st->ascale_words * 4, h);
    fprintf(f, "ascale_sha256=%s\n", h);
    return ferror(f) ? -1 : 0;
}

int otpu_final_write(FILE *f, const otpu_machine *m, uint32_t s)
{
    const otpu_config *c = otpu_machine_config(m);
    otpu_slice_view v = otpu_machine_view(m, s);
    uint64_t rows = otpu_config_act_rows(c);
    otpu_final_state st = {
        .halted = v.halted, .pc = v.pc, .icount = v.icount, .R = v.R,
        .tmem = v.tmem, .tmem_words = c->TMEM_WORDS,
        .dram = v.dram, .dram_bytes = c->DRAM_BYTES,
        .act = v.act, .act_bytes = rows * c->ACT_BLOCKS * c->D,
        .ascale = v.ascale, .ascale_words = rows * c->ACT_BLOCKS,
    };
    return otpu_final_write_state(f, &st);
}

int otpu_final_text(const otpu_machine *m, uint32_t s, char *buf, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    int rc = otpu_final_write(f, m, s);
    if (fclose(f) || rc) {
        free(text);
        return -1;
    }
    if (n)
        snprintf(buf, n, "%s", text);
    free(text);
    return (int)len;
}
