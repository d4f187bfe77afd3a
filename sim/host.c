/* host.c - host.txt: its parser and the executor of its steps (host.h). */
#include "host.h"

#include "input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ the parser */

typedef struct {
    const char *path;
    int line;
    char *err;
    size_t errlen;
} where;

#define BAD(w, fmt, ...) \
    otpu_fail_msg((w)->err, (w)->errlen, "%s:%d: " fmt, (w)->path, (w)->line, __VA_ARGS__)

static int number(const char *s, uint64_t *v)
{
    return otpu_parse_number(s, strlen(s), v);
}

/* 1 to 8 hex digits */
static int word(const char *s, uint32_t *w)
{
    size_t n = strlen(s);
    if (!n || n > 8 || strspn(s, "0123456789abcdefABCDEF") != n)
        return -1;
    *w = (uint32_t)strtoul(s, NULL, 16);
    return 0;
}

static int slice_of(const where *w, const otpu_config *c, const char *s, uint32_t *out)
{
    uint64_t v;
    char q[48];
    if (number(s, &v) || v >= c->S)
        return BAD(w, "'%s' is not a slice (the Config has S=%u)",
                   otpu_escape(s, 32, q, sizeof q), (unsigned)c->S);
    *out = (uint32_t)v;
    return 0;
}

/* the words of write, expect (hex words) and args (numbers), from token first on */
static int values(const where *w, char **t, size_t nt, size_t first, otpu_host_step *st)
{
    st->nwords = nt - first;
    if (!(st->words = calloc(st->nwords, sizeof *st->words)))
        return BAD(w, "%s", "out of memory");
    for (size_t k = 0; k < st->nwords; k++) {
        uint64_t v = 0;
        int bad = st->kind == OTPU_HS_ARGS ? number(t[first + k], &v) || v > UINT32_MAX
                                           : word(t[first + k], &st->words[k]);
        char q[48];
        if (bad)
            return BAD(w, "%s: '%s' is not a %s", t[0], otpu_escape(t[first + k], 32, q, sizeof q),
                       st->kind == OTPU_HS_ARGS ? "32-bit number" : "word of 1 to 8 hex digits");
        if (st->kind == OTPU_HS_ARGS)
            st->words[k] = (uint32_t)v;
    }
    return 0;
}

/* one line's tokens t[0..nt-1] into st */
static int parse_step(const where *w, const otpu_config *c, char **t, size_t nt,
                      otpu_host_step *st)
{
    const char *cmd = t[0];
    st->line = w->line;
    if (!strcmp(cmd, "await")) {
        if (nt != 3)
            return BAD(w, "%s", "await needs <slice> waitw, <slice> halted or all halted");
        if (!strcmp(t[1], "all")) {
            st->kind = OTPU_HS_AWAIT_ALL;
            return strcmp(t[2], "halted") ? BAD(w, "%s", "await all: only 'await all halted'")
                                          : 0;
        }
        if (slice_of(w, c, t[1], &st->slice))
            return -1;
        st->kind = !strcmp(t[2], "waitw") ? OTPU_HS_AWAIT_WAITW : OTPU_HS_AWAIT_HALTED;
        return strcmp(t[2], "waitw") && strcmp(t[2], "halted")
                   ? BAD(w, "await %s: waitw or halted, not '%.32s'", t[1], t[2])
                   : 0;
    }
    if (!strcmp(cmd, "write") || !strcmp(cmd, "expect")) {
        st->kind = cmd[0] == 'w' ? OTPU_HS_WRITE : OTPU_HS_EXPECT;
        if (nt < 4)
            return BAD(w, "%s needs <slice> <byte address> <word>...", cmd);
        if (slice_of(w, c, t[1], &st->slice))
            return -1;
        if (number(t[2], &st->addr) || st->addr % 4)
            return BAD(w, "%s: '%.32s' is not a 4-aligned byte address", cmd, t[2]);
        if (st->addr > c->DRAM_BYTES || 4 * (uint64_t)(nt - 3) > c->DRAM_BYTES - st->addr)
            return BAD(w, "%s: %zu words at 0x%llx end past DRAM_BYTES 0x%llx", cmd, nt - 3,
                       (unsigned long long)st->addr, (unsigned long long)c->DRAM_BYTES);
        return values(w, t, nt, 3, st);
    }
    if (!strcmp(cmd, "args")) {
        st->kind = OTPU_HS_ARGS;
        if (nt < 3 || nt > 10)
            return BAD(w, "%s", "args needs <slice> and 1 to 8 values (R8..R15)");
        return slice_of(w, c, t[1], &st->slice) ? -1 : values(w, t, nt, 2, st);
    }
    if (!strcmp(cmd, "load")) {
        st->kind = OTPU_HS_LOAD;
        if (nt != 3)
            return BAD(w, "%s", "load needs <slice> <file.hex>");
        if (slice_of(w, c, t[1], &st->slice))
            return -1;
        if (strchr(t[2], '/') || t[2][0] == '.')
            return BAD(w, "load: '%.64s' must name a file in the bundle folder", t[2]);
        if (!(st->file = strdup(t[2])))
            return BAD(w, "%s", "out of memory");
        return 0;
    }
    if (!strcmp(cmd, "run")) {
        st->kind = OTPU_HS_RUN;
        if (nt != 2)
            return BAD(w, "%s", "run needs <slice>");
        return slice_of(w, c, t[1], &st->slice);
    }
    if (!strcmp(cmd, "cycles") || !strcmp(cmd, "polls")) {
        st->kind = cmd[0] == 'c' ? OTPU_HS_CYCLES : OTPU_HS_POLLS;
        if (nt != 2 || number(t[1], &st->n) || !st->n || st->n > UINT32_MAX)
            return BAD(w, "%s needs a count from 1 to 2^32-1", cmd);
        return 0;
    }
    if (!strcmp(cmd, "barrier")) {
        st->kind = OTPU_HS_BARRIER;
        return nt != 1 ? BAD(w, "%s", "barrier takes nothing") : 0;
    }
    char q[64];
    return BAD(w, "unknown step '%s' (await, write, expect, args, load, run, cycles, polls, "
                  "barrier)", otpu_escape(cmd, 40, q, sizeof q));
}

