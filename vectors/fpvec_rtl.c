/* fpvec_rtl.c - otpu-fpvec rtl: the Verilated tb_fp bench of an otpu_fp.sv (file and DPI modes),
 * and its cached build. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fpvec_cli.h"
#include "cache.h"
#include "install_dirs.h"
#include "input.h"
#include "proc.h"
#include "sha256.h"

static const char HELP_RTL[] =
    "usage: otpu-fpvec rtl [--sv PATH] [--rev NAME] [--level N] [--seed S] [--ops LIST]\n"
    "                      [--count N] [--show N] [--cache DIR] [--jobs N] [--rebuild] [FILE]\n"
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
    "  --rev NAME   the ISA revision of that otpu_fp (default current; docs/bundle.md): a\n"
    "               bench built for it leaves out the functions its fp32 unit lacks (log2,\n"
    "               the MXU compare), and in DPI mode its fp32 functions give the expected\n"
    "               values of its ops (no NaN operand where it leaves them undefined)\n"
    "  --cache DIR  the build cache (default otpu-rtl's: $OTPU_RTL_CACHE, else\n"
    "               ${XDG_CACHE_HOME:-~/.cache}/otpu-lockstep/rtl); one folder per hash of the\n"
    "               sources and the Verilator version, built under a lock (parallel runs\n"
    "               share one build)\n"
    "  --jobs N     parallel compiles of a build (default 2)\n"
    "  --rebuild    build the --sv bench again even when cached\n"
    "  --level, --seed, --ops, --count: as for gen (DPI mode)\n"
    "  --show N     MISMATCH lines printed, at most (default 20)\n"
    "\n"
    "Exit 0 every vector matched (and at least one was checked), 1 mismatches, 2 bad input\n"
    "(unreadable or malformed file, a bench that does not build).\n";


/* The files a bench build reads, relative to the source tree (tb_fp_build.sh's inputs). */
static const char *const BENCH_SOURCES[] = {
    "vectors/tb_fp_build.sh", "vectors/otpu_fp_vec.sv", "vectors/tb_fp.sv",
    "vectors/tb_fp_main.cpp", "vectors/tb_fp_hostref.cpp", "vectors/tb_fp_hostref.h",
    "vectors/fpvec_dpi.cpp", "vectors/fpvec_dpi.h", "vectors/fpvec.c", "vectors/fpvec.h",
    "vectors/fpvec_exh.c", "vectors/fpvec_exh.h", "vectors/fpvec_exh_dpi.cpp",
    "vectors/fpvec_exh_dpi.h",
    "sim/fp32.c", "sim/fp32.h", "sim/bits.h", "sim/revision.c", "sim/revision.h", "sim/isa.c",
    "sim/isa.h", "sim/protocol.h",
};

/* The Verilator defines of a bench for an otpu_fp of revision rev (otpu_fp_vec.sv): NULL ends
 * the list. */
static void bench_defines(const otpu_rev_desc *rev, const char *defs[3])
{
    int n = 0;
    if (!rev->fp.log2)
        defs[n++] = "OTPU_FP_NO_LOG2";
    if (rev->fp_no_mm_compare)
        defs[n++] = "OTPU_FP_NO_MM";
    defs[n] = NULL;
}

/* The first line a command prints, or NULL when it cannot be run. */
static char *command_line_output(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    char buf[512];
    char *r = fgets(buf, sizeof buf, p) ? xstrdup_printf("%s", buf) : NULL;
    while (fgets(buf, sizeof buf, p)) {
    }
    if (pclose(p) != 0) {
        free(r);
        return NULL;
    }
    if (r)
        r[strcspn(r, "\n")] = '\0';
    return r;
}

/* Adds a file's name and contents to the key. */
static void hash_file(otpu_sha256 *h, const char *label, const char *path)
{
    char err[1024], *data;
    size_t len;
    if (otpu_input_read(path, (size_t)1 << 30, &data, &len, err, sizeof err))
        die("%s", err);
    otpu_sha256_update(h, label, strlen(label) + 1);
    otpu_sha256_update(h, data, len);
    free(data);
}

/* The cache key: SHA-256 of the bench sources, the user's otpu_fp.sv (its content: a copy
 * elsewhere shares the build), the defines and the Verilator and C compiler versions. */
