/* bundle.c - reading and writing run bundles. */
#include "bundle.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return -1;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

static int parse_args(otpu_bundle *b, char *v, const char *path, int line, char *err, size_t n)
{
    b->nargs = 0;
    if (!*v)
        return 0;
    for (char *tok = strtok(v, ","); tok; tok = strtok(NULL, ",")) {
        while (*tok == ' ')
            tok++;
        char *end;
        errno = 0;
        long long x = strtoll(tok, &end, 0);
        int neg_ok = !errno && !*end && x >= INT32_MIN;
        unsigned long long ux = 0;
        if (!neg_ok) {
            errno = 0;
            ux = strtoull(tok, &end, 0);
            if (errno || *end || *tok == '-' || ux > UINT32_MAX)
                return fail(err, n, "%s:%d: ARGS: '%s' is not a 32-bit integer", path, line, tok);
            x = (long long)ux;
        }
        if (x > (long long)UINT32_MAX)
            return fail(err, n, "%s:%d: ARGS: '%s' is not a 32-bit integer", path, line, tok);
        if (b->nargs == 8)
            return fail(err, n, "%s:%d: ARGS: at most 8 run arguments (R8..R15)", path, line);
        b->args[b->nargs++] = (uint32_t)x;
    }
    return 0;
}

static int read_case(const char *dir, otpu_bundle *b, char *err, size_t n)
{
    char path[4096], buf[4096];
    snprintf(path, sizeof path, "%s/case.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, n, "%s: cannot open: %s", path, strerror(errno));
    int line = 0, rc = 0, seen_expect = 0;
    while (!rc && fgets(buf, sizeof buf, f)) {
        line++;
        chomp(buf);
        if (!buf[0] || buf[0] == '#')
            continue;
        char *eq = strchr(buf, '=');
        if (!eq) {
            rc = fail(err, n, "%s:%d: expected key=value, got '%s'", path, line, buf);
            break;
        }
        *eq = 0;
        char *k = buf, *v = eq + 1;
        uint64_t x;
        if (!strcmp(k, "desc")) {
            snprintf(b->desc, sizeof b->desc, "%s", v);
        } else if (!strcmp(k, "ARGS")) {
            rc = parse_args(b, v, path, line, err, n);
        } else if (!strcmp(k, "expect")) {
            if (strcmp(v, "ok") && strcmp(v, "error"))
                rc = fail(err, n, "%s:%d: expect must be ok or error, got '%s'", path, line, v);
            b->expect_error = !strcmp(v, "error");
            seen_expect = 1;
        } else if (!strcmp(k, "error")) {
            snprintf(b->error, sizeof b->error, "%s", v);
        } else if (parse_u64(v, &x)) {
            int known = otpu_config_set(&(otpu_config){0}, k, 0) != -1;
            rc = known ? fail(err, n, "%s:%d: %s=%s is not a non-negative integer", path, line, k, v)
                       : fail(err, n, "%s:%d: unknown key '%s'", path, line, k);
        } else {
            int r = otpu_config_set(&b->cfg, k, x);
            if (r == -1)
                rc = fail(err, n, "%s:%d: unknown key '%s'", path, line, k);
            else if (r)
                rc = fail(err, n, "%s:%d: %s=%s is too large", path, line, k, v);
        }
    }
    if (!rc && ferror(f))
        rc = fail(err, n, "%s: read error", path);
    fclose(f);
    if (!rc && b->expect_error && !seen_expect)
        rc = fail(err, n, "%s: error= without expect=error", path);
    if (!rc && otpu_config_check(&b->cfg, buf, sizeof buf))
        rc = fail(err, n, "%s: %s", path, buf);
    return rc;
}

static int read_hex(const char *path, uint64_t imem, uint32_t **out, size_t *nout, char *err,
                    size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, n, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1024, cnt = 0;
    uint32_t *w = malloc(cap * sizeof *w);
    char buf[256];
    int line = 0, rc = 0;
    while (w && !rc && fgets(buf, sizeof buf, f)) {
        line++;
        chomp(buf);
        size_t len = strlen(buf);
        int ok = len == 8;
        for (size_t i = 0; ok && i < 8; i++)
            ok = (buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f') ||
                 (buf[i] >= 'A' && buf[i] <= 'F');
        if (!ok) {
            rc = fail(err, n, "%s:%d: expected 8 hex digits, got '%.40s'", path, line, buf);
            break;
        }
        if (cnt == cap) {
            uint32_t *p = realloc(w, 2 * cap * sizeof *w);
            if (!p) {
                free(w);
                w = NULL;
                break;
            }
            w = p;
            cap *= 2;
        }
        w[cnt++] = (uint32_t)strtoul(buf, NULL, 16);
    }
    fclose(f);
    if (!w)
        return fail(err, n, "%s: out of memory", path);
    if (!rc && cnt % 8)
        rc = fail(err, n, "%s: %zu words is not a whole number of instructions (8 words each)",
                  path, cnt);
    if (!rc && cnt > imem)
        rc = fail(err, n, "%s: %zu words do not fit IMEM_WORDS=%" PRIu64, path, cnt, imem);
    if (rc) {
        free(w);
        return -1;
    }
    *out = w;
    *nout = cnt;
    return 0;
}

static int read_bin(const char *path, uint64_t maxlen, uint8_t **out, size_t *nout, char *err,
                    size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(err, n, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        fclose(f);
        return fail(err, n, "%s: not a regular file", path);
    }
    if ((uint64_t)st.st_size > maxlen) {
        fclose(f);
        return fail(err, n, "%s: %lld bytes is larger than DRAM_BYTES=%" PRIu64, path,
                    (long long)st.st_size, maxlen);
    }
    size_t len = (size_t)st.st_size;
    uint8_t *p = malloc(len ? len : 1);
    if (!p || fread(p, 1, len, f) != len) {
        free(p);
        fclose(f);
        return fail(err, n, "%s: cannot read %zu bytes", path, len);
    }
    fclose(f);
    *out = p;
    *nout = len;
    return 0;
}

int otpu_bundle_read(const char *dir, otpu_bundle *b, char *err, size_t n)
{
    memset(b, 0, sizeof *b);
    b->cfg = otpu_config_default();
    struct stat st;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode))
        return fail(err, n, "%s: not a bundle folder (%s)", dir,
                    errno ? strerror(errno) : "not a directory");
    if (read_case(dir, b, err, n))
        return -1;
    uint32_t S = b->cfg.S;
    b->prog = calloc(S, sizeof *b->prog);
    b->prog_words = calloc(S, sizeof *b->prog_words);
    b->dram = calloc(S, sizeof *b->dram);
    b->dram_len = calloc(S, sizeof *b->dram_len);
    if (!b->prog || !b->prog_words || !b->dram || !b->dram_len) {
        otpu_bundle_free(b);
        return fail(err, n, "%s: out of memory", dir);
    }
    char path[4096];
    for (uint32_t s = 0; s < S; s++) {
        snprintf(path, sizeof path, "%s/prog_%u.hex", dir, s);
        if (read_hex(path, b->cfg.IMEM_WORDS, &b->prog[s], &b->prog_words[s], err, n))
            goto bad;
        snprintf(path, sizeof path, "%s/dram_%u.bin", dir, s);
        if (read_bin(path, b->cfg.DRAM_BYTES, &b->dram[s], &b->dram_len[s], err, n))
            goto bad;
    }
    return 0;
bad:
    otpu_bundle_free(b);
    return -1;
}

