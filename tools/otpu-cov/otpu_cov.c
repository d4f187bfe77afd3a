/* otpu_cov.c - otpu-cov: merge and report functional coverage files (coverage.h).
 *
 *   otpu-cov merge FILE... -o OUT
 *   otpu-cov report FILE
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "coverage.h"
#include "input.h"
#include "output.h"

static const char usage[] =
    "usage: otpu-cov merge FILE... -o OUT\n"
    "       otpu-cov report FILE\n"
    "\n"
    "Functional coverage files (JSON) as otpu-sim run --coverage and otpu-lockstep run\n"
    "--coverage write them (the bins: docs/coverage.md).\n"
    "merge   add the counts of the FILEs into OUT (the Configs are listed together; a bin is\n"
    "        unreachable only if it is on every Config)\n"
    "report  the percentage of hit bins per group and overall (of the bins reachable on the\n"
    "        file's Configs), every bin never hit, the unreachable bins with their reasons\n"
    "OUT is replaced whole (written beside it, then renamed); a device or a FIFO (with its\n"
    "reader) is written as it is; anything else is refused before the files are read.\n"
    "exit status: 0 done, 2 bad input (no file, a file that is not a coverage file of this\n"
    "             model version, an unwritable OUT)\n";

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    otpu_print_line(stderr, "otpu-cov: ", line);
    return 2;
}

static int cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    int nfiles = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 == argc || out)
                return bad("merge: -o needs one OUT file (see --help)");
            out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return bad("merge: unknown option %s (see --help)", argv[i]);
        } else {
            nfiles++;
        }
    }
    if (!out)
        return bad("merge: -o OUT is needed (see --help)");
    if (!nfiles)
        return bad("merge: no coverage files given (see --help)");
    char err[1200];
    otpu_out o; /* checked before the files are read (output.h) */
    if (otpu_out_check(&o, out, OTPU_OUT_STREAM, err, sizeof err))
        return bad("merge: -o %s", err);
    otpu_coverage *sum = NULL;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) {
            i++;
            continue;
        }
        otpu_coverage *c = otpu_coverage_read_json(argv[i], err, sizeof err);
        if (!c || (sum && otpu_coverage_merge(sum, c, err, sizeof err))) {
            otpu_coverage_free(c);
            otpu_coverage_free(sum);
            otpu_out_discard(&o);
            return bad("%s", err);
        }
        if (!sum)
            sum = c;
        else
            otpu_coverage_free(c);
    }
    const char *path = otpu_out_begin(&o, err, sizeof err);
    int rc = !path || otpu_coverage_write_json(sum, path, err, sizeof err) ||
                     otpu_out_commit(&o, err, sizeof err)
                 ? bad("merge: -o %s", err)
                 : 0;
    otpu_out_discard(&o);
    otpu_coverage_free(sum);
    return rc;
}

static int cmd_report(int argc, char **argv)
{
    if (argc != 3 || argv[2][0] == '-')
        return bad("report takes one coverage FILE (see --help)");
    char err[512];
    otpu_coverage *c = otpu_coverage_read_json(argv[2], err, sizeof err);
    if (!c)
        return bad("%s", err);
    otpu_coverage_report(c, stdout);
    otpu_coverage_free(c);
    return fflush(stdout) ? bad("cannot write the report") : 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (argc < 2)
        return bad("a command is needed: merge or report (see --help)");
    if (!strcmp(argv[1], "merge"))
        return cmd_merge(argc, argv);
    if (!strcmp(argv[1], "report"))
        return cmd_report(argc, argv);
    return bad("unknown command '%s' (merge, report; see --help)", argv[1]);
}
