/* otpu-sim - run, check and disassemble openTPU programs with libotpusim.
 *
 *   otpu-sim run BUNDLE [--trace FILE] [--dump DIR] [--coverage FILE] [--max-steps N]
 *                [--progress] [--strict] [--rev NAME]
 *   otpu-sim check BUNDLE [--max-steps N] [--rev NAME]
 *   otpu-sim disasm FILE.hex [--rev NAME]
 *
 * Exit codes: 0 ok, 1 a simulated error or a mismatch, 2 bad input. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bundle.h"
#include "coverage.h"
#include "golden.h"
#include "input.h"
#include "machine.h"
#include "output.h"
#include "trace.h"

#define DEFAULT_MAX_STEPS 10000000ull /* the reference's Machine.run default */

static const char usage[] =
    "usage: otpu-sim run BUNDLE [--trace FILE] [--dump DIR] [--coverage FILE] [--max-steps N]\n"
    "                    [--progress] [--strict] [--rev NAME]\n"
    "       otpu-sim check BUNDLE [--max-steps N] [--rev NAME]\n"
    "       otpu-sim disasm FILE.hex [--rev NAME]\n"
    "\n"
    "run     run a bundle (case.txt, prog_<s>.hex, dram_<s>.bin); print one line per slice.\n"
    "        --trace FILE   write the trace (changed locations, ../shared/vectors/FORMAT.md);\n"
    "                       with several slices, FILE gets _<s> before its extension\n"
    "        --dump DIR     write final_<s>.txt (the golden format), tmem_<s>.bin,\n"
    "                       dram_<s>.bin (trailing zeros trimmed), act_<s>.bin, ascale_<s>.bin\n"
    "        --coverage FILE  write the functional coverage of the run (JSON; otpu-cov\n"
    "                       reports it; the bins: docs/coverage.md)\n"
    "        --max-steps N  stop with an error after N instructions (default 10000000, the\n"
    "                       reference's; 0: no limit)\n"
    "        --progress     instructions executed and rate on stderr, once a second (default\n"
    "                       when stderr is a terminal)\n"
    "        --strict       also stop at what the ISA forbids but the reference does not check\n"
    "                       (a GATHER whose source meets its destination, a QST whose data\n"
    "                       meet its scales): an isa-rule error; otpu-lockstep refuses such\n"
    "                       a program, whose result is undefined\n"
    "check   run a bundle and compare with its trace_<s>.txt and final_<s>.txt; an expected\n"
    "        error must come from the same instruction and be of the same kind\n"
    "disasm  print a program, one instruction per line; with --rev, an instruction the\n"
    "        revision lacks is marked\n"
    "\n"
    "Outputs are checked before the run (exit 2 when one cannot be written): a FILE is replaced\n"
    "whole (written beside it, then renamed), a device (/dev/null) or a FIFO with its reader is\n"
    "written as it is; --dump DIR is a folder, or one that can be made (docs/exit-status.md).\n"
    "\n"
    "--rev NAME  the ISA revision (docs/bundle.md; `current` is the default of a bundle without\n"
    "        REV=): a bundle without REV= runs under it, one whose REV= names another revision\n"
    "        is refused (default: the bundle's REV=)\n"
    "\n"
    "exit status: 0 ok, 1 simulated error or mismatch, 2 bad input\n";

/* One line on stderr, exit status 2. a is quoted safely (it may hold any bytes). */
static int bad(const char *fmt, const char *a)
{
    otpu_print_quoting(stderr, "otpu-sim: ", fmt, a);
    return 2;
}

/* A library's message (already safe to print), exit status 2. */
static int bad_msg(const char *msg)
{
    otpu_print_line(stderr, "otpu-sim: ", msg);
    return 2;
}

