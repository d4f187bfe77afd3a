/* otpu_fpvec.c - otpu-fpvec: the fp32 conformance vectors of openTPU's arithmetic.
 *
 *   otpu-fpvec gen   [--level N] [--seed S] [--ops LIST] [--count N] [-o FILE]
 *   otpu-fpvec check [--show N] FILE
 *   otpu-fpvec rtl   [--sv PATH] [--level N] [--seed S] [--ops LIST] [--count N] [--show N]
 *                    [--cache DIR] [--jobs N] [--rebuild] [FILE]
 *   otpu-fpvec ulp   [--samples N] [--functions LIST] [--sweep-step K] [--seed S]
 *                    [--threads N]
 *
 * Every command has --help. Exit status: 0 everything matched (ulp: every bound held), 1 a
 * mismatch (ulp: a bound exceeded), 2 bad input (usage, unreadable or malformed file, no
 * vectors, a bench that cannot be built or run).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "fp32.h"
#include "fpvec.h"
#include "input.h"
#include "proc.h"

#ifndef OTPU_FPVEC_SRCDIR
#define OTPU_FPVEC_SRCDIR "" /* the source tree (meson sets it) */
#endif
#ifndef OTPU_FPVEC_BENCH
#define OTPU_FPVEC_BENCH "" /* the meson-built bench of the project's rtl/otpu_fp.sv */
#endif

#define EXIT_OK 0
#define EXIT_MISMATCH 1
#define EXIT_INPUT 2

static const char *g_cmd = ""; /* the running command, for messages */

/* ---- messages -------------------------------------------------------------------------------- */

/* "otpu-fpvec: CMD: <prefix><message><suffix>" on stderr, with the message's control bytes
 * escaped (it may quote file contents and arguments). */
static void say(const char *prefix, const char *suffix, const char *fmt, va_list ap)
{
    char raw[2048], safe[2048];
    vsnprintf(raw, sizeof raw, fmt, ap);
    fprintf(stderr, "otpu-fpvec: %s%s%s%s%s\n", g_cmd, *g_cmd ? ": " : "", prefix,
            otpu_escape(raw, sizeof raw, safe, sizeof safe), suffix);
}

static void msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("", "", fmt, ap);
    va_end(ap);
}

/* A one-line error, then exit 2. */
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("error: ", "", fmt, ap);
    va_end(ap);
    exit(EXIT_INPUT);
}

/* A usage error: one line, a pointer to --help, exit 2. */
static void usage_error(const char *fmt, ...)
{
    char help[64];
    snprintf(help, sizeof help, " (see otpu-fpvec %s%s--help)", g_cmd, *g_cmd ? " " : "");
    va_list ap;
    va_start(ap, fmt);
    say("error: ", help, fmt, ap);
    va_end(ap);
    exit(EXIT_INPUT);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- option parsing ------------------------------------------------------------------------- */

typedef struct args {
    int argc, i;
    char **argv;
    const char *value; /* the current option's value */
} args;

/* Is argv[i] the option name (as "--name VALUE" or "--name=VALUE" when it takes a value)?
 * Sets a->value and advances past the value. */
static int opt_is(args *a, const char *name, int takes_value)
{
    const char *s = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(s, name, n) != 0)
        return 0;
    if (s[n] == '\0') {
        if (!takes_value)
            return 1;
        if (a->i + 1 >= a->argc)
            usage_error("%s needs a value", name);
        a->value = a->argv[++a->i];
        return 1;
    }
    if (s[n] == '=' && takes_value) {
        a->value = s + n + 1;
        return 1;
    }
    if (s[n] == '=')
        usage_error("%s takes no value", name);
    return 0;
}

static uint64_t parse_u64(const char *name, const char *v, uint64_t lo, uint64_t hi)
{
    char *end = NULL;
    errno = 0;
    if (!*v || *v == '-' || *v == '+')
        usage_error("%s: '%s' is not a number", name, v);
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end)
        usage_error("%s: '%s' is not a number", name, v);
    if (x < lo || x > hi)
        usage_error("%s: %s is out of range (%" PRIu64 "..%" PRIu64 ")", name, v, lo, hi);
    return (uint64_t)x;
}

static uint32_t parse_ops_opt(const char *v)
{
    uint32_t mask;
    char bad[64];
    if (fpvec_parse_ops(v, &mask, bad, sizeof bad) != 0)
        usage_error("--ops: unknown op '%s' (ops: add sub mul max min exp2 recip rsqrt i2f q8 "
                    "gt abs log2 mm_max mm_min, their numbers 0..14, or all)", bad);
    return mask;
}

static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

/* ---- help ----------------------------------------------------------------------------------- */

