/* otpu-shrink - reduces a failing run bundle to a locally minimal one that fails the same way.
 *
 *   otpu-shrink BUNDLE [--cmd 'COMMAND {}'] [--lockstep PATH] [--out DIR] [--max-tries N]
 *               [--timeout S]
 *   otpu-shrink BUNDLE --variants DIR [--seed N] [--max-variants N]
 *
 * The passes (passes.h) run coarse to fine, again and again until none of them finds a
 * smaller candidate that fails the same way (oracle.h); the result is run once more and kept
 * only if it still does. Exit: 0 the reduced bundle is written, 1 the bundle does not fail
 * (nothing to shrink) or its reduced form did not fail the same way again, 2 bad input.
 * --variants writes small variants of the bundle instead and runs nothing (variants.h). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bundle.h"
#include "input.h"
#include "oracle.h"
#include "output.h"
#include "passes.h"
#include "proc.h"
#include "variants.h"

static const char usage[] =
    "usage: otpu-shrink BUNDLE [--cmd 'COMMAND {}'] [--lockstep PATH] [--out DIR]\n"
    "                   [--max-tries N] [--timeout S]\n"
    "       otpu-shrink BUNDLE --variants DIR [--seed N] [--max-variants N]\n"
    "\n"
    "Reduces a failing bundle (delta debugging over slices, register operands, instructions,\n"
    "LOOP counts, HALT CHAINs and DRAM ranges) until no smaller candidate fails the same way:\n"
    "the command's exit status and, with otpu-lockstep, the divergence's signature (kind,\n"
    "unit, opcode, memory, shape of the difference); the C model's outcome, its host steps\n"
    "included, must stay. Every candidate is written and read back as a bundle first (an\n"
    "invalid one is no repro), and the reduced bundle is run once more: it is kept only if\n"
    "it still fails the same way.\n"
    "  --cmd 'COMMAND {}'  the command that judges a candidate ({}: its folder); default:\n"
    "                      otpu-lockstep run {} --report DIR --wave-window 0 with the\n"
    "                      bundle's plusargs.txt\n"
    "  --lockstep PATH     the default command's otpu-lockstep (default: $OTPU_LOCKSTEP, else\n"
    "                      ../rtl_bridge/otpu-lockstep beside this tool)\n"
    "  --out DIR           the reduced bundle, with shrink.txt (default: BUNDLE.shrunk): a new\n"
    "                      folder or an earlier output, replaced whole; checked before any\n"
    "                      run (its folder must exist and be writable)\n"
    "  --max-tries N       stop after N candidates, N from 1 (default: no limit)\n"
    "  --timeout S         seconds the command may take on a candidate; past it the run is\n"
    "                      killed and counts as another failure (default: ten times the\n"
    "                      original's run, plus 60)\n"
    "\n"
    "--variants DIR writes small variants of BUNDLE and runs nothing (witnesses for a fault\n"
    "localizer): each instruction but the final HALT dropped alone, each LOOP count above 1\n"
    "lowered to 1 (above 2, also to count - 1), then 4 redraws of the DRAM images' bytes;\n"
    "DIR/v001, DIR/v002, ... (each a bundle read back as valid) and DIR/variants.txt, one\n"
    "line a variant: vNNN, a tab, what changed. --cmd, --lockstep, --out, --max-tries and\n"
    "--timeout do not go with it.\n"
    "  --variants DIR      a new or an empty folder\n"
    "  --seed N            the data redraws' seed (default 1)\n"
    "  --max-variants N    write at most N variants, N from 1 to 100000 (default 64)\n"
    "\n"
    "exit status: 0 the reduced bundle is written, 1 the bundle does not fail, or its reduced\n"
    "form did not fail the same way again (nothing is kept), 2 bad input; with --variants:\n"
    "0 variants are written, 1 none could be (nothing to drop, lower or redraw), 2 bad input\n";

typedef struct {
    const char *bundle, *cmd, *lockstep, *out, *variants;
    uint64_t max_tries, timeout, seed, max_variants;
} options;

static int bad(const char *fmt, const char *a)
{
    otpu_print_quoting(stderr, "otpu-shrink: ", fmt, a);
    return 2;
}

/* --variants' options; the options of a shrink (its runs) do not go with it */
static int parse_variants(options *o, const char *tries, const char *timeout, const char *seed,
                          const char *maxv)
{
    const char *run = o->out ? "--out" : o->cmd ? "--cmd" : tries ? "--max-tries"
                      : o->lockstep ? "--lockstep" : timeout ? "--timeout" : NULL;
    if (run)
        return bad("--variants runs nothing: %s does not go with it", run);
    o->seed = 1;
    o->max_variants = 64;
    if (seed && otpu_parse_number(seed, strlen(seed), &o->seed))
        return bad("--seed: '%s' is not a number (decimal, or hex with 0x)", seed);
    if (maxv && (otpu_parse_number(maxv, strlen(maxv), &o->max_variants) ||
                 !o->max_variants || o->max_variants > 100000))
        return bad("--max-variants: '%s' is not a count of variants from 1 to 100000", maxv);
    return 0;
}