void otpu_bundle_free(otpu_bundle *b)
{
    for (uint32_t s = 0; b->prog && s < b->cfg.S; s++)
        free(b->prog[s]);
    for (uint32_t s = 0; b->dram && s < b->cfg.S; s++)
        free(b->dram[s]);
    free(b->prog);
    free(b->prog_words);
    free(b->dram);
    free(b->dram_len);
    b->prog = NULL;
    b->dram = NULL;
    b->prog_words = NULL;
    b->dram_len = NULL;
}

int otpu_bundle_write(const char *dir, const otpu_bundle *b, char *err, size_t n)
{
    char path[4096];
    if (mkdir(dir, 0777) && errno != EEXIST)
        return fail(err, n, "%s: cannot create: %s", dir, strerror(errno));
    snprintf(path, sizeof path, "%s/case.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return fail(err, n, "%s: cannot write: %s", path, strerror(errno));
    const otpu_config *c = &b->cfg;
    if (b->desc[0])
        fprintf(f, "desc=%s\n", b->desc);
    fprintf(f, "S=%u\nD=%u\nMCOLS=%u\nACT_BLOCKS=%u\nTMEM_WORDS=%" PRIu64 "\nDRAM_BYTES=%" PRIu64
               "\nIMEM_WORDS=%" PRIu64 "\nLANES=%u\nPAIR=%u\nDSTEP=%u\nSTREAM=%u\nACT_ROWS=%u\n",
            c->S, c->D, c->MCOLS, c->ACT_BLOCKS, c->TMEM_WORDS, c->DRAM_BYTES, c->IMEM_WORDS,
            c->LANES, c->PAIR, c->DSTEP, c->STREAM, c->ACT_ROWS);
    if (b->nargs) {
        fprintf(f, "ARGS=");
        for (unsigned k = 0; k < b->nargs; k++)
            fprintf(f, "%s%" PRIu32, k ? "," : "", b->args[k]);
        fprintf(f, "\n");
    }
    fprintf(f, "expect=%s\n", b->expect_error ? "error" : "ok");
    if (b->expect_error && b->error[0])
        fprintf(f, "error=%s\n", b->error);
    if (fclose(f))
        return fail(err, n, "%s: write error", path);
    for (uint32_t s = 0; s < c->S; s++) {
        snprintf(path, sizeof path, "%s/prog_%u.hex", dir, s);
        if (!(f = fopen(path, "w")))
            return fail(err, n, "%s: cannot write: %s", path, strerror(errno));
        for (size_t i = 0; i < b->prog_words[s]; i++)
            fprintf(f, "%08" PRIx32 "\n", b->prog[s][i]);
        if (fclose(f))
            return fail(err, n, "%s: write error", path);
        snprintf(path, sizeof path, "%s/dram_%u.bin", dir, s);
        size_t len = b->dram_len[s];
        while (len && !b->dram[s][len - 1])
            len--;
        if (!(f = fopen(path, "wb")) || fwrite(b->dram[s], 1, len, f) != len || fclose(f))
            return fail(err, n, "%s: cannot write", path);
    }
    return 0;
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
            otpu_machine_load_dram(m, s, 0, b->dram[s], b->dram_len[s], err)) {
            otpu_machine_free(m);
            return NULL;
        }
    return m;
}
