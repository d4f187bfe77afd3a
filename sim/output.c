/* output.c - the outputs a tool writes where its user says: checked before the run, then
 * replaced whole or written in place (output.h). */
#include "output.h"

#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the folder of path into out (n bytes): "." without a slash */
static void folder_of(const char *path, char *out, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, n, ".");
    else if (slash == path)
        snprintf(out, n, "/");
    else
        snprintf(out, n, "%.*s", (int)(slash - path), path);
}

/* Can a file be made in the folder dir (for the output at path)? A file without a name is
 * made and dropped; where the file system has no O_TMPFILE, a named one removed at once. */
static int probe(const char *dir, const char *path, char *err, size_t n)
{
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        char p[OTPU_OUT_PATH_MAX + 64];
        snprintf(p, sizeof p, "%s/.otpu-probe.%ld", dir, (long)getpid());
        fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0)
            unlink(p);
    }
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    int e = errno;
    if (e == ENOENT)
        return otpu_fail_msg(err, n, "%s: its folder %s does not exist", path, dir);
    if (e == ENOTDIR)
        return otpu_fail_msg(err, n, "%s: %s is not a folder", path, dir);
    return otpu_fail_msg(err, n, "%s: cannot write into %s: %s", path, dir, strerror(e));
}

/* why stat(path) failed, for an output (ENOTDIR: a file where the path needs a folder) */
static int stat_failed(const char *path, int e, char *err, size_t n)
{
    if (e == ENOTDIR)
        return otpu_fail_msg(err, n, "%s: a part of the path is not a folder", path);
    return otpu_fail_msg(err, n, "%s: cannot write: %s", path, strerror(e));
}

int otpu_out_check(otpu_out *o, const char *path, int flags, char *err, size_t n)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    size_t len = strlen(path);
    char dir[OTPU_OUT_PATH_MAX];
    struct stat st;
    if (!len)
        return otpu_fail_msg(err, n, "'': not a file name");
    if (len >= OTPU_OUT_PATH_MAX)
        return otpu_fail_msg(err, n, "%.200s...: name too long", path);
    if (path[len - 1] == '/')
        return otpu_fail_msg(err, n, "%s: names a folder; the output is a file", path);
    if (stat(path, &st)) {
        if (errno != ENOENT)
            return stat_failed(path, errno, err, n);
        snprintf(o->path, sizeof o->path, "%s", path); /* (a link to nothing: replaced) */
        folder_of(path, dir, sizeof dir);
        return probe(dir, path, err, n);
    }
    if (S_ISREG(st.st_mode)) {
        char real[PATH_MAX];
        if (!realpath(path, real)) /* a link: its target is replaced, the link stays */
            return stat_failed(path, errno, err, n);
        snprintf(o->path, sizeof o->path, "%s", real);
        o->keep_mode = 1;
        o->mode = st.st_mode & 07777;
        folder_of(o->path, dir, sizeof dir);
        return probe(dir, path, err, n);
    }
    if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
        return otpu_fail_msg(err, n, "%s: is %s, not a file", path, otpu_file_type(st.st_mode));
    if (!(flags & OTPU_OUT_STREAM))
        return otpu_fail_msg(err, n, "%s: is %s; this output must be a regular file (it is "
                             "written whole, then renamed into place)", path,
                             otpu_file_type(st.st_mode));
    /* O_NONBLOCK: a FIFO without a reader is refused now, not waited on for ever */
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && errno == ENXIO)
        return otpu_fail_msg(err, n, "%s: a FIFO without a reader (start its reader first)",
                             path);
    if (fd < 0)
        return otpu_fail_msg(err, n, "%s: cannot write: %s", path, strerror(errno));
    if (fstat(fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        close(fd);
        return otpu_fail_msg(err, n, "%s: changed while it was checked", path);
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    snprintf(o->path, sizeof o->path, "%s", path);
    o->fd = fd;
    o->in_place = 1;
    return 0;
}

int otpu_out_check_only(const char *path, int flags, char *err, size_t n)
{
    otpu_out o;
    int rc = otpu_out_check(&o, path, flags, err, n);
    otpu_out_discard(&o);
    return rc;
}

/* The temporary file beside the output: its descriptor, or -1 with err set. */
static int make_tmp(otpu_out *o, char *err, size_t n)
{
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld", o->path, (long)getpid());
    unlink(o->tmp); /* (one a killed run of this pid left) */
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        o->tmp[0] = 0;
        return otpu_fail_msg(err, n, "%s: cannot write: %s", o->path, strerror(errno));
    }
    return fd;
}

