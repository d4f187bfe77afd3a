/* slice.c - a slice's state and the primitives every instruction body uses (slice.h): its
 * memories made and freed, errors raised, the write log, scratch, the TMEM stamp scoreboard and
 * the range checks. The sequencer and the dispatch are above it (sequencer.c). */
#include "slice.h"

#include "hugepage.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t tmem_bytes(const otpu_config *c) { return c->TMEM_WORDS * 4; }
static uint64_t act_bytes(const otpu_config *c)
{
    return otpu_config_act_rows(c) * c->ACT_BLOCKS * c->D;
}
static uint64_t ascale_bytes(const otpu_config *c)
{
    return otpu_config_act_rows(c) * c->ACT_BLOCKS * 4;
}
/* the scoreboard: a stamp and a position per TMEM word, side by side (one page for both) */
static uint64_t hz_bytes(const otpu_config *c) { return c->TMEM_WORDS * sizeof(otpu_hz); }

int otpu_slice_init(otpu_slice *s, const otpu_config *cfg, uint32_t sid, otpu_error *err)
{
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    s->fp = &otpu_rev_desc_of(cfg->revision)->fp;
    s->rev_lacks = cfg->revision != OTPU_REV_CURRENT;
    s->sid = sid;
    s->err = err;
    s->act_row = cfg->ACT_BLOCKS * cfg->D;
    s->prog_cap = (uint32_t)(cfg->IMEM_WORDS / 8);
    s->prog = calloc(s->prog_cap ? s->prog_cap : 1, sizeof *s->prog);
    /* the large arrays: zeroed mappings, huge pages for those a run fills densely */
    s->dram = otpu_map_zeroed(cfg->DRAM_BYTES, 0);
    s->tmem = otpu_map_zeroed(tmem_bytes(cfg), 1);
    s->act = otpu_map_zeroed(act_bytes(cfg), 1);
    s->ascale = otpu_map_zeroed(ascale_bytes(cfg), 1);
    if (!s->prog || !s->dram || !s->tmem || !s->act || !s->ascale) {
        otpu_slice_free(s);
        return -1;
    }
    return 0;
}

void otpu_slice_free(otpu_slice *s)
{
    if (s->cfg) {
        otpu_unmap_zeroed(s->dram, s->cfg->DRAM_BYTES, 0);
        otpu_unmap_zeroed(s->tmem, tmem_bytes(s->cfg), 1);
        otpu_unmap_zeroed(s->act, act_bytes(s->cfg), 1);
        otpu_unmap_zeroed(s->ascale, ascale_bytes(s->cfg), 1);
        otpu_unmap_zeroed(s->hz, hz_bytes(s->cfg), 1);
    }
    free(s->prog);
    free(s->ops);
    free(s->log);
    free(s->scratch);
    memset(s, 0, sizeof *s);
}

void otpu_slice_restart(otpu_slice *s, const uint32_t args[8])
{
    memset(s->R, 0, sizeof s->R);
    for (int k = 0; k < 8; k++)
        s->R[8 + k] = args ? args[k] : 0;
    s->pc = 0;
    s->depth = 0;
    s->halted = s->waiting = s->polling = s->chain = 0;
}

/* ------------------------------------------------------------------ errors */

static int vfail(otpu_slice *s, otpu_err_kind kind, int has_addr, uint64_t addr, const char *fmt,
                 va_list ap)
{
    otpu_error *e = s->err;
    e->kind = kind;
    e->slice = (int)s->sid;
    e->pc = s->cur_pc;
    e->n = s->cur_n;
    e->has_addr = has_addr;
    e->addr = addr;
    char *what = s->why, dis[256] = "";
    vsnprintf(what, sizeof s->why, fmt, ap);
    if (s->cur_pc < s->nprog)
        otpu_disasm(&s->prog[s->cur_pc], dis, sizeof dis);
    snprintf(e->msg, sizeof e->msg, "slice %u: pc %u (n %llu)%s%s: %s", s->sid, s->cur_pc,
             (unsigned long long)s->cur_n, dis[0] ? " " : "", dis, what);
    return -1;
}

int otpu_fail(otpu_slice *s, otpu_err_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(s, kind, 0, 0, fmt, ap);
    va_end(ap);
    return -1;
}

int otpu_fail_at(otpu_slice *s, otpu_err_kind kind, uint64_t addr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(s, kind, 1, addr, fmt, ap);
    va_end(ap);
    return -1;
}

/* ------------------------------------------------------------------ log and scratch */

