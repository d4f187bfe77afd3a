/* bundle_write.c - writing a run bundle folder (bundle.h, otpu_bundle_write).
 *
 * A bundle appears whole or not at all: its files are written into a sibling folder
 * DIR.partial.PID, which then takes DIR's place in one rename (an exchange, when DIR exists).
 * A full disk, a crash or a kill leaves no half-written bundle under DIR: at most the partial
 * folder, which the next write of DIR removes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* renameat2 */
#endif
#include "bundle.h"

#include "input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { PATH_LEN = 4400 }; /* a folder name of at most 4000 bytes, then a file name */

/* a + sep + b into out (PATH_LEN bytes): 0, or -1 when it does not fit */
static int joined(char *out, const char *a, const char *sep, const char *b)
{
    int k = snprintf(out, PATH_LEN, "%s%s%s", a, sep, b);
    return k < 0 || k >= PATH_LEN ? -1 : 0;
}

/* Is name one of the bundle format's files (the ones a write replaces)? */
static int format_file(const char *name)
{
    static const char *const kinds[][2] = {{"prog_", ".hex"}, {"dram_", ".bin"},
                                           {"trace_", ".txt"}, {"final_", ".txt"},
                                           {"plusargs", ".txt"}, {"host", ".txt"},
                                           {"case", ".txt"}};
    size_t len = strlen(name);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t a = strlen(kinds[k][0]), z = strlen(kinds[k][1]);
        if (len >= a + z && !strncmp(name, kinds[k][0], a) && !strcmp(name + len - z, kinds[k][1]))
            return 1;
    }
    return 0;
}

/* Removes the files of a folder this writer made (a partial folder, or the bundle it replaced)
 * and the folder. Only plain files are removed: anything else is left, and so is the folder. */
static void remove_folder(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        char path[PATH_LEN];
        struct stat st;
        if (!joined(path, dir, "/", e->d_name) && !lstat(path, &st) && S_ISREG(st.st_mode))
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* Moves what the old folder holds besides the format's files (gen.txt, notes, anything of the
 * user's) into the new one, unless the new one has that name: a write replaces the bundle, not
 * the folder's other contents. */
static int keep_foreign(const char *old, const char *nu, char *err, size_t n)
{
    DIR *d = opendir(old);
    if (!d)
        return otpu_fail_msg(err, n, "%s: cannot read: %s", old, strerror(errno));
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || format_file(e->d_name))
            continue;
        char from[PATH_LEN], to[PATH_LEN];
        struct stat st;
        if (joined(from, old, "/", e->d_name) || joined(to, nu, "/", e->d_name))
            rc = otpu_fail_msg(err, n, "%s/%s: name too long", old, e->d_name);
        else if (lstat(to, &st) && rename(from, to))
            rc = otpu_fail_msg(err, n, "%s: cannot keep it: %s", from, strerror(errno));
    }
    closedir(d);
    return rc;
}

typedef struct {
    const char *dir;
    char *err;
    size_t n;
} out_t;