static const char HELP_MAIN[] =
    "usage: otpu-fpvec COMMAND [OPTIONS]\n"
    "\n"
    "fp32 conformance vectors for openTPU's arithmetic: sim/fp32.c (the C model) and an RTL\n"
    "otpu_fp.sv (package otpu_fp) against each other and the golden vectors.\n"
    "\n"
    "commands:\n"
    "  gen    write vectors (op a b expected) made by sim/fp32.c, at level 1 or 2\n"
    "  check  run sim/fp32.c over a vector file\n"
    "  rtl    run the Verilated bench (project's otpu_fp.sv or --sv PATH) over a vector file,\n"
    "         or over generated vectors through DPI (no file)\n"
    "  ulp    worst error of exp2, log2, recip, rsqrt in ulp against the exact value\n"
    "\n"
    "otpu-fpvec COMMAND --help for a command's options. Exit status: 0 all matched (ulp: within\n"
    "the bounds), 1 mismatches (ulp: a bound exceeded), 2 bad input.\n";

static const char HELP_GEN[] =
    "usage: otpu-fpvec gen [--level N] [--seed S] [--ops LIST] [--count N] [-o FILE]\n"
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
    "  -o FILE      output file (default standard output)\n";

static const char HELP_CHECK[] =
    "usage: otpu-fpvec check [--show N] FILE\n"
    "\n"
    "Runs sim/fp32.c over every vector of FILE ('-': standard input) with tb_fp's parsing rules.\n"
    "Prints up to N (default 20) lines MISMATCH op= a= b= exp= got= line=, a table per op and\n"
    "FPTEST cases=<n> errors=<m>. Exit 0 every vector matches, 1 mismatches, 2 a malformed line\n"
    "(FILE:LINE named), an unreadable or empty file.\n";

static const char HELP_RTL[] =
    "usage: otpu-fpvec rtl [--sv PATH] [--level N] [--seed S] [--ops LIST] [--count N]\n"
    "                      [--show N] [--cache DIR] [--jobs N] [--rebuild] [FILE]\n"
    "\n"
    "Runs the Verilated tb_fp bench of an otpu_fp.sv:\n"
    "  FILE given   file mode: the bench reads FILE (+vec=FILE), prints MISMATCH lines with\n"
    "               the line number and FPTEST cases= errors=\n"
    "  no FILE      DPI mode: the level's vectors (as `gen` with the same --level --seed --ops\n"
    "               --count) are generated in C, their expected values computed with\n"
    "               sim/fp32.c and evaluated by the Verilated otpu_fp in batches through DPI;\n"
    "               MISMATCH line=<n> is the n-th line of that `gen` output\n"
    "Either way a table names every op with mismatches, and the rate is printed.\n"
    "\n"
    "  --sv PATH    a file defining package otpu_fp (default: the project's rtl/otpu_fp.sv,\n"
    "               whose bench meson builds); built on demand with Verilator and cached\n"
    "  --cache DIR  bench cache (default $OTPU_FPVEC_CACHE, else\n"
    "               ${XDG_CACHE_HOME:-~/.cache}/otpu-lockstep/fpvec); one folder per hash of\n"
    "               the sources and the Verilator version, built under a lock (parallel runs\n"
    "               share one build)\n"
    "  --jobs N     parallel compiles of a build (default 2)\n"
    "  --rebuild    build the --sv bench again even when cached\n"
    "  --level, --seed, --ops, --count: as for gen (DPI mode)\n"
    "  --show N     MISMATCH lines printed, at most (default 20)\n"
    "\n"
    "Exit 0 every vector matched (and at least one was checked), 1 mismatches, 2 bad input\n"
    "(unreadable or malformed file, a bench that does not build).\n";

static const char HELP_ULP[] =
    "usage: otpu-fpvec ulp [--samples N] [--functions LIST] [--sweep-step K] [--seed S]\n"
    "                      [--threads N]\n"
    "\n"
    "For exp2, log2, recip and rsqrt of sim/fp32.c: the worst error in ulp against the exact\n"
    "value (computed in double), |got - exact| / ulp(exact), over every fp32 in [0.5, 4) and N\n"
    "samples (default 4096: fractions 0, 1, max and random ones) of every exponent field 1..254\n"
    "(both signs for exp2 and recip). Inputs whose exact result is not a normal fp32, or outside\n"
    "the function's range (exp2: -126 <= x < 128; recip: |x| < 2^126; log2, rsqrt: x > 0) are\n"
    "skipped and counted. Also: the share of correctly rounded results and the largest distance\n"
    "in ulp from the correctly rounded fp32. Bounds (the reference's): exp2 1.61, log2 2.3,\n"
    "recip 1.16, rsqrt 1.03 ulp.\n"
    "\n"
    "  --functions LIST  comma-separated subset of exp2,log2,recip,rsqrt (default all)\n"
    "  --sweep-step K    every K-th fp32 of [0.5, 4) (default 1: all of them)\n"
    "  --seed S          seed of the random fractions (default 1)\n"
    "  --threads N       worker threads (default: the number of CPUs)\n"
    "\n"
    "Prints a line ULP func= max= bound= ... ok|FAIL per function. Exit 0 every function within\n"
    "its bound, 1 a bound exceeded.\n";

