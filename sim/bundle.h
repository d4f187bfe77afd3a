/* bundle.h - run bundles (DESIGN.md "Run bundle"; ../shared/vectors/FORMAT.md): a folder with
 * case.txt (Config, ARGS, expectations), prog_<s>.hex and dram_<s>.bin for every slice. */
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
    otpu_config cfg;
    char desc[512];
    uint32_t args[8];
    unsigned nargs;
    int expect_error;          /* expect=error */
    char error[512];           /* the reference's message, with expect=error */
    uint32_t **prog;           /* [S] program words */
    size_t *prog_words;
    uint8_t **dram;            /* [S] initial DRAM images (trailing zeros may be trimmed) */
    size_t *dram_len;
} otpu_bundle;

/* Read a bundle folder. 0, or -1 with one line in err naming the file (and line) at fault. */
int otpu_bundle_read(const char *dir, otpu_bundle *b, char *err, size_t errlen);
void otpu_bundle_free(otpu_bundle *b);
/* Write a bundle folder (creating it): case.txt, prog_<s>.hex, dram_<s>.bin. */
int otpu_bundle_write(const char *dir, const otpu_bundle *b, char *err, size_t errlen);

/* A machine for the bundle with its programs, DRAM images and arguments loaded. */
otpu_machine *otpu_bundle_machine(const otpu_bundle *b, otpu_error *err);

#ifdef __cplusplus
}
#endif
#endif
