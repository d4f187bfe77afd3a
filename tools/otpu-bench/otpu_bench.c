/* otpu-bench - libotpusim's speed on benchmark bundles: instructions per second, wall time,
 * and int8 MACs per second for the MM work, each result checked against the bundle's golden
 * final_<s>.txt; each bundle's time against its memory-bandwidth bound (the weight bytes its
 * MMs stream / the measured memcpy bandwidth); and every int8 dot product path this CPU has
 * on a synthetic MM, in the model and as the bare kernel.
 *
 *   otpu-bench [--repeat N] BUNDLE...
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bundle.h"
#include "dot.h"
#include "input.h"
#include "trace.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* MACs of the MM instructions issued (each MXU row times each streamed element), in units
 * of D, and the weight bytes they stream, in units of D / 2. */
static void count_macs(void *user, uint32_t s, uint64_t n, uint32_t pc, const otpu_instr *in)
{
    (void)s, (void)n, (void)pc;
    uint64_t *macs = user;
    if (!in || in->op != OTPU_OP_MM)
        return;
    otpu_mm_ops o = otpu_operands(in, NULL).mm;
    macs[0] += (uint64_t)o.M * o.N * o.KB;
    macs[1] += (uint64_t)o.N * o.KB * (o.wf == OTPU_WF_INT8 ? 2 : 1);
}

/* Bytes per second of memcpy between two buffers well beyond the caches, best of 5 (bytes
 * copied, not read plus written). */
static double memcpy_bandwidth(void)
{
    const size_t n = (size_t)256 << 20;
    char *a = malloc(n), *b = malloc(n);
    if (!a || !b) {
        free(a);
        free(b);
        return 0;
    }
    memset(a, 1, n);
    memset(b, 2, n);
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        memcpy(r % 2 ? a : b, r % 2 ? b : a, n);
        double dt = now() - t0;
        best = dt < best ? dt : best;
    }
    volatile char keep = a[n / 2] + b[n / 3]; /* the copies are used */
    (void)keep;
    free(a);
    free(b);
    return (double)n / best;
}

static int final_matches(const char *dir, const otpu_machine *m)
{
    for (uint32_t s = 0; s < otpu_machine_slices(m); s++) {
        char path[4096], err[1024], *want, *got = NULL;
        size_t wlen, glen;
        snprintf(path, sizeof path, "%s/final_%u.txt", dir, s);
        if (otpu_input_read(path, 1 << 16, &want, &wlen, err, sizeof err))
            return -1;
        FILE *g = open_memstream(&got, &glen);
        otpu_final_write(g, m, s);
        fclose(g);
        int same = !strcmp(want, got);
        free(want);
        free(got);
        if (!same)
            return 0;
    }
    return 1;
}

static void put(uint32_t **p, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3, uint32_t w4,
                uint32_t w5, uint32_t w6, uint32_t w7)
{
    uint32_t w[8] = {w0, w1, w2, w3, w4, w5, w6, w7};
    memcpy(*p, w, sizeof w);
    *p += 8;
}

/* A compute-bound MXU case: M = 8 rows of ACT RAM against N = 512 weight rows of K = 1024
 * (D = 128, int8, 512 KiB of weights that stay in cache), repeated 64 times; best of 3.
 * Returns MAC/s, or 0 on an error. */
