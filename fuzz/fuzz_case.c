/* fuzz_case.c - the case.txt parser (docs/bundle.md) on any bytes. */
#include <stdint.h>
#include <string.h>

#include "bundle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    otpu_bundle b;
    memset(&b, 0, sizeof b);
    b.cfg = otpu_config_default();
    char err[1024];
    otpu_case_parse((const char *)data, size, "case.txt", &b, err, sizeof err);
    return 0;
}
