/* fpvec_ulp.c - otpu-fpvec ulp: the worst error of exp2, log2, recip and rsqrt against the exact
 * value. */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bits.h"
#include "fp32.h"
#include "fpvec_cli.h"

static const char HELP_ULP[] =
    "usage: otpu-fpvec ulp [--samples N] [--functions LIST] [--sweep-step K] [--seed S]\n"
    "                      [--threads N] [--rev NAME]\n"
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
    "  --rev NAME        the ISA revision whose functions are measured (default current;\n"
    "                    docs/bundle.md); the bounds are the current revision's: another\n"
    "                    revision's functions are measured and reported, not judged\n"
    "\n"
    "Prints a line ULP func= max= bound= ... ok|FAIL per function. Exit 0 every function within\n"
    "its bound, 1 a bound exceeded.\n";


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
    const otpu_f32_fns *fp;  /* the revision's functions */
    uint64_t first, last; /* input indices [first, last) */
    uint64_t sweep_n;     /* indices below: the sweep */
    uint32_t sweep_step;
    uint32_t samples;     /* per exponent field and sign */
    unsigned signs;       /* 1 or 2 */
    uint64_t seed;
    ulp_stat st;
} ulp_job;



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
static int ulp_eval(const otpu_f32_fns *fp, int func, uint32_t x, uint32_t *got, double *exact)
{
    double xd = (double)otpu_float_of(x);
    uint32_t ab = x & 0x7FFFFFFFu;
    switch (func) {
    case F_EXP2:
        if (!(xd >= -126.0 && xd < 128.0))
            return 0;
        *got = fp->exp2(x);
        *exact = exp2(xd);
        break;
    case F_LOG2:
        if (!(xd > 0) || ab >= 0x7F800000u)
            return 0;
        *got = fp->log2(x);
        *exact = log2(xd);
        break;
    case F_RECIP:
        if (ab == 0 || ab >= 0x7E800000u)
            return 0;
        *got = fp->recip(x);
        *exact = 1.0 / xd;
        break;
    default:
        if (!(xd > 0) || ab >= 0x7F800000u)
            return 0;
        *got = fp->rsqrt(x);
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
        if (!ulp_eval(j->fp, j->func, x, &got, &exact)) {
            st->skipped++;
            continue;
        }
        st->measured++;
        double err;
        uint32_t cr = otpu_bits_of((float)exact);
        float gf = otpu_float_of(got);
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

int cmd_ulp(int argc, char **argv)
{
    uint32_t samples = 4096, step = 1, funcs = (1u << F_COUNT) - 1;
    uint64_t seed = 1;
    const otpu_rev_desc *rev = otpu_rev_desc_of(OTPU_REV_CURRENT);
    int funcs_given = 0;
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
        } else if (opt_is(&a, "--rev", 1)) {
            rev = parse_rev_opt(a.value);
        } else if (opt_is(&a, "--functions", 1)) {
            funcs = 0;
            funcs_given = 1;
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
    if (!rev->fp.log2) { /* a revision without log2 */
        if (funcs_given && (funcs & (1u << F_LOG2)))
            usage_error("--functions: ISA revision %s has no log2", rev->name);
        funcs &= ~(1u << F_LOG2);
    }
    /* the bounds are the current revision's functions' */
    int judged = rev == otpu_rev_desc_of(OTPU_REV_CURRENT);
    uint64_t sweep_n = (SWEEP_HI - SWEEP_LO + step - 1) / step;
    printf("otpu-fpvec ulp: sim/fp32.c against the exact value (double), error = |got - exact| / "
           "ulp(exact)%s%s%s\n", judged ? "" : ", ISA revision ", judged ? "" : rev->name,
           judged ? "" : " (no bounds known: measured, not judged)");
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
            j->fp = &rev->fp;
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
        int ok = s.measured > 0 && (!judged || s.max_err <= F_BOUNDS[f]);
        fails += !ok;
        char worst_x[16], got[16], dist[24];
        snprintf(worst_x, sizeof worst_x, "0x%08" PRIx32, s.worst_x);
        snprintf(got, sizeof got, "0x%08" PRIx32, s.worst_got);
        if (s.max_cr_dist == UINT64_MAX)
            snprintf(dist, sizeof dist, "sign");
        else
            snprintf(dist, sizeof dist, "%" PRIu64, s.max_cr_dist);
        char bound[16] = "-";
        if (judged)
            snprintf(bound, sizeof bound, "%.2f", F_BOUNDS[f]);
        printf("%-6s %5s %9.4f  %-10s %-10s %-22.15e %7.3f%% %7s %10" PRIu64 " %9" PRIu64
               "%s\n", F_NAMES[f], bound, s.max_err, worst_x, got, s.worst_exact,
               s.measured ? 100.0 * (double)s.correct / (double)s.measured : 0.0, dist,
               s.measured, s.skipped, ok ? "" : "  FAIL");
        fflush(stdout);
    }
    for (int f = 0; f < F_COUNT; f++)
        if (funcs & (1u << f))
            printf("ULP func=%s max=%.6f bound=%.2f measured=%" PRIu64 " skipped=%" PRIu64
                   " correctly_rounded=%.6f %s\n", F_NAMES[f], res[f].max_err,
                   judged ? F_BOUNDS[f] : INFINITY, res[f].measured, res[f].skipped,
                   res[f].measured ? (double)res[f].correct / (double)res[f].measured : 0.0,
                   !res[f].measured ? "FAIL" : !judged ? "measured"
                   : res[f].max_err <= F_BOUNDS[f] ? "ok" : "FAIL");
    printf("otpu-fpvec ulp: %s\n", fails ? "FAIL: a bound is exceeded"
                                   : judged ? "PASS: every bound holds"
                                            : "measured (no bounds known for this revision)");
    return fails ? EXIT_MISMATCH : EXIT_OK;
}