/* ---- gen ------------------------------------------------------------------------------------ */

typedef struct gen_opts {
    int level;
    uint64_t seed, count;
    uint32_t ops;
} gen_opts;

static void gen_opts_default(gen_opts *o)
{
    o->level = 1;
    o->seed = 1;
    o->count = 0;
    o->ops = FPVEC_ALL_OPS;
}

/* Consumes a gen option at a->argv[a->i]; returns 0 if it is none. */
static int gen_opt(args *a, gen_opts *o)
{
    if (opt_is(a, "--level", 1))
        o->level = (int)parse_u64("--level", a->value, 1, FPVEC_MAX_LEVEL);
    else if (opt_is(a, "--seed", 1))
        o->seed = parse_u64("--seed", a->value, 0, UINT64_MAX);
    else if (opt_is(a, "--count", 1))
        o->count = parse_u64("--count", a->value, 1, UINT64_C(1) << 40);
    else if (opt_is(a, "--ops", 1))
        o->ops = parse_ops_opt(a->value);
    else
        return 0;
    return 1;
}

static int cmd_gen(int argc, char **argv)
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
    FILE *out = stdout;
    if (out_path && strcmp(out_path, "-") != 0) {
        out = fopen(out_path, "w");
        if (!out)
            die("cannot write %s: %s", out_path, strerror(errno));
    }
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
        fpvec_gen_init(g, op, o.level, o.seed, o.count);
        size_t n;
        while ((n = fpvec_gen_fill(g, va, vb, 4096)) > 0) {
            size_t len = 0;
            for (size_t i = 0; i < n; i++)
                len += fpvec_format_line(buf + len, op, va[i], vb[i],
                                         fpvec_expected(op, va[i], vb[i]));
            if (fwrite(buf, 1, len, out) != len)
                die("cannot write %s: %s", out_path ? out_path : "standard output",
                    strerror(errno));
            done += n;
            if (now_s() >= next) {
                msg("%" PRIu64 " of %" PRIu64 " vectors (%.0f%%)", done, total,
                    100.0 * (double)done / (double)total);
                next = now_s() + 5.0;
            }
        }
    }
    free(g);
    if (fflush(out) != 0 || (out != stdout && fclose(out) != 0))
        die("cannot write %s: %s", out_path ? out_path : "standard output", strerror(errno));
    if (out != stdout)
        msg("%" PRIu64 " vectors (level %d, seed %" PRIu64 ") written to %s", done, o.level,
            o.seed, out_path);
    return EXIT_OK;
}

/* ---- check ---------------------------------------------------------------------------------- */

/* Reads a vector file ("-": stdin), calling each(v, line number, user) for every vector; a
 * malformed line, an unreadable file or one without vectors ends the tool (exit 2) naming it.
 * Returns the number of vectors. */
