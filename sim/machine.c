/* machine.c - the slices together (the reference's Machine): the run loop, BAR and GATHER,
 * HALT CHAIN, WAITW's host hook, and the listener calls around every instruction. */
#include "machine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dot.h"
#include "hugepage.h"
#include "sequencer.h"
#include "slice.h"

struct otpu_machine {
    otpu_config cfg;
    otpu_slice *sl;
    otpu_listener listener;
    int has_listener;
    otpu_host_fn host;
    void *host_user;
    otpu_host *script;          /* host.txt's executor (otpu_machine_set_host_script) */
    int host_begun;             /* its steps before the first wait have run */
    uint64_t host_rounds;       /* the model's clock for host steps */
    uint64_t poll_rounds;       /* rounds of WAITW polls (host_round) */
    uint64_t steps, chains;
    otpu_error err;
    int failed;                 /* an error stopped the machine: it stays stopped (sticky) */
    int slice_errors;           /* otpu_machine_set_slice_errors */
    otpu_error first_err;       /* there: the first error raised, and each slice's */
    otpu_error *slice_err;
    uint32_t *gather_buf;
    size_t gather_cap;
};

otpu_machine *otpu_machine_new(const otpu_config *cfg, otpu_error *err)
{
    memset(err, 0, sizeof *err);
    err->slice = -1;
    if (otpu_config_check(cfg, err->msg, sizeof err->msg) ||
        otpu_dot_env_check(err->msg, sizeof err->msg)) {
        err->kind = OTPU_ERR_BOUNDS;
        return NULL;
    }
    otpu_machine *m = calloc(1, sizeof *m);
    if (!m)
        goto oom;
    m->cfg = *cfg;
    m->sl = calloc(cfg->S, sizeof *m->sl);
    if (!m->sl)
        goto oom;
    for (uint32_t s = 0; s < cfg->S; s++)
        if (otpu_slice_init(&m->sl[s], &m->cfg, s, &m->err))
            goto oom;
    return m;
oom:
    otpu_machine_free(m);
    err->kind = OTPU_ERR_NOMEM;
    snprintf(err->msg, sizeof err->msg, "cannot allocate a machine of %u slices "
             "(DRAM_BYTES %llu, TMEM_WORDS %llu)", cfg->S, (unsigned long long)cfg->DRAM_BYTES,
             (unsigned long long)cfg->TMEM_WORDS);
    return NULL;
}

void otpu_machine_free(otpu_machine *m)
{
    if (!m)
        return;
    otpu_host_free(m->script);
    if (m->sl)
        for (uint32_t s = 0; s < m->cfg.S; s++)
            if (m->sl[s].cfg)
                otpu_slice_free(&m->sl[s]);
    free(m->sl);
    free(m->slice_err);
    free(m->gather_buf);
    free(m);
}

const otpu_config *otpu_machine_config(const otpu_machine *m)
{
    return &m->cfg;
}

static int bad_input(otpu_error *err, const char *msg, uint32_t s)
{
    memset(err, 0, sizeof *err);
    err->kind = OTPU_ERR_BOUNDS;
    err->slice = (int)s;
    snprintf(err->msg, sizeof err->msg, "slice %u: %s", s, msg);
    return -1;
}

static int decode_program(otpu_slice *sl, const uint32_t *words, size_t n)
{
    otpu_ops *ops = realloc(sl->ops, (n ? n : 1) * sizeof *ops);
    if (!ops)
        return -1;
    sl->ops = ops;
    for (size_t k = 0; k < n; k++) {
        sl->prog[k] = otpu_decode(words + 8 * k);
        sl->ops[k] = otpu_operands(&sl->prog[k], NULL);
    }
    sl->nprog = (uint32_t)n;
    return 0;
}

