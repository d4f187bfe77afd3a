/* fpvec_exhaustive.c - otpu-fpvec exhaustive: every input (or a range, or a shard of it) of the
 * one-operand functions through sim/fp32.c and an otpu_fp.sv, in bench processes running in
 * parallel (the Verilated model is single-threaded); and exhaustive-merge, the same report
 * from the results of several runs. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fpvec_cli.h"
#include "fpvec_exh_result.h"
#include "input.h"
#include "output.h"
#include "sha256.h"

static const char HELP_EXH[] =
    "usage: otpu-fpvec exhaustive OP... [--sv PATH] [--rev NAME] [--range LO:HI]\n"
    "                             [--shard I/N] [-j N] [--json FILE] [--mismatches FILE]\n"
    "                             [--show N] [--progress SECONDS] [--cache DIR] [--rebuild]\n"
    "\n"
    "Runs every 32-bit input of each one-operand function OP through sim/fp32.c and the\n"
    "Verilated otpu_fp (DPI, as `rtl`), in N bench processes at once, and reports per\n"
    "function: inputs compared, mismatches, and the mismatches by input class (zero,\n"
    "subnormal, normal by bands of 8 exponents, inf, NaN, each signed; i2f: int32 bit lengths)\n"
    "and by ulp distance. The first 100 mismatching inputs of each function (the smallest) are\n"
    "written as a vector file that `check` and `rtl FILE` reproduce.\n"
    "\n"
    "  OP               exp2 recip rsqrt i2f q8 abs log2 (or 5 6 7 8 9 11 12), one or more,\n"
    "                   comma-separated or not; all: every one the revision has\n"
    "  --sv PATH        the otpu_fp.sv (default the project's rtl/otpu_fp.sv), as for `rtl`\n"
    "  --rev NAME       the ISA revision whose functions give the expected values and whose\n"
    "                   otpu_fp the bench is built for (default current); NaN inputs are\n"
    "                   skipped (and counted) where it leaves them undefined\n"
    "  --range LO:HI    the inputs LO <= x < HI (hex with 0x, or decimal; HI at most\n"
    "                   0x100000000, the default range 0:0x100000000)\n"
    "  --shard I/N      the I-th (0-based) of N equal contiguous parts of the range: the runs\n"
    "                   of shards 0..N-1 (a job array) together cover the range once\n"
    "  -j, --jobs N     bench processes in parallel (default: the number of CPUs)\n"
    "  --json FILE      the result (default fpvec-exhaustive-LO-HI.json in the current\n"
    "                   folder, LO HI the inputs run, in hex); exhaustive-merge reads it\n"
    "  --mismatches FILE  the first mismatches (default: FILE of --json, .json replaced by\n"
    "                   .mismatches.vec; none when --json is a device or a FIFO); written\n"
    "                   when there are any. --json and --mismatches are checked before the\n"
    "                   run: a FILE replaced whole, a device or a FIFO with its reader\n"
    "                   written as it is\n"
    "  --show N         MISMATCH lines printed per function (default 10)\n"
    "  --progress S     seconds between progress lines (with an ETA) on stderr (default 5;\n"
    "                   0: none)\n"
    "  --cache DIR, --rebuild: as for `rtl`\n"
    "\n"
    "otpu-fpvec exhaustive-merge [--json FILE] [--mismatches FILE] [--show N] RESULT.json...\n"
    "merges the results of runs of one otpu_fp.sv, revision and set of functions over disjoint\n"
    "inputs (shards): the report and totals are those of one run over their union.\n"
    "\n"
    "Exit 0 every input matched, 1 mismatches, 2 bad input (an unknown or two-operand OP, a bad\n"
    "range, shard or -j, a bench that does not build, results that do not merge).\n";

#define EXH_DEFAULT_SHOW 10

typedef struct exh_out {
    const char *json, *mismatches;
    long show;
    otpu_out json_out, mism_out; /* checked before the run (output.h) */
    char *mism_path;             /* the mismatches' file, NULL when none is written */
} exh_out;

/* ---- the report ------------------------------------------------------------------------------ */

