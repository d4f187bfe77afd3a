/* bundle.c - reading and writing run bundles (docs/bundle.md). */
#include "bundle.h"

#include "input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    CASE_MAX_BYTES = 1 << 16, /* case.txt */
    CASE_MAX_LINE = 4096,     /* bytes of one case.txt line, without its newline */
    HOST_MAX_BYTES = 1 << 22, /* host.txt */
};

static int parse_args(otpu_bundle *b, const char *v, const char *path, int line, char *err,
                      size_t n)
{
    b->nargs = 0;
    if (!*v)
        return 0;
    for (const char *p = v;; p++) {
        size_t k = strcspn(p, ",");
        const char *t = p, *e = p + k;
        while (t < e && *t == ' ')
            t++;
        while (e > t && e[-1] == ' ')
            e--;
        int neg = t < e && *t == '-';
        uint64_t x;
        char q[64];
        if (otpu_parse_number(t + neg, (size_t)(e - t - neg), &x) ||
            x > (neg ? (uint64_t)1 << 31 : UINT32_MAX))
            return otpu_fail_msg(err, n,
                                 "%s:%d: ARGS: '%s' is not a 32-bit integer (decimal, or hex "
                                 "with 0x)",
                                 path, line, otpu_escape(t, (size_t)(e - t), q, sizeof q));
        if (b->nargs == 8)
            return otpu_fail_msg(err, n, "%s:%d: ARGS: at most 8 run arguments (R8..R15)", path,
                                 line);
        b->args[b->nargs++] = neg ? (uint32_t)(0u - (uint32_t)x) : (uint32_t)x;
        p += k;
        if (!*p)
            return 0;
    }
}

/* The keys of case.txt other than the Config fields. */
enum { K_DESC, K_ARGS, K_EXPECT, K_ERROR, K_REV, K_CONFIG };
static const char *const case_keys[K_CONFIG] = {"desc", "ARGS", "expect", "error", "REV"};

static int key_index(const char *k)
{
    for (int i = 0; i < K_CONFIG; i++)
        if (!strcmp(k, case_keys[i]))
            return i;
    for (int i = 0; i < OTPU_CONFIG_FIELDS; i++)
        if (!strcmp(k, otpu_config_field_names[i]))
            return K_CONFIG + i;
    return -1;
}

/* One line's problem with its bytes: a NUL or another control byte (a tab is allowed). */
static int bad_byte(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7F)
            return (int)i;
    }
    return -1;
}

static int parse_value(otpu_bundle *b, int key, const char *v, const char *path, int line,
                       char *err, size_t n)
{
    char q[80];
    switch (key) {
    case K_DESC:
        snprintf(b->desc, sizeof b->desc, "%s", v);
        return 0;
    case K_ERROR: /* (empty: any error) */
        if (*v && otpu_err_classify(v) == OTPU_ERR_NONE)
            return otpu_fail_msg(err, n, "%s:%d: error=%s names no kind of error (it holds the "
                                 "reference's message, e.g. 'bad DRAM word address', or is empty "
                                 "for any error)", path, line, otpu_escape(v, strlen(v), q, sizeof q));
        snprintf(b->error, sizeof b->error, "%s", v);
        return 0;
    case K_ARGS:
        return parse_args(b, v, path, line, err, n);
    case K_EXPECT:
        if (strcmp(v, "ok") && strcmp(v, "error"))
            return otpu_fail_msg(err, n, "%s:%d: expect must be ok or error, got '%s'", path, line,
                                 otpu_escape(v, strlen(v), q, sizeof q));
        b->expect_error = !strcmp(v, "error");
        return 0;
    case K_REV: {
        char names[256];
        if (otpu_rev_from_name(v, &b->cfg.revision))
            return otpu_fail_msg(err, n, "%s:%d: REV=%s is not an ISA revision this build knows "
                                 "(%s)", path, line, otpu_escape(v, strlen(v), q, sizeof q),
                                 otpu_rev_names(names, sizeof names));
        b->rev_line = line;
        return 0;
    }
    }
    const char *name = otpu_config_field_names[key - K_CONFIG];
    uint64_t x;
    if (otpu_parse_number(v, strlen(v), &x))
        return otpu_fail_msg(err, n,
                             "%s:%d: %s=%s is not a number (decimal without leading zeros, or "
                             "hex with 0x)",
                             path, line, name, otpu_escape(v, strlen(v), q, sizeof q));
    if (otpu_config_set(&b->cfg, name, x))
        return otpu_fail_msg(err, n, "%s:%d: %s=%s is too large", path, line, name, v);
    return 0;
}

