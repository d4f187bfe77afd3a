/* install_dirs.c - the installed tree of this executable (install_dirs.h). */
#include "install_dirs.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* meson's install directories (options bindir, datadir, libdir: relative to the prefix, or
 * absolute); empty when the build did not say */
#ifndef OTPU_BINDIR
#define OTPU_BINDIR ""
#endif
#ifndef OTPU_DATADIR
#define OTPU_DATADIR ""
#endif
#ifndef OTPU_LIBDIR
#define OTPU_LIBDIR ""
#endif

/* The prefix this executable is installed under: its folder without the trailing bindir. */
static int installed_prefix(char *prefix, size_t n)
{
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *bindir = OTPU_BINDIR;
    if (k <= 0 || !*bindir || bindir[0] == '/')
        return -1; /* an absolute bindir is not relocatable: not looked for */
    exe[k] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = 0; /* its folder */
    size_t dl = strlen(exe), bl = strlen(bindir);
    if (dl <= bl || strcmp(exe + dl - bl, bindir) != 0 || exe[dl - bl - 1] != '/')
        return -1;
    exe[dl - bl - 1] = 0;
    return snprintf(prefix, n, "%s", exe) < (int)n ? 0 : -1;
}

/* dir under prefix (an absolute dir is itself) */
static int under(const char *prefix, const char *dir, const char *tail, char *buf, size_t n)
{
    int w = dir[0] == '/' ? snprintf(buf, n, "%s%s", dir, tail)
                          : snprintf(buf, n, "%s/%s%s", prefix, dir, tail);
    return w >= 0 && (size_t)w < n ? 0 : -1;
}

int otpu_install_path(otpu_install_dir which, char *buf, size_t n)
{
    char prefix[PATH_MAX], marker[PATH_MAX];
    if (installed_prefix(prefix, sizeof prefix) || !*OTPU_DATADIR || !*OTPU_LIBDIR)
        return -1;
    /* an installed tree has the reference RTL's sources list */
    if (under(prefix, OTPU_DATADIR, "/otpu-lockstep/rtl/sources.txt", marker, sizeof marker) ||
        access(marker, R_OK) != 0)
        return -1;
    return which == OTPU_INSTALL_SHARE
               ? under(prefix, OTPU_DATADIR, "/otpu-lockstep", buf, n)
               : under(prefix, OTPU_LIBDIR, "", buf, n);
}
