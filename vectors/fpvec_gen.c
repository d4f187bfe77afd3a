/* fpvec_gen.c - otpu-fpvec gen: vectors made by sim/fp32.c, at a level, seed and count. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpvec_cli.h"
#include "output.h"

static const char HELP_GEN[] =
    "usage: otpu-fpvec gen [--level N] [--seed S] [--ops LIST] [--count N] [--rev NAME]\n"
    "                      [-o FILE]\n"
    "\n"
    "Writes vectors \"<op> <a> <b> <expected>\" (hex, the golden file's format), expected values\n"
    "from sim/fp32.c, op by op in op-code order.\n"
    "\n"
    "  --level N    1 (default): every pair of 124 special and boundary operands (unary ops:\n"
    "               every operand and its 16 neighbours each side) then random operands of\n"
    "               several shapes, 50000 vectors per op; 2: 1084 boundary operands,\n"
    "               2000000 vectors per op\n"
    "  --seed S     random seed (default 1); an op's vectors depend only on op, level, seed\n"
    "               and count\n"
    "  --ops LIST   comma-separated op names or numbers (default all): add sub mul max min\n"
    "               exp2 recip rsqrt i2f q8 gt abs log2 mm_max mm_min\n"
    "  --count N    vectors per op (default: the level's); the first N of the level's sequence\n"
    "  --rev NAME   the ISA revision (default current; docs/bundle.md): its fp32 functions give\n"
    "               the expected values, its ops are the default and the only ones allowed, and\n"
    "               a revision that leaves NaN operands undefined gets no vector with one\n"
    "  -o FILE      output file (default standard output): replaced whole (written beside\n"
    "               it, then renamed); a device or a FIFO (with its reader) is written as it is\n";


int cmd_gen(int argc, char **argv)
{
    gen_opts o;
    const char *out_path = NULL;
    gen_opts_default(&o);
    if (wants_help(argc, argv)) {
        fputs(HELP_GEN, stdout);
        return EXIT_OK;
    }
    args a = {argc, 1, argv, NULL};
    for (; a.i < argc; a.i++) {
        if (gen_opt(&a, &o))
            continue;
        if (opt_is(&a, "-o", 1) || opt_is(&a, "--output", 1))
            out_path = a.value;
        else
            usage_error("unknown argument '%s'", argv[a.i]);
    }
    gen_opts_finish(&o);
    FILE *out = stdout;
    otpu_out file; /* -o FILE: replaced whole, or a device or FIFO written in place */
    char err[1200];
    int to_file = out_path && strcmp(out_path, "-") != 0;
    if (to_file && (otpu_out_check(&file, out_path, OTPU_OUT_STREAM, err, sizeof err) ||
                    !(out = otpu_out_open(&file, err, sizeof err))))
        die("-o %s", err);
    static uint32_t va[4096], vb[4096];
    static char buf[4096 * 40];
    fpvec_gen *g = malloc(sizeof *g);
    if (!g)
        die("out of memory");
    uint64_t per = o.count ? o.count : fpvec_level_count(o.level), total = 0, done = 0;
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if (o.ops & (1u << op))
            total += per;
    double t0 = now_s(), next = t0 + 5.0;
    for (unsigned op = 0; op < FPVEC_NOPS; op++) {
        if (!(o.ops & (1u << op)))
            continue;
        fpvec_gen_init(g, op, o.level, o.seed, o.count, o.rev->fp_nan_undefined);
        size_t n;
        while ((n = fpvec_gen_fill(g, va, vb, 4096)) > 0) {
            size_t len = 0;
            for (size_t i = 0; i < n; i++)
                len += fpvec_format_line(buf + len, op, va[i], vb[i],
                                         fpvec_expected(&o.rev->fp, op, va[i], vb[i]));
            if (fwrite(buf, 1, len, out) != len) {
                int e = errno;
                if (to_file)
                    otpu_out_discard(&file);
                die("cannot write %s: %s", to_file ? out_path : "standard output", strerror(e));
            }
            done += n;
            if (now_s() >= next) {
                msg("%" PRIu64 " of %" PRIu64 " vectors (%.0f%%)", done, total,
                    100.0 * (double)done / (double)total);
                next = now_s() + 5.0;
            }
        }
    }
    free(g);
    if (to_file && otpu_out_commit(&file, err, sizeof err))
        die("-o %s", err);
    if (!to_file && fflush(out) != 0)
        die("cannot write standard output: %s", strerror(errno));
    if (to_file)
        msg("%" PRIu64 " vectors (level %d, seed %" PRIu64 ") written to %s", done, o.level,
            o.seed, out_path);
    return EXIT_OK;
}