/* the tokens of one line (in place); -1 when out of memory */
static int tokens(char *buf, char ***t, size_t *nt, size_t *cap)
{
    *nt = 0;
    char *save = NULL;
    for (char *s = strtok_r(buf, " \t\r", &save); s; s = strtok_r(NULL, " \t\r", &save)) {
        if (*nt == *cap) {
            size_t n = *cap ? 2 * *cap : 16;
            char **g = realloc(*t, n * sizeof *g);
            if (!g)
                return -1;
            *t = g;
            *cap = n;
        }
        (*t)[(*nt)++] = s;
    }
    return 0;
}

int otpu_host_parse(const char *text, size_t len, const char *path, const otpu_config *c,
                    otpu_host_script *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    where w = {path, 0, err, errlen};
    char *buf = malloc(len + 1), **t = NULL;
    size_t cap = 0, nt = 0;
    int rc = 0;
    if (!buf)
        return otpu_fail_msg(err, errlen, "%s: out of memory", path);
    memcpy(buf, text, len);
    buf[len] = 0;
    if (memchr(buf, 0, len))
        rc = otpu_fail_msg(err, errlen, "%s: a NUL byte (not a text file)", path);
    for (char *p = buf, *next; !rc && p < buf + len; p = next) {
        char *nl = memchr(p, '\n', (size_t)(buf + len - p));
        next = nl ? nl + 1 : buf + len;
        if (nl)
            *nl = 0;
        w.line++;
        char *hash = strchr(p, '#');
        if (hash)
            *hash = 0;
        if (tokens(p, &t, &nt, &cap)) {
            rc = otpu_fail_msg(err, errlen, "%s: out of memory", path);
        } else if (nt) {
            otpu_host_step *g = realloc(out->steps, (out->n + 1) * sizeof *g);
            if (!g) {
                rc = otpu_fail_msg(err, errlen, "%s: out of memory", path);
                break;
            }
            out->steps = g;
            memset(&g[out->n], 0, sizeof *g);
            rc = parse_step(&w, c, t, nt, &g[out->n++]);
        }
    }
    free(t);
    free(buf);
    if (rc)
        otpu_host_script_free(out);
    return rc;
}

void otpu_host_script_free(otpu_host_script *s)
{
    for (size_t k = 0; k < s->n; k++) {
        free(s->steps[k].words);
        free(s->steps[k].file);
    }
    free(s->steps);
    memset(s, 0, sizeof *s);
}