static uint64_t read_vectors(const char *path, void (*each)(const fpvec_vec *, uint64_t, void *),
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

static int cmd_check(int argc, char **argv)
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

/* ---- rtl: the bench and its cache ------------------------------------------------------------ */

/* The files a bench build reads, relative to the source tree (tb_fp_build.sh's inputs). */
static const char *const BENCH_SOURCES[] = {
    "vectors/tb_fp_build.sh", "vectors/otpu_fp_vec.sv", "vectors/tb_fp.sv",
    "vectors/tb_fp_main.cpp", "vectors/tb_fp_hostref.cpp", "vectors/tb_fp_hostref.h",
    "vectors/fpvec_dpi.cpp", "vectors/fpvec_dpi.h", "vectors/fpvec.c", "vectors/fpvec.h",
    "sim/fp32.c", "sim/fp32.h",
};

static char *xstrdup_printf(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)n + 1);
    if (!s)
        die("out of memory");
    vsnprintf(s, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

static const char *source_dir(void)
{
    const char *e = getenv("OTPU_FPVEC_SRCDIR");
    const char *d = (e && *e) ? e : OTPU_FPVEC_SRCDIR;
    if (!*d)
        die("the source tree is unknown: set OTPU_FPVEC_SRCDIR to the otpu-lockstep checkout");
    return d;
}

static const char *cache_dir(const char *opt)
{
    if (opt)
        return opt;
    const char *e = getenv("OTPU_FPVEC_CACHE");
    if (e && *e)
        return e;
    e = getenv("XDG_CACHE_HOME");
    if (e && *e)
        return xstrdup_printf("%s/otpu-lockstep/fpvec", e);
    e = getenv("HOME");
    if (!e || !*e)
        die("no cache folder: set --cache, OTPU_FPVEC_CACHE, XDG_CACHE_HOME or HOME");
    return xstrdup_printf("%s/.cache/otpu-lockstep/fpvec", e);
}

static void mkdir_p(const char *path)
{
    char *p = xstrdup_printf("%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                die("cannot create %s: %s", p, strerror(errno));
            *s = '/';
        }
    if (mkdir(p, 0777) != 0 && errno != EEXIST)
        die("cannot create %s: %s", p, strerror(errno));
    free(p);
}

static void hash_file(EVP_MD_CTX *md, const char *label, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot read %s: %s", path, strerror(errno));
    char buf[65536];
    size_t n;
    EVP_DigestUpdate(md, label, strlen(label) + 1);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        EVP_DigestUpdate(md, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        die("cannot read %s", path);
    EVP_DigestUpdate(md, "\0\0", 2);
}

/* The output of a command (its first line), or NULL when it cannot be run. */
static char *command_line_output(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    char buf[512];
    char *r = fgets(buf, sizeof buf, p) ? xstrdup_printf("%s", buf) : NULL;
    while (fgets(buf, sizeof buf, p)) {
    }
    int st = pclose(p);
    if (st != 0) {
        free(r);
        return NULL;
    }
    if (r)
        r[strcspn(r, "\n")] = '\0';
    return r;
}

/* The cache key: SHA-256 of the bench sources, the user's otpu_fp.sv (its content: a copy
 * elsewhere shares the build) and the Verilator and C compiler versions; 16 hex digits. */
static char *bench_key(const char *src, const char *sv, const char *verilator_version,
                       const char *cc_version)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    unsigned char dig[EVP_MAX_MD_SIZE];
    unsigned dlen = 0;
    if (!md || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1)
        die("SHA-256 is not available");
    const char tag[] = "otpu-fpvec bench v1";
    EVP_DigestUpdate(md, tag, sizeof tag);
    EVP_DigestUpdate(md, verilator_version, strlen(verilator_version) + 1);
    EVP_DigestUpdate(md, cc_version, strlen(cc_version) + 1);
    for (size_t i = 0; i < sizeof BENCH_SOURCES / sizeof BENCH_SOURCES[0]; i++) {
        char *p = xstrdup_printf("%s/%s", src, BENCH_SOURCES[i]);
        hash_file(md, BENCH_SOURCES[i], p);
        free(p);
    }
    hash_file(md, "otpu_fp.sv", sv);
    EVP_DigestFinal_ex(md, dig, &dlen);
    EVP_MD_CTX_free(md);
    char *key = malloc(17);
    if (!key)
        die("out of memory");
    for (int i = 0; i < 8; i++)
        snprintf(key + 2 * i, 3, "%02x", dig[i]);
    return key;
}

/* Runs a build (argv) in a process group that dies with the tool, stdout sent to stderr
 * (build chatter stays off the report); its exit status, or -1 if it could not start or
 * died. A signal to the tool ends the tool (the next build goes on from what this one left:
 * the bench itself appears by rename, whole, at the end). */
static int run_build(char *const *argv)
{
    otpu_proc_status st;
    int rc = otpu_proc_run_group(argv, NULL, &st);
    if (st.interrupted)
        otpu_proc_reraise(st.interrupted);
    return rc || st.signal ? -1 : st.code;
}

/* The bench for the otpu_fp.sv at sv (built into the cache unless there already). */
static char *cached_bench(const char *sv, const char *cache_opt, unsigned jobs, int rebuild)
{
    const char *src = source_dir();
    char *script = xstrdup_printf("%s/vectors/tb_fp_build.sh", src);
    if (access(script, R_OK) != 0)
        die("cannot find %s (set OTPU_FPVEC_SRCDIR to the otpu-lockstep checkout)", script);
    const char *verilator = getenv("VERILATOR");
    if (!verilator || !*verilator)
        verilator = "verilator";
    char *vcmd = xstrdup_printf("'%s' --version 2>/dev/null", verilator);
    char *vver = command_line_output(vcmd);
    free(vcmd);
    if (!vver)
        die("cannot run '%s --version': Verilator is needed to build the bench for %s",
            verilator, sv);
    const char *cc = getenv("CC");
    char *ccmd = xstrdup_printf("%s --version 2>/dev/null", (cc && *cc) ? cc : "cc");
    char *ccver = command_line_output(ccmd);
    free(ccmd);
    char *key = bench_key(src, sv, vver, ccver ? ccver : "?");
    const char *cache = cache_dir(cache_opt);
    mkdir_p(cache);
    char *dir = xstrdup_printf("%s/%s", cache, key);
    char *bench = xstrdup_printf("%s/tb_fp", dir);
    char *lockp = xstrdup_printf("%s/%s.lock", cache, key);
    int lfd = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lfd < 0)
        die("cannot open the lock %s: %s", lockp, strerror(errno));
    if (flock(lfd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK)
            die("cannot lock %s: %s", lockp, strerror(errno));
        msg("waiting for another run building the same bench (%s)", lockp);
        while (flock(lfd, LOCK_EX) != 0)
            if (errno != EINTR)
                die("cannot lock %s: %s", lockp, strerror(errno));
    }
    if (!rebuild && access(bench, X_OK) == 0) {
        msg("cached bench for %s: %s", sv, bench);
    } else {
        mkdir_p(dir);
        char *obj = xstrdup_printf("%s/obj", dir);
        char jobs_s[16];
        snprintf(jobs_s, sizeof jobs_s, "%u", jobs);
        msg("building the bench for %s (%s, cache %s)", sv, vver, dir);
        double t0 = now_s();
        char *argv[] = {"/bin/sh", script, bench, obj, (char *)sv, jobs_s, NULL};
        int rc = run_build(argv);
        if (rc != 0)
            die("cannot build the bench for %s (Verilator log: %s/build.log)", sv, obj);
        msg("built the bench for %s in %.1f s", sv, now_s() - t0);
        char *info = xstrdup_printf("%s/source.txt", dir);
        FILE *f = fopen(info, "w");
        if (f) {
            fprintf(f, "otpu_fp.sv: %s\nverilator: %s\nbuild seconds: %.1f\n", sv, vver,
                    now_s() - t0);
            fclose(f);
        }
        free(info);
        free(obj);
    }
    close(lfd); /* releases the lock: the bench is complete (written by rename) */
    free(lockp);
    free(dir);
    free(key);
    free(vver);
    free(ccver);
    free(script);
    return bench;
}