int otpu_machine_load_program(otpu_machine *m, uint32_t s, const uint32_t *words, size_t nwords,
                              otpu_error *err)
{
    char msg[200];
    if (s >= m->cfg.S)
        return bad_input(err, "no such slice", s);
    if (nwords % 8) {
        snprintf(msg, sizeof msg, "program of %zu words is not a whole number of instructions "
                 "(8 words each)", nwords);
        return bad_input(err, msg, s);
    }
    if (nwords > m->cfg.IMEM_WORDS) {
        snprintf(msg, sizeof msg, "program of %zu words does not fit IMEM_WORDS %llu", nwords,
                 (unsigned long long)m->cfg.IMEM_WORDS);
        return bad_input(err, msg, s);
    }
    otpu_slice *sl = &m->sl[s];
    if (decode_program(sl, words, nwords / 8))
        return bad_input(err, "out of memory for the program", s);
    otpu_slice_restart(sl, sl->args);
    sl->icount = 0;
    return 0;
}

/* The DRAM range [addr, addr + len) of slice s about to be filled: 0 (after the huge page
 * hint of a large range: hugepage.h), or -1 with err when it is not in DRAM. */
static int dram_range(otpu_machine *m, uint32_t s, uint64_t addr, size_t len, otpu_error *err)
{
    char msg[200];
    if (s >= m->cfg.S)
        return bad_input(err, "no such slice", s);
    if (addr > m->cfg.DRAM_BYTES || len > m->cfg.DRAM_BYTES - addr) {
        snprintf(msg, sizeof msg, "DRAM image of %zu bytes at %#llx is larger than DRAM_BYTES "
                 "%llu", len, (unsigned long long)addr, (unsigned long long)m->cfg.DRAM_BYTES);
        return bad_input(err, msg, s);
    }
    /* only for an image of a megabyte or more: a small one (a host write) in a huge page
     * would cost 2 MiB of memory; the blocks are rounded out within the DRAM */
    if (len >= OTPU_HUGE_BYTES / 2) {
        uint64_t lo = addr / OTPU_HUGE_BYTES * OTPU_HUGE_BYTES;
        uint64_t hi = (addr + len + OTPU_HUGE_BYTES - 1) / OTPU_HUGE_BYTES * OTPU_HUGE_BYTES;
        otpu_hint_huge(m->sl[s].dram + lo, (size_t)((hi < m->cfg.DRAM_BYTES ? hi
                                                     : m->cfg.DRAM_BYTES) - lo));
    }
    return 0;
}

int otpu_machine_load_dram(otpu_machine *m, uint32_t s, uint64_t addr, const void *data,
                           size_t len, otpu_error *err)
{
    if (dram_range(m, s, addr, len, err))
        return -1;
    if (len)
        memcpy(m->sl[s].dram + addr, data, len);
    return 0;
}

int otpu_machine_read_dram(otpu_machine *m, uint32_t s, uint64_t addr, int fd, size_t len,
                           otpu_error *err)
{
    if (dram_range(m, s, addr, len, err))
        return -1;
    uint8_t *d = m->sl[s].dram + addr;
    for (size_t n = 0; n < len;) {
        ssize_t k = pread(fd, d + n, len - n, (off_t)n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            char msg[200];
            snprintf(msg, sizeof msg, "DRAM image: %s after %zu of its %zu bytes",
                     k ? strerror(errno) : "the file ended (it shrank since it was checked)", n,
                     len);
            return bad_input(err, msg, s);
        }
        n += (size_t)k;
    }
    return 0;
}

void otpu_machine_set_args(otpu_machine *m, const uint32_t args[8])
{
    for (uint32_t s = 0; s < m->cfg.S; s++) {
        memcpy(m->sl[s].args, args, sizeof m->sl[s].args);
        for (int k = 0; k < 8; k++)
            m->sl[s].R[8 + k] = args[k];
    }
}