/* case.txt's grammar (docs/bundle.md): key=value lines, '#' comments and blank lines; every
 * Config field and expect= exactly once; error= only with expect=error; numbers in decimal
 * or 0x hex. */
int otpu_case_parse(const char *text, size_t len, const char *path, otpu_bundle *b, char *err,
                    size_t n)
{
    int first[K_CONFIG + OTPU_CONFIG_FIELDS] = {0}; /* the line each key was given on */
    char q[80];
    const char *p = text, *end = text + len;
    for (int line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t k = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *next = nl ? nl + 1 : end;
        if (k && p[k - 1] == '\r')
            k--;
        if (k > CASE_MAX_LINE)
            return otpu_fail_msg(err, n, "%s:%d: the line is longer than %d bytes", path, line,
                                 CASE_MAX_LINE);
        int bad = bad_byte(p, k);
        if (bad >= 0)
            return otpu_fail_msg(err, n, "%s:%d: byte %d of the line is a control byte (\\x%02x)",
                                 path, line, bad + 1, (unsigned char)p[bad]);
        char buf[CASE_MAX_LINE + 1];
        memcpy(buf, p, k);
        buf[k] = 0;
        p = next;
        if (!buf[0] || buf[0] == '#')
            continue;
        char *eq = strchr(buf, '=');
        if (!eq)
            return otpu_fail_msg(err, n, "%s:%d: expected key=value, got '%s'", path, line,
                                 otpu_escape(buf, k, q, sizeof q));
        *eq = 0;
        int key = key_index(buf);
        if (key < 0)
            return otpu_fail_msg(err, n, "%s:%d: unknown key '%s'", path, line,
                                 otpu_escape(buf, strlen(buf), q, sizeof q));
        if (first[key])
            return otpu_fail_msg(err, n, "%s:%d: %s is given twice (first on line %d)", path, line,
                                 buf, first[key]);
        first[key] = line;
        if (parse_value(b, key, eq + 1, path, line, err, n))
            return -1;
    }
    char missing[256] = "";
    for (int i = 0; i < OTPU_CONFIG_FIELDS; i++)
        if (!first[K_CONFIG + i])
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s",
                     otpu_config_field_names[i]);
    if (!first[K_EXPECT])
        snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " expect");
    if (missing[0])
        return otpu_fail_msg(err, n, "%s: missing%s (a bundle states its whole Config and expect=)",
                             path, missing);
    if (first[K_ERROR] && !b->expect_error)
        return otpu_fail_msg(err, n, "%s:%d: error= needs expect=error", path, first[K_ERROR]);
    char why[256];
    if (otpu_config_check(&b->cfg, why, sizeof why))
        return otpu_fail_msg(err, n, "%s: %s", path, why);
    return 0;
}