static double synthetic_mm(void)
{
    otpu_config c = otpu_config_default();
    c.D = 128;
    c.DRAM_BYTES = 1u << 21;
    otpu_error e;
    otpu_machine *m = otpu_machine_new(&c, &e);
    if (!m)
        return fprintf(stderr, "otpu-bench: %s\n", e.msg), 0;
    uint32_t prog[8 * 8], *p = prog;
    const uint32_t N = 512, KB = 8, M = 8, reps = 64;
    put(&p, OTPU_OP_LD, 0, 0, M * KB * 128, 0, 0, 0, 0);                      /* rows to quantize */
    put(&p, OTPU_OP_QACT, 0, M | KB << 16, KB * 128, 0, 0, 0, 0);
    put(&p, OTPU_OP_LOOP, 1, reps, 0, 0, 0, 0, 0);
    put(&p, OTPU_OP_MM | (uint32_t)(OTPU_F_UNIT) << 24, 1u << 20, 0, 16384, N | KB << 16,
        KB * 128, N | M << 16, 0);
    put(&p, OTPU_OP_HALT, 0, 0, 0, 0, 0, 0, 0);
    uint8_t *img = malloc(c.DRAM_BYTES);
    uint32_t seed = 1;
    for (size_t i = 0; i < c.DRAM_BYTES; i++) {
        seed = seed * 1103515245u + 12345u;
        img[i] = (uint8_t)(seed >> 16);
    }
    for (size_t i = 0; i < M * KB * 128; i++) /* moderate fp32 values for QACT */
        ((uint32_t *)img)[i] = 0x3F000000u | (((uint32_t *)img)[i] & 0x807FFFFFu);
    otpu_machine_load_dram(m, 0, 0, img, c.DRAM_BYTES, &e);
    free(img);
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        otpu_machine_load_program(m, 0, prog, (size_t)(p - prog), &e); /* restarts it */
        double t0 = now();
        int failed = otpu_machine_run(m, 0);
        double dt = now() - t0;
        if (failed) {
            fprintf(stderr, "otpu-bench: synthetic: %s\n", otpu_machine_error(m)->msg);
            otpu_machine_free(m);
            return 0;
        }
        best = dt < best ? dt : best;
    }
    otpu_machine_free(m);
    return (double)reps * M * N * KB * 128 / best;
}

/* The bare kernel (otpu_dot_i8_blocks) on rows x K against N streamed weight rows of K int8
 * in blocks of 128, best of 3 passes of reps; returns MAC/s. */
static double kernel_rate(size_t rows, size_t K, size_t N, int reps)
{
    int8_t *act = malloc(rows * K), *w = malloc(N * K);
    int32_t *out = malloc(rows * (K / 128) * sizeof *out);
    if (!act || !w || !out) {
        free(act), free(w), free(out);
        return 0;
    }
    for (size_t i = 0; i < rows * K; i++)
        act[i] = (int8_t)(i * 7 + 3);
    for (size_t i = 0; i < N * K; i++)
        w[i] = (int8_t)(i * 13 + 5);
    double best = 1e30;
    int64_t sink = 0;
    for (int pass = 0; pass < 3; pass++) {
        double t0 = now();
        for (int r = 0; r < reps; r++)
            for (size_t n = 0; n < N; n++) {
                otpu_dot_i8_blocks(act, K, rows, w + n * K, 128, K / 128, out);
                sink += out[0];
            }
        double dt = now() - t0;
        best = dt < best ? dt : best;
    }
    volatile int64_t keep = sink;
    (void)keep;
    free(act), free(w), free(out);
    return (double)reps * rows * K * N / best;
}

/* Every path this CPU has, side by side: the synthetic MM in the model, the bare kernel on
 * the same shape, and the bare kernel decode-shaped (M = 1 against 64 MiB of weights streamed
 * once a pass, as bytes/s to set beside memcpy). Leaves the active path as it found it. */
static int paths_table(double bw)
{
    char active[32], err[256];
    snprintf(active, sizeof active, "%s", otpu_dot_path());
    printf("\nint8 dot product paths (active: %s), D = 128, K = 1024, int8 MAC/s:\n", active);
    printf("%-12s %18s %18s %24s\n", "path", "model MM M=8 N=512", "kernel M=8 N=512",
           "kernel M=1 64 MiB (GB/s)");
    int rc = 0;
    for (const char *const *p = otpu_dot_paths(); *p; p++) {
        if (otpu_dot_select(*p, err, sizeof err))
            return otpu_print_line(stderr, "otpu-bench: ", err), 1;
        double mm = synthetic_mm(), k8 = kernel_rate(8, 1024, 512, 16),
               k1 = kernel_rate(1, 1024, 65536, 1);
        rc |= mm == 0;
        printf("%-12s %18.3g %18.3g %15.3g (%5.1f)\n", *p, mm, k8, k1, k1 / 1e9);
    }
    printf("memcpy bandwidth: %.1f GB/s\n", bw / 1e9);
    otpu_dot_select(active, err, sizeof err);
    return rc;
}