void otpu_machine_set_listener(otpu_machine *m, const otpu_listener *l)
{
    m->has_listener = l != NULL;
    if (l)
        m->listener = *l;
    /* writes are recorded only for a listener that takes them */
    for (uint32_t s = 0; s < m->cfg.S; s++)
        m->sl[s].log_on = l && l->on_retire;
}

void otpu_machine_set_host(otpu_machine *m, otpu_host_fn fn, void *user)
{
    m->host = fn;
    m->host_user = user;
}

/* ---- host.txt on the model: the device its executor acts on (host.h) ---- */

static int dev_polling(void *d, uint32_t s)
{
    const otpu_machine *m = d;
    const otpu_slice *sl = &m->sl[s];
    return !m->failed && !sl->halted && !sl->failed && sl->polling; /* a stopped machine: none */
}

/* (a slice stopped with its own error counts as halted: docs/bundle.md) */
static int dev_halted(void *d, uint32_t s)
{
    const otpu_slice *sl = &((otpu_machine *)d)->sl[s];
    return sl->halted || sl->failed;
}

static int dev_stopped(void *d, uint32_t s)
{
    const otpu_slice *sl = &((otpu_machine *)d)->sl[s];
    return sl->halted || sl->failed || sl->polling || sl->waiting;
}

static uint64_t dev_polls(void *d, uint32_t s)
{
    return ((otpu_machine *)d)->sl[s].stalls;
}

/* untimed: every host round lets any number of cycles pass */
static uint64_t dev_now(void *d)
{
    return ((otpu_machine *)d)->host_rounds << 32;
}

static int dev_write(void *d, uint32_t s, uint64_t addr, const uint32_t *w, size_t n, char *err,
                     size_t errlen)
{
    otpu_error e;
    if (!otpu_machine_load_dram(d, s, addr, w, 4 * n, &e))
        return 0;
    snprintf(err, errlen, "%s", e.msg);
    return -1;
}

static int dev_read(void *d, uint32_t s, uint64_t addr, uint32_t *w, size_t n)
{
    memcpy(w, ((otpu_machine *)d)->sl[s].dram + addr, 4 * n); /* (checked by the parser) */
    return 0;
}

static int dev_run(void *d, uint32_t s, const uint32_t *prog, size_t nwords,
                   const uint32_t args[8], char *err, size_t errlen)
{
    otpu_machine *m = d;
    otpu_slice *sl = &m->sl[s];
    if (sl->failed || m->failed) /* as the RTL: an error is the end of the slice's runs */
        return snprintf(err, errlen, "%s", sl->failed ? OTPU_HOST_RUN_FAILED : OTPU_HOST_RUN_STOPPED),
               -1;
    if (prog && decode_program(sl, prog, nwords / 8))
        return snprintf(err, errlen, "out of memory for the program"), -1;
    memcpy(sl->args, args, sizeof sl->args);
    otpu_slice_restart(sl, sl->args); /* (icount goes on: one count per slice and machine) */
    return 0;
}

static const otpu_host_device model_device = {dev_polling, dev_halted, dev_stopped, dev_polls,
                                              dev_now, dev_write, dev_read, dev_run};

static int script_host(otpu_machine *m, void *user)
{
    (void)user;
    m->host_rounds++;
    return otpu_host_advance(m->script, &model_device, m) > 0;
}

/* The machine stopped at an error: the host goes on with its steps as far as a stopped machine
 * lets it (docs/bundle.md: an await of a slice that stopped is over, DRAM is written and read,
 * nothing polls or runs again), as the RTL's driver does after its run. Each round completes a
 * step or ends it: a cycles step passes in one (dev_now), a polls step at once. */
static void host_finish(otpu_machine *m)
{
    if (!m->script)
        return;
    while (otpu_host_advance(m->script, &model_device, m) > 0)
        m->host_rounds++;
}

/* The host's steps before its first wait run before any instruction (docs/bundle.md), as the
 * RTL's driver runs them in reset. A step that fails stops the host (its verdict says so). */