int otpu_hex_parse(const char *text, size_t len, const char *path, uint64_t max_words,
                   uint32_t **out, size_t *nout, char *err, size_t n)
{
    /* 9 bytes a word ("%08x\n"); a longer file has a bad line somewhere, found below */
    size_t cap = len / 9 + 1, cnt = 0;
    uint32_t *w = malloc(cap * sizeof *w);
    if (!w)
        return otpu_fail_msg(err, n, "%s: out of memory", path);
    const char *p = text, *end = text + len;
    for (int line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t k = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (k && p[k - 1] == '\r')
            k--;
        uint32_t v = 0;
        int ok = k == 8;
        for (size_t i = 0; ok && i < 8; i++) {
            char ch = p[i];
            int d = ch >= '0' && ch <= '9' ? ch - '0'
                : ch >= 'a' && ch <= 'f'   ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F'   ? ch - 'A' + 10
                                           : -1;
            ok = d >= 0;
            v = v << 4 | (uint32_t)(d & 15);
        }
        if (!ok || cnt == cap) {
            char q[64];
            free(w);
            return otpu_fail_msg(err, n, "%s:%d: expected 8 hex digits, got '%s'", path, line,
                                 otpu_escape(p, k, q, sizeof q));
        }
        w[cnt++] = v;
        p = nl ? nl + 1 : end;
    }
    const char *why = cnt % 8 ? "is not a whole number of instructions (8 words each)"
        : cnt > max_words     ? "is more than IMEM_WORDS"
                              : NULL;
    if (why) {
        free(w);
        return otpu_fail_msg(err, n, "%s: %zu words %s", path, cnt, why);
    }
    *out = w;
    *nout = cnt;
    return 0;
}

static int read_case(const char *dir, otpu_bundle *b, char *err, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/case.txt", dir);
    char *text;
    size_t len;
    if (otpu_input_read(path, CASE_MAX_BYTES, &text, &len, err, n))
        return -1;
    int rc = otpu_case_parse(text, len, path, b, err, n);
    free(text);
    return rc;
}

static int read_hex(const char *path, uint64_t imem, uint32_t **out, size_t *nout, char *err,
                    size_t n)
{
    char *text;
    size_t len;
    /* "%08x\r\n" for each of IMEM_WORDS words is 10 x IMEM_WORDS bytes: a file twice that
     * size is refused unread; a smaller one too long is named by the parser (IMEM_WORDS) */
    if (otpu_input_read(path, (size_t)imem * 20 + 4096, &text, &len, err, n))
        return -1;
    int rc = otpu_hex_parse(text, len, path, imem, out, nout, err, n);
    free(text);
    return rc;
}

static int read_bin(const char *path, uint64_t maxlen, uint8_t **out, size_t *nout, char *err,
                    size_t n)
{
    char *data;
    if (otpu_input_read(path, maxlen > SIZE_MAX - 1 ? SIZE_MAX - 1 : (size_t)maxlen, &data, nout,
                        err, n))
        return -1;
    *out = (uint8_t *)data;
    return 0;
}

/* path = dir/name; 1 when something is there (an optional file of the bundle), else 0 */
static int optional_file(const char *dir, const char *name, char path[4096])
{
    snprintf(path, 4096, "%s/%s", dir, name);
    return otpu_input_exists(path);
}

/* plusargs.txt (optional): one line of "+name=value" words separated by spaces or tabs (a
 * final newline allowed), kept joined by one space; the model ignores them, tools that run the
 * RTL for a bundle (otpu-shrink) pass them on. */
static int read_plusargs(const char *path, otpu_bundle *b, char *err, size_t n)
{
    char *text;
    size_t len;
    if (otpu_input_read(path, sizeof b->plusargs - 1, &text, &len, err, n))
        return -1;
    if (len && text[len - 1] == '\n')
        text[--len] = 0;
    if (len && text[len - 1] == '\r')
        text[--len] = 0;
    int rc = 0;
    if (bad_byte(text, len) >= 0)
        rc = otpu_fail_msg(err, n, "%s: one line of +name=value words, without control bytes",
                           path);
    size_t o = 0;
    for (const char *p = text + strspn(text, " \t"); !rc && *p; p += strspn(p, " \t")) {
        size_t k = strcspn(p, " \t");
        const char *eq = memchr(p, '=', k);
        if (p[0] != '+' || !eq || eq == p + 1 || eq == p + k - 1) {
            char q[80];
            rc = otpu_fail_msg(err, n, "%s: '%s' is not a +name=value word", path,
                               otpu_escape(p, k, q, sizeof q));
        }
        if (o)
            b->plusargs[o++] = ' ';
        memcpy(b->plusargs + o, p, k);
        o += k;
        p += k;
    }
    b->plusargs[o] = 0;
    free(text);
    return rc;
}

