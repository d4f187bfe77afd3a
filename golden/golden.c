/* golden.c - comparing a run with the golden vectors' files (FORMAT.md). */
#include "golden.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle.h"
#include "input.h"
#include "outcome.h"
#include "trace.h"

static int say(char *r, size_t n, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int say(char *r, size_t n, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r, n, fmt, ap);
    va_end(ap);
    return rc;
}

/* Compare our text with a golden text line by line. E lines match by error kind. */
static int compare(const char *dir, const char *name, const char *want, const char *got,
                   otpu_err_kind ours, char *r, size_t n)
{
    for (int line = 1; *want || *got; line++) {
        const char *we = strchr(want, '\n'), *ge = strchr(got, '\n');
        int wl = (int)(we ? we - want : (long)strlen(want)), gl = (int)(ge ? ge - got : (long)strlen(got));
        int same = wl == gl && !memcmp(want, got, (size_t)wl);
        if (!same && wl > 2 && gl > 2 && !strncmp(want, "E ", 2) && !strncmp(got, "E ", 2)) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%.*s", wl - 2, want + 2);
            otpu_err_kind k = otpu_err_classify(msg);
            if (k != ours) {
                char q[200];
                return say(r, n, 1, "%s/%s:%d: error kinds differ: expected %s ('%s'), got %s "
                           "('%.*s')", dir, name, line, otpu_err_kind_name(k),
                           otpu_escape(msg, strlen(msg), q, sizeof q), otpu_err_kind_name(ours),
                           gl - 2, got + 2);
            }
            same = 1;
        }
        if (!same) {
            char q[200];
            return say(r, n, 1, "%s/%s:%d: expected '%s'%s, got '%.*s'%s", dir, name, line,
                       otpu_escape(want, (size_t)wl, q, sizeof q), *want ? "" : " (end of file)",
                       gl, got, *got ? "" : " (end of file)");
        }
        want += wl + (we ? 1 : 0);
        got += gl + (ge ? 1 : 0);
    }
    return 0;
}

int otpu_golden_compare(const otpu_bundle *b, const char *dir, char *const *trace,
                        char *const *final, uint64_t max_steps, char *r, size_t n)
{
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(b, &e);
    if (!m)
        return say(r, n, 2, "%s", e.msg);
    uint32_t S = b->cfg.S;
    char **text = calloc(S, sizeof *text);
    size_t *len = calloc(S, sizeof *len);
    FILE **files = calloc(S, sizeof *files);
    otpu_tracer *t = NULL;
    int rc = 0;
    if (!text || !len || !files) {
        rc = say(r, n, 2, "%s: out of memory", dir);
        goto done;
    }
    for (uint32_t s = 0; s < S && trace; s++)
        if (!(files[s] = open_memstream(&text[s], &len[s]))) {
            rc = say(r, n, 2, "%s: out of memory", dir);
            goto done;
        }
    if (trace) {
        t = otpu_tracer_new(files, S, &b->cfg);
        otpu_listener l = otpu_tracer_listener(t);
        otpu_machine_set_listener(m, &l);
    }
    int failed = otpu_machine_run(m, max_steps) != 0;
    const otpu_error *me = otpu_machine_error(m);
    otpu_err_kind kind = failed ? me->kind : OTPU_ERR_NONE;
    char q[200];
    otpu_outcome met = otpu_outcome_judge(b, kind);
    if (met == OTPU_OUTCOME_ERROR || met == OTPU_OUTCOME_NO_ERROR)
        rc = say(r, n, 1, "%s: expected %s, got %s", dir,
                 !b->expect_error ? "a clean run"
                 : b->error[0] ? otpu_escape(b->error, strlen(b->error), q, sizeof q)
                 : "an error", failed ? me->msg : "a clean run");
    else if (met == OTPU_OUTCOME_WRONG_KIND)
        rc = say(r, n, 1, "%s: expected a %s error ('%s'), got %s ('%s')", dir,
                 otpu_err_kind_name(otpu_outcome_wanted(b)),
                 otpu_escape(b->error, strlen(b->error), q, sizeof q), otpu_err_kind_name(kind),
                 me->msg);
    for (uint32_t s = 0; s < S && !rc; s++) {
        char name[64];
        if (trace) {
            fclose(files[s]);
            files[s] = NULL;
            snprintf(name, sizeof name, "trace_%u.txt", s);
            rc = compare(dir, name, trace[s], text[s], kind, r, n);
        }
        char *fin = NULL;
        size_t flen;
        FILE *f = rc ? NULL : open_memstream(&fin, &flen);
        if (f) {
            otpu_final_write(f, m, s);
            fclose(f);
            snprintf(name, sizeof name, "final_%u.txt", s);
            rc = compare(dir, name, final[s], fin, kind, r, n);
        }
        free(fin);
    }
    if (!rc)
        say(r, n, 0, "%s: ok (%u slice%s, %u golden files match%s)", dir, S, S > 1 ? "s" : "",
            trace ? 2 * S : S, failed ? ", the expected error" : "");
done:
    for (uint32_t s = 0; files && text && s < S; s++) {
        if (files[s])
            fclose(files[s]);
        free(text[s]);
    }
    free(text);
    free(len);
    free(files);
    otpu_tracer_free(t);
    otpu_machine_free(m);
    return rc;
}