static void host_begin(otpu_machine *m)
{
    if (!m->script || m->host_begun)
        return;
    m->host_begun = 1;
    otpu_host_advance(m->script, &model_device, m);
}

int otpu_machine_set_host_script(otpu_machine *m, const otpu_host_script *script,
                                 const uint32_t args[8])
{
    otpu_host_free(m->script);
    m->host_begun = 0;
    if (!(m->script = otpu_host_new(script, m->cfg.S, args)))
        return -1;
    otpu_machine_set_host(m, script_host, NULL);
    return 0;
}

const otpu_host *otpu_machine_host(const otpu_machine *m)
{
    return m->script;
}

const otpu_error *otpu_machine_error(const otpu_machine *m)
{
    return m->slice_errors && m->first_err.kind != OTPU_ERR_NONE ? &m->first_err : &m->err;
}

void otpu_machine_set_slice_errors(otpu_machine *m, int on)
{
    if (on && !m->slice_err && !(m->slice_err = calloc(m->cfg.S, sizeof *m->slice_err)))
        on = 0; /* (out of memory: the reference's whole-machine stop) */
    m->slice_errors = on;
}

const otpu_error *otpu_machine_slice_error(const otpu_machine *m, uint32_t s)
{
    return m->slice_errors && s < m->cfg.S && m->sl[s].failed ? &m->slice_err[s] : NULL;
}

uint32_t otpu_machine_slices(const otpu_machine *m)
{
    return m->cfg.S;
}

uint64_t otpu_machine_chains(const otpu_machine *m)
{
    return m->chains;
}

otpu_slice_view otpu_machine_view(const otpu_machine *m, uint32_t s)
{
    const otpu_slice *sl = &m->sl[s];
    otpu_slice_view v = {sl->dram, sl->tmem, sl->act, sl->ascale, sl->R, sl->pc, sl->icount,
                         sl->stalls, sl->halted, sl->failed, sl->prog, sl->nprog, sl->depth,
                         {{0}}};
    for (unsigned k = 0; k < sl->depth; k++) {
        const otpu_loop *l = &sl->stack[k];
        v.loops[k].start = l->start;
        v.loops[k].end = l->end;
        v.loops[k].total = l->total;
        v.loops[k].iteration = l->total - l->count;
    }
    return v;
}

/* ------------------------------------------------------------------ listener calls */

static void retire(otpu_machine *m, otpu_slice *s, int faulted)
{
    if (!m->has_listener)
        return;
    otpu_retired r = {
        .slice = s->sid, .n = s->cur_n, .pc = s->cur_pc,
        .ins = s->cur_pc < s->nprog ? &s->prog[s->cur_pc] : NULL,
        .writes = s->log, .nwrites = s->nlog, .faulted = faulted,
    };
    if (m->listener.on_retire)
        m->listener.on_retire(m->listener.user, &r);
    s->nlog = 0;
}

static void host_finish(otpu_machine *m);

static int raise(otpu_machine *m, otpu_slice *s)
{
    m->failed = !m->slice_errors;
    s->failed = 1;
    if (m->slice_errors) {
        m->slice_err[s->sid] = m->err;
        if (m->first_err.kind == OTPU_ERR_NONE)
            m->first_err = m->err;
    }
    retire(m, s, 1);
    if (m->has_listener && m->listener.on_error)
        m->listener.on_error(m->listener.user, s->sid, &m->err);
    if (m->failed)
        host_finish(m);
    return -1;
}

/* ------------------------------------------------------------------ HALT CHAIN */