/* One file of the bundle: 0, or -1 with the file and the reason (ENOSPC: no space left). */
static int put(const out_t *o, const char *name, const void *data, size_t len)
{
    char path[PATH_LEN];
    if (joined(path, o->dir, "/", name))
        return otpu_fail_msg(o->err, o->n, "%s/%s: name too long", o->dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        return otpu_fail_msg(o->err, o->n, "%s: cannot write: %s", path, strerror(errno));
    const char *p = data;
    for (size_t done = 0; done < len;) {
        ssize_t k = write(fd, p + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int e = k < 0 ? errno : ENOSPC;
            close(fd);
            return otpu_fail_msg(o->err, o->n, "%s: cannot write: %s", path, strerror(e));
        }
        done += (size_t)k;
    }
    if (close(fd))
        return otpu_fail_msg(o->err, o->n, "%s: cannot write: %s", path, strerror(errno));
    return 0;
}

/* A program as prog_<s>.hex holds it: 8 hex digits a line. */
static int put_hex(const out_t *o, const char *name, const uint32_t *w, size_t nw)
{
    char *text = malloc(nw * 9 + 1);
    if (!text)
        return otpu_fail_msg(o->err, o->n, "%s/%s: out of memory", o->dir, name);
    for (size_t i = 0; i < nw; i++)
        snprintf(text + 9 * i, 10, "%08" PRIx32 "\n", w[i]);
    int rc = put(o, name, text, nw * 9);
    free(text);
    return rc;
}

static int put_case(const out_t *o, const otpu_bundle *b)
{
    const otpu_config *c = &b->cfg;
    size_t cap = sizeof b->desc + sizeof b->error + 1024, len = 0;
    char *t = malloc(cap);
    if (!t)
        return otpu_fail_msg(o->err, o->n, "%s/case.txt: out of memory", o->dir);
#define PUT(...) (len += (size_t)snprintf(t + len, cap - len, __VA_ARGS__))
    if (b->desc[0])
        PUT("desc=%s\n", b->desc);
    PUT("S=%u\nD=%u\nMCOLS=%u\nACT_BLOCKS=%u\nTMEM_WORDS=%" PRIu64 "\nDRAM_BYTES=%" PRIu64
        "\nIMEM_WORDS=%" PRIu64 "\nLANES=%u\nPAIR=%u\nDSTEP=%u\nSTREAM=%u\nACT_ROWS=%u\n",
        c->S, c->D, c->MCOLS, c->ACT_BLOCKS, c->TMEM_WORDS, c->DRAM_BYTES, c->IMEM_WORDS,
        c->LANES, c->PAIR, c->DSTEP, c->STREAM, c->ACT_ROWS);
    if (b->nargs) {
        PUT("ARGS=");
        for (unsigned k = 0; k < b->nargs; k++)
            PUT("%s%" PRIu32, k ? "," : "", b->args[k]);
        PUT("\n");
    }
    if (c->revision != OTPU_REV_CURRENT)
        PUT("REV=%s\n", otpu_rev_name(c->revision));
    PUT("expect=%s\n", b->expect_error ? "error" : "ok");
    if (b->expect_error && b->error[0])
        PUT("error=%s\n", b->error);
#undef PUT
    int rc = put(o, "case.txt", t, len < cap ? len : cap - 1);
    free(t);
    return rc;
}

static int put_files(const out_t *o, const otpu_bundle *b, const char *note_name,
                     const char *note_text)
{
    char name[64], line[sizeof b->plusargs + 1];
    if (put_case(o, b))
        return -1;
    if (b->plusargs[0]) {
        snprintf(line, sizeof line, "%s\n", b->plusargs);
        if (put(o, "plusargs.txt", line, strlen(line)))
            return -1;
    }
    if (b->host_text) {
        if (put(o, "host.txt", b->host_text, b->host_len))
            return -1;
        for (size_t k = 0; k < b->host.n; k++) {
            const otpu_host_step *st = &b->host.steps[k];
            if (st->kind == OTPU_HS_LOAD && put_hex(o, st->file, st->words, st->nwords))
                return -1;
        }
    }
    for (uint32_t s = 0; s < b->cfg.S; s++) {
        snprintf(name, sizeof name, "prog_%u.hex", s);
        if (put_hex(o, name, b->prog[s], b->prog_words[s]))
            return -1;
        size_t len = b->dram_len[s];
        while (len && !b->dram[s][len - 1])
            len--;
        snprintf(name, sizeof name, "dram_%u.bin", s);
        if (put(o, name, b->dram[s], len))
            return -1;
    }
    return note_name ? put(o, note_name, note_text, strlen(note_text)) : 0;
}

/* Puts the finished folder tmp in dir's place: a rename, or an exchange with the existing
 * folder (whose foreign files move over first), whose remains are then removed. */
static int replace(const char *tmp, const char *dir, char *err, size_t n)
{
    struct stat st;
    if (lstat(dir, &st)) {
        if (errno == ENOENT && !rename(tmp, dir))
            return 0;
        return otpu_fail_msg(err, n, "%s: cannot create: %s", dir, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        return otpu_fail_msg(err, n, "%s: exists and is not a folder", dir);
    if (keep_foreign(dir, tmp, err, n))
        return -1;
#ifdef RENAME_EXCHANGE
    if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE)) {
        remove_folder(tmp); /* (now the old bundle) */
        return 0;
    }
    if (errno != EINVAL && errno != ENOSYS)
        return otpu_fail_msg(err, n, "%s: cannot replace: %s", dir, strerror(errno));
#endif
    /* no exchange on this file system: the old folder steps aside for a moment */
    char old[PATH_LEN], pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    if (joined(old, dir, ".old.", pid) || rename(dir, old))
        return otpu_fail_msg(err, n, "%s: cannot replace: %s", dir, strerror(errno));
    if (rename(tmp, dir)) {
        int e = errno;
        rename(old, dir);
        return otpu_fail_msg(err, n, "%s: cannot replace: %s", dir, strerror(e));
    }
    remove_folder(old);
    return 0;
}

int otpu_bundle_write_note(const char *dir, const otpu_bundle *b, const char *note_name,
                           const char *note_text, char *err, size_t n)
{
    for (uint32_t s = 0; b->dram_fd && s < b->cfg.S; s++)
        if (!b->dram[s] && b->dram_len[s])
            return otpu_fail_msg(err, n, "%s: the bundle's DRAM images were not read "
                                 "(otpu_bundle_read_lazy)", dir);
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') /* (dir/ and dir name one folder) */
        len--;
    if (!len || len > 4000)
        return otpu_fail_msg(err, n, "'%.64s': not a folder name a bundle can be written to",
                             dir);
    char path[PATH_LEN], tmp[PATH_LEN], pid[32];
    snprintf(path, sizeof path, "%.*s", (int)len, dir);
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    if (joined(tmp, path, ".partial.", pid))
        return otpu_fail_msg(err, n, "%s: name too long", path);
    remove_folder(tmp); /* a partial folder a killed write of this pid left */
    if (mkdir(tmp, 0777))
        return otpu_fail_msg(err, n, "%s: cannot create: %s", tmp, strerror(errno));
    out_t o = {tmp, err, n};
    if (put_files(&o, b, note_name, note_text) || replace(tmp, path, err, n)) {
        remove_folder(tmp);
        return -1;
    }
    return 0;
}

int otpu_bundle_write(const char *dir, const otpu_bundle *b, char *err, size_t n)
{
    return otpu_bundle_write_note(dir, b, NULL, NULL, err, n);
}
