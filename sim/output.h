/* output.h - the files and folders a tool writes where its user says (otpu-sim --trace FILE,
 * otpu-cov merge -o OUT, otpu-lockstep --report DIR, ...): checked before the run, so that a
 * place that cannot be written is bad input (exit 2) before any work is done, and written
 * without ever turning what is not a file into one. docs/exit-status.md, "Output paths".
 *
 * A FILE output, by what its path names (links followed):
 *   nothing yet, or a regular file   replaced whole: written into a temporary file beside it
 *                                    (PATH.tmp.PID) that is then renamed over PATH, so no
 *                                    reader sees half of it; an existing file keeps its
 *                                    permissions, a link stays a link (its target is replaced)
 *   a character device (/dev/null,   written in place, as a stream: opened and written, never
 *   a terminal), a FIFO or a pipe    renamed over, truncated or removed; only for an output a
 *                                    tool can stream (OTPU_OUT_STREAM), else refused. A FIFO
 *                                    must have its reader when the check is made (else
 *                                    refused: the tool would wait for ever); it is held open
 *                                    from the check to the end, so the reader sees one stream
 *   anything else (a folder, a block device, a socket): refused
 * A FOLDER output is an existing folder, or one that can be made (with its missing parents)
 * in the nearest existing folder; it is made only when it is written.
 *
 * A check proves the folder can be written: a file without a name is made in it and dropped
 * (O_TMPFILE; a file system without it: a named one removed at once). Nothing is left behind
 * by a check, whether the run then fails or is killed. While a run writes, a kill can leave
 * PATH.tmp.PID. */
#ifndef OTPU_OUTPUT_H
#define OTPU_OUTPUT_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    OTPU_OUT_STREAM = 1,   /* file: a device or a FIFO is written in place (else refused) */
    OTPU_OUT_REPLACED = 2, /* folder: replaced whole by a rename in its parent (bundle.h's
                            * otpu_bundle_write): the parent must exist and be writable */
};

enum { OTPU_OUT_PATH_MAX = 4096 };

typedef struct {
    char path[OTPU_OUT_PATH_MAX];      /* the file written (a link's target) */
    char tmp[OTPU_OUT_PATH_MAX + 32];  /* the temporary file while it is written, else "" */
    int fd;                            /* in place: the stream (held from the check on) */
    int in_place;
    int keep_mode;                     /* replacing a file: its permission bits, mode */
    mode_t mode;
    FILE *f;                           /* otpu_out_open's stream */
} otpu_out;

/* Checks the FILE output at path (flags: OTPU_OUT_STREAM). 0, or -1 with "PATH: why" in err.
 * After 0, the output is finished by otpu_out_commit or otpu_out_discard. */
int otpu_out_check(otpu_out *o, const char *path, int flags, char *err, size_t errlen);
/* The stream to write (the temporary file, or the device or FIFO); NULL with err set. */
FILE *otpu_out_open(otpu_out *o, char *err, size_t errlen);
/* For a writer that opens a path itself (jansson, Verilator): the path it is to write (the
 * temporary file, made empty, or the device or FIFO); NULL with err set. */
const char *otpu_out_begin(otpu_out *o, char *err, size_t errlen);
/* The output whole: the temporary file renamed over the path, or the stream closed. 0, or -1
 * with "PATH: cannot write: why" in err (the temporary file removed). */
int otpu_out_commit(otpu_out *o, char *err, size_t errlen);
/* No output after all: the temporary file removed, the stream closed; the path untouched. */
void otpu_out_discard(otpu_out *o);
/* otpu_out_check then otpu_out_discard: a check alone (a file written later, by a child). */
int otpu_out_check_only(const char *path, int flags, char *err, size_t errlen);

/* Checks the FOLDER output at dir (flags: OTPU_OUT_REPLACED). 0, or -1 with "DIR: why". */
int otpu_out_check_dir(const char *dir, int flags, char *err, size_t errlen);
/* Makes the folder dir and its missing parents. 0, or -1 with "DIR: cannot create: why". */
int otpu_out_make_dir(const char *dir, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