static int chain(otpu_machine *m, otpu_slice *s)
{
    uint32_t addr = s->chain_addr, n = s->chain_count;
    if (addr % m->cfg.D || !(n > 0 && n <= m->cfg.IMEM_WORDS / 8))
        return otpu_fail_at(s, OTPU_ERR_CHAIN, addr,
                            "HALT CHAIN to %#x, %u instructions (the address must be a multiple "
                            "of D = %u, the count 1..%llu)", addr, n, m->cfg.D,
                            (unsigned long long)(m->cfg.IMEM_WORDS / 8));
    if (otpu_bounds_dram_words(s, addr, 1, 0, 8 * (uint64_t)n, 4))
        return -1;
    if (decode_program(s, (const uint32_t *)(s->dram + addr), n))
        return otpu_fail(s, OTPU_ERR_NOMEM, "HALT CHAIN: out of memory for the program");
    otpu_slice_restart(s, s->args);
    m->chains++;
    return 0;
}

/* Execute one instruction of slice s, with the listener calls around it. */
static int step(otpu_machine *m, otpu_slice *s)
{
    host_begin(m);
    if (m->has_listener && m->listener.on_issue)
        m->listener.on_issue(m->listener.user, s->sid, s->icount, s->pc,
                             s->pc < s->nprog ? &s->prog[s->pc] : NULL);
    s->nlog = 0;
    if (otpu_slice_step(s))
        return raise(m, s);
    if (s->log_oom)
        return otpu_fail(s, OTPU_ERR_NOMEM, "cannot grow the write log"), raise(m, s);
    if (s->waiting || s->polling)
        return 0; /* retires when the collective completes or the word holds */
    if (s->halted && s->chain) {
        uint32_t addr = s->chain_addr, count = s->chain_count, pc = s->pc;
        uint64_t n = s->cur_n;
        if (chain(m, s))
            return raise(m, s);
        if (m->has_listener && m->listener.on_retire) {
            otpu_retired r = {.slice = s->sid, .n = n, .pc = pc, .ins = NULL, .writes = s->log,
                              .nwrites = s->nlog, .chain = 1, .chain_addr = addr,
                              .chain_count = count};
            m->listener.on_retire(m->listener.user, &r);
        }
        s->nlog = 0;
        return 0;
    }
    retire(m, s, 0);
    return 0;
}

void otpu_machine_set_strict(otpu_machine *m, unsigned rules)
{
    for (uint32_t s = 0; s < m->cfg.S; s++)
        m->sl[s].strict = rules;
}

/* ------------------------------------------------------------------ collectives */

/* strict mode: no word of a slice's GATHER source is also written by it (the ISA: source and
 * destination must not overlap; a word both read and written is what an RTL that copies in place
 * gets wrong). The destination words are marked on the TMEM scoreboard, then the source is
 * looked up: as much work as the copy. Called after both ranges were checked. */
static int gather_strict(otpu_slice *sl, const otpu_gather_ops *g, uint32_t S)
{
    if (!(sl->strict & OTPU_STRICT_GATHER) || !g->rows || !g->cols)
        return 0;
    if (otpu_stamp_begin(sl))
        return -1;
    uint64_t src = g->src.value, dst = g->dst.value;
    for (uint32_t k = 0; k < S; k++)
        for (uint64_t r = 0; r < g->rows; r++)
            for (uint64_t c = 0, at = dst + k * (uint64_t)g->seg + r * g->drs; c < g->cols; c++)
                sl->hz[at + c].stamp = sl->hz_gen;
    for (uint64_t r = 0; r < g->rows; r++)
        for (uint64_t c = 0, at = src + r * g->srs; c < g->cols; c++)
            if (sl->hz[at + c].stamp == sl->hz_gen)
                return otpu_fail_at(sl, OTPU_ERR_RULE, at + c,
                                    "GATHER: source word T[%#llx] (row %llu, column %llu) is also "
                                    "written by it (the ISA: source and destination must not "
                                    "overlap; strict mode)",
                                    (unsigned long long)(at + c), (unsigned long long)r,
                                    (unsigned long long)c);
    return 0;
}