int main(int argc, char **argv)
{
    int repeat = 3, first = 1;
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        printf("usage: otpu-bench [--repeat N] BUNDLE...\n"
               "Runs each bundle N times (default 3) without a listener and reports the best:\n"
               "instructions/s, wall time, int8 MAC/s of its MMs, the weight bytes its MMs\n"
               "stream and its time as a multiple of their memcpy time (x bound); checks\n"
               "final_<s>.txt. Then each int8 dot product path this CPU has on a synthetic MM\n"
               "(OTPU_DOT_PATH sets the path of the bundle runs).\n");
        return 0;
    }
    uint64_t n = 0;
    if (argc > 2 && !strcmp(argv[1], "--repeat")) {
        repeat = otpu_parse_number(argv[2], strlen(argv[2]), &n) || n > 1000 ? 0 : (int)n;
        first = 3;
    }
    if (first >= argc || repeat < 1) {
        fprintf(stderr, "otpu-bench: usage: otpu-bench [--repeat N] BUNDLE... (see --help)\n");
        return 2;
    }
    double bw = memcpy_bandwidth();
    printf("dot product path: %s; memcpy bandwidth: %.1f GB/s\n", otpu_dot_path(), bw / 1e9);
    printf("%-28s %12s %10s %14s %14s %10s %9s %s\n", "bundle", "instructions", "wall s",
           "instr/s", "int8 MAC/s", "weights MB", "x bound", "result");
    int rc = 0;
    for (int i = first; i < argc; i++) {
        otpu_bundle b;
        char err[1024];
        if (otpu_bundle_read(argv[i], &b, err, sizeof err)) {
            otpu_print_line(stderr, "otpu-bench: ", err);
            return 2;
        }
        double best = 1e30;
        uint64_t icount = 0, macs[2] = {0, 0};
        int ok = 1, checked = 1;
        for (int r = 0; r <= repeat; r++) {
            otpu_error e;
            otpu_machine *m = otpu_bundle_machine(&b, &e);
            if (!m) {
                otpu_print_line(stderr, "otpu-bench: ", e.msg);
                return 2;
            }
            otpu_listener l = {macs, count_macs, NULL, NULL};
            if (r == repeat) /* a last, untimed pass counts the MACs */
                otpu_machine_set_listener(m, &l);
            double t0 = now();
            int failed = otpu_machine_run(m, 0);
            double dt = now() - t0;
            if (failed) {
                char line[1400];
                snprintf(line, sizeof line, "%s: %s", argv[i], otpu_machine_error(m)->msg);
                otpu_print_line(stderr, "otpu-bench: ", line);
                ok = 0;
            }
            if (r < repeat && dt < best)
                best = dt;
            icount = 0;
            for (uint32_t s = 0; s < b.cfg.S; s++)
                icount += otpu_machine_view(m, s).icount;
            int match = r == 0 ? final_matches(argv[i], m) : 1;
            ok &= match != 0;
            checked &= match >= 0;
            otpu_machine_free(m);
        }
        uint64_t D = b.cfg.D;
        const char *base =
            strrchr(argv[i], '/') && strrchr(argv[i], '/')[1] ? strrchr(argv[i], '/') + 1 : argv[i];
        char name[256]; /* (a folder name: input) */
        otpu_escape(base, strlen(base), name, sizeof name);
        char macs_s[32] = "-", wbytes_s[32] = "-", bound_s[32] = "-";
        double wbytes = (double)(macs[1] * D / 2);
        if (macs[0])
            snprintf(macs_s, sizeof macs_s, "%.3g", (double)(macs[0] * D) / best);
        if (macs[1]) { /* the run's time as a multiple of weight bytes / memcpy bandwidth */
            snprintf(wbytes_s, sizeof wbytes_s, "%.2f", wbytes / 1e6);
            snprintf(bound_s, sizeof bound_s, "%.2f", best / (wbytes / bw));
        }
        printf("%-28s %12" PRIu64 " %10.4f %14.4g %14s %10s %9s %s\n", name, icount, best,
               (double)icount / best, macs_s, wbytes_s, bound_s,
               !ok ? "MISMATCH" : checked ? "final state ok" : "final state not checked");
        rc |= !ok;
        otpu_bundle_free(&b);
    }
    return rc | paths_table(bw);
}
