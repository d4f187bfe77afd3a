/* oracle.c - running a candidate and comparing its failure with the original's (oracle.h). */
#include "oracle.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "json_input.h"
#include "machine.h"
#include "proc.h"
#include "sha256.h"

enum {
    CMD_MAX = 16384,
    TIMEOUT_CODE = 124, /* a candidate's command that ran out of time (as timeout(1)) */
};

/* What the C model makes of a bundle: how it ends, and whether the host's steps all ran and
 * held (a candidate whose host awaits a WAITW the shrinker deleted does not). */
typedef struct {
    otpu_err_kind kind; /* OTPU_ERR_NONE: every slice halted */
    int host_fails;
} outcome;

/* A candidate judged: its content digest and the verdict. */
typedef struct {
    char key[65];
    uint8_t verdict;
} judgement;

struct shrink_oracle {
    shrink_oracle_options opt;
    char cand[4096], report[4096], log[4096], json[4200];
    char command[CMD_MAX];
    char sig[512];
    int fails;
    outcome model;            /* the original's */
    uint64_t max_steps;
    double timeout;           /* seconds a candidate's command may take */
    int has_where;
    uint32_t where_slice, where_pc;
    judgement *seen;           /* the candidates judged so far */
    size_t nseen, cap;
    shrink_oracle_counts counts;
};

