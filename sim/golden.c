/* golden.c - comparing a run with the golden vectors' files (FORMAT.md). */
#include "golden.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle.h"
#include "trace.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *p = NULL;
    size_t cap = 0, len = 0, k;
    char buf[65536];
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) {
        if (len + k + 1 > cap) {
            cap = 2 * (len + k + 1);
            char *q = realloc(p, cap);
            if (!q) {
                free(p);
                fclose(f);
                return NULL;
            }
            p = q;
        }
        memcpy(p + len, buf, k);
        len += k;
    }
    fclose(f);
    if (!p)
        p = calloc(1, 1);
    else
        p[len] = 0;
    return p;
}

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
            if (k != ours)
                return say(r, n, 1, "%s/%s:%d: error kinds differ: expected %s ('%s'), got %s "
                           "('%.*s')", dir, name, line, otpu_err_kind_name(k), msg,
                           otpu_err_kind_name(ours), gl - 2, got + 2);
            same = 1;
        }
        if (!same)
            return say(r, n, 1, "%s/%s:%d: expected '%.*s'%s, got '%.*s'%s", dir, name, line, wl,
                       want, *want ? "" : " (end of file)", gl, got, *got ? "" : " (end of file)");
        want += wl + (we ? 1 : 0);
        got += gl + (ge ? 1 : 0);
    }
    return 0;
}

int otpu_golden_check(const char *dir, uint64_t max_steps, char *r, size_t n)
{
    otpu_bundle b;
    if (otpu_bundle_read(dir, &b, r, n))
        return 2;
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(&b, &e);
    if (!m) {
        otpu_bundle_free(&b);
        return say(r, n, 2, "%s", e.msg);
    }
    uint32_t S = b.cfg.S;
    char **want = calloc(S, sizeof *want), **text = calloc(S, sizeof *text);
    size_t *len = calloc(S, sizeof *len);
    FILE **files = calloc(S, sizeof *files);
    char path[4096];
    int traced = 0, rc = 0, compared = 0;
    for (uint32_t s = 0; s < S; s++) {
        snprintf(path, sizeof path, "%s/trace_%u.txt", dir, s);
        if ((want[s] = slurp(path)) != NULL) {
            files[s] = open_memstream(&text[s], &len[s]);
            traced = 1;
        }
    }
    otpu_tracer *t = NULL;
    if (traced) {
        t = otpu_tracer_new(files, S, &b.cfg);
        otpu_listener l = otpu_tracer_listener(t);
        otpu_machine_set_listener(m, &l);
    }
    int failed = otpu_machine_run(m, max_steps) != 0;
    const otpu_error *me = otpu_machine_error(m);
    otpu_err_kind kind = failed ? me->kind : OTPU_ERR_NONE;
    if (b.expect_error != failed)
        rc = say(r, n, 1, "%s: expected %s, got %s", dir, b.expect_error ? b.error : "a clean run",
                 failed ? me->msg : "a clean run");
    else if (failed && b.error[0] && otpu_err_classify(b.error) != kind)
        rc = say(r, n, 1, "%s: expected a %s error ('%s'), got %s ('%s')", dir,
                 otpu_err_kind_name(otpu_err_classify(b.error)), b.error,
                 otpu_err_kind_name(kind), me->msg);
    for (uint32_t s = 0; s < S && !rc; s++) {
        char name[64];
        if (files[s]) {
            fclose(files[s]);
            files[s] = NULL;
            snprintf(name, sizeof name, "trace_%u.txt", s);
            rc = compare(dir, name, want[s], text[s], kind, r, n);
            compared++;
        }
        snprintf(name, sizeof name, "final_%u.txt", s);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        char *fw = rc ? NULL : slurp(path);
        if (fw) {
            char *fin = NULL;
            size_t flen;
            FILE *f = open_memstream(&fin, &flen);
            otpu_final_write(f, m, s);
            fclose(f);
            rc = compare(dir, name, fw, fin, kind, r, n);
            compared++;
            free(fin);
            free(fw);
        }
    }
    if (!rc && !compared)
        rc = say(r, n, 1, "%s: no trace_<s>.txt or final_<s>.txt to compare with", dir);
    if (!rc)
        say(r, n, 0, "%s: ok (%u slice%s, %d golden files match%s)", dir, S, S > 1 ? "s" : "",
            compared, failed ? ", the expected error" : "");
    for (uint32_t s = 0; s < S; s++) {
        if (files[s])
            fclose(files[s]);
        free(text[s]);
        free(want[s]);
    }
    free(want);
    free(text);
    free(len);
    free(files);
    otpu_tracer_free(t);
    otpu_machine_free(m);
    otpu_bundle_free(&b);
    return rc;
}
