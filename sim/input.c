/* input.c - reading untrusted input files whole, and quoting their bytes (input.h). */
#include "input.h"

#include "hugepage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int otpu_fail_msg(char *err, size_t n, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* (what a message quotes is input: escaped here once, for every reader; escaping what is
     * already escaped changes nothing) */
    if (n)
        otpu_escape(line, sizeof line, err, n);
    return -1;
}

const char *otpu_file_type(unsigned m)
{
    static const struct {
        unsigned type;
        const char *name;
    } types[] = {
        {S_IFDIR, "a directory"},     {S_IFIFO, "a FIFO"},   {S_IFCHR, "a character device"},
        {S_IFBLK, "a block device"},  {S_IFSOCK, "a socket"}, {S_IFLNK, "a symbolic link"},
        {S_IFREG, "a regular file"},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if ((m & S_IFMT) == types[i].type)
            return types[i].name;
    return "not a regular file";
}

/* Opens path for reading if it is a regular file: the type is checked before the file is
 * opened, and again on the descriptor (O_NONBLOCK: opening a FIFO never waits for a writer).
 * The descriptor, or -1 with err set; *size: the file's size. */
static int open_regular(const char *path, off_t *size, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st))
        return otpu_fail_msg(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return otpu_fail_msg(err, errlen, "%s: is %s, not a regular file", path,
                             otpu_file_type(st.st_mode));
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return otpu_fail_msg(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        return otpu_fail_msg(err, errlen, "%s: is not a regular file", path);
    }
    *size = st.st_size;
    return fd;
}

FILE *otpu_input_open(const char *path, char *err, size_t errlen)
{
    off_t size;
    int fd = open_regular(path, &size, err, errlen);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        otpu_fail_msg(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

int otpu_input_open_fd(const char *path, uint64_t max, uint64_t *size, char *err,
                       size_t errlen)
{
    off_t sz = 0;
    int fd = open_regular(path, &sz, err, errlen);
    if (fd < 0)
        return -1;
    if ((uint64_t)sz > max) {
        close(fd);
        return otpu_fail_msg(err, errlen,
                             "%s: %lld bytes is more than the %llu this input may have", path,
                             (long long)sz, (unsigned long long)max);
    }
    *size = (uint64_t)sz;
    return fd;
}

/* A buffer of n bytes for a file's contents, to free(): a large one (a DRAM image) 2 MiB
 * aligned, rounded up to 2 MiB and advised for huge pages, so that reading into it costs a
 * page fault per 2 MiB rather than per 4 KiB (hugepage.h). */
static char *alloc_input(size_t n)
{
    if (n < OTPU_HUGE_BYTES / 2 || n > SIZE_MAX - OTPU_HUGE_BYTES)
        return malloc(n);
    size_t whole = (n + OTPU_HUGE_BYTES - 1) / OTPU_HUGE_BYTES * OTPU_HUGE_BYTES;
    void *p;
    if (posix_memalign(&p, OTPU_HUGE_BYTES, whole))
        return NULL;
    otpu_hint_huge(p, whole);
    return p;
}

int otpu_input_read(const char *path, size_t max, char **data, size_t *len, char *err,
                    size_t errlen)
{
    *data = NULL;
    *len = 0;
    uint64_t size;
    int fd = otpu_input_open_fd(path, max, &size, err, errlen);
    if (fd < 0)
        return -1;
    size_t cap = (size_t)size + 1, n = 0; /* + the NUL */
    char *p = alloc_input(cap);
    const char *why = p ? NULL : "out of memory";
    while (!why) {
        if (n + 1 == cap) { /* full: at the end, or the file grew since fstat */
            char probe;
            ssize_t k = read(fd, &probe, 1);
            if (k == 0)
                break;
            if (k < 0) {
                if (errno != EINTR)
                    why = strerror(errno);
                continue;
            }
            size_t grown = cap - 1 >= max ? 0 : cap * 2 - 1 > max ? max + 1 : cap * 2;
            char *q = grown ? realloc(p, grown) : NULL;
            if (!q) {
                why = grown ? "out of memory" : "it grew past the limit while being read";
                continue;
            }
            p = q;
            cap = grown;
            p[n++] = probe;
            continue;
        }
        ssize_t k = read(fd, p + n, cap - 1 - n);
        if (k < 0 && errno != EINTR)
            why = strerror(errno);
        else if (k == 0)
            break;
        else if (k > 0)
            n += (size_t)k;
    }
    if (why) {
        free(p);
        close(fd);
        return otpu_fail_msg(err, errlen, "%s: cannot read: %s", path, why);
    }
    close(fd);
    p[n] = 0;
    *data = p;
    *len = n;
    return 0;
}

int otpu_input_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

void otpu_print_line(FILE *f, const char *prefix, const char *msg)
{
    char shown[8192];
    fprintf(f, "%s%s\n", prefix, otpu_escape(msg, strlen(msg), shown, sizeof shown));
}

void otpu_print_quoting(FILE *f, const char *prefix, const char *fmt, const char *arg)
{
    char q[512];
    fputs(prefix, f);
    fprintf(f, fmt, otpu_escape(arg, strlen(arg), q, sizeof q));
    fputc('\n', f);
}

char *otpu_shell_quote(const char *s, char *out, size_t outlen)
{
    size_t o = 0;
#define PUTC(c) \
    do { if (o + 1 >= outlen) return NULL; out[o++] = (c); } while (0)
    PUTC('\'');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7F)
            return NULL;
        if (*p == '\'') {
            PUTC('\'');
            PUTC('\\');
            PUTC('\'');
        }
        PUTC((char)*p);
    }
    PUTC('\'');
#undef PUTC
    out[o] = 0;
    return out;
}

