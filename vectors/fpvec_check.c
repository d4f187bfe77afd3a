/* fpvec_check.c - otpu-fpvec check: sim/fp32.c over a vector file, and the vector file reader. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "fpvec_cli.h"
#include "input.h"

static const char HELP_CHECK[] =
    "usage: otpu-fpvec check [--show N] [--rev NAME] FILE\n"
    "\n"
    "Runs sim/fp32.c over every vector of FILE ('-': standard input) with tb_fp's parsing rules.\n"
    "Prints up to N (default 20) lines MISMATCH op= a= b= exp= got= line=, a table per op and\n"
    "FPTEST cases=<n> errors=<m>. Exit 0 every vector matches, 1 mismatches, 2 a malformed line\n"
    "(FILE:LINE named), an unreadable or empty file.\n"
    "\n"
    "  --rev NAME   the ISA revision whose fp32 functions give the expected values (default\n"
    "               current; docs/bundle.md); an op its fp32 unit lacks is a bad line, and\n"
    "               a vector with a NaN operand, undefined in a revision that says so, is\n"
    "               skipped and counted apart\n";


/* Reads a vector file ("-": stdin), calling each(v, line number, user) for every vector; a
 * malformed line, an unreadable file or one without vectors ends the tool (exit 2) naming it.
 * Returns the number of vectors. */
uint64_t read_vectors(const char *path, void (*each)(const fpvec_vec *, uint64_t, void *),
                             void *user)
{
    char err[1024], why[128], *line = NULL;
    FILE *in = strcmp(path, "-") == 0 ? stdin : otpu_input_open(path, err, sizeof err);
    if (!in)
        die("%s", err);
    size_t cap = 0;
    ssize_t len;
    uint64_t lineno = 0;
    while ((len = getline(&line, &cap, in)) >= 0) {
        fpvec_vec v;
        lineno++;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        if (fpvec_parse_line(line, (size_t)len, &v, why, sizeof why) != 0)
            die("%s:%" PRIu64 ": malformed vector line: %s", path, lineno, why);
        if (each)
            each(&v, lineno, user);
    }
    int rerr = ferror(in);
    free(line);
    if (in != stdin)
        fclose(in);
    if (rerr)
        die("cannot read %s", path);
    if (lineno == 0)
        die("%s holds no vectors", path);
    return lineno;
}

typedef struct check_tally {
    uint64_t cases[FPVEC_NOPS], errors[FPVEC_NOPS], errs, total, nan_skipped;
    uint32_t seen;
    long show;
    double next;
    const char *path;
    const otpu_rev_desc *rev;
} check_tally;

static void check_one(const fpvec_vec *v, uint64_t lineno, void *user)
{
    check_tally *t = user;
    if (!(fpvec_rev_ops(t->rev) & (1u << v->op)))
        die("%s:%" PRIu64 ": op %u (%s): ISA revision %s's fp32 unit has no %s", t->path, lineno,
            v->op, fpvec_op_name(v->op), t->rev->name, fpvec_op_name(v->op));
    if (t->rev->fp_nan_undefined && fpvec_nan_operand(v->op, v->a, v->b)) {
        t->nan_skipped++;
        return;
    }
    uint32_t got = fpvec_expected(&t->rev->fp, v->op, v->a, v->b);
    t->cases[v->op]++;
    t->seen |= 1u << v->op;
    t->total++;
    if (got != v->expected) {
        if ((long)t->errs < t->show)
            fpvec_print_mismatch(stdout, v->op, v->a, v->b, v->expected, got, lineno);
        t->errs++;
        t->errors[v->op]++;
    }
    if ((lineno & 0xFFFF) == 0 && now_s() >= t->next) {
        msg("%" PRIu64 " vectors, %" PRIu64 " mismatches", t->total, t->errs);
        t->next = now_s() + 5.0;
    }
}

int cmd_check(int argc, char **argv)
{
    const char *path = NULL;
    check_tally t = {.show = 20, .rev = otpu_rev_desc_of(OTPU_REV_CURRENT)};
    if (wants_help(argc, argv)) {
        fputs(HELP_CHECK, stdout);
        return EXIT_OK;
    }
    args a = {argc, 1, argv, NULL};
    for (; a.i < argc; a.i++) {
        if (opt_is(&a, "--show", 1))
            t.show = (long)parse_u64("--show", a.value, 0, 1000000000);
        else if (opt_is(&a, "--rev", 1))
            t.rev = parse_rev_opt(a.value);
        else if (argv[a.i][0] == '-' && argv[a.i][1] != '\0')
            usage_error("unknown option '%s'", argv[a.i]);
        else if (path)
            usage_error("more than one FILE ('%s', '%s')", path, argv[a.i]);
        else
            path = argv[a.i];
    }
    if (!path)
        usage_error("no vector FILE");
    double t0 = now_s();
    t.next = t0 + 5.0;
    t.path = path;
    read_vectors(path, check_one, &t);
    if (t.nan_skipped)
        printf("otpu-fpvec: %" PRIu64 " vectors with a NaN operand skipped (undefined in ISA "
               "revision %s)\n", t.nan_skipped, t.rev->name);
    if (!t.total)
        die("%s holds no vector defined in ISA revision %s", path, t.rev->name);
    if ((long)t.errs > t.show)
        printf("otpu-fpvec: %" PRIu64 " more mismatches not shown\n", t.errs - (uint64_t)t.show);
    fpvec_report(stdout, "otpu-fpvec", t.seen, t.cases, t.errors);
    double dt = now_s() - t0;
    int other = t.rev != otpu_rev_desc_of(OTPU_REV_CURRENT);
    char q[600];
    printf("otpu-fpvec: check: %s: %" PRIu64 " vectors in %.2f s against sim/fp32.c%s%s: %s\n",
           otpu_escape(path, strlen(path), q, sizeof q), t.total, dt,
           other ? ", ISA revision " : "", other ? t.rev->name : "",
           t.errs ? "FAIL" : "PASS");
    return t.errs ? EXIT_MISMATCH : EXIT_OK;
}