static outcome model_outcome(const otpu_bundle *b, uint64_t max_steps, uint64_t *steps)
{
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(b, &e);
    if (!m)
        return (outcome){e.kind == OTPU_ERR_NONE ? OTPU_ERR_NOMEM : e.kind, 0};
    outcome r = {otpu_machine_run(m, max_steps) ? otpu_machine_error(m)->kind : OTPU_ERR_NONE, 0};
    char why[8];
    r.host_fails = otpu_machine_host(m) && otpu_host_verdict(otpu_machine_host(m), why, sizeof why);
    if (steps)
        *steps = otpu_machine_steps(m);
    otpu_machine_free(m);
    return r;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* What a run can depend on: the Config, arguments, expectations, programs, DRAM, plusargs. */
static void digest(const otpu_bundle *b, char out[65])
{
    otpu_sha256 *h = otpu_sha256_new();
    if (!h) {
        out[0] = 0; /* no digest: the candidate is judged, not remembered */
        return;
    }
    otpu_sha256_update(h, &b->cfg, sizeof b->cfg);
    otpu_sha256_update(h, b->args, sizeof b->args);
    otpu_sha256_update(h, &b->nargs, sizeof b->nargs);
    otpu_sha256_update(h, &b->expect_error, sizeof b->expect_error);
    otpu_sha256_update(h, b->error, strlen(b->error) + 1);
    otpu_sha256_update(h, b->plusargs, strlen(b->plusargs) + 1);
    otpu_sha256_update(h, &b->host_len, sizeof b->host_len);
    if (b->host_text) /* (the programs its load steps name come with it) */
        otpu_sha256_update(h, b->host_text, b->host_len);
    for (size_t k = 0; k < b->host.n; k++)
        otpu_sha256_update(h, b->host.steps[k].words,
                           b->host.steps[k].nwords * sizeof b->host.steps[k].words[0]);
    for (uint32_t s = 0; s < b->cfg.S; s++) {
        size_t len = b->dram_len[s];
        while (len && !b->dram[s][len - 1])
            len--;
        otpu_sha256_update(h, &b->prog_words[s], sizeof b->prog_words[s]);
        otpu_sha256_update(h, b->prog[s], b->prog_words[s] * sizeof b->prog[s][0]);
        otpu_sha256_update(h, &len, sizeof len);
        otpu_sha256_update(h, b->dram[s], len);
    }
    otpu_sha256_final(h, out);
}


/* The --cmd template with each {} replaced by q. */
static int expand(const char *tmpl, const char *q, char *out, size_t n)
{
    size_t o = 0, ql = strlen(q);
    for (const char *p = tmpl; *p; p++) {
        int ph = p[0] == '{' && p[1] == '}';
        size_t k = ph ? ql : 1;
        if (o + k >= n)
            return -1;
        memcpy(out + o, ph ? q : p, k);
        o += k;
        p += ph;
    }
    out[o] = 0;
    return 0;
}

/* Writes c as the candidate: the bundle as every tool will read it (-1 with err: it cannot be
 * written). */
static int write_candidate(shrink_oracle *o, const otpu_bundle *c, char *err, size_t n)
{
    return otpu_bundle_write(o->cand, c, err, n);
}

/* Runs the command on the written candidate (c: its plusargs) within the time limit: its exit
 * status (128 + N for a signal, TIMEOUT_CODE when the limit ran out) in *code. */
static int run(shrink_oracle *o, const otpu_bundle *c, double limit, int *code, char *err,
               size_t n)
{
    unlink(o->log);
    char buf[CMD_MAX], plus[sizeof c->plusargs];
    char *argv[8 + sizeof c->plusargs / 2];
    size_t k = 0;
    if (o->opt.cmd) {
        char q[4200];
        if (!otpu_shell_quote(o->cand, q, sizeof q))
            return otpu_fail_msg(err, n, "%s: a name --cmd cannot quote", o->cand);
        if (expand(o->opt.cmd, q, buf, sizeof buf))
            return otpu_fail_msg(err, n, "--cmd: the command is longer than %d bytes", CMD_MAX);
        argv[k++] = "/bin/sh";
        argv[k++] = "-c";
        argv[k++] = buf;
    } else {
        argv[k++] = (char *)o->opt.lockstep;
        argv[k++] = "run";
        argv[k++] = o->cand;
        argv[k++] = "--report";
        argv[k++] = o->report;
        argv[k++] = "--wave-window";
        argv[k++] = "0";
        snprintf(plus, sizeof plus, "%s", c->plusargs);
        for (char *w = strtok(plus, " "); w; w = strtok(NULL, " "))
            argv[k++] = w;
    }
    argv[k] = NULL;
    otpu_proc_status st;
    if (otpu_proc_run_group_for(argv, o->log, limit, &st))
        return otpu_fail_msg(err, n, "%s: cannot run", argv[0]);
    if (st.interrupted)
        return otpu_fail_msg(err, n, "interrupted by signal %d", st.interrupted);
    *code = st.timed_out ? TIMEOUT_CODE : st.signal ? 128 + st.signal : st.code;
    return 0;
}

/* The run's failure signature: the exit status, and the divergence otpu-lockstep reported. */
static void signature(shrink_oracle *o, int code, char *sig, size_t n)
{
    snprintf(sig, n, code == TIMEOUT_CODE ? "exit %d (timed out)" : "exit %d", code);
    o->has_where = 0;
    if (o->opt.cmd)
        return;
    char why[256];
    json_t *j = otpu_json_read(o->json, OTPU_JSON_MAX_BYTES, why, sizeof why);
    if (!j)
        return;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    const char *unit = json_string_value(json_object_get(j, "unit"));
    json_t *in = json_object_get(j, "instruction");
    const char *dis = json_string_value(json_object_get(in, "disasm"));
    /* the divergence's bucket (checker/signature.h) where the report has one: the kind, unit,
     * opcode, memory and the shape of the difference */
    const char *key = json_string_value(json_object_get(json_object_get(j, "signature"), "key"));
    size_t l = strlen(sig);
    if (key)
        snprintf(sig + l, n - l, ", %s", key);
    else
        snprintf(sig + l, n - l, ", %s, unit %s, %.*s", kind ? kind : "?", unit ? unit : "-",
                 dis ? (int)strcspn(dis, " ") : 1, dis ? dis : "-");
    if (json_is_integer(json_object_get(j, "slice")) && json_is_object(in)) {
        o->has_where = 1;
        o->where_slice = (uint32_t)json_integer_value(json_object_get(j, "slice"));
        o->where_pc = (uint32_t)json_integer_value(json_object_get(in, "pc"));
    }
    json_decref(j);
}

/* The last line the command printed, for a message. */
static void last_line(const char *log, char *out, size_t n)
{
    char *text, e[8];
    size_t len;
    out[0] = 0;
    if (otpu_input_read(log, 1 << 20, &text, &len, e, sizeof e))
        return;
    while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    size_t a = len;
    while (a && text[a - 1] != '\n')
        a--;
    otpu_escape(text + a, len - a, out, n);
    free(text);
}

void shrink_oracle_free(shrink_oracle *o)
{
    if (!o)
        return;
    free(o->seen);
    free(o);
}

shrink_oracle *shrink_oracle_new(const shrink_oracle_options *opt, const otpu_bundle *b,
                                 char *err, size_t n)
{
    shrink_oracle *o = calloc(1, sizeof *o);
    if (!o) {
        otpu_fail_msg(err, n, "out of memory");
        return NULL;
    }
    o->opt = *opt;
    snprintf(o->cand, sizeof o->cand, "%s/candidate", opt->tmp);
    snprintf(o->report, sizeof o->report, "%s/report", opt->tmp);
    snprintf(o->json, sizeof o->json, "%s/divergence.json", o->report);
    snprintf(o->log, sizeof o->log, "%s/run.log", opt->tmp);
    if (opt->cmd)
        snprintf(o->command, sizeof o->command, "%s", opt->cmd);
    else
        snprintf(o->command, sizeof o->command,
                 "%s run {} --report DIR --wave-window 0 (and the plusargs of {}/plusargs.txt)",
                 opt->lockstep);
    /* a candidate may run at most 4 times the original's steps (plus room for small ones):
     * an edit cannot make a program loop for ever */
    uint64_t steps = 0;
    o->model = model_outcome(b, 1000000000, &steps);
    o->max_steps = 4 * steps + 1000000;
    int code;
    double t0 = now_s();
    if (write_candidate(o, b, err, n) || run(o, b, 0, &code, err, n)) {
        shrink_oracle_free(o);
        return NULL;
    }
    /* a candidate's command may take ten times the original's, and a minute more (a candidate
     * that loops is a hang, not the failure) */
    o->timeout = opt->timeout > 0 ? opt->timeout : 10 * (now_s() - t0) + 60;
    signature(o, code, o->sig, sizeof o->sig);
    o->fails = code != 0;
    int judged = o->opt.cmd ? code != 126 && code != 127
                            : code != 2 && code != 4 && code < 128;
    if (!judged) {
        char line[200];
        last_line(o->log, line, sizeof line);
        otpu_fail_msg(err, n, "the command could not judge the bundle (exit %d)%s%s", code,
                      line[0] ? ": " : "", line);
        shrink_oracle_free(o);
        return NULL;
    }
    return o;
}

int shrink_oracle_fails(const shrink_oracle *o)
{
    return o->fails;
}

const char *shrink_oracle_signature(const shrink_oracle *o)
{
    return o->sig;
}

const char *shrink_oracle_command(const shrink_oracle *o)
{
    return o->command;
}

int shrink_oracle_where(const shrink_oracle *o, uint32_t *slice, uint32_t *pc)
{
    *slice = o->where_slice;
    *pc = o->where_pc;
    return o->has_where;
}

shrink_oracle_counts shrink_oracle_counts_get(const shrink_oracle *o)
{
    return o->counts;
}

static void remember(shrink_oracle *o, const char *key, int verdict)
{
    if (!key[0])
        return;
    if (o->nseen == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 256;
        judgement *j = realloc(o->seen, cap * sizeof *j);
        if (!j)
            return; /* not remembered: judged again if it comes back */
        o->seen = j;
        o->cap = cap;
    }
    memcpy(o->seen[o->nseen].key, key, 65);
    o->seen[o->nseen++].verdict = (uint8_t)verdict;
}

int shrink_oracle_test(shrink_oracle *o, const otpu_bundle *c, char *err, size_t n)
{
    o->counts.tried++;
    char key[65];
    digest(c, key);
    for (size_t i = 0; key[0] && i < o->nseen; i++)
        if (!memcmp(o->seen[i].key, key, 65)) {
            o->counts.cached++;
            return o->seen[i].verdict;
        }
    int verdict = 0;
    /* the candidate as the tools will read it: an invalid one (host steps for a slice it no
     * longer has, say) is no repro */
    otpu_bundle v;
    char why[512];
    if (write_candidate(o, c, err, n))
        return -1;
    int valid = !otpu_bundle_read(o->cand, &v, why, sizeof why);
    outcome oc = valid ? model_outcome(&v, o->max_steps, NULL) : (outcome){0};
    if (valid)
        otpu_bundle_free(&v);
    if (!valid) {
        o->counts.invalid++;
    } else if (oc.kind != o->model.kind || oc.host_fails != o->model.host_fails) {
        o->counts.model++;
    } else {
        int code;
        o->counts.runs++;
        if (run(o, c, o->timeout, &code, err, n))
            return -1;
        if (code == 127) { /* not a verdict: the command (or its program) could not start */
            char line[200];
            last_line(o->log, line, sizeof line);
            return otpu_fail_msg(err, n, "the command could not be run (exit 127)%s%s",
                                 line[0] ? ": " : "", line);
        }
        char sig[sizeof o->sig];
        uint32_t ws = o->where_slice, wp = o->where_pc;
        int wh = o->has_where;
        signature(o, code, sig, sizeof sig);
        verdict = !strcmp(sig, o->sig);
        if (!verdict) { /* where the last same failure was stays */
            o->has_where = wh;
            o->where_slice = ws;
            o->where_pc = wp;
        }
    }
    remember(o, key, verdict);
    return verdict;
}

int shrink_oracle_confirm(shrink_oracle *o, const otpu_bundle *c, char *sig, size_t siglen,
                          char *err, size_t n)
{
    int code;
    if (write_candidate(o, c, err, n) || run(o, c, o->timeout, &code, err, n))
        return -1;
    signature(o, code, sig, siglen);
    return !strcmp(sig, o->sig);
}