static char *abs_path(const char *p)
{
    char *r = realpath(p, NULL);
    if (!r)
        die("cannot read %s: %s", p, strerror(errno));
    return r;
}

/* Runs the bench with its plusargs, copying its output to stdout and noting the FPTEST line.
 * Returns the bench's exit status (or -1: it could not start or died). */
static int run_bench(char *const *argv, uint64_t *cases, uint64_t *errs, int *have_fptest,
                     uint32_t *failed_ops)
{
    int fds[2];
    *have_fptest = 0;
    fflush(stdout);
    if (pipe(fds) != 0)
        die("pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[1]);
        execv(argv[0], argv);
        fprintf(stderr, "otpu-fpvec: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, in) >= 0) {
        fputs(line, stdout);
        fflush(stdout);
        unsigned long long c, e;
        unsigned op;
        if (sscanf(line, "tb_fp: op %u (", &op) == 1 && op < FPVEC_NOPS)
            *failed_ops |= 1u << op;
        if (sscanf(line, "FPTEST cases=%llu errors=%llu", &c, &e) == 2) {
            *cases = c;
            *errs = e;
            *have_fptest = 1;
        }
    }
    free(line);
    fclose(in);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFSIGNALED(st)) {
        msg("the bench died of signal %d", WTERMSIG(st));
        return -1;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int cmd_rtl(int argc, char **argv)
{
    gen_opts o;
    const char *sv = NULL, *file = NULL, *cache = NULL;
    long show = 20;
    unsigned jobs = 2;
    int rebuild = 0;
    gen_opts_default(&o);
    if (wants_help(argc, argv)) {
        fputs(HELP_RTL, stdout);
        return EXIT_OK;
    }
    args a = {argc, 1, argv, NULL};
    int dpi_opts = 0;
    for (; a.i < argc; a.i++) {
        if (gen_opt(&a, &o))
            dpi_opts = 1;
        else if (opt_is(&a, "--sv", 1))
            sv = a.value;
        else if (opt_is(&a, "--cache", 1))
            cache = a.value;
        else if (opt_is(&a, "--show", 1))
            show = (long)parse_u64("--show", a.value, 0, 1000000000);
        else if (opt_is(&a, "--jobs", 1))
            jobs = (unsigned)parse_u64("--jobs", a.value, 1, 256);
        else if (opt_is(&a, "--rebuild", 0))
            rebuild = 1;
        else if (argv[a.i][0] == '-')
            usage_error("unknown option '%s'", argv[a.i]);
        else if (file)
            usage_error("more than one FILE ('%s', '%s')", file, argv[a.i]);
        else
            file = argv[a.i];
    }
    if (file && dpi_opts)
        usage_error("--level/--seed/--ops/--count choose generated vectors; not with a FILE");
    char *file_abs = NULL;
    if (file) {
        read_vectors(file, NULL, NULL); /* bad input is named here, before a bench runs */
        file_abs = abs_path(file);
    }

    /* the bench */
    char *bench = NULL;
    const char *sv_name;
    if (sv) {
        char *sv_abs = abs_path(sv);
        bench = cached_bench(sv_abs, cache, jobs, rebuild);
        sv_name = sv_abs;
    } else {
        const char *e = getenv("OTPU_FPVEC_BENCH");
        const char *b = (e && *e) ? e : OTPU_FPVEC_BENCH;
        sv_name = "the project's rtl/otpu_fp.sv";
        if (*b && access(b, X_OK) == 0) {
            bench = xstrdup_printf("%s", b);
        } else {
            char *proj = xstrdup_printf("%s/rtl/otpu_fp.sv", source_dir());
            msg("no meson-built bench%s%s; building one for %s", *b ? " at " : "", b, proj);
            bench = cached_bench(proj, cache, jobs, rebuild);
        }
    }

    /* its arguments */
    char *bargv[16];
    int n = 0;
    char show_s[32], level_s[32], seed_s[40], count_s[40], ops_s[64];
    snprintf(show_s, sizeof show_s, "+show=%ld", show);
    bargv[n++] = bench;
    if (file) {
        bargv[n++] = xstrdup_printf("+vec=%s", file_abs);
    } else {
        snprintf(level_s, sizeof level_s, "+level=%d", o.level);
        snprintf(seed_s, sizeof seed_s, "+seed=%" PRIu64, o.seed);
        snprintf(count_s, sizeof count_s, "+count=%" PRIu64, o.count);
        /* the ops as a list of numbers */
        size_t k = (size_t)snprintf(ops_s, sizeof ops_s, "+ops=");
        for (unsigned op = 0; op < FPVEC_NOPS; op++)
            if (o.ops & (1u << op))
                k += (size_t)snprintf(ops_s + k, sizeof ops_s - k, "%s%u",
                                      ops_s[k - 1] == '=' ? "" : ",", op);
        bargv[n++] = "+dpi";
        bargv[n++] = level_s;
        bargv[n++] = seed_s;
        bargv[n++] = count_s;
        bargv[n++] = ops_s;
    }
    bargv[n++] = show_s;
    bargv[n] = NULL;

    printf("otpu-fpvec rtl: otpu_fp.sv: %s\n", sv_name);
    printf("otpu-fpvec rtl: %s\n", file ? file_abs : "DPI mode (generated vectors)");
    uint64_t cases = 0, errs = 0;
    uint32_t failed = 0;
    int have = 0;
    double t0 = now_s();
    int rc = run_bench(bargv, &cases, &errs, &have, &failed);
    double dt = now_s() - t0;
    if (rc < 0 || rc > 2)
        die("the bench %s failed (status %d)", bench, rc);
    if (rc == 2)
        return EXIT_INPUT; /* the bench named the bad input */
    if (!have)
        die("the bench printed no FPTEST line");
    if (cases == 0)
        die("no vectors were checked");
    char verdict[160] = "PASS";
    if (errs) {
        size_t k = (size_t)snprintf(verdict, sizeof verdict, "FAIL (ops:");
        for (unsigned op = 0; op < FPVEC_NOPS && k < sizeof verdict; op++)
            if (failed & (1u << op))
                k += (size_t)snprintf(verdict + k, sizeof verdict - k, " %s", fpvec_op_name(op));
        if (k < sizeof verdict)
            snprintf(verdict + k, sizeof verdict - k, ")");
    }
    printf("otpu-fpvec rtl: %s mode: %" PRIu64 " vectors, %" PRIu64 " mismatches in %.2f s "
           "(%.0f vectors/s, process included): %s\n", file ? "file" : "DPI", cases, errs, dt,
           dt > 0 ? (double)cases / dt : 0.0, verdict);
    if (rc == 0 && errs != 0)
        die("the bench reported mismatches with status 0");
    return errs ? EXIT_MISMATCH : EXIT_OK;
}

/* ---- ulp ------------------------------------------------------------------------------------ */

enum { F_EXP2, F_LOG2, F_RECIP, F_RSQRT, F_COUNT };

static const char *const F_NAMES[F_COUNT] = {"exp2", "log2", "recip", "rsqrt"};
static const double F_BOUNDS[F_COUNT] = {1.61, 2.3, 1.16, 1.03};

#define SWEEP_LO 0x3F000000u /* 0.5 */
#define SWEEP_HI 0x40800000u /* 4.0, excluded */

typedef struct ulp_stat {
    double max_err;
    uint32_t worst_x, worst_got;
    double worst_exact;
    uint64_t measured, skipped, correct, max_cr_dist;
} ulp_stat;

typedef struct ulp_job {
    int func;
    uint64_t first, last; /* input indices [first, last) */
    uint64_t sweep_n;     /* indices below: the sweep */
    uint32_t sweep_step;
    uint32_t samples;     /* per exponent field and sign */
    unsigned signs;       /* 1 or 2 */
    uint64_t seed;
    ulp_stat st;
} ulp_job;

static float bits_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t f_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t mix64(uint64_t z)
{
    z += UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The input with index i: the sweep first, then the samples of each (sign, field). */
static uint32_t ulp_input(const ulp_job *j, uint64_t i)
{
    if (i < j->sweep_n)
        return SWEEP_LO + (uint32_t)i * j->sweep_step;
    i -= j->sweep_n;
    uint64_t k = i % j->samples, rest = i / j->samples;
    uint32_t field = 1 + (uint32_t)(rest % 254), sign = (uint32_t)(rest / 254);
    uint32_t frac = k == 0 ? 0u : k == 1 ? 1u : k == 2 ? 0x7FFFFFu
                  : (uint32_t)mix64(j->seed ^ (i * UINT64_C(0x9E3779B97F4A7C15))) & 0x7FFFFFu;
    return (sign << 31) | (field << 23) | frac;
}

/* Computes f(x) both ways; returns 0 when x is outside what is measured. */
static int ulp_eval(int func, uint32_t x, uint32_t *got, double *exact)
{
    double xd = (double)bits_f(x);
    uint32_t ab = x & 0x7FFFFFFFu;
    switch (func) {
    case F_EXP2:
        if (!(xd >= -126.0 && xd < 128.0))
            return 0;
        *got = otpu_f32_exp2(x);
        *exact = exp2(xd);
        break;
    case F_LOG2:
        if (!(xd > 0) || ab >= 0x7F800000u)
            return 0;
        *got = otpu_f32_log2(x);
        *exact = log2(xd);
        break;
    case F_RECIP:
        if (ab == 0 || ab >= 0x7E800000u)
            return 0;
        *got = otpu_f32_recip(x);
        *exact = 1.0 / xd;
        break;
    default:
        if (!(xd > 0) || ab >= 0x7F800000u)
            return 0;
        *got = otpu_f32_rsqrt(x);
        *exact = 1.0 / sqrt(xd);
        break;
    }
    double m = fabs(*exact);
    if (m != 0 && (m < 0x1p-126 || m > (double)3.40282346638528859812e+38F))
        return 0; /* the exact result is not a normal fp32 */
    return 1;
}

static void *ulp_worker(void *p)
{
    ulp_job *j = p;
    ulp_stat *st = &j->st;
    for (uint64_t i = j->first; i < j->last; i++) {
        uint32_t x = ulp_input(j, i), got;
        double exact;
        if (!ulp_eval(j->func, x, &got, &exact)) {
            st->skipped++;
            continue;
        }
        st->measured++;
        double err;
        uint32_t cr = f_bits((float)exact);
        float gf = bits_f(got);
        if (exact == 0) {
            err = got == 0 ? 0.0 : INFINITY;
        } else if (!isfinite(gf)) {
            err = INFINITY;
        } else {
            int e;
            frexp(exact, &e); /* |exact| in [2^(e-1), 2^e) */
            err = fabs((double)gf - exact) / ldexp(1.0, e - 1 - 23);
        }
        if (got == cr)
            st->correct++;
        uint64_t d = ((got ^ cr) & 0x80000000u) ? UINT64_MAX
                     : (got > cr ? (uint64_t)(got - cr) : (uint64_t)(cr - got));
        if (d > st->max_cr_dist)
            st->max_cr_dist = d;
        if (st->measured == 1 || err > st->max_err) {
            st->max_err = err;
            st->worst_x = x;
            st->worst_got = got;
            st->worst_exact = exact;
        }
    }
    return NULL;
}

static int cmd_ulp(int argc, char **argv)
{
    uint32_t samples = 4096, step = 1, funcs = (1u << F_COUNT) - 1;
    uint64_t seed = 1;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = ncpu > 0 ? (unsigned)ncpu : 1;
    if (wants_help(argc, argv)) {
        fputs(HELP_ULP, stdout);
        return EXIT_OK;
    }
    args a = {argc, 1, argv, NULL};
    for (; a.i < argc; a.i++) {
        if (opt_is(&a, "--samples", 1)) {
            samples = (uint32_t)parse_u64("--samples", a.value, 3, 1u << 23);
        } else if (opt_is(&a, "--sweep-step", 1)) {
            step = (uint32_t)parse_u64("--sweep-step", a.value, 1, SWEEP_HI - SWEEP_LO);
        } else if (opt_is(&a, "--seed", 1)) {
            seed = parse_u64("--seed", a.value, 0, UINT64_MAX);
        } else if (opt_is(&a, "--threads", 1)) {
            threads = (unsigned)parse_u64("--threads", a.value, 1, 256);
        } else if (opt_is(&a, "--functions", 1)) {
            funcs = 0;
            char *list = xstrdup_printf("%s", a.value), *save = NULL;
            for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                int f = -1;
                for (int k = 0; k < F_COUNT; k++)
                    if (strcmp(t, F_NAMES[k]) == 0)
                        f = k;
                if (f < 0)
                    usage_error("--functions: unknown function '%s' (exp2 log2 recip rsqrt)", t);
                funcs |= 1u << f;
            }
            free(list);
            if (!funcs)
                usage_error("--functions: empty list");
        } else {
            usage_error("unknown argument '%s'", argv[a.i]);
        }
    }
    uint64_t sweep_n = (SWEEP_HI - SWEEP_LO + step - 1) / step;
    printf("otpu-fpvec ulp: sim/fp32.c against the exact value (double), error = |got - exact| / "
           "ulp(exact)\n");
    printf("inputs: %s fp32 in [0.5, 4) (%" PRIu64 ") and %" PRIu32 " samples of every exponent "
           "field 1..254 (both signs for exp2 and recip)\n", step == 1 ? "every" : "a sweep of",
           sweep_n, samples);
    printf("%-6s %5s %9s  %-10s %-10s %-22s %8s %7s %10s %9s\n", "func", "bound", "max_ulp",
           "worst_x", "got", "exact", "cr", "ulp_cr", "measured", "skipped");
    int fails = 0;
    ulp_stat res[F_COUNT];
    for (int f = 0; f < F_COUNT; f++) {
        if (!(funcs & (1u << f)))
            continue;
        unsigned signs = (f == F_EXP2 || f == F_RECIP) ? 2 : 1;
        uint64_t total = sweep_n + (uint64_t)signs * 254 * samples;
        ulp_job *jobs = calloc(threads, sizeof *jobs);
        pthread_t *tid = calloc(threads, sizeof *tid);
        if (!jobs || !tid)
            die("out of memory");
        for (unsigned t = 0; t < threads; t++) {
            ulp_job *j = &jobs[t];
            j->func = f;
            j->first = total * t / threads;
            j->last = total * (t + 1) / threads;
            j->sweep_n = sweep_n;
            j->sweep_step = step;
            j->samples = samples;
            j->signs = signs;
            j->seed = seed;
            if (pthread_create(&tid[t], NULL, ulp_worker, j) != 0)
                die("cannot start a thread");
        }
        ulp_stat s;
        memset(&s, 0, sizeof s);
        for (unsigned t = 0; t < threads; t++) {
            pthread_join(tid[t], NULL);
            const ulp_stat *q = &jobs[t].st;
            if (q->measured && (q->max_err > s.max_err || s.measured == 0)) {
                s.max_err = q->max_err;
                s.worst_x = q->worst_x;
                s.worst_got = q->worst_got;
                s.worst_exact = q->worst_exact;
            }
            s.measured += q->measured;
            s.skipped += q->skipped;
            s.correct += q->correct;
            if (q->max_cr_dist > s.max_cr_dist)
                s.max_cr_dist = q->max_cr_dist;
        }
        free(jobs);
        free(tid);
        res[f] = s;
        int ok = s.measured > 0 && s.max_err <= F_BOUNDS[f];
        fails += !ok;
        char worst_x[16], got[16], dist[24];
        snprintf(worst_x, sizeof worst_x, "0x%08" PRIx32, s.worst_x);
        snprintf(got, sizeof got, "0x%08" PRIx32, s.worst_got);
        if (s.max_cr_dist == UINT64_MAX)
            snprintf(dist, sizeof dist, "sign");
        else
            snprintf(dist, sizeof dist, "%" PRIu64, s.max_cr_dist);
        printf("%-6s %5.2f %9.4f  %-10s %-10s %-22.15e %7.3f%% %7s %10" PRIu64 " %9" PRIu64
               "%s\n", F_NAMES[f], F_BOUNDS[f], s.max_err, worst_x, got, s.worst_exact,
               s.measured ? 100.0 * (double)s.correct / (double)s.measured : 0.0, dist,
               s.measured, s.skipped, ok ? "" : "  FAIL");
        fflush(stdout);
    }
    for (int f = 0; f < F_COUNT; f++)
        if (funcs & (1u << f))
            printf("ULP func=%s max=%.6f bound=%.2f measured=%" PRIu64 " skipped=%" PRIu64
                   " correctly_rounded=%.6f %s\n", F_NAMES[f], res[f].max_err, F_BOUNDS[f],
                   res[f].measured, res[f].skipped,
                   res[f].measured ? (double)res[f].correct / (double)res[f].measured : 0.0,
                   res[f].measured && res[f].max_err <= F_BOUNDS[f] ? "ok" : "FAIL");
    printf("otpu-fpvec ulp: %s\n", fails ? "FAIL: a bound is exceeded" : "PASS: every bound holds");
    return fails ? EXIT_MISMATCH : EXIT_OK;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_DFL);
    if (argc < 2)
        usage_error("a command is needed: gen, check, rtl or ulp");
    const char *cmd = argv[1];
    char *help_argv[] = {NULL, "--help", NULL};
    if (strcmp(cmd, "help") == 0 && argc > 2) { /* otpu-fpvec help COMMAND */
        cmd = help_argv[0] = argv[2];
        argc = 2;
        argv = help_argv;
    } else if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(HELP_MAIN, stdout);
        return EXIT_OK;
    } else {
        argc--;
        argv++;
    }
    g_cmd = cmd;
    if (strcmp(cmd, "gen") == 0)
        return cmd_gen(argc, argv);
    if (strcmp(cmd, "check") == 0)
        return cmd_check(argc, argv);
    if (strcmp(cmd, "rtl") == 0)
        return cmd_rtl(argc, argv);
    if (strcmp(cmd, "ulp") == 0)
        return cmd_ulp(argc, argv);
    g_cmd = "";
    usage_error("unknown command '%s' (commands: gen check rtl ulp)", cmd);
    return EXIT_INPUT;
}
