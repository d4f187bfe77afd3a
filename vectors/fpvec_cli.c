/* fpvec_cli.c - what the commands of otpu-fpvec share (fpvec_cli.h). */
#include "fpvec_cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "input.h"
#include "install_dirs.h"
#include "output.h"

const char *g_cmd = "";

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

void msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("", "", fmt, ap);
    va_end(ap);
}

/* A one-line error, then exit 2. */
void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("error: ", "", fmt, ap);
    va_end(ap);
    exit(EXIT_INPUT);
}

/* A usage error: one line, a pointer to --help, exit 2. */
void usage_error(const char *fmt, ...)
{
    char help[64];
    snprintf(help, sizeof help, " (see otpu-fpvec %s%s--help)", g_cmd, *g_cmd ? " " : "");
    va_list ap;
    va_start(ap, fmt);
    say("error: ", help, fmt, ap);
    va_end(ap);
    exit(EXIT_INPUT);
}

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- option parsing ------------------------------------------------------------------------- */

/* Is argv[i] the option name (as "--name VALUE" or "--name=VALUE" when it takes a value)?
 * Sets a->value and advances past the value. */
int opt_is(args *a, const char *name, int takes_value)
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

uint64_t parse_u64(const char *name, const char *v, uint64_t lo, uint64_t hi)
{
    uint64_t x; /* one grammar for every tool (input.h): "010" is neither 10 nor 8 */
    if (otpu_parse_number(v, strlen(v), &x))
        usage_error("%s: '%s' is not a number (decimal without leading zeros, or hex with 0x)",
                    name, v);
    if (x < lo || x > hi)
        usage_error("%s: %s is out of range (%" PRIu64 "..%" PRIu64 ")", name, v, lo, hi);
    return (uint64_t)x;
}

uint32_t parse_ops_opt(const char *v)
{
    uint32_t mask;
    char bad[64];
    if (fpvec_parse_ops(v, &mask, bad, sizeof bad) != 0)
        usage_error("--ops: unknown op '%s' (ops: add sub mul max min exp2 recip rsqrt i2f q8 "
                    "gt abs log2 mm_max mm_min, their numbers 0..14, or all)", bad);
    return mask;
}

const otpu_rev_desc *parse_rev_opt(const char *v)
{
    otpu_revision r;
    char names[256];
    if (otpu_rev_from_name(v, &r))
        usage_error("--rev: '%s' is not an ISA revision (%s)", v,
                    otpu_rev_names(names, sizeof names));
    return otpu_rev_desc_of(r);
}

int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

void gen_opts_default(gen_opts *o)
{
    o->level = 1;
    o->seed = 1;
    o->count = 0;
    o->ops = 0;
    o->rev = otpu_rev_desc_of(OTPU_REV_CURRENT);
}

/* Consumes a gen option at a->argv[a->i]; returns 0 if it is none. */
int gen_opt(args *a, gen_opts *o)
{
    if (opt_is(a, "--level", 1))
        o->level = (int)parse_u64("--level", a->value, 1, FPVEC_MAX_LEVEL);
    else if (opt_is(a, "--seed", 1))
        o->seed = parse_u64("--seed", a->value, 0, UINT64_MAX);
    else if (opt_is(a, "--count", 1))
        o->count = parse_u64("--count", a->value, 1, UINT64_C(1) << 40);
    else if (opt_is(a, "--ops", 1))
        o->ops = parse_ops_opt(a->value);
    else if (opt_is(a, "--rev", 1))
        o->rev = parse_rev_opt(a->value);
    else
        return 0;
    return 1;
}

void gen_opts_finish(gen_opts *o)
{
    uint32_t has = fpvec_rev_ops(o->rev);
    if (!o->ops)
        o->ops = has;
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if (o->ops & ~has & (1u << op))
            usage_error("--ops: ISA revision %s's fp32 unit has no %s", o->rev->name,
                        fpvec_op_name(op));
}

void check_cache_dir(const char *dir)
{
    char err[1200];
    if (otpu_out_check_dir(dir, 0, err, sizeof err))
        usage_error("--cache: %s", err);
}

char *xstrdup_printf(const char *fmt, ...)
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

/* What the bench is built from: OTPU_FPVEC_SRCDIR, else the installed tree's copy
 * (install_dirs.h), else the source tree this tool was built from. */
const char *source_dir(void)
{
    static char installed[4096];
    const char *e = getenv("OTPU_FPVEC_SRCDIR");
    const char *d = (e && *e) ? e
                    : otpu_install_path(OTPU_INSTALL_SHARE, installed, sizeof installed) == 0
                        ? installed
                        : OTPU_FPVEC_SRCDIR;
    if (!*d)
        die("the source tree is unknown: set OTPU_FPVEC_SRCDIR to the otpu-lockstep checkout");
    return d;
}