/* Slice s's golden file, or NULL when it does not exist (2 when it exists and cannot be read:
 * a broken link, a FIFO, too large). */
static int read_golden(const char *dir, const char *name, uint32_t s, size_t max, char **text,
                       char *r, size_t n)
{
    char path[4096];
    size_t len;
    snprintf(path, sizeof path, "%s/%s_%u.txt", dir, name, s);
    *text = NULL;
    if (!otpu_input_exists(path))
        return 0;
    return otpu_input_read(path, max, text, &len, r, n) ? 2 : 0;
}

enum { GOLDEN_MAX_TRACE = 1 << 30, GOLDEN_MAX_FINAL = 1 << 16 };

int otpu_golden_check(const char *dir, otpu_revision rev, uint64_t max_steps, char *r,
                      size_t n)
{
    otpu_bundle b;
    if (otpu_bundle_read_lazy(dir, &b, r, n)) /* images straight into DRAM */
        return 2;
    if (otpu_bundle_set_rev(&b, dir, rev, r, n)) {
        otpu_bundle_free(&b);
        return 2;
    }
    uint32_t S = b.cfg.S, ntrace = 0;
    char **trace = calloc(S, sizeof *trace), **final = calloc(S, sizeof *final);
    int rc = trace && final ? 0 : say(r, n, 2, "%s: out of memory", dir);
    for (uint32_t s = 0; s < S && !rc; s++) {
        rc = read_golden(dir, "trace", s, GOLDEN_MAX_TRACE, &trace[s], r, n);
        if (!rc)
            rc = read_golden(dir, "final", s, GOLDEN_MAX_FINAL, &final[s], r, n);
        if (!rc && !final[s])
            rc = say(r, n, 2, "%s: no final_%u.txt: a golden bundle has final_<s>.txt for every "
                     "slice", dir, s);
        ntrace += trace[s] != NULL;
    }
    if (!rc && ntrace && ntrace != S)
        rc = say(r, n, 2, "%s: trace_<s>.txt for %u of %u slices: golden traces come for every "
                 "slice or for none", dir, ntrace, S);
    if (!rc)
        rc = otpu_golden_compare(&b, dir, ntrace ? trace : NULL, final, max_steps, r, n);
    for (uint32_t s = 0; s < S; s++) {
        free(trace ? trace[s] : NULL);
        free(final ? final[s] : NULL);
    }
    free(trace);
    free(final);
    otpu_bundle_free(&b);
    return rc;
}