static int parse(int argc, char **argv, options *o)
{
    const char *tries = NULL, *timeout = NULL, *seed = NULL, *maxv = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **val = !strcmp(a, "--cmd")         ? &o->cmd
                           : !strcmp(a, "--lockstep")  ? &o->lockstep
                           : !strcmp(a, "--out")       ? &o->out
                           : !strcmp(a, "--max-tries") ? &tries
                           : !strcmp(a, "--timeout")   ? &timeout
                           : !strcmp(a, "--variants")  ? &o->variants
                           : !strcmp(a, "--seed")      ? &seed
                           : !strcmp(a, "--max-variants") ? &maxv
                                                       : NULL;
        if (val && i + 1 < argc)
            *val = argv[++i];
        else if (val || (a[0] == '-' && a[1]))
            return bad("unknown option or missing value: %s", a);
        else if (!o->bundle)
            o->bundle = a;
        else
            return bad("one bundle only: '%s' is a second", a);
    }
    if (tries && (otpu_parse_number(tries, strlen(tries), &o->max_tries) || !o->max_tries))
        return bad("--max-tries: '%s' is not a count of candidates from 1 (decimal, or hex "
                   "with 0x; without --max-tries: no limit)", tries);
    if (timeout && (otpu_parse_number(timeout, strlen(timeout), &o->timeout) || !o->timeout ||
                    o->timeout > 1000000))
        return bad("--timeout: '%s' is not a count of seconds from 1 to 1000000", timeout);
    if (!o->bundle)
        return bad("%s", "no bundle given (--help: usage)");
    if (o->variants)
        return parse_variants(o, tries, timeout, seed, maxv);
    if (seed || maxv)
        return bad("%s goes with --variants only", seed ? "--seed" : "--max-variants");
    if (o->cmd && !strstr(o->cmd, "{}"))
        return bad("--cmd: '%s' has no {} for the candidate's folder", o->cmd);
    return 0;
}

/* The default command's otpu-lockstep: --lockstep, $OTPU_LOCKSTEP, else beside this tool
 * (installed: the same folder; in the build folder: ../rtl_bridge). */
static int find_lockstep(const options *o, char *path, size_t n)
{
    const char *p = o->lockstep ? o->lockstep : getenv("OTPU_LOCKSTEP");
    if (p && *p) {
        snprintf(path, n, "%s", p);
    } else {
        char self[PATH_MAX];
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        if (k < 0)
            return bad("%s", "cannot find otpu-lockstep (give --lockstep PATH)");
        self[k] = 0;
        char *slash = strrchr(self, '/');
        *slash = 0;
        snprintf(path, n, "%s/otpu-lockstep", self);
        if (access(path, X_OK))
            snprintf(path, n, "%s/../rtl_bridge/otpu-lockstep", self);
    }
    char real[PATH_MAX];
    if (access(path, X_OK) || !realpath(path, real))
        return bad("%s: no otpu-lockstep to run (give --lockstep PATH or --cmd)", path);
    snprintf(path, n, "%s", real);
    return 0;
}

/* The output folder, before any run: new, or an earlier otpu-shrink output (with
 * shrink.txt), replaced whole in a folder that can be written (output.h). */
static int check_out(const char *dir)
{
    char path[4400], err[1200];
    snprintf(path, sizeof path, "%s/shrink.txt", dir);
    if (otpu_out_check_dir(dir, OTPU_OUT_REPLACED, err, sizeof err))
        return bad("--out: %s", err);
    if (otpu_input_exists(dir) && !otpu_input_exists(path))
        return bad("%s exists and is not an earlier otpu-shrink output (give --out DIR)", dir);
    return 0;
}