typedef struct {
    const char *bundle, *trace, *dump, *coverage;
    uint64_t max_steps;
    int progress;
    int strict;        /* otpu_machine_set_strict */
    otpu_revision rev; /* --rev, OTPU_REV_UNSET without it */
} options;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* otpu_machine_run, with a progress line on stderr about once a second when asked */
static int run_with_progress(otpu_machine *m, uint64_t max_steps, int show)
{
    if (!show)
        return otpu_machine_run(m, max_steps);
    const uint64_t piece = 1u << 22; /* a few hundredths of a second of instructions */
    double t0 = now_s(), next = t0 + 1.0;
    int r, shown = 0;
    while ((r = otpu_machine_run_some(m, max_steps, piece)) == 1) {
        double t = now_s();
        if (t < next)
            continue;
        uint64_t n = otpu_machine_steps(m);
        fprintf(stderr, "\rotpu-sim: %" PRIu64 " instructions, %.3g instructions/s ", n,
                (double)n / (t - t0));
        shown = 1;
        next = t + 1.0;
    }
    if (shown)
        fprintf(stderr, "\n");
    return r;
}

/* --rev's value: 0, or 2 after one line on stderr */
static int parse_rev(const char *name, otpu_revision *rev)
{
    char names[256], q[256];
    if (!otpu_rev_from_name(name, rev))
        return 0;
    fprintf(stderr, "otpu-sim: --rev: '%s' is not an ISA revision (%s)\n",
            otpu_escape(name, strlen(name), q, sizeof q), otpu_rev_names(names, sizeof names));
    return 2;
}

static int parse(int argc, char **argv, options *o, int allow_out)
{
    o->max_steps = DEFAULT_MAX_STEPS;
    o->rev = OTPU_REV_UNSET;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(a, "--max-steps") && i + 1 < argc) {
            i++;
            if (otpu_parse_number(argv[i], strlen(argv[i]), &o->max_steps))
                return bad("--max-steps: '%s' is not a count (decimal, or hex with 0x)", argv[i]);
        } else if (allow_out && !strcmp(a, "--strict")) {
            o->strict = 1;
        } else if (!strcmp(a, "--rev") && i + 1 < argc) {
            if (parse_rev(argv[++i], &o->rev))
                return 2;
        } else if (allow_out && !strcmp(a, "--progress")) {
            o->progress = 1;
        } else if (allow_out && !strcmp(a, "--trace") && i + 1 < argc) {
            o->trace = argv[++i];
        } else if (allow_out && !strcmp(a, "--dump") && i + 1 < argc) {
            o->dump = argv[++i];
        } else if (allow_out && !strcmp(a, "--coverage") && i + 1 < argc) {
            o->coverage = argv[++i];
        } else if (a[0] == '-') {
            return bad("unknown option or missing value: %s (see --help)", a);
        } else if (!o->bundle) {
            o->bundle = a;
        } else {
            return bad("unexpected argument: %s (see --help)", a);
        }
    }
    if (!o->bundle)
        return bad("%s needs a BUNDLE folder (see --help)", argv[1]);
    return 0;
}

static void trace_name(char *out, size_t n, const char *file, uint32_t s, uint32_t S)
{
    if (S == 1) {
        snprintf(out, n, "%s", file);
        return;
    }
    const char *dot = strrchr(file, '.'), *slash = strrchr(file, '/');
    if (!dot || (slash && dot < slash))
        snprintf(out, n, "%s_%u", file, s);
    else
        snprintf(out, n, "%.*s_%u%s", (int)(dot - file), file, s, dot);
}

/* The files --dump writes into its folder, per slice (fmt: a %u for the slice) */
static const char *const dump_files[] = {"final_%u.txt", "tmem_%u.bin", "dram_%u.bin",
                                         "act_%u.bin", "ascale_%u.bin"};
enum { NDUMP = sizeof dump_files / sizeof dump_files[0] };

static void dump_name(char *out, size_t n, const char *dir, size_t k, uint32_t s)
{
    char name[64];
    snprintf(name, sizeof name, dump_files[k], s);
    snprintf(out, n, "%s/%s", dir, name);
}