static int gather(otpu_machine *m)
{
    uint32_t S = m->cfg.S;
    otpu_gather_ops g[OTPU_MAX_SLICES];
    for (uint32_t s = 0; s < S; s++) {
        otpu_slice *sl = &m->sl[s];
        g[s] = otpu_operands(&sl->prog[sl->pc], sl->R).gather;
        /* the reference compares dst (as encoded), rows, cols, drs and seg */
        if (s && (g[s].dst.imm != g[0].dst.imm || g[s].rows != g[0].rows ||
                  g[s].cols != g[0].cols || g[s].drs != g[0].drs || g[s].seg != g[0].seg))
            return otpu_fail(sl, OTPU_ERR_COLLECTIVE,
                             "GATHER: slices disagree on dst/rows/cols/drs/seg (slice 0 and "
                             "slice %u)", s);
    }
    uint32_t rows = g[0].rows, cols = g[0].cols, drs = g[0].drs, seg = g[0].seg;
    size_t per = (size_t)rows * cols, need = per * S;
    if (need > m->gather_cap) {
        uint32_t *p = realloc(m->gather_buf, need * sizeof *p);
        if (!p)
            return otpu_fail(&m->sl[0], OTPU_ERR_NOMEM, "cannot allocate the GATHER buffer");
        m->gather_buf = p;
        m->gather_cap = need;
    }
    for (uint32_t s = 0; s < S; s++) {
        otpu_slice *sl = &m->sl[s];
        uint64_t src = g[s].src.value;
        if (otpu_bounds_tmem(sl, src, rows, g[s].srs, cols, 1))
            return -1;
        for (uint32_t r = 0; r < rows && cols; r++) /* (no rows x 0 copies: no buffer) */
            memcpy(m->gather_buf + s * per + (size_t)r * cols,
                   sl->tmem + src + (uint64_t)r * g[s].srs, cols * sizeof(uint32_t));
    }
    for (uint32_t s = 0; s < S; s++) {
        otpu_slice *sl = &m->sl[s];
        uint64_t dst = g[s].dst.value;
        for (uint32_t k = 0; k < S; k++)
            if (otpu_bounds_tmem(sl, dst + (uint64_t)k * seg, rows, drs, cols, 1))
                return -1;
        if (gather_strict(sl, &g[s], S))
            return -1;
        for (uint32_t k = 0; k < S; k++) {
            uint64_t base = dst + (uint64_t)k * seg;
            for (uint32_t r = 0; r < rows; r++)
                for (uint32_t c = 0; c < cols; c++)
                    otpu_tmem_put(sl, base + (uint64_t)r * drs + c,
                                  m->gather_buf[k * per + (size_t)r * cols + c]);
        }
    }
    return 0;
}

/* Slice-errors mode: the error in m->err (raised on one slice) stops every live slice in the
 * state polling names (waiting at the collective, or polling a WAITW), each with its own copy. */
static int raise_all(otpu_machine *m, int polling)
{
    otpu_err_kind kind = m->err.kind;
    char why[sizeof m->sl[0].why];
    snprintf(why, sizeof why, "%s", m->sl[m->err.slice].why);
    for (uint32_t s = 0; s < m->cfg.S; s++) {
        otpu_slice *sl = &m->sl[s];
        if (otpu_slice_live(sl) && (polling ? sl->polling : sl->waiting)) {
            otpu_fail(sl, kind, "%s", why); /* the same reason, at this slice's instruction */
            raise(m, sl);
        }
    }
    return -1;
}