static void remove_tmp(const char *tmp)
{
    char path[4400];
    const char *files[] = {"run.log", "report/divergence.txt", "report/divergence.json",
                           "report/wave.fst", "report"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp, files[i]);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/candidate", tmp);
    for (unsigned s = 0; s < 64; s++)
        for (int k = 0; k < 2; k++) {
            char f[4600];
            snprintf(f, sizeof f, k ? "%s/dram_%u.bin" : "%s/prog_%u.hex", path, s);
            remove(f);
        }
    const char *names[] = {"case.txt", "plusargs.txt", ""};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char f[4600];
        snprintf(f, sizeof f, "%s/%s", path, names[i]);
        remove(f);
    }
    remove(tmp);
}

/* s as printable text (otpu_escape): what a person reads quotes input only so */
static const char *shown(const char *s, char *buf, size_t n)
{
    return otpu_escape(s, strlen(s), buf, n);
}

/* shrink.txt: how the bundle was reduced (written with it) */
static void note_text(char *t, size_t n, const shrink_oracle *o, const otpu_bundle *b,
                      const char *plus0, size_t before, const options *opt, int minimal,
                      uint32_t S0, size_t d0)
{
    shrink_oracle_counts c = shrink_oracle_counts_get(o);
    char q[300], q2[300];
    size_t k = 0;
#define PUT(...) (k += k < n ? (size_t)snprintf(t + k, n - k, __VA_ARGS__) : 0)
    PUT("reduced by otpu-shrink from %s\n", shown(opt->bundle, q, sizeof q));
    PUT("command: %s\n", shown(shrink_oracle_command(o), q, sizeof q));
    if (!opt->cmd)
        PUT("plusargs: %s -> %s\n", plus0[0] ? shown(plus0, q, sizeof q) : "none",
            b->plusargs[0] ? shown(b->plusargs, q2, sizeof q2) : "none");
    PUT("failure: %s (run again on this bundle: the same)\n",
        shown(shrink_oracle_signature(o), q, sizeof q));
    PUT("instructions: %zu -> %zu\n", before, shrink_instr_count(b));
    PUT("slices: %u -> %u\n", S0, b->cfg.S);
    PUT("non-zero DRAM bytes: %zu -> %zu\n", d0, shrink_dram_bytes(b));
    PUT("candidates tried: %" PRIu64 " (%" PRIu64 " run, %" PRIu64
        " refused by the model's outcome, %" PRIu64 " not valid bundles, %" PRIu64
        " seen before)\n", c.tried, c.runs, c.model, c.invalid, c.cached);
    PUT("%s\n", minimal ? "locally minimal: no pass finds a smaller candidate"
                        : "NOT minimal: stopped at --max-tries");
#undef PUT
}