/* Writes the first mismatches of every function as vectors (fp32.c's value as the expected
 * one), op after op; returns how many. */
static unsigned write_mismatches(exh_out *o, const exh_result *r)
{
    char err[1200];
    FILE *f = otpu_out_open(&o->mism_out, err, sizeof err);
    if (!f)
        die("--mismatches: %s", err);
    unsigned n = 0;
    char line[64];
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        for (unsigned i = 0; (r->ops & (1u << op)) && i < r->tally[op].nfirst; i++, n++) {
            const fpvec_exh_mm *m = &r->tally[op].first[i];
            fwrite(line, 1, fpvec_format_line(line, op, m->a, 0, m->expected), f);
        }
    if (otpu_out_commit(&o->mism_out, err, sizeof err))
        die("--mismatches: %s", err);
    return n;
}

/* --json and --mismatches, before anything runs or is read: a place that cannot be written
 * is bad input now. The mismatches' default is named after --json's file: none when --json
 * is a device or a FIFO (written in place). */
static void exh_out_check(exh_out *o)
{
    char err[1200];
    if (otpu_out_check(&o->json_out, o->json, OTPU_OUT_STREAM, err, sizeof err))
        die("--json: %s", err);
    if (o->mismatches) {
        o->mism_path = xstrdup_printf("%s", o->mismatches);
    } else if (!o->json_out.in_place) {
        size_t n = strlen(o->json);
        if (n > 5 && strcmp(o->json + n - 5, ".json") == 0)
            n -= 5;
        o->mism_path = xstrdup_printf("%.*s.mismatches.vec", (int)n, o->json);
    }
    if (o->mism_path && otpu_out_check(&o->mism_out, o->mism_path, OTPU_OUT_STREAM, err,
                                       sizeof err))
        die("--mismatches: %s", err);
}