/* The run's outputs, checked before it (output.h): a place that cannot be written is bad input
 * before any instruction runs. */
typedef struct {
    otpu_out *trace;   /* [S] (NULL: no --trace, or standard output) */
    otpu_out cov;
    int have_cov;
} outputs;

static void outputs_discard(outputs *w, uint32_t S)
{
    for (uint32_t s = 0; w->trace && s < S; s++)
        otpu_out_discard(&w->trace[s]);
    free(w->trace);
    w->trace = NULL;
    if (w->have_cov)
        otpu_out_discard(&w->cov);
    w->have_cov = 0;
}

/* 0, or 2 after one line (everything checked so far discarded) */
static int outputs_check(outputs *w, const options *o, uint32_t S)
{
    char err[1200], name[4200];
    struct stat st;
    memset(w, 0, sizeof *w);
    /* one file per slice is named after FILE, which must then name a file */
    if (o->trace && S > 1 && !stat(o->trace, &st) && !S_ISREG(st.st_mode))
        return bad("--trace %s: with several slices the trace is one file per slice named "
                   "after FILE (FILE_0, ...): FILE must name a file", o->trace);
    if (o->trace && (S > 1 || strcmp(o->trace, "-"))) {
        w->trace = calloc(S, sizeof *w->trace);
        if (!w->trace)
            return bad_msg("out of memory");
        for (uint32_t s = 0; s < S; s++)
            w->trace[s].fd = -1;
        for (uint32_t s = 0; s < S; s++) {
            trace_name(name, sizeof name, o->trace, s, S);
            if (otpu_out_check(&w->trace[s], name, OTPU_OUT_STREAM, err, sizeof err)) {
                outputs_discard(w, S);
                return bad("--trace: %s", err);
            }
        }
    }
    int rc = o->dump && otpu_out_check_dir(o->dump, 0, err, sizeof err) ? bad("--dump: %s", err)
                                                                          : 0;
    for (uint32_t s = 0; o->dump && !rc && s < S && !stat(o->dump, &st); s++)
        for (size_t k = 0; k < NDUMP && !rc; k++) {
            dump_name(name, sizeof name, o->dump, k, s);
            if (otpu_out_check_only(name, 0, err, sizeof err))
                rc = bad("--dump: %s", err);
        }
    if (!rc && o->coverage) {
        if (otpu_out_check(&w->cov, o->coverage, OTPU_OUT_STREAM, err, sizeof err))
            rc = bad("--coverage: %s", err);
        w->have_cov = !rc;
    }
    if (rc)
        outputs_discard(w, S);
    return rc;
}

/* One file of --dump (dump_files[k]), written whole (output.h): final_<s>.txt (k 0) in the
 * golden format, the others the len bytes at p */
static int dump_file(const char *dir, size_t k, const otpu_machine *m, uint32_t s,
                     const void *p, size_t len)
{
    char path[4200], err[1200];
    dump_name(path, sizeof path, dir, k, s);
    otpu_out out;
    FILE *f = NULL;
    if (otpu_out_check(&out, path, 0, err, sizeof err) ||
        !(f = otpu_out_open(&out, err, sizeof err))) {
        otpu_out_discard(&out);
        return bad("--dump: %s", err);
    }
    int bad_write = k == 0 ? otpu_final_write(f, m, s) != 0 : fwrite(p, 1, len, f) != len;
    if (bad_write) {
        otpu_out_discard(&out);
        return bad("cannot write %s", path);
    }
    return otpu_out_commit(&out, err, sizeof err) ? bad("--dump: %s", err) : 0;
}