/* --variants: the variants written, none run. Exit 0, 1 (none could be written) or 2. */
static int write_variants(const options *o)
{
    char err[1024], qb[300], qd[300];
    otpu_escape(o->bundle, strlen(o->bundle), qb, sizeof qb);
    otpu_escape(o->variants, strlen(o->variants), qd, sizeof qd);
    otpu_bundle b;
    if (otpu_bundle_read(o->bundle, &b, err, sizeof err)) {
        otpu_print_line(stderr, "otpu-shrink: ", err);
        return 2;
    }
    if (shrink_variants_check_dir(o->variants, err, sizeof err)) {
        otpu_bundle_free(&b);
        return bad("--variants: %s", err);
    }
    shrink_variants_options vo = {o->variants, o->seed, o->max_variants};
    long k = shrink_variants_write(&b, &vo, err, sizeof err);
    otpu_bundle_free(&b);
    if (k < 0) {
        otpu_print_line(stderr, "otpu-shrink: ", err);
        return 2;
    }
    if (!k) {
        fprintf(stderr, "otpu-shrink: no variant of %s could be written (no instruction to "
                "drop, no LOOP count to lower, no DRAM data to redraw)\n", qb);
        return 1;
    }
    printf("otpu-shrink: %ld variants in %s\n", k, qd);
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
    options opt = {0};
    if (parse(argc, argv, &opt))
        return 2;
    if (opt.variants)
        return write_variants(&opt);
    char err[1024], lockstep[PATH_MAX + 64], out[4096], tmp[4096];
    if (!opt.cmd && find_lockstep(&opt, lockstep, sizeof lockstep))
        return 2;
    otpu_bundle b;
    if (otpu_bundle_read(opt.bundle, &b, err, sizeof err)) {
        otpu_print_line(stderr, "otpu-shrink: ", err);
        return 2;
    }
    size_t blen = strlen(opt.bundle);
    while (blen > 1 && opt.bundle[blen - 1] == '/')
        blen--;
    if (opt.out)
        snprintf(out, sizeof out, "%s", opt.out);
    else
        snprintf(out, sizeof out, "%.*s.shrunk", (int)blen, opt.bundle);
    char qb[300], qo[300]; /* the bundle's and the output's names, safe to print */
    otpu_escape(opt.bundle, blen, qb, sizeof qb);
    otpu_escape(out, strlen(out), qo, sizeof qo);
    if (check_out(out)) {
        otpu_bundle_free(&b);
        return 2;
    }
    const char *td = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/otpu-shrink-XXXXXX", td && *td ? td : "/tmp");
    if (!mkdtemp(tmp)) {
        otpu_bundle_free(&b);
        return bad("%s: cannot make a temporary folder", tmp);
    }
    shrink_oracle_options oo = {opt.cmd ? NULL : lockstep, opt.cmd, tmp, (double)opt.timeout};
    shrink_oracle *o = shrink_oracle_new(&oo, &b, err, sizeof err);
    int rc = 2;
    if (!o) {
        if (!otpu_proc_interrupted())
            otpu_print_line(stderr, "otpu-shrink: ", err);
        goto done;
    }
    if (!shrink_oracle_fails(o)) {
        fprintf(stderr, "otpu-shrink: %s does not fail (the command exits 0): nothing to "
                "shrink\n", qb);
        rc = 1;
        goto done;
    }
    otpu_print_line(stderr, "otpu-shrink: the failure to keep: ", shrink_oracle_signature(o));
    size_t before = shrink_instr_count(&b), d0 = shrink_dram_bytes(&b);
    uint32_t S0 = b.cfg.S;
    char plus0[sizeof b.plusargs];
    memcpy(plus0, b.plusargs, sizeof plus0);
    shrink_state st = {o, &b, opt.max_tries, 0, err, sizeof err};
    int (*const passes[])(shrink_state *) = {shrink_slices,      shrink_fold_registers,
                                             shrink_instructions, shrink_loop_counts,
                                             shrink_unchain,     shrink_dram};
    for (int changed = 1; changed && !st.out_of_tries;) {
        changed = 0;
        for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++) {
            int r = passes[i](&st);
            if (r < 0) {
                if (!otpu_proc_interrupted())
                    otpu_print_line(stderr, "otpu-shrink: ", err);
                goto done;
            }
            changed |= r;
        }
    }
    char again[512], note[8192];
    int same = shrink_oracle_confirm(o, &b, again, sizeof again, err, sizeof err);
    if (same < 0) {
        if (!otpu_proc_interrupted())
            otpu_print_line(stderr, "otpu-shrink: ", err);
        goto done;
    }
    if (!same) {
        char line[1400];
        snprintf(line, sizeof line, "the reduced bundle fails otherwise when run again (%s, not "
                 "%s): a failure that does not repeat; nothing is kept", again,
                 shrink_oracle_signature(o));
        otpu_print_line(stderr, "otpu-shrink: ", line);
        rc = 1;
        goto done;
    }
    note_text(note, sizeof note, o, &b, plus0, before, &opt, !st.out_of_tries, S0, d0);
    if (otpu_bundle_write_note(out, &b, "shrink.txt", note, err, sizeof err)) {
        otpu_print_line(stderr, "otpu-shrink: ", err);
        goto done;
    }
    shrink_oracle_counts c = shrink_oracle_counts_get(o);
    fprintf(stderr, "otpu-shrink: %zu -> %zu instructions%s after %" PRIu64
            " candidates: %s\n", before, shrink_instr_count(&b),
            st.out_of_tries ? " (stopped at --max-tries)" : "", c.tried, qo);
    rc = 0;
done:
    shrink_oracle_free(o);
    otpu_bundle_free(&b);
    remove_tmp(tmp);
    if (otpu_proc_interrupted()) /* a signal stopped a run: no verdict, the tool dies of it */
        otpu_proc_reraise(otpu_proc_interrupted());
    return rc;
}
