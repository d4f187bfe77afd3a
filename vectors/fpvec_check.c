/* fpvec_check.c - otpu-fpvec check: sim/fp32.c over a vector file, and the vector file reader. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "fpvec_cli.h"
#include "input.h"

static const char HELP_CHECK[] =
    "usage: otpu-fpvec check [--show N] FILE\n"
    "\n"
    "Runs sim/fp32.c over every vector of FILE ('-': standard input) with tb_fp's parsing rules.\n"
    "Prints up to N (default 20) lines MISMATCH op= a= b= exp= got= line=, a table per op and\n"
    "FPTEST cases=<n> errors=<m>. Exit 0 every vector matches, 1 mismatches, 2 a malformed line\n"
    "(FILE:LINE named), an unreadable or empty file.\n";


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
    uint64_t cases[FPVEC_NOPS], errors[FPVEC_NOPS], errs, total;
    uint32_t seen;
    long show;
    double next;
} check_tally;

static void check_one(const fpvec_vec *v, uint64_t lineno, void *user)
{
    check_tally *t = user;
    uint32_t got = fpvec_expected(v->op, v->a, v->b);
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
    check_tally t = {.show = 20};
    if (wants_help(argc, argv)) {
        fputs(HELP_CHECK, stdout);
        return EXIT_OK;
    }
    args a = {argc, 1, argv, NULL};
    for (; a.i < argc; a.i++) {
        if (opt_is(&a, "--show", 1))
            t.show = (long)parse_u64("--show", a.value, 0, 1000000000);
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
    read_vectors(path, check_one, &t);
    if ((long)t.errs > t.show)
        printf("otpu-fpvec: %" PRIu64 " more mismatches not shown\n", t.errs - (uint64_t)t.show);
    fpvec_report(stdout, "otpu-fpvec", t.seen, t.cases, t.errors);
    double dt = now_s() - t0;
    printf("otpu-fpvec: check: %s: %" PRIu64 " vectors in %.2f s against sim/fp32.c: %s\n", path,
           t.total, dt, t.errs ? "FAIL" : "PASS");
    return t.errs ? EXIT_MISMATCH : EXIT_OK;
}