static int dump(const char *dir, const otpu_machine *m)
{
    char err[1200];
    if (otpu_out_make_dir(dir, err, sizeof err))
        return bad("--dump: %s", err);
    const otpu_config *c = otpu_machine_config(m);
    uint64_t rows = otpu_config_act_rows(c);
    for (uint32_t s = 0; s < c->S; s++) {
        otpu_slice_view v = otpu_machine_view(m, s);
        uint64_t len = c->DRAM_BYTES;
        while (len && !v.dram[len - 1])
            len--;
        if (dump_file(dir, 0, m, s, NULL, 0) ||
            dump_file(dir, 1, m, s, v.tmem, c->TMEM_WORDS * 4) ||
            dump_file(dir, 2, m, s, v.dram, len) ||
            dump_file(dir, 3, m, s, v.act, rows * c->ACT_BLOCKS * c->D) ||
            dump_file(dir, 4, m, s, v.ascale, rows * c->ACT_BLOCKS * 4))
            return 2;
    }
    return 0;
}

static void summary(const otpu_machine *m)
{
    for (uint32_t s = 0; s < otpu_machine_slices(m); s++) {
        otpu_slice_view v = otpu_machine_view(m, s);
        printf("slice %u: %s icount=%" PRIu64 " pc=%" PRIu32 "\n", s,
               v.halted ? "halted" : "stopped", v.icount, v.pc);
    }
}

/* host.txt's outcome: one line; 1 when a step failed or was never reached */
static int host_verdict(const otpu_machine *m)
{
    const otpu_host *h = otpu_machine_host(m);
    if (!h)
        return 0;
    size_t n;
    otpu_host_records(h, &n);
    char msg[600];
    if (otpu_host_verdict(h, msg, sizeof msg)) {
        otpu_print_line(stderr, "otpu-sim: host: ", msg);
        return 1;
    }
    printf("host: %zu steps done\n", n);
    return 0;
}

/* --coverage's file, written whole (or in place) */
static int write_coverage(const otpu_coverage *cov, otpu_out *out)
{
    char err[1200];
    const char *path = otpu_out_begin(out, err, sizeof err);
    if (!path || otpu_coverage_write_json(cov, path, err, sizeof err)) {
        otpu_out_discard(out);
        return bad("--coverage: %s", err);
    }
    return otpu_out_commit(out, err, sizeof err) ? bad("--coverage: %s", err) : 0;
}

static int cmd_run(int argc, char **argv)
{
    options o = {0};
    if (parse(argc, argv, &o, 1))
        return 2;
    otpu_bundle b;
    char err[1200];
    if (otpu_bundle_read_lazy(o.bundle, &b, err, sizeof err)) /* images straight into DRAM */
        return bad_msg(err);
    if (otpu_bundle_set_rev(&b, o.bundle, o.rev, err, sizeof err)) {
        otpu_bundle_free(&b);
        return bad_msg(err);
    }
    uint32_t S = b.cfg.S;
    outputs w;
    if (outputs_check(&w, &o, S)) {
        otpu_bundle_free(&b);
        return 2;
    }
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(&b, &e);
    if (!m) {
        outputs_discard(&w, S);
        otpu_bundle_free(&b);
        return bad_msg(e.msg);
    }
    FILE **files = calloc(S, sizeof *files);
    otpu_tracer *t = NULL;
    otpu_coverage *cov = NULL;
    int rc = files ? 0 : bad_msg("out of memory");
    if (o.trace) {
        for (uint32_t s = 0; s < S && !rc; s++) {
            files[s] = w.trace ? otpu_out_open(&w.trace[s], err, sizeof err) : stdout;
            if (!files[s])
                rc = bad("--trace: %s", err);
        }
        if (!rc) {
            t = otpu_tracer_new(files, S, &b.cfg);
            otpu_listener l = otpu_tracer_listener(t);
            otpu_machine_set_listener(m, &l);
        }
    }
    if (!rc && o.coverage) {
        cov = otpu_coverage_new(&b.cfg);
        if (!cov) {
            rc = bad_msg("out of memory for the coverage model");
        } else {
            otpu_listener l = t ? otpu_tracer_listener(t) : (otpu_listener){0};
            otpu_coverage_attach(cov, m, &l);
        }
    }
    int ran = !rc; /* (a run's trace is kept, whatever its outcome) */
    if (!rc) {
        otpu_machine_set_strict(m, o.strict ? OTPU_STRICT_ALL : 0);
        int r = run_with_progress(m, o.max_steps, o.progress || isatty(2));
        summary(m);
        if (r) {
            otpu_print_line(stderr, "otpu-sim: error: ", otpu_machine_error(m)->msg);
            rc = 1;
        }
        if (host_verdict(m))
            rc = 1;
        if (o.dump && dump(o.dump, m))
            rc = 2;
        if (cov && write_coverage(cov, &w.cov))
            rc = 2;
    }
    for (uint32_t s = 0; ran && w.trace && s < S; s++)
        if (otpu_out_commit(&w.trace[s], err, sizeof err))
            rc = bad("--trace: %s", err);
    if (files && !w.trace && files[0] == stdout && fflush(stdout))
        rc = bad_msg("cannot finish writing the trace");
    outputs_discard(&w, S); /* (what was not committed: a failed run's half) */
    free(files);
    otpu_tracer_free(t);
    otpu_coverage_free(cov);
    otpu_machine_free(m);
    otpu_bundle_free(&b);
    return rc;
}