char *otpu_host_step_text(const otpu_host_step *st, char *out, size_t len)
{
    static const char *const verb[] = {"await", "await", "await", "write", "expect", "args",
                                       "load", "run", "cycles", "polls", "barrier"};
    size_t o = 0;
#define PUT(...) \
    (o += (size_t)snprintf(out + (o < len ? o : len), o < len ? len - o : 0, __VA_ARGS__))
    PUT("%s", verb[st->kind]);
    switch (st->kind) {
    case OTPU_HS_AWAIT_WAITW: PUT(" %u waitw", st->slice); break;
    case OTPU_HS_AWAIT_HALTED: PUT(" %u halted", st->slice); break;
    case OTPU_HS_AWAIT_ALL: PUT(" all halted"); break;
    case OTPU_HS_WRITE:
    case OTPU_HS_EXPECT:
    case OTPU_HS_ARGS:
        PUT(" %u", st->slice);
        if (st->kind != OTPU_HS_ARGS)
            PUT(" 0x%llx", (unsigned long long)st->addr);
        for (size_t k = 0; k < st->nwords && k < 4; k++)
            PUT(st->kind == OTPU_HS_ARGS ? " %u" : " %08x", st->words[k]);
        if (st->nwords > 4)
            PUT(" ...");
        break;
    case OTPU_HS_LOAD: PUT(" %u %s", st->slice, st->file); break;
    case OTPU_HS_RUN: PUT(" %u", st->slice); break;
    case OTPU_HS_CYCLES:
    case OTPU_HS_POLLS: PUT(" %llu", (unsigned long long)st->n); break;
    case OTPU_HS_BARRIER: break;
    }
#undef PUT
    return out;
}

/* ------------------------------------------------------------------ the executor */

struct otpu_host {
    const otpu_host_script *script;
    uint32_t S;
    size_t next;               /* the step to do */
    int started;               /* the step's wait began (cycles, polls) */
    uint64_t since;            /* cycles: the time it began */
    uint64_t *poll0;           /* polls: each slice's count when it began (UINT64_MAX: not
                                * polling then) */
    uint32_t (*args)[8];       /* each slice's arguments for its next run */
    const uint32_t **prog;     /* each slice's program for its next run (NULL: keep) */
    size_t *prog_words;
    otpu_host_record *rec;
    size_t nrec;
    int stopped;
    char failure[512];
};

otpu_host *otpu_host_new(const otpu_host_script *script, uint32_t S, const uint32_t args[8])
{
    otpu_host *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->script = script;
    h->S = S;
    h->poll0 = calloc(S, sizeof *h->poll0);
    h->args = calloc(S, sizeof *h->args);
    h->prog = calloc(S, sizeof *h->prog);
    h->prog_words = calloc(S, sizeof *h->prog_words);
    h->rec = calloc(script->n ? script->n : 1, sizeof *h->rec);
    if (!h->poll0 || !h->args || !h->prog || !h->prog_words || !h->rec) {
        otpu_host_free(h);
        return NULL;
    }
    for (uint32_t s = 0; s < S; s++)
        memcpy(h->args[s], args, sizeof h->args[s]);
    return h;
}

void otpu_host_free(otpu_host *h)
{
    if (!h)
        return;
    for (size_t k = 0; k < h->nrec; k++)
        free(h->rec[k].read);
    free(h->rec);
    free(h->poll0);
    free(h->args);
    free(h->prog);
    free(h->prog_words);
    free(h);
}

static int stop(otpu_host *h, const otpu_host_step *st, const char *why)
{
    char t[160];
    snprintf(h->failure, sizeof h->failure, "host.txt:%d: %s: %s", st->line,
             otpu_host_step_text(st, t, sizeof t), why);
    h->stopped = 1;
    return -1;
}

/* the wait of an await, barrier, cycles or polls step: 1 over, 0 not yet */
static int waited(otpu_host *h, const otpu_host_step *st, const otpu_host_device *d, void *dev)
{
    uint32_t S = h->S;
    switch (st->kind) {
    case OTPU_HS_AWAIT_WAITW: return d->polling(dev, st->slice);
    case OTPU_HS_AWAIT_HALTED: return d->halted(dev, st->slice);
    case OTPU_HS_AWAIT_ALL:
    case OTPU_HS_BARRIER:
        for (uint32_t s = 0; s < S; s++)
            if (st->kind == OTPU_HS_AWAIT_ALL ? !d->halted(dev, s) : !d->stopped(dev, s))
                return 0;
        return 1;
    case OTPU_HS_CYCLES:
        if (!h->started)
            h->since = d->now(dev);
        h->started = 1;
        return d->now(dev) - h->since >= st->n;
    case OTPU_HS_POLLS:
        if (!h->started)
            for (uint32_t s = 0; s < S; s++)
                h->poll0[s] = d->polling(dev, s) ? d->polls(dev, s) : UINT64_MAX;
        h->started = 1;
        for (uint32_t s = 0; s < S; s++)
            if (h->poll0[s] != UINT64_MAX && d->polling(dev, s) &&
                d->polls(dev, s) - h->poll0[s] < st->n)
                return 0;
        return 1;
    default: return 1;
    }
}