/* A prog_<s>.hex or dram_<s>.bin for a slice the Config does not have is a bundle that
 * does not say what it means (a wrong S): refused. */
static int stray_slice(const char *dir, uint32_t S, char *err, size_t n)
{
    char path[4096];
    for (uint32_t s = S; s < S + 64; s++)
        for (int k = 0; k < 2; k++) {
            snprintf(path, sizeof path, k ? "%s/dram_%u.bin" : "%s/prog_%u.hex", dir, s);
            if (otpu_input_exists(path))
                return otpu_fail_msg(err, n,
                                     "%s: the bundle's Config has S=%u, so there is no slice %u",
                                     path, S, s);
        }
    return 0;
}

/* host.txt (optional, at path in folder dir): the host's steps, and the programs its load steps
 * name */
static int read_host(const char *dir, const char *path, otpu_bundle *b, char *err, size_t n)
{
    if (otpu_input_read(path, HOST_MAX_BYTES, &b->host_text, &b->host_len, err, n) ||
        otpu_host_parse(b->host_text, b->host_len, path, &b->cfg, &b->host, err, n))
        return -1;
    for (size_t k = 0; k < b->host.n; k++) {
        otpu_host_step *st = &b->host.steps[k];
        if (st->kind != OTPU_HS_LOAD)
            continue;
        char prog[4096];
        snprintf(prog, sizeof prog, "%s/%s", dir, st->file);
        if (read_hex(prog, b->cfg.IMEM_WORDS, &st->words, &st->nwords, err, n))
            return -1;
        if (!st->nwords)
            return otpu_fail_msg(err, n, "%s/host.txt:%d: load: %s holds no instruction", dir,
                                 st->line, st->file);
    }
    return 0;
}

/* dram_<s>.bin left open for otpu_bundle_machine (otpu_bundle_read_lazy) */
static int open_bin(const char *path, uint64_t maxlen, int *fd, size_t *nout, char *err,
                    size_t n)
{
    uint64_t size;
    *fd = otpu_input_open_fd(path, maxlen > SIZE_MAX - 1 ? SIZE_MAX - 1 : maxlen, &size, err, n);
    *nout = *fd < 0 ? 0 : (size_t)size;
    return *fd < 0 ? -1 : 0;
}