static void bench_key(const char *src, const char *sv, const char *const *defs,
                      const char *versions, char key[65])
{
    otpu_sha256 *h = otpu_sha256_new();
    if (!h)
        die("out of memory");
    const char tag[] = "otpu-fpvec bench 3";
    otpu_sha256_update(h, tag, sizeof tag);
    otpu_sha256_update(h, versions, strlen(versions) + 1);
    for (int k = 0; defs[k]; k++)
        otpu_sha256_update(h, defs[k], strlen(defs[k]) + 1);
    for (size_t i = 0; i < sizeof BENCH_SOURCES / sizeof BENCH_SOURCES[0]; i++) {
        char *p = xstrdup_printf("%s/%s", src, BENCH_SOURCES[i]);
        hash_file(h, BENCH_SOURCES[i], p);
        free(p);
    }
    hash_file(h, "otpu_fp.sv", sv);
    char hex[65];
    otpu_sha256_final(h, hex);
    snprintf(key, 65, "fpbench-%.24s", hex);
}

typedef struct bench_build {
    const char *script, *sv;
    const char *const *defs;
    unsigned jobs;
    int built; /* this run built it (else the cache had it) */
} bench_build;

/* Builds the bench into tmpdir (the cache's build function): tb_fp_build.sh, its chatter on
 * stderr, in a process group that dies with the tool. */
static int build_bench(void *user, const char *tmpdir, char *err, size_t errlen)
{
    bench_build *b = user;
    b->built = 1;
    msg("building the bench for %s (in %s)", b->sv, tmpdir);
    char *out = xstrdup_printf("%s/tb_fp", tmpdir), *obj = xstrdup_printf("%s/obj", tmpdir);
    char jobs[16];
    snprintf(jobs, sizeof jobs, "%u", b->jobs);
    char *argv[10] = {"/bin/sh", (char *)b->script, out, obj, (char *)b->sv, jobs};
    for (int k = 0; b->defs[k]; k++)
        argv[6 + k] = (char *)b->defs[k];
    otpu_proc_status st;
    int rc = otpu_proc_run_group(argv, NULL, &st);
    if (st.interrupted)
        rc = st.interrupted;
    else if (rc || st.signal || st.code)
        rc = -1, snprintf(err, errlen, "cannot build the bench for %s (its log is above)", b->sv);
    else
        otpu_remove_tree(obj); /* the objects: a bench is built again only from new sources */
    free(out);
    free(obj);
    return rc;
}

/* The bench for the otpu_fp.sv at sv, of ISA revision rev: in the build cache (tools/cache.h,
 * shared with the RTL's), or built now. */
static char *cached_bench(const char *sv, const otpu_rev_desc *rev, const char *cache,
                          unsigned jobs, int rebuild)
{
    const char *defs[3];
    bench_defines(rev, defs);
    const char *src = source_dir();
    char *script = xstrdup_printf("%s/vectors/tb_fp_build.sh", src);
    if (access(script, R_OK) != 0)
        die("cannot find %s (set OTPU_FPVEC_SRCDIR to the otpu-lockstep checkout)", script);
    const char *verilator = getenv("VERILATOR"), *cc = getenv("CC");
    char *vcmd = xstrdup_printf("'%s' --version 2>/dev/null", verilator && *verilator ? verilator
                                                                               : "verilator");
    char *ccmd = xstrdup_printf("%s --version 2>/dev/null", cc && *cc ? cc : "cc");
    char *vver = command_line_output(vcmd), *ccver = command_line_output(ccmd);
    if (!vver)
        die("cannot run %s: Verilator is needed to build the bench for %s", vcmd, sv);
    char *versions = xstrdup_printf("%s\n%s", vver, ccver ? ccver : "?");
    char key[65], dir[4096], path[4096], err[1024];
    bench_key(src, sv, defs, versions, key);
    if (rebuild) {
        snprintf(dir, sizeof dir, "%s/%s",
                 cache ? cache : otpu_cache_default_dir(path, sizeof path), key);
        otpu_remove_tree(dir);
    }
    char *what = xstrdup_printf("the fp bench for %s (%s)", sv, key);
    bench_build b = {script, sv, defs, jobs, 0};
    double t0 = now_s();
    if (otpu_cache_get(cache, key, "tb_fp", what, build_bench, &b, path, sizeof path, err,
                       sizeof err))
        die("%s", err);
    if (b.built)
        msg("built the bench for %s in %.1f s: %s", sv, now_s() - t0, path);
    else
        msg("cached bench for %s: %s", sv, path);
    free(what);
    free(versions);
    free(vver);
    free(ccver);
    free(vcmd);
    free(ccmd);
    free(script);
    return xstrdup_printf("%s", path);
}

