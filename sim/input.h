/* input.h - untrusted input files: read whole, bounded, and quoted safely in messages.
 *
 * Every file a tool reads (case.txt, programs, DRAM images, golden traces, vector files) goes
 * through otpu_input_read: it must be a regular file (after links are followed) of at most
 * `max` bytes. A FIFO, a device (/dev/zero), a directory or a socket is refused before
 * anything is read from it, so no input can block a tool or feed it without end. */
#ifndef OTPU_INPUT_H
#define OTPU_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the file at path into a new NUL-terminated buffer (*data, to free()), *len bytes
 * without the terminator. 0, or -1 with "PATH: why" in err (missing, not a regular file,
 * larger than max bytes, unreadable, out of memory). */
int otpu_input_read(const char *path, size_t max, char **data, size_t *len, char *err,
                    size_t errlen);

/* The checks of otpu_input_read without the read: an open descriptor (O_CLOEXEC) of the
 * regular file at path, of at most max bytes (*size), for a caller that reads it into its
 * final place itself. The descriptor, or -1 with "PATH: why" in err. */
int otpu_input_open_fd(const char *path, uint64_t max, uint64_t *size, char *err,
                       size_t errlen);

/* The same checks (no size limit), for a file read as a stream: a FILE, or NULL with
 * "PATH: why" in err. */
FILE *otpu_input_open(const char *path, char *err, size_t errlen);

/* Formats a one-line message into err (n bytes), its control bytes escaped (otpu_escape), and
 * returns -1: the readers' way to fail. */
int otpu_fail_msg(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A number of the bundle files (case.txt, host.txt): the n bytes at s as decimal without
 * leading zeros, or hex with 0x, below 2^64. 0, or -1. */
int otpu_parse_number(const char *s, size_t n, uint64_t *v);

/* What a file of mode m (st_mode) is, for messages: "a directory", "a FIFO", "a character
 * device", "a block device", "a socket", "a symbolic link", "a regular file", else "not a regular
 * file". */
const char *otpu_file_type(unsigned m);

/* 1 if something exists at path (lstat: a broken link exists), else 0. */
int otpu_input_exists(const char *path);

/* Copies at most max_in bytes of s (stopping at a NUL) into out as printable ASCII: control
 * bytes, DEL and bytes >= 0x80 become \n, \t, \r or \xNN, so no input can reach a terminal
 * as an escape sequence. Printable text is copied as it is, so escaping twice changes
 * nothing. What does not fit ends in "...". Returns out. */
char *otpu_escape(const char *s, size_t max_in, char *out, size_t outlen);

/* One line for a person: prefix, then msg with its control bytes escaped, then a newline. The
 * tools print every message that quotes input this way. */
void otpu_print_line(FILE *f, const char *prefix, const char *msg);

/* The same for a message with one quoted input: prefix, then fmt whose one %s is arg with its
 * control bytes escaped (what does not fit 511 bytes ends in "..."), then a newline. */
void otpu_print_quoting(FILE *f, const char *prefix, const char *fmt, const char *arg);

/* s as one word of a POSIX shell command: in single quotes, each ' written as '\''. NULL when
 * it does not fit outlen, or when s holds a control byte (a newline in a one-line record, an
 * escape sequence in a terminal: such a name is refused where a command line is written). */
char *otpu_shell_quote(const char *s, char *out, size_t outlen);

/* s as one word of a shell command a person copies (a repro line): otpu_shell_quote's, or,
 * when s holds a byte outside printable ASCII (a control byte, non-ASCII), bash's $'...'
 * quoting with \xNN for each such byte (\' and \\ for ' and \): printable ASCII either way,
 * which bash, zsh and ksh read back as the same bytes. NULL when it does not fit outlen. */
char *otpu_shell_word(const char *s, char *out, size_t outlen);

#ifdef __cplusplus
}
#endif
#endif
