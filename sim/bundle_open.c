/* bundle_open.c - a bundle read into an allocation of its own (bundle.h). */
#include "bundle.h"

#include <stdio.h>
#include <stdlib.h>

void otpu_bundle_close(otpu_bundle *b)
{
    if (!b)
        return;
    otpu_bundle_free(b);
    free(b);
}

otpu_bundle *otpu_bundle_open(const char *dir, char *err, size_t errlen)
{
    otpu_bundle *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return NULL;
    }
    if (otpu_bundle_read(dir, b, err, errlen)) {
        free(b);
        return NULL;
    }
    return b;
}

