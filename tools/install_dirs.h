/* install_dirs.h - where an installed tool finds the files it reads at run time.
 *
 * `meson install` puts the tools in <prefix>/<bindir>, the libraries in <prefix>/<libdir> and
 * what the RTL builds read (the reference RTL, the adapter, the driver's sources, the headers,
 * the fp32 bench) in <prefix>/<datadir>/otpu-lockstep, laid out as in the source tree. A tool
 * finds that tree from its own path (/proc/self/exe), so an installed tree works wherever it
 * was installed or staged (DESTDIR) once the source and build folders are gone; a tool run
 * from the build folder gets -1 and reads the source tree it was built from. */
#ifndef OTPU_INSTALL_DIRS_H
#define OTPU_INSTALL_DIRS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { OTPU_INSTALL_SHARE, OTPU_INSTALL_LIB } otpu_install_dir;

/* The folder of an installed tree this executable belongs to: <prefix>/<datadir>/otpu-lockstep
 * or <prefix>/<libdir>. 0 with the path in buf, or -1 (not installed, or buf too small). */
int otpu_install_path(otpu_install_dir which, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