static int read_bundle(const char *dir, otpu_bundle *b, int lazy, char *err, size_t n)
{
    memset(b, 0, sizeof *b);
    b->cfg = otpu_config_default();
    struct stat st;
    if (stat(dir, &st))
        return otpu_fail_msg(err, n, "%s: not a bundle folder (%s)", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return otpu_fail_msg(err, n, "%s: not a bundle folder (not a directory)", dir);
    char path[4096];
    if (read_case(dir, b, err, n) || stray_slice(dir, b->cfg.S, err, n) ||
        (optional_file(dir, "plusargs.txt", path) && read_plusargs(path, b, err, n)))
        return -1;
    if (optional_file(dir, "host.txt", path) && read_host(dir, path, b, err, n)) {
        otpu_bundle_free(b);
        return -1;
    }
    uint32_t S = b->cfg.S;
    b->prog = calloc(S, sizeof *b->prog);
    b->prog_words = calloc(S, sizeof *b->prog_words);
    b->dram = calloc(S, sizeof *b->dram);
    b->dram_len = calloc(S, sizeof *b->dram_len);
    b->dram_fd = lazy ? malloc(S * sizeof *b->dram_fd) : NULL;
    if (!b->prog || !b->prog_words || !b->dram || !b->dram_len || (lazy && !b->dram_fd)) {
        otpu_bundle_free(b);
        return otpu_fail_msg(err, n, "%s: out of memory", dir);
    }
    for (uint32_t s = 0; lazy && s < S; s++)
        b->dram_fd[s] = -1;
    for (uint32_t s = 0; s < S; s++) {
        snprintf(path, sizeof path, "%s/prog_%u.hex", dir, s);
        if (read_hex(path, b->cfg.IMEM_WORDS, &b->prog[s], &b->prog_words[s], err, n))
            goto bad;
        snprintf(path, sizeof path, "%s/dram_%u.bin", dir, s);
        if (lazy ? open_bin(path, b->cfg.DRAM_BYTES, &b->dram_fd[s], &b->dram_len[s], err, n)
                 : read_bin(path, b->cfg.DRAM_BYTES, &b->dram[s], &b->dram_len[s], err, n))
            goto bad;
    }
    return 0;
bad:
    otpu_bundle_free(b);
    return -1;
}

int otpu_bundle_read(const char *dir, otpu_bundle *b, char *err, size_t n)
{
    return read_bundle(dir, b, 0, err, n);
}

int otpu_bundle_read_lazy(const char *dir, otpu_bundle *b, char *err, size_t n)
{
    return read_bundle(dir, b, 1, err, n);
}

int otpu_bundle_set_rev(otpu_bundle *b, const char *dir, otpu_revision rev, char *err, size_t n)
{
    if (rev == OTPU_REV_UNSET)
        return 0;
    if (b->rev_line && b->cfg.revision != rev)
        return otpu_fail_msg(err, n, "%s/case.txt:%d: REV=%s contradicts --rev %s", dir,
                             b->rev_line, otpu_rev_name(b->cfg.revision), otpu_rev_name(rev));
    b->cfg.revision = rev;
    char why[256];
    if (otpu_config_check(&b->cfg, why, sizeof why))
        return otpu_fail_msg(err, n, "%s/case.txt: %s (--rev %s)", dir, why, otpu_rev_name(rev));
    return 0;
}

void otpu_bundle_free(otpu_bundle *b)
{
    for (uint32_t s = 0; b->prog && s < b->cfg.S; s++)
        free(b->prog[s]);
    for (uint32_t s = 0; b->dram && s < b->cfg.S; s++)
        free(b->dram[s]);
    for (uint32_t s = 0; b->dram_fd && s < b->cfg.S; s++)
        if (b->dram_fd[s] >= 0)
            close(b->dram_fd[s]);
    free(b->dram_fd);
    b->dram_fd = NULL;
    free(b->prog);
    free(b->prog_words);
    free(b->dram);
    free(b->dram_len);
    otpu_host_script_free(&b->host);
    free(b->host_text);
    b->host_text = NULL;
    b->prog = NULL;
    b->dram = NULL;
    b->prog_words = NULL;
    b->dram_len = NULL;
}

otpu_machine *otpu_bundle_machine(const otpu_bundle *b, otpu_error *err)
{
    otpu_machine *m = otpu_machine_new(&b->cfg, err);
    if (!m)
        return NULL;
    uint32_t args[8] = {0};
    memcpy(args, b->args, b->nargs * sizeof args[0]);
    otpu_machine_set_args(m, args);
    for (uint32_t s = 0; s < b->cfg.S; s++)
        if (otpu_machine_load_program(m, s, b->prog[s], b->prog_words[s], err) ||
            (!b->dram[s] && b->dram_fd && b->dram_fd[s] >= 0
                 ? otpu_machine_read_dram(m, s, 0, b->dram_fd[s], b->dram_len[s], err)
                 : otpu_machine_load_dram(m, s, 0, b->dram[s], b->dram_len[s], err))) {
            otpu_machine_free(m);
            return NULL;
        }
    if (b->host.n && otpu_machine_set_host_script(m, &b->host, args)) {
        otpu_machine_free(m);
        memset(err, 0, sizeof *err);
        err->kind = OTPU_ERR_NOMEM;
        snprintf(err->msg, sizeof err->msg, "out of memory for the host's steps");
        return NULL;
    }
    return m;
}
