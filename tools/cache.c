/* cache.c - the build cache (cache.h). */
#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "proc.h"

enum { NOT_WRITABLE = -2 };

char *otpu_cache_default_dir(char *buf, size_t n)
{
    const char *c = getenv("OTPU_RTL_CACHE"), *x = getenv("XDG_CACHE_HOME"),
               *h = getenv("HOME");
    if (c && *c)
        snprintf(buf, n, "%s", c);
    else if (x && *x)
        snprintf(buf, n, "%s/otpu-lockstep/rtl", x);
    else
        snprintf(buf, n, "%s/.cache/otpu-lockstep/rtl", h && *h ? h : "/tmp");
    return buf;
}

/* The per-user cache, where a cache that cannot be written falls back to. */
static void fallback_dir(const char *failed, char *buf, size_t n)
{
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (x && *x)
        snprintf(buf, n, "%s/otpu-lockstep/rtl", x);
    else
        snprintf(buf, n, "%s/.cache/otpu-lockstep/rtl", h && *h ? h : "/tmp");
    if (!strcmp(buf, failed))
        snprintf(buf, n, "/tmp/otpu-lockstep-%u/rtl", (unsigned)getuid());
}

static int unlink_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    remove(p);
    return 0;
}

void otpu_remove_tree(const char *path)
{
    nftw(path, unlink_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int mkdirs(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int not_writable(int e)
{
    return e == EACCES || e == EROFS || e == EPERM;
}

/* Temporary folders no build is using: this key's (the caller holds its lock) and any whose
 * builder process is gone (a tool killed mid-build). */
static void remove_stale(const char *dir, const char *key)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t klen = strlen(key);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const char *t = strstr(e->d_name, ".tmp");
        if (!t)
            continue;
        long pid = atol(t + 4);
        int mine = (size_t)(t - e->d_name) == klen && !strncmp(e->d_name, key, klen);
        if (mine || pid <= 0 || (kill((pid_t)pid, 0) && errno == ESRCH)) {
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            otpu_remove_tree(p);
        }
    }
    closedir(d);
}

/* Builds DIR/KEY under its lock. 0, -1 (err), or NOT_WRITABLE. */
static int build_into(const char *dir, const char *key, const char *file, const char *what,
                      otpu_cache_build_fn build, void *user, char *err, size_t errlen)
{
    char final[4096], lockp[4096], tmp[4096], product[4200];
    snprintf(final, sizeof final, "%s/%s", dir, key);
    snprintf(product, sizeof product, "%s/%s", final, file);
    if (mkdirs(dir))
        return not_writable(errno) ? NOT_WRITABLE
                                   : otpu_fail_msg(err, errlen, "cannot create %s: %s", dir,
                                                   strerror(errno));
    snprintf(lockp, sizeof lockp, "%s/%s.lock", dir, key);
    int fd = open(lockp, O_CREAT | O_RDWR | O_CLOEXEC, 0666);
    if (fd < 0)
        return not_writable(errno) ? NOT_WRITABLE
                                   : otpu_fail_msg(err, errlen, "cannot open the lock %s: %s",
                                                   lockp, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK) {
        fprintf(stderr, "otpu: waiting for another build of %s (lock %s)\n", what, lockp);
        while (flock(fd, LOCK_EX) && errno == EINTR)
            ;
    }
    int rc = 0;
    if (!is_file(product)) {
        remove_stale(dir, key);
        snprintf(tmp, sizeof tmp, "%s/%s.tmp%ld", dir, key, (long)getpid());
        otpu_proc_hold(); /* a signal from here on: the folder is removed, then the tool ends */
        int r = mkdirs(tmp) ? otpu_fail_msg(err, errlen, "cannot create %s: %s", tmp,
                                            strerror(errno))
                            : build(user, tmp, err, errlen);
        int sig = otpu_proc_release();
        if (r > 0 || sig) { /* stopped by a signal: nothing half built stays behind */
            otpu_remove_tree(tmp);
            close(fd);
            otpu_proc_reraise(r > 0 ? r : sig);
        }
        if (r == 0) {
            otpu_remove_tree(final);
            if (rename(tmp, final))
                r = otpu_fail_msg(err, errlen, "cannot move %s to %s: %s", tmp, final,
                                  strerror(errno));
        }
        if (r)
            otpu_remove_tree(tmp);
        rc = r ? -1 : 0;
    }
    close(fd); /* the lock goes with the descriptor */
    return rc;
}

int otpu_cache_get(const char *dir, const char *key, const char *file, const char *what,
                   otpu_cache_build_fn build, void *user, char *path, size_t pathlen, char *err,
                   size_t errlen)
{
    char def[4096], fb[4096], abs[8192], cwd[4096];
    if (!dir)
        dir = otpu_cache_default_dir(def, sizeof def);
    /* absolute: a build step runs in its own folder, and callers keep the path */
    if (dir[0] != '/' && getcwd(cwd, sizeof cwd)) {
        snprintf(abs, sizeof abs, "%s/%s", cwd, dir);
        dir = abs;
    }
    snprintf(path, pathlen, "%s/%s/%s", dir, key, file);
    if (is_file(path)) /* moved into place whole: no lock needed to use it */
        return 0;
    int rc = build_into(dir, key, file, what, build, user, err, errlen);
    if (rc != NOT_WRITABLE)
        return rc;
    fallback_dir(dir, fb, sizeof fb);
    fprintf(stderr, "otpu: the cache %s cannot be written; building in %s\n", dir, fb);
    snprintf(path, pathlen, "%s/%s/%s", fb, key, file);
    if (is_file(path))
        return 0;
    rc = build_into(fb, key, file, what, build, user, err, errlen);
    if (rc == NOT_WRITABLE)
        return otpu_fail_msg(err, errlen, "the cache %s cannot be written either (set "
                             "OTPU_RTL_CACHE)", fb);
    return rc;
}