char *otpu_shell_word(const char *s, char *out, size_t outlen)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p >= 0x20 && *p < 0x7F)
        p++;
    if (!*p)
        return otpu_shell_quote(s, out, outlen);
    size_t o = 0;
#define PUTS(str)                                                                               \
    do {                                                                                        \
        size_t k_ = strlen(str);                                                                \
        if (o + k_ >= outlen)                                                                   \
            return NULL;                                                                        \
        memcpy(out + o, str, k_ + 1);                                                           \
        o += k_;                                                                                \
    } while (0)
    PUTS("$'");
    for (p = (const unsigned char *)s; *p; p++) {
        char piece[8];
        if (*p == '\'' || *p == '\\')
            snprintf(piece, sizeof piece, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7F)
            snprintf(piece, sizeof piece, "\\x%02x", *p);
        else
            snprintf(piece, sizeof piece, "%c", *p);
        PUTS(piece);
    }
    PUTS("'");
#undef PUTS
    return out;
}

char *otpu_escape(const char *s, size_t max_in, char *out, size_t outlen)
{
    if (!outlen)
        return out;
    size_t o = 0, i = 0;
    for (; i < max_in && s[i]; i++) {
        unsigned char ch = (unsigned char)s[i];
        char piece[8];
        if (ch == '\n')
            strcpy(piece, "\\n");
        else if (ch == '\t')
            strcpy(piece, "\\t");
        else if (ch == '\r')
            strcpy(piece, "\\r");
        else if (ch < 0x20 || ch >= 0x7F)
            snprintf(piece, sizeof piece, "\\x%02x", ch);
        else
            piece[0] = (char)ch, piece[1] = 0;
        size_t k = strlen(piece);
        if (o + k + 4 > outlen) /* room for "..." and the NUL */
            break;
        memcpy(out + o, piece, k);
        o += k;
    }
    if (i < max_in && s[i] && o + 4 <= outlen) { /* out of room: the cut is marked */
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o < outlen ? o : outlen - 1] = 0;
    return out;
}

int otpu_parse_number(const char *s, size_t n, uint64_t *v)
{
    int hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    size_t i = hex ? 2 : 0;
    if (i == n || (!hex && n > 1 && s[0] == '0'))
        return -1;
    uint64_t x = 0, base = hex ? 16 : 10;
    for (; i < n; i++) {
        int d = s[i] >= '0' && s[i] <= '9'      ? s[i] - '0'
            : hex && s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
            : hex && s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 10
                                                : -1;
        if (d < 0 || x > (UINT64_MAX - (uint64_t)d) / base)
            return -1;
        x = x * base + (uint64_t)d;
    }
    *v = x;
    return 0;
}
