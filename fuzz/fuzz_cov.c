/* fuzz_cov.c - coverage files (docs/coverage.md): any bytes as a file, read, merged into the
 * bins of a Config and into itself (counts near 2^63 saturate), and reported. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "coverage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t je;
    json_t *root = json_loadb((const char *)data, size, 0, &je);
    if (!root)
        return 0;
    char err[512];
    otpu_coverage *c = otpu_coverage_from_json(root, "fuzz.json", err, sizeof err);
    json_decref(root);
    if (!c)
        return 0;
    otpu_config cfg = otpu_config_default();
    otpu_coverage *all = otpu_coverage_new(&cfg);
    if (all) {
        otpu_coverage_merge(all, c, err, sizeof err);
        otpu_coverage_merge(all, all, err, sizeof err);
        FILE *sink = fopen("/dev/null", "w");
        if (sink) {
            otpu_coverage_report(all, sink);
            fclose(sink);
        }
    }
    otpu_coverage_free(all);
    otpu_coverage_free(c);
    return 0;
}