/* Prints the report of r, writes its files; returns the exit status (0 or 1). */
static int report(const char *who, exh_result *r, exh_out *o)
{
    uint64_t total = 0, mism = 0, per_func = 0;
    int rev_other = r->rev != otpu_rev_desc_of(OTPU_REV_CURRENT);
    char sv[sizeof r->sv * 4 + 8]; /* (a path, or a result file's field: input) */
    printf("otpu-fpvec %s: otpu_fp.sv: %s%s%s\n", who,
           otpu_escape(r->sv, sizeof r->sv, sv, sizeof sv), rev_other ? ", ISA revision " : "",
           rev_other ? r->rev->name : "");
    printf("otpu-fpvec %s: inputs", who);
    for (size_t i = 0; i < r->nranges; i++) {
        per_func += r->ranges[i][1] - r->ranges[i][0];
        printf("%s 0x%08" PRIx64 "..0x%08" PRIx64, i ? "," : "", r->ranges[i][0],
               r->ranges[i][1] - 1);
    }
    printf(" (%" PRIu64 " per function)\n", per_func);
    printf("%-6s %12s %10s %11s\n", "func", "inputs", "skipped", "mismatches");
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if (r->ops & (1u << op)) {
            const fpvec_exh_tally *t = &r->tally[op];
            printf("%-6s %12" PRIu64 " %10" PRIu64 " %11" PRIu64 "%s\n", fpvec_op_name(op),
                   t->inputs, t->skipped, t->mismatches, t->mismatches ? "  FAIL" : "");
            total += t->inputs;
            mism += t->mismatches;
        }
    const char *mpath = mism ? o->mism_path : NULL;
    snprintf(r->mismatch_file, sizeof r->mismatch_file, "%s", mpath ? mpath : "");
    unsigned line = 0;
    char verdict[160] = "PASS";
    size_t vk = 0;
    for (unsigned op = 0; op < FPVEC_NOPS; op++) {
        const fpvec_exh_tally *t = &r->tally[op];
        if (!(r->ops & (1u << op)) || !t->mismatches)
            continue;
        vk += (size_t)snprintf(verdict + vk, sizeof verdict - vk, "%s%s",
                               vk ? " " : "FAIL (functions: ", fpvec_op_name(op));
        printf("%s: %" PRIu64 " mismatches by input class and ulp distance:\n", fpvec_op_name(op),
               t->mismatches);
        for (unsigned c = 0; c < FPVEC_EXH_NCLASS; c++) {
            uint64_t sum = 0;
            for (unsigned b = 0; b < FPVEC_EXH_NBUCKET; b++)
                sum += t->hist[c][b];
            if (!sum)
                continue;
            char cn[48], bn[48];
            printf("  class %s: %" PRIu64 " (ulp", fpvec_exh_class_name(op, c, cn, sizeof cn),
                   sum);
            const char *sep = " ";
            for (unsigned b = 0; b < FPVEC_EXH_NBUCKET; b++)
                if (t->hist[c][b]) {
                    printf("%s%s: %" PRIu64, sep, fpvec_exh_bucket_name(b, bn, sizeof bn),
                           t->hist[c][b]);
                    sep = ", ";
                }
            printf(")\n");
        }
        /* line=N: the line of the mismatch file */
        for (unsigned i = 0; i < t->nfirst; i++) {
            line++;
            if ((long)i < o->show)
                fpvec_print_mismatch(stdout, op, t->first[i].a, 0, t->first[i].expected,
                                     t->first[i].got, line);
        }
    }
    if (vk)
        snprintf(verdict + vk, sizeof verdict - vk, ")");
    char err[1200], q[600];
    if (mpath) {
        unsigned n = write_mismatches(o, r);
        printf("otpu-fpvec %s: first mismatches (%u vectors; `otpu-fpvec check` and `rtl FILE` "
               "reproduce them): %s\n", who, n, otpu_escape(mpath, strlen(mpath), q, sizeof q));
    } else if (mism) {
        printf("otpu-fpvec %s: first mismatches: not written (--json is written in place; "
               "--mismatches FILE writes them)\n", who);
    }
    const char *jpath = otpu_out_begin(&o->json_out, err, sizeof err);
    if (!jpath || exh_json_write(jpath, r, err, sizeof err) != 0 ||
        otpu_out_commit(&o->json_out, err, sizeof err)) {
        otpu_out_discard(&o->json_out);
        die("--json: %s", err);
    }
    printf("otpu-fpvec %s: result: %s\n", who, otpu_escape(o->json, strlen(o->json), q, sizeof q));
    printf("otpu-fpvec %s: %" PRIu64 " inputs of %u functions, %" PRIu64 " mismatches in %.2f s "
           "(%.3g inputs/s", who, total, (unsigned)__builtin_popcount(r->ops), mism, r->wall_s,
           r->wall_s > 0 ? (double)total / r->wall_s : 0.0);
    if (r->procs)
        printf(", %u processes", r->procs);
    printf("): %s\n", verdict);
    otpu_out_discard(&o->mism_out); /* (checked, and not written: no mismatch) */
    free(o->mism_path);
    return mism ? EXIT_MISMATCH : EXIT_OK;
}

/* ---- the bench processes --------------------------------------------------------------------- */

typedef struct child {
    pid_t pid;
    int fd;
    char buf[4096];
    size_t len;
    uint64_t done;
    int ended; /* its EXH end line was read */
} child;


/* Handles the complete lines in c's buffer. */
static void child_lines(child *c, exh_result *r)
{
    char *p = c->buf, *nl;
    while ((nl = memchr(p, '\n', c->len - (size_t)(p - c->buf)))) {
        *nl = '\0';
        int k = fpvec_exh_parse(p, r->tally, &c->done);
        if (k == 3)
            c->ended = 1;
        else if (k <= 0) /* the bench's own words (an error): to stderr */
            otpu_print_line(stderr, "", p);
        p = nl + 1;
    }
    c->len -= (size_t)(p - c->buf);
    memmove(c->buf, p, c->len);
    if (c->len == sizeof c->buf) /* a line that long is none of ours */
        die("the bench printed an overlong line");
}