/* ------------------------------------------------------------------ check */

static int cmd_check(int argc, char **argv)
{
    options o = {0};
    if (parse(argc, argv, &o, 0))
        return 2;
    char report[2048];
    int rc = otpu_golden_check(o.bundle, o.rev, o.max_steps, report, sizeof report);
    if (rc == 2)
        return bad_msg(report);
    otpu_print_line(stdout, "", report); /* (it names the bundle, and may quote its files) */
    return rc;
}

/* ------------------------------------------------------------------ disasm */

static int cmd_disasm(int argc, char **argv)
{
    const char *file = NULL;
    otpu_revision rev = OTPU_REV_UNSET;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--rev") && i + 1 < argc) {
            if (parse_rev(argv[++i], &rev))
                return 2;
        } else if (a[0] == '-') {
            return bad("unknown option or missing value: %s (see --help)", a);
        } else if (!file) {
            file = a;
        } else {
            return bad("unexpected argument: %s (disasm takes one FILE.hex; see --help)", a);
        }
    }
    if (!file)
        return bad_msg("disasm takes one FILE.hex (see --help)");
    /* the bundle reader's parser: the same grammar, the same limits */
    char err[1024], *text;
    size_t len, nwords;
    uint32_t *w;
    const uint64_t max_words = (uint64_t)1 << 27; /* the largest IMEM_WORDS */
    if (otpu_input_read(file, max_words * 10, &text, &len, err, sizeof err))
        return bad_msg(err);
    int rc = otpu_hex_parse(text, len, file, max_words, &w, &nwords, err, sizeof err);
    free(text);
    if (rc)
        return bad_msg(err);
    for (size_t pc = 0; pc < nwords / 8; pc++) {
        otpu_instr in = otpu_decode(w + 8 * pc);
        char d[512], why[96];
        otpu_disasm(&in, d, sizeof d);
        if (rev != OTPU_REV_UNSET && otpu_rev_lacks(rev, &in, NULL, why, sizeof why))
            printf("%5zu: %s  ; not in ISA revision %s: %s\n", pc, d, otpu_rev_name(rev), why);
        else
            printf("%5zu: %s\n", pc, d);
    }
    free(w);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return bad_msg("a command is needed: run, check or disasm (see --help)");
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        fputs(usage, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "run"))
        return cmd_run(argc, argv);
    if (!strcmp(argv[1], "check"))
        return cmd_check(argc, argv);
    if (!strcmp(argv[1], "disasm"))
        return cmd_disasm(argc, argv);
    return bad("unknown command '%s' (run, check, disasm; see --help)", argv[1]);
}