static char *abs_path(const char *p)
{
    char *r = realpath(p, NULL);
    if (!r)
        die("cannot read %s: %s", p, strerror(errno));
    return r;
}

/* Starts the bench (argv[0]) with its standard output on a pipe, *fd its reading end; the bench
 * dies with the tool. */
pid_t bench_spawn(char *const *argv, int *fd)
{
    int fds[2];
    if (pipe(fds) != 0)
        die("pipe: %s", strerror(errno));
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* no bench outlives the tool */
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[1]);
        execv(argv[0], argv);
        fprintf(stderr, "otpu-fpvec: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    *fd = fds[0];
    return pid;
}

/* Runs the bench with its plusargs, copying its output to stdout and noting the FPTEST line.
 * Returns the bench's exit status (or -1: it could not start or died). */
static int run_bench(char *const *argv, uint64_t *cases, uint64_t *errs, int *have_fptest,
                     uint32_t *failed_ops)
{
    int fd;
    *have_fptest = 0;
    pid_t pid = bench_spawn(argv, &fd);
    FILE *in = fdopen(fd, "r");
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

char *rtl_bench(const char *sv, const otpu_rev_desc *rev, const char *cache, unsigned jobs,
                int rebuild, char **sv_path)
{
    if (sv) {
        *sv_path = abs_path(sv);
        return cached_bench(*sv_path, rev, cache, jobs, rebuild);
    }
    const char *e = getenv("OTPU_FPVEC_BENCH");
    char inst[4096]; /* an installed tool builds its own: the build folder may be gone */
    const char *b = (e && *e) ? e
                    : otpu_install_path(OTPU_INSTALL_SHARE, inst, sizeof inst) == 0
                        ? ""
                        : OTPU_FPVEC_BENCH;
    *sv_path = xstrdup_printf("%s/rtl/otpu_fp.sv", source_dir());
    if (*b && access(b, X_OK) == 0)
        return xstrdup_printf("%s", b);
    msg("no meson-built bench%s%s; building one for %s", *b ? " at " : "", b, *sv_path);
    return cached_bench(*sv_path, rev, cache, jobs, rebuild);
}

int cmd_rtl(int argc, char **argv)
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
        if (opt_is(&a, "--rev", 1)) /* (a gen option that also chooses the bench) */
            o.rev = parse_rev_opt(a.value);
        else if (gen_opt(&a, &o))
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
    gen_opts_finish(&o);
    if (cache)
        check_cache_dir(cache);
    char *file_abs = NULL;
    if (file) {
        read_vectors(file, NULL, NULL); /* bad input is named here, before a bench runs */
        file_abs = abs_path(file);
    }

    /* the bench */
    const char *sv_name = sv ? NULL : "the project's rtl/otpu_fp.sv";
    char *sv_abs = NULL;
    char *bench = rtl_bench(sv, o.rev, cache, jobs, rebuild, &sv_abs);
    if (sv)
        sv_name = sv_abs;

    /* its arguments */
    char *bargv[16];
    int n = 0;
    char show_s[32], level_s[32], seed_s[40], count_s[40], ops_s[64], rev_s[64];
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
        snprintf(rev_s, sizeof rev_s, "+rev=%s", o.rev->name);
        bargv[n++] = rev_s;
    }
    bargv[n++] = show_s;
    bargv[n] = NULL;

    printf("otpu-fpvec rtl: otpu_fp.sv: %s%s%s\n", sv_name,
           o.rev == otpu_rev_desc_of(OTPU_REV_CURRENT) ? "" : ", ISA revision ",
           o.rev == otpu_rev_desc_of(OTPU_REV_CURRENT) ? "" : o.rev->name);
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