FILE *otpu_out_open(otpu_out *o, char *err, size_t n)
{
    int fd = o->in_place ? o->fd : make_tmp(o, err, n);
    if (fd < 0)
        return NULL;
    o->f = fdopen(fd, "w");
    if (!o->f) {
        otpu_fail_msg(err, n, "%s: cannot write: %s", o->path, strerror(errno));
        if (!o->in_place)
            close(fd); /* (a device's stays with o: otpu_out_discard closes it) */
        return NULL;
    }
    if (!o->in_place)
        return o->f; /* (o->f owns the temporary file's descriptor) */
    o->fd = -1;      /* (the stream owns the device's) */
    return o->f;
}

const char *otpu_out_begin(otpu_out *o, char *err, size_t n)
{
    if (o->in_place)
        return o->path;
    int fd = make_tmp(o, err, n);
    if (fd < 0)
        return NULL;
    close(fd);
    return o->tmp;
}

int otpu_out_commit(otpu_out *o, char *err, size_t n)
{
    int e = 0;
    if (o->f) {
        errno = 0;
        if (fflush(o->f) || ferror(o->f))
            e = errno ? errno : EIO;
        if (fclose(o->f) && !e)
            e = errno;
        o->f = NULL;
    }
    if (o->fd >= 0 && close(o->fd) && !e)
        e = errno;
    o->fd = -1;
    /* (the permissions of the file it replaces, set last: a writer may have made it anew) */
    if (!e && o->tmp[0] && o->keep_mode && chmod(o->tmp, o->mode))
        e = errno;
    if (!e && o->tmp[0] && rename(o->tmp, o->path))
        e = errno;
    if (e && o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = 0;
    return e ? otpu_fail_msg(err, n, "%s: cannot write: %s", o->path, strerror(e)) : 0;
}

void otpu_out_discard(otpu_out *o)
{
    if (o->f)
        fclose(o->f);
    if (o->fd >= 0)
        close(o->fd);
    if (o->tmp[0])
        unlink(o->tmp);
    o->f = NULL;
    o->fd = -1;
    o->tmp[0] = 0;
}

int otpu_out_check_dir(const char *dir, int flags, char *err, size_t n)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    if (!len)
        return otpu_fail_msg(err, n, "'': not a folder name");
    if (len >= OTPU_OUT_PATH_MAX)
        return otpu_fail_msg(err, n, "%.200s...: name too long", dir);
    char d[OTPU_OUT_PATH_MAX], up[OTPU_OUT_PATH_MAX], next[OTPU_OUT_PATH_MAX];
    snprintf(d, sizeof d, "%.*s", (int)len, dir);
    struct stat st;
    /* (a folder replaced whole is renamed over: a link would be replaced, not followed) */
    if ((flags & OTPU_OUT_REPLACED) && !lstat(d, &st) && S_ISLNK(st.st_mode))
        return otpu_fail_msg(err, n, "%s: is a symbolic link, not a folder", d);
    if (stat(d, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return otpu_fail_msg(err, n, "%s: is %s, not a folder", d, otpu_file_type(st.st_mode));
        if (probe(d, d, err, n))
            return -1;
        folder_of(d, up, sizeof up);
        return flags & OTPU_OUT_REPLACED ? probe(up, d, err, n) : 0;
    }
    if (errno != ENOENT)
        return stat_failed(d, errno, err, n);
    /* made later, with its missing parents, in the nearest folder that exists */
    snprintf(up, sizeof up, "%s", d);
    for (;;) {
        folder_of(up, next, sizeof next);
        memcpy(up, next, sizeof up);
        if (stat(up, &st) == 0)
            return S_ISDIR(st.st_mode) ? probe(up, d, err, n)
                                       : otpu_fail_msg(err, n, "%s: %s is not a folder", d, up);
        if (errno != ENOENT)
            return stat_failed(d, errno, err, n);
        if (flags & OTPU_OUT_REPLACED)
            return otpu_fail_msg(err, n, "%s: its folder %s does not exist", d, up);
        if (!strcmp(up, ".") || !strcmp(up, "/"))
            return otpu_fail_msg(err, n, "%s: cannot be made", d);
    }
}

int otpu_out_make_dir(const char *dir, char *err, size_t n)
{
    char p[OTPU_OUT_PATH_MAX];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p || !p[0])
        return otpu_fail_msg(err, n, "%.200s: not a folder name", dir);
    for (char *s = p + 1;; s++) {
        if (*s && *s != '/')
            continue;
        char c = *s;
        *s = 0;
        if (mkdir(p, 0777) && errno != EEXIST)
            return otpu_fail_msg(err, n, "%s: cannot create: %s", p, strerror(errno));
        *s = c;
        if (!c)
            break;
    }
    struct stat st;
    if (stat(p, &st) || !S_ISDIR(st.st_mode))
        return otpu_fail_msg(err, n, "%s: cannot create: it is not a folder", p);
    return 0;
}
