/* cache.h - the build cache of the tools: Verilated RTL libraries, simulators, fp benches.
 *
 * A product is a folder DIR/KEY (KEY: a hash of everything the build reads), built at most
 * once at a time (a lock file per key, never inherited by the build's processes) in a
 * temporary folder DIR/KEY.tmp<pid> that is moved into place whole when the build succeeds:
 * a finished product is used without any lock, so a read-only cache works. A build waiting
 * for another says so; the temporary folders of killed builds are removed by the next build;
 * a cache that cannot be written falls back to the per-user cache, with one line saying so.
 * A tool stopped by a signal during a build removes its temporary folder and ends by that
 * signal (the build itself runs through proc.h, which stops every process it started). */
#ifndef OTPU_CACHE_H
#define OTPU_CACHE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The default cache folder: $OTPU_RTL_CACHE, else $XDG_CACHE_HOME/otpu-lockstep/rtl, else
 * $HOME/.cache/otpu-lockstep/rtl. Returns buf. */
char *otpu_cache_default_dir(char *buf, size_t n);

/* Builds a product into tmpdir (an empty folder). 0 done; -1 failed (err says why; the
 * build's log, if any, is the function's to show); or a signal number: the tool was stopped
 * by it during the build. */
typedef int (*otpu_cache_build_fn)(void *user, const char *tmpdir, char *err, size_t errlen);

/* DIR/KEY/file (DIR: dir, or the default cache when dir is NULL): found, or built now by
 * build. `what` names the product in messages ("the RTL for S=1 D=32 ..."). 0 with the path
 * in path, or -1 with one line in err. */
int otpu_cache_get(const char *dir, const char *key, const char *file, const char *what,
                   otpu_cache_build_fn build, void *user, char *path, size_t pathlen, char *err,
                   size_t errlen);

/* Removes a folder and everything in it (no error if it is not there). */
void otpu_remove_tree(const char *path);

#ifdef __cplusplus
}
#endif
#endif