/* an action step: 0 done, 1 not yet (a read in flight), -1 the host stopped */
static int act(otpu_host *h, const otpu_host_step *st, const otpu_host_device *d, void *dev)
{
    char why[256] = "";
    uint32_t s = st->slice;
    switch (st->kind) {
    case OTPU_HS_WRITE: {
        int r = d->write(dev, s, st->addr, st->words, st->nwords, why, sizeof why);
        return r < 0 ? stop(h, st, why) : r;
    }
    case OTPU_HS_EXPECT: {
        uint32_t *got = calloc(st->nwords, sizeof *got);
        if (!got)
            return stop(h, st, "out of memory");
        int r = d->read(dev, s, st->addr, got, st->nwords);
        if (r) {
            free(got);
            return r < 0 ? stop(h, st, "the DRAM cannot be read") : 1;
        }
        otpu_host_record *rec = &h->rec[h->nrec];
        rec->read = got;
        rec->nread = st->nwords;
        for (size_t k = 0; k < st->nwords && !h->failure[0]; k++)
            if (got[k] != st->words[k])
                snprintf(h->failure, sizeof h->failure, "host.txt:%d: expect %u 0x%llx: the word "
                         "at 0x%llx is %08x, expected %08x", st->line, s,
                         (unsigned long long)st->addr,
                         (unsigned long long)(st->addr + 4 * k), got[k], st->words[k]);
        return 0;
    }
    case OTPU_HS_ARGS:
        memset(h->args[s], 0, sizeof h->args[s]);
        memcpy(h->args[s], st->words, st->nwords * sizeof st->words[0]);
        return 0;
    case OTPU_HS_LOAD:
        h->prog[s] = st->words;
        h->prog_words[s] = st->nwords;
        return 0;
    case OTPU_HS_RUN:
        if (!d->halted(dev, s))
            return stop(h, st, "the slice is not halted (await it first)");
        if (d->run(dev, s, h->prog[s], h->prog_words[s], h->args[s], why, sizeof why))
            return stop(h, st, why);
        h->prog[s] = NULL;
        return 0;
    default: return 0;
    }
}

int otpu_host_advance(otpu_host *h, const otpu_host_device *d, void *dev)
{
    int did = 0;
    while (!h->stopped && h->next < h->script->n) {
        const otpu_host_step *st = &h->script->steps[h->next];
        int r;
        if (st->kind == OTPU_HS_CYCLES || st->kind == OTPU_HS_POLLS) {
            if (!waited(h, st, d, dev))
                return OTPU_HOST_TIME;
        } else if (st->kind <= OTPU_HS_AWAIT_ALL || st->kind == OTPU_HS_BARRIER) {
            if (!waited(h, st, d, dev))
                return did;
        } else if ((r = act(h, st, d, dev)) != 0) {
            return r < 0 ? -1 : OTPU_HOST_BUSY;
        }
        h->rec[h->nrec++].step = st;
        h->next++;
        h->started = 0;
        did = 1;
    }
    return h->stopped ? -1 : did ? OTPU_HOST_BUSY : 0;
}

const otpu_host_record *otpu_host_records(const otpu_host *h, size_t *n)
{
    *n = h->nrec;
    return h->rec;
}

int otpu_host_verdict(const otpu_host *h, char *msg, size_t len)
{
    if (h->failure[0]) {
        snprintf(msg, len, "%s", h->failure);
        return -1;
    }
    if (h->stopped || h->next >= h->script->n)
        return 0;
    const otpu_host_step *st = &h->script->steps[h->next];
    char t[160];
    snprintf(msg, len, "host.txt:%d: %s: %s", st->line, otpu_host_step_text(st, t, sizeof t),
             h->started ? "still waiting when the run ended"
                        : "never reached (the machine stopped first)");
    return -1;
}