/* Every live slice waits at a BAR or GATHER: complete it on all of them. */
static int collective(otpu_machine *m, uint32_t nlive)
{
    uint32_t S = m->cfg.S, first = 0;
    while (!otpu_slice_live(&m->sl[first]))
        first++;
    otpu_slice *f = &m->sl[first];
    int rc = 0;
    if (nlive != S) {
        rc = otpu_fail(f, OTPU_ERR_COLLECTIVE, "collective with a halted slice");
    } else {
        unsigned op = f->prog[f->pc].op;
        for (uint32_t s = 1; s < S && !rc; s++)
            if (m->sl[s].prog[m->sl[s].pc].op != op)
                rc = otpu_fail(&m->sl[s], OTPU_ERR_COLLECTIVE,
                               "slices disagree on the collective instruction (slice 0 %s, "
                               "slice %u %s)", otpu_op_name(op), s,
                               otpu_op_name(m->sl[s].prog[m->sl[s].pc].op));
        if (!rc && op == OTPU_OP_GATHER)
            rc = gather(m);
    }
    if (rc && m->slice_errors) /* as the RTL: the collective fails on every slice at it */
        return raise_all(m, 0);
    if (rc) {
        int blamed = m->err.slice;
        for (uint32_t s = 0; s < S; s++)
            if (!m->sl[s].halted && (int)s != blamed)
                retire(m, &m->sl[s], 1);
        return raise(m, &m->sl[blamed]);
    }
    for (uint32_t s = 0; s < S; s++) {
        otpu_slice *sl = &m->sl[s];
        sl->waiting = 0;
        retire(m, sl, 0);
        otpu_slice_advance(sl);
    }
    return 0;
}

/* Every slice that can run is blocked and some WAITW polls: ask the host, poll again. A
 * WAITW that still does not hold when the host can do nothing more is the timeout. */
static int host_round(otpu_machine *m)
{
    otpu_slice *first = NULL;
    for (uint32_t s = 0; s < m->cfg.S && !first; s++)
        if (otpu_slice_live(&m->sl[s]) && m->sl[s].polling)
            first = &m->sl[s];
    if (!m->host) {
        otpu_fail(first, OTPU_ERR_WAITW, "WAITW timeout: the word does not hold and no host is "
                                         "attached to write it");
        return m->slice_errors ? raise_all(m, 1) : raise(m, first);
    }
    int more = m->host(m, m->host_user) > 0;
    int progressed = 0;
    m->poll_rounds++;
    for (uint32_t s = 0; s < m->cfg.S; s++) {
        otpu_slice *sl = &m->sl[s];
        if (!otpu_slice_live(sl) || !sl->polling)
            continue;
        int r = otpu_slice_poll(sl);
        if (r < 0)
            return raise(m, sl);
        if (r > 0) {
            progressed = 1;
            retire(m, sl, 0);
        }
    }
    if (!progressed && !more) {
        otpu_fail(first, OTPU_ERR_WAITW, "WAITW timeout: the word still does not hold and the "
                                         "host has nothing more to do");
        return m->slice_errors ? raise_all(m, 1) : raise(m, first);
    }
    return 0;
}

int otpu_machine_step(otpu_machine *m, uint32_t s)
{
    if (m->failed)
        return -1; /* the error stands: nothing runs after it */
    if (s >= m->cfg.S || !otpu_slice_runnable(&m->sl[s]))
        return 1;
    return step(m, &m->sl[s]);
}

int otpu_machine_settle(otpu_machine *m)
{
    uint32_t S = m->cfg.S, nlive = 0, nwait = 0, npoll = 0;
    if (m->failed)
        return -1;
    host_begin(m);
    for (uint32_t s = 0; s < S; s++) {
        if (otpu_slice_runnable(&m->sl[s]))
            return 0;
        nlive += otpu_slice_live(&m->sl[s]);
        nwait += otpu_slice_live(&m->sl[s]) && m->sl[s].waiting;
        npoll += otpu_slice_live(&m->sl[s]) && m->sl[s].polling;
    }
    if (!nlive) /* every slice halted (or failed): a host script may run one again */
        return m->script && m->host(m, m->host_user) > 0 ? 1 : 0;
    if (nwait == nlive)
        return collective(m, nlive) ? -1 : 1;
    if (npoll)
        return host_round(m) ? -1 : 1;
    otpu_fail(&m->sl[0], OTPU_ERR_DEADLOCK, "deadlock");
    return raise(m, &m->sl[0]);
}