static void fmt_duration(char *b, size_t n, double s)
{
    if (s < 0 || s > 1e7)
        snprintf(b, n, "?");
    else if (s >= 3600)
        snprintf(b, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
    else
        snprintf(b, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
}

/* Runs nproc bench processes over [lo, hi) of every op of r; their tallies land in r. */
static void run_benches(const char *bench, exh_result *r, uint64_t lo, uint64_t hi,
                        unsigned nproc, double progress)
{
    char ops_s[64] = "+ops=", lo_s[40], hi_s[40], parts_s[32], rev_s[64];
    size_t k = strlen(ops_s);
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if (r->ops & (1u << op))
            k += (size_t)snprintf(ops_s + k, sizeof ops_s - k, "%s%u", ops_s[k - 1] == '=' ? ""
                                  : ",", op);
    snprintf(lo_s, sizeof lo_s, "+lo=%" PRIu64, lo);
    snprintf(hi_s, sizeof hi_s, "+hi=%" PRIu64, hi);
    snprintf(parts_s, sizeof parts_s, "+parts=%u", nproc);
    snprintf(rev_s, sizeof rev_s, "+rev=%s", r->rev->name);
    child *ch = calloc(nproc, sizeof *ch);
    struct pollfd *pfd = calloc(nproc, sizeof *pfd);
    if (!ch || !pfd)
        die("out of memory");
    for (unsigned i = 0; i < nproc; i++) {
        char part_s[32];
        snprintf(part_s, sizeof part_s, "+part=%u", i);
        char *argv[] = {(char *)bench, "+exhaustive", ops_s, lo_s, hi_s, part_s, parts_s, rev_s,
                        "+progress=1", NULL};
        ch[i].pid = bench_spawn(argv, &ch[i].fd);
    }
    uint64_t total = (hi - lo) * (uint64_t)__builtin_popcount(r->ops);
    double t0 = now_s(), next = t0 + progress;
    unsigned open_fds = nproc;
    while (open_fds) {
        for (unsigned i = 0; i < nproc; i++) {
            pfd[i].fd = ch[i].fd;
            pfd[i].events = POLLIN;
        }
        int n = poll(pfd, nproc, 1000);
        if (n < 0 && errno != EINTR)
            die("poll: %s", strerror(errno));
        for (unsigned i = 0; n > 0 && i < nproc; i++) {
            if (ch[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(ch[i].fd, ch[i].buf + ch[i].len, sizeof ch[i].buf - ch[i].len);
            if (got > 0) {
                ch[i].len += (size_t)got;
                child_lines(&ch[i], r);
            } else if (got == 0 || errno != EINTR) {
                close(ch[i].fd);
                ch[i].fd = -1;
                open_fds--;
            }
        }
        double t = now_s();
        if (progress > 0 && t >= next && open_fds) {
            uint64_t done = 0, mism = 0;
            for (unsigned i = 0; i < nproc; i++)
                done += ch[i].done;
            for (unsigned op = 0; op < FPVEC_NOPS; op++)
                mism += r->tally[op].mismatches;
            double rate = (double)done / (t - t0);
            char eta[32];
            fmt_duration(eta, sizeof eta, rate > 0 ? (double)(total - done) / rate : -1);
            msg("%.1f%% (%" PRIu64 " of %" PRIu64 " inputs), %.3g inputs/s, %" PRIu64
                " mismatches so far, ETA %s", 100.0 * (double)done / (double)total, done, total,
                rate, mism, eta);
            next = t + progress;
        }
    }
    for (unsigned i = 0; i < nproc; i++) {
        int st;
        while (waitpid(ch[i].pid, &st, 0) < 0)
            if (errno != EINTR)
                die("waitpid: %s", strerror(errno));
        if (!WIFEXITED(st) || WEXITSTATUS(st) > 1 || !ch[i].ended)
            die("the bench %s (part %u of %u) failed (%s %d)", bench, i, nproc,
                WIFSIGNALED(st) ? "signal" : "status",
                WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    }
    free(ch);
    free(pfd);
}

/* ---- options --------------------------------------------------------------------------------- */

/* Adds the functions an OP argument names to *ops (usage_error on a bad one). */
static void parse_op_arg(const char *v, const otpu_rev_desc *rev, uint32_t *ops)
{
    uint32_t has = fpvec_rev_ops(rev), unary = 0, m;
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if (fpvec_op_unary(op))
            unary |= 1u << op;
    if (strcmp(v, "all") == 0) {
        *ops |= unary & has;
        return;
    }
    char bad[64];
    if (strstr(v, "all")) /* (fpvec_parse_ops would take it for every op, two-operand ones too) */
        snprintf(bad, sizeof bad, "%s", v);
    if (strstr(v, "all") || fpvec_parse_ops(v, &m, bad, sizeof bad) != 0)
        usage_error("unknown function '%s' (exhaustive takes exp2 recip rsqrt i2f q8 abs log2, "
                    "or all)", bad);
    for (unsigned op = 0; op < FPVEC_NOPS; op++) {
        if (!(m & (1u << op)))
            continue;
        if (!fpvec_op_unary(op))
            usage_error("%s is not a one-operand function (exhaustive takes exp2 recip rsqrt "
                        "i2f q8 abs log2)", fpvec_op_name(op));
        if (!(has & (1u << op)))
            usage_error("ISA revision %s's fp32 unit has no %s", rev->name, fpvec_op_name(op));
    }
    *ops |= m;
}

/* The value v of option opt in the form A<sep>B (form names it: "LO:HI"): A as a new string,
 * *b what follows sep; a usage error when v has no sep. */
static char *split_pair(const char *opt, const char *v, char sep, const char *form,
                        const char **b)
{
    const char *at = strchr(v, sep);
    if (!at)
        usage_error("%s: '%s' is not %s", opt, v, form);
    *b = at + 1;
    return xstrdup_printf("%.*s", (int)(at - v), v);
}

static void parse_range(const char *v, uint64_t *lo, uint64_t *hi)
{
    const char *h;
    char *l = split_pair("--range", v, ':', "LO:HI", &h);
    *lo = parse_u64("--range LO", l, 0, UINT64_C(0xFFFFFFFF));
    *hi = parse_u64("--range HI", h, 1, UINT64_C(0x100000000));
    free(l);
    if (*hi <= *lo)
        usage_error("--range: '%s' is empty (LO < HI needed)", v);
}

static void parse_shard(const char *v, uint64_t *i, uint64_t *n)
{
    const char *b;
    char *a = split_pair("--shard", v, '/', "I/N", &b);
    *n = parse_u64("--shard N", b, 1, UINT64_C(0x100000000));
    *i = parse_u64("--shard I", a, 0, UINT64_MAX);
    free(a);
    if (*i >= *n)
        usage_error("--shard: %s: I must be below N (0..%" PRIu64 ")", v, *n - 1);
}

static void sv_hash(const char *path, char out[65])
{
    char err[1024], *data;
    size_t len;
    if (otpu_input_read(path, (size_t)1 << 30, &data, &len, err, sizeof err))
        die("%s", err);
    otpu_sha256_hex(data, len, out);
    free(data);
}

int cmd_exhaustive(int argc, char **argv)
{
    const char *sv = NULL, *cache = NULL;
    const otpu_rev_desc *rev = otpu_rev_desc_of(OTPU_REV_CURRENT);
    exh_out out = {.show = EXH_DEFAULT_SHOW};
    uint64_t lo = 0, hi = UINT64_C(0x100000000), si = 0, sn = 1;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned nproc = ncpu > 0 ? (unsigned)ncpu : 1;
    double progress = 5;
    int rebuild = 0;
    if (wants_help(argc, argv)) {
        fputs(HELP_EXH, stdout);
        return EXIT_OK;
    }
    args a = {argc, 1, argv, NULL};
    /* --rev first: the OPs are judged against it */
    for (; a.i < argc; a.i++)
        if (opt_is(&a, "--rev", 1))
            rev = parse_rev_opt(a.value);
    uint32_t ops = 0;
    for (a.i = 1; a.i < argc; a.i++) {
        if (opt_is(&a, "--rev", 1))
            continue;
        else if (opt_is(&a, "--sv", 1))
            sv = a.value;
        else if (opt_is(&a, "--range", 1))
            parse_range(a.value, &lo, &hi);
        else if (opt_is(&a, "--shard", 1))
            parse_shard(a.value, &si, &sn);
        else if (opt_is(&a, "-j", 1) || opt_is(&a, "--jobs", 1))
            nproc = (unsigned)parse_u64("-j", a.value, 1, 256);
        else if (opt_is(&a, "--json", 1))
            out.json = a.value;
        else if (opt_is(&a, "--mismatches", 1))
            out.mismatches = a.value;
        else if (opt_is(&a, "--show", 1))
            out.show = (long)parse_u64("--show", a.value, 0, FPVEC_EXH_FIRST);
        else if (opt_is(&a, "--progress", 1))
            progress = (double)parse_u64("--progress", a.value, 0, 86400);
        else if (opt_is(&a, "--cache", 1))
            cache = a.value;
        else if (opt_is(&a, "--rebuild", 0))
            rebuild = 1;
        else if (argv[a.i][0] == '-')
            usage_error("unknown option '%s'", argv[a.i]);
        else
            parse_op_arg(argv[a.i], rev, &ops);
    }
    if (!ops)
        usage_error("no function given (exp2 recip rsqrt i2f q8 abs log2, or all)");
    /* the shard: the I-th of N contiguous parts of [lo, hi) */
    uint64_t size = hi - lo, slo = lo + size * si / sn, shi = lo + size * (si + 1) / sn;
    if (slo == shi)
        usage_error("--shard %" PRIu64 "/%" PRIu64 " of %" PRIu64 " inputs is empty", si, sn,
                    size);
    if (nproc > shi - slo)
        nproc = (unsigned)(shi - slo);
    char *json_default = xstrdup_printf("fpvec-exhaustive-%08" PRIx64 "-%08" PRIx64 ".json", slo,
                                        shi);
    if (!out.json)
        out.json = json_default;
    exh_out_check(&out);
    if (cache)
        check_cache_dir(cache);

    exh_result *r = exh_result_new();
    if (!r)
        die("out of memory");
    char *sv_path = NULL;
    char *bench = rtl_bench(sv, rev, cache, nproc, rebuild, &sv_path);
    snprintf(r->sv, sizeof r->sv, "%s", sv_path);
    sv_hash(sv_path, r->sv_sha256);
    r->rev = rev;
    r->ops = ops;
    r->procs = nproc;
    exh_result_add_range(r, slo, shi);
    r->whole[0] = lo;
    r->whole[1] = hi;
    r->of = sn;
    if (exh_result_add_shard(r, si))
        die("out of memory");
    double t0 = now_s();
    run_benches(bench, r, slo, shi, nproc, progress);
    r->wall_s = now_s() - t0;
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if ((ops & (1u << op)) && r->tally[op].inputs + r->tally[op].skipped != shi - slo)
            die("the benches compared %" PRIu64 " inputs of %s, not %" PRIu64,
                r->tally[op].inputs + r->tally[op].skipped, fpvec_op_name(op), shi - slo);
    int rc = report("exhaustive", r, &out);
    exh_result_free(r);
    free(json_default);
    free(sv_path);
    free(bench);
    return rc;
}

/* A merge is of every shard of its split, or it is refused (no verdict on part of the inputs):
 * the missing ones named, the first few. */
static void missing_shards(const exh_result *m)
{
    if (m->nshards == m->of)
        return;
    char list[256] = "";
    size_t k = 0, shown = 0;
    for (uint64_t i = 0; i < m->of && shown < 8; i++) {
        if (k < m->nshards && m->shards[k] == i) {
            k++;
            continue;
        }
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%" PRIu64, shown++ ? ", " : "", i);
    }
    uint64_t have = 0;
    for (size_t i = 0; i < m->nranges; i++)
        have += m->ranges[i][1] - m->ranges[i][0];
    die("the results hold %zu of the %" PRIu64 " shards of 0x%" PRIx64 ":0x%" PRIx64
        " (%" PRIu64 " of %" PRIu64 " inputs); missing: %s%s", m->nshards, m->of, m->whole[0],
        m->whole[1], have, m->whole[1] - m->whole[0], list,
        m->of - m->nshards > shown ? ", ..." : "");
}

int cmd_exhaustive_merge(int argc, char **argv)
{
    exh_out out = {.json = "fpvec-exhaustive-merged.json", .show = EXH_DEFAULT_SHOW};
    if (wants_help(argc, argv)) {
        fputs(HELP_EXH, stdout);
        return EXIT_OK;
    }
    exh_result *m = exh_result_new(), *one = exh_result_new();
    if (!m || !one)
        die("out of memory");
    int nfiles = 0;
    char err[1024];
    args a = {argc, 1, argv, NULL};
    for (; a.i < argc; a.i++) { /* the options first: the outputs are checked before any read */
        if (opt_is(&a, "--json", 1))
            out.json = a.value;
        else if (opt_is(&a, "--mismatches", 1))
            out.mismatches = a.value;
        else if (opt_is(&a, "--show", 1))
            out.show = (long)parse_u64("--show", a.value, 0, FPVEC_EXH_FIRST);
        else if (argv[a.i][0] == '-')
            usage_error("unknown option '%s'", argv[a.i]);
    }
    exh_out_check(&out);
    for (a.i = 1; a.i < argc; a.i++) {
        if (opt_is(&a, "--json", 1) || opt_is(&a, "--mismatches", 1) || opt_is(&a, "--show", 1))
            continue;
        const char *path = argv[a.i];
        exh_result_free(one);
        if (!(one = exh_result_new()))
            die("out of memory");
        if (exh_json_read(path, one, err, sizeof err) != 0)
            die("%s", err);
        if (nfiles == 0) {
            memcpy(m->sv, one->sv, sizeof m->sv);
            memcpy(m->sv_sha256, one->sv_sha256, sizeof m->sv_sha256);
            m->rev = one->rev;
            m->ops = one->ops;
            memcpy(m->whole, one->whole, sizeof m->whole);
            m->of = one->of;
        } else if (memcmp(m->whole, one->whole, sizeof m->whole) || m->of != one->of) {
            die("%s: a shard of 0x%" PRIx64 ":0x%" PRIx64 " split in %" PRIu64 "; the first "
                "result's is of 0x%" PRIx64 ":0x%" PRIx64 " split in %" PRIu64, path,
                one->whole[0], one->whole[1], one->of, m->whole[0], m->whole[1], m->of);
        } else if (strcmp(m->sv_sha256, one->sv_sha256) != 0) {
            die("%s: another otpu_fp.sv (%s, content %.12s) than the first result's (%.12s)",
                path, one->sv, one->sv_sha256, m->sv_sha256);
        } else if (m->rev != one->rev) {
            die("%s: ISA revision %s, the first result's is %s", path, one->rev->name,
                m->rev->name);
        } else if (m->ops != one->ops) {
            die("%s: other functions than the first result's", path);
        }
        for (size_t i = 0; i < one->nshards; i++)
            if (exh_result_add_shard(m, one->shards[i]))
                die("%s: shard %" PRIu64 " of %" PRIu64 " is in another result too", path,
                    one->shards[i], one->of);
        for (size_t i = 0; i < one->nranges; i++)
            if (exh_result_add_range(m, one->ranges[i][0], one->ranges[i][1]) != 0)
                die("%s: its inputs 0x%08" PRIx64 "..0x%08" PRIx64 " overlap another result's",
                    path, one->ranges[i][0], one->ranges[i][1] - 1);
        for (unsigned op = 0; op < FPVEC_NOPS; op++)
            fpvec_exh_merge(&m->tally[op], &one->tally[op]);
        m->wall_s += one->wall_s;
        nfiles++;
    }
    if (!nfiles)
        usage_error("no RESULT.json to merge");
    missing_shards(m);
    int rc = report("exhaustive-merge", m, &out);
    exh_result_free(m);
    exh_result_free(one);
    return rc;
}