void otpu_log_push(otpu_slice *s, otpu_space sp, uint64_t addr, uint32_t old, uint32_t val,
                   uint8_t mask)
{
    if (s->nlog == s->log_cap) {
        size_t cap = s->log_cap ? 2 * s->log_cap : 1024;
        otpu_write *p = realloc(s->log, cap * sizeof *p);
        if (!p) {
            s->log_oom = 1;
            return;
        }
        s->log = p;
        s->log_cap = cap;
    }
    s->log[s->nlog++] = (otpu_write){.addr = addr, .old = old, .val = val, .space = (uint8_t)sp,
                                     .mask = mask};
}

uint32_t *otpu_scratch(otpu_slice *s, size_t words)
{
    if (words > s->scratch_cap) {
        size_t cap = words < 4096 ? 4096 : words;
        uint32_t *p = realloc(s->scratch, cap * sizeof *p);
        if (!p) {
            otpu_fail(s, OTPU_ERR_NOMEM, "cannot allocate %zu scratch words", words);
            return NULL;
        }
        s->scratch = p;
        s->scratch_cap = cap;
    }
    return s->scratch;
}

int otpu_stamp_begin(otpu_slice *s)
{
    uint64_t W = s->cfg->TMEM_WORDS;
    if (!s->hz && !(s->hz = otpu_map_zeroed(hz_bytes(s->cfg), 1)))
        return otpu_fail(s, OTPU_ERR_NOMEM, "cannot allocate the TMEM scoreboard");
    if (++s->hz_gen == 0) {
        for (uint64_t x = 0; x < W; x++)
            s->hz[x].stamp = 0;
        s->hz_gen = 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ range checks */

/* The first index of base + r*rs + c*cs (element order) that is >= limit, or -1 if none. */
static int64_t first_at_or_above(uint64_t base, uint64_t rows, uint64_t rs, uint64_t cols,
                                 uint64_t cs, uint64_t limit, uint64_t *addr)
{
    for (uint64_t r = 0; r < rows; r++) {
        unsigned __int128 rb = (unsigned __int128)base + (unsigned __int128)r * rs;
        if (rb >= limit) {
            *addr = (uint64_t)(rb > UINT64_MAX ? UINT64_MAX : rb);
            return 0;
        }
        if (!cs)
            continue;
        uint64_t c = (uint64_t)((limit - rb + cs - 1) / cs);
        if (c < cols) {
            *addr = (uint64_t)(rb + (unsigned __int128)c * cs);
            return 0;
        }
    }
    return -1;
}

static unsigned __int128 last_index(uint64_t base, uint64_t rows, uint64_t rs, uint64_t cols,
                                    uint64_t cs)
{
    return (unsigned __int128)base + (unsigned __int128)(rows - 1) * rs +
           (unsigned __int128)(cols - 1) * cs;
}

int otpu_bounds_tmem(otpu_slice *s, uint64_t base, uint64_t rows, uint64_t rs, uint64_t cols,
                     uint64_t cs)
{
    if (!rows || !cols || last_index(base, rows, rs, cols, cs) < s->cfg->TMEM_WORDS)
        return 0;
    uint64_t a = base;
    first_at_or_above(base, rows, rs, cols, cs, s->cfg->TMEM_WORDS, &a);
    return otpu_fail_at(s, OTPU_ERR_TMEM_RANGE, a, "TMEM index %llu out of range (TMEM_WORDS %llu)",
                        (unsigned long long)a, (unsigned long long)s->cfg->TMEM_WORDS);
}

int otpu_bounds_dram_words(otpu_slice *s, uint64_t base, uint64_t rows, uint64_t rs,
                           uint64_t cols, uint64_t cs)
{
    if (!rows || !cols)
        return 0;
    uint64_t a = base;
    if (base % 4)
        a = base;
    else if (cols > 1 && cs % 4)
        a = base + cs;
    else if (rows > 1 && rs % 4)
        a = base + rs;
    else if (last_index(base, rows, rs, cols, cs) + 4 <= s->cfg->DRAM_BYTES)
        return 0;
    else
        first_at_or_above(base, rows, rs, cols, cs, s->cfg->DRAM_BYTES - 3, &a);
    return otpu_fail_at(s, OTPU_ERR_DRAM_ADDR, a,
                        "bad DRAM word address %#llx (misaligned or past DRAM_BYTES %#llx)",
                        (unsigned long long)a, (unsigned long long)s->cfg->DRAM_BYTES);
}