int otpu_machine_settle_counted(otpu_machine *m, uint64_t *steps, uint64_t max_steps)
{
    uint64_t before = m->poll_rounds;
    int r = otpu_machine_settle(m);
    *steps += m->poll_rounds - before;
    if (r < 0 || !max_steps || *steps <= max_steps)
        return r;
    otpu_slice *at = &m->sl[0];
    for (uint32_t s = 0; s < m->cfg.S; s++)
        if (otpu_slice_live(&m->sl[s]) && m->sl[s].polling) {
            at = &m->sl[s];
            break;
        }
    otpu_fail(at, OTPU_ERR_STEP_LIMIT, "step limit exceeded (%llu steps, WAITW polls counted)",
              (unsigned long long)max_steps);
    if (m->has_listener && m->listener.on_error)
        m->listener.on_error(m->listener.user, at->sid, &m->err);
    return -1;
}

int otpu_machine_run_some(otpu_machine *m, uint64_t max_steps, uint64_t budget)
{
    uint32_t S = m->cfg.S;
    uint64_t stop = budget > UINT64_MAX - m->steps ? UINT64_MAX : m->steps + budget;
    if (m->failed)
        return -1;
    for (;;) {
        for (uint32_t s = 0; s < S; s++) {
            otpu_slice *sl = &m->sl[s];
            while (otpu_slice_runnable(sl)) {
                if (step(m, sl) && !m->slice_errors)
                    return -1; /* (slice-errors mode: that slice stopped, the others go on) */
                if (max_steps && ++m->steps > max_steps) {
                    otpu_fail(sl, OTPU_ERR_STEP_LIMIT, "step limit exceeded (%llu steps)",
                              (unsigned long long)max_steps);
                    if (m->has_listener && m->listener.on_error)
                        m->listener.on_error(m->listener.user, sl->sid, &m->err);
                    return -1;
                }
                if (!max_steps)
                    m->steps++;
                /* slices meet only in otpu_machine_settle: stopping between steps and
                 * starting again from slice 0 runs the same program */
                if (m->steps >= stop)
                    return 1;
            }
        }
        int r = otpu_machine_settle_counted(m, &m->steps, max_steps);
        if (r < 0 && (!m->slice_errors || m->err.kind == OTPU_ERR_STEP_LIMIT))
            return -1;
        if (r == 0) /* every slice halted (or, slice-errors mode, stopped with its error) */
            return m->first_err.kind != OTPU_ERR_NONE ? -1 : 0;
    }
}

int otpu_machine_run(otpu_machine *m, uint64_t max_steps)
{
    m->steps = 0;
    return otpu_machine_run_some(m, max_steps, UINT64_MAX); /* an endless budget: 0 or -1 */
}

uint64_t otpu_machine_steps(const otpu_machine *m) { return m->steps; }

/* For the library's other files (slice.h): machine_access.c reaches a slice and the error slot
 * through these, so the machine's layout stays private to this file. */
otpu_slice *otpu_machine_slice(otpu_machine *m, uint32_t s)
{
    return s < m->cfg.S ? &m->sl[s] : NULL;
}

otpu_error *otpu_machine_error_slot(otpu_machine *m)
{
    return &m->err;
}

int otpu_machine_stopped(const otpu_machine *m)
{
    return m->failed;
}

void otpu_machine_clear_error(otpu_machine *m)
{
    m->failed = 0;
    memset(&m->err, 0, sizeof m->err);
    memset(&m->first_err, 0, sizeof m->first_err);
    m->err.slice = m->first_err.slice = -1;
    for (uint32_t s = 0; s < m->cfg.S; s++)
        if (m->sl[s].failed) { /* (slice-errors mode) */
            m->sl[s].failed = 0;
            m->sl[s].halted = 1;
        }
}
