/* bundle.h - run bundles (docs/bundle.md): a folder with case.txt (Config, ARGS,
 * expectations), prog_<s>.hex and dram_<s>.bin for every slice, and optionally the RTL's
 * plusargs (plusargs.txt) and the host's steps (host.txt, host.h). One reader for every tool:
 * each file is a bounded regular file (input.h) with one grammar, checked in full. */
#ifndef OTPU_SIM_BUNDLE_H
#define OTPU_SIM_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "machine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    otpu_config cfg;           /* cfg.revision: REV= (the current revision without it) */
    int rev_line;              /* case.txt's line of REV=, 0 without one */
    char desc[4097];
    uint32_t args[8];
    unsigned nargs;
    int expect_error;          /* expect=error */
    char error[4097];          /* the reference's message, with expect=error ("": any error) */
    uint32_t **prog;           /* [S] program words */
    size_t *prog_words;
    uint8_t **dram;            /* [S] initial DRAM images (trailing zeros may be trimmed) */
    size_t *dram_len;
    char plusargs[4097];       /* plusargs.txt (optional): the RTL's plusargs of the run, words
                                * "+name=value" joined by one space ("": none); the model
                                * ignores them */
    otpu_host_script host;     /* host.txt (optional; host.h): no steps without it */
    char *host_text;           /* its text, as read (NULL without it) */
    size_t host_len;
    int *dram_fd;              /* [S] otpu_bundle_read_lazy's open images (-1: none), else
                                * NULL */
} otpu_bundle;

/* Read a bundle folder. 0, or -1 with one line in err naming the file (and line) at fault. */
int otpu_bundle_read(const char *dir, otpu_bundle *b, char *err, size_t errlen);
/* otpu_bundle_read without reading the DRAM images: each dram_<s>.bin is checked as
 * otpu_bundle_read checks it and left open (dram_fd[s]); dram[s] is NULL and dram_len[s] the
 * file's size. otpu_bundle_machine then reads each image straight into the machine's DRAM
 * (otpu_machine_read_dram): one copy, each page touched once, where otpu_bundle_read's image
 * is copied again into the machine. For a tool that runs the bundle and does not look at the
 * images (otpu-sim run and check); otpu_bundle_write refuses such a bundle. */
int otpu_bundle_read_lazy(const char *dir, otpu_bundle *b, char *err, size_t errlen);
/* A tool's --rev over a bundle read from dir: rev OTPU_REV_UNSET changes nothing; a bundle
 * without REV= takes rev; one whose REV= names another revision is bad input, as is a Config
 * the revision cannot run (otpu_config_check). 0, or -1 with one line in err. */
int otpu_bundle_set_rev(otpu_bundle *b, const char *dir, otpu_revision rev, char *err,
                        size_t errlen);
void otpu_bundle_free(otpu_bundle *b);
/* The same on a bundle of its own allocation, for a caller that keeps a handle (a binding):
 * NULL with one line in err. otpu_bundle_close frees it (NULL: nothing). (bundle_open.c) */
otpu_bundle *otpu_bundle_open(const char *dir, char *err, size_t errlen);
void otpu_bundle_close(otpu_bundle *b);

/* The parsers behind otpu_bundle_read, on text already read (path names it in messages).
 * case.txt: fills b's Config, desc, args and expectations (b->cfg must hold the defaults the
 * parse starts from). A program: 8 hex digits a line, a whole number of instructions, at
 * most max_words; *words is malloc'ed. Both: 0, or -1 with "PATH:LINE: why" in err. */
int otpu_case_parse(const char *text, size_t len, const char *path, otpu_bundle *b, char *err,
                    size_t errlen);
int otpu_hex_parse(const char *text, size_t len, const char *path, uint64_t max_words,
                   uint32_t **words, size_t *nwords, char *err, size_t errlen);
/* Write a bundle folder (creating it): case.txt (with REV= for a revision other than the
 * current one), prog_<s>.hex, dram_<s>.bin, plusargs.txt when there are plusargs, host.txt and
 * the programs its load steps name when there are host steps. The folder appears complete or
 * not at all (bundle_write.c): written as DIR.partial.PID, then renamed into place; a failure
 * (ENOSPC names itself) leaves nothing half-written. Over an existing folder, the bundle is
 * replaced whole (another S's programs, golden results, plusargs are gone) and the folder's
 * other files (gen.txt, notes) are kept. 0, or -1 with one line in err. */
int otpu_bundle_write(const char *dir, const otpu_bundle *b, char *err, size_t errlen);
/* The same with one more file written with the bundle (note_name: a plain file name, not one
 * of the format's; note_text: its text): otpu-gen's gen.txt, otpu-shrink's shrink.txt. */
int otpu_bundle_write_note(const char *dir, const otpu_bundle *b, const char *note_name,
                           const char *note_text, char *errbuf, size_t errlen);

/* A machine for the bundle with its programs, DRAM images and arguments loaded, and the host
 * of its host.txt attached (otpu_machine_host). A bundle of otpu_bundle_read_lazy may give
 * any number of machines (each reads the images from offset 0). */
otpu_machine *otpu_bundle_machine(const otpu_bundle *b, otpu_error *err);

#ifdef __cplusplus
}
#endif
#endif
