/* otpu-bench - libotpusim's speed on benchmark bundles: instructions per second, wall time,
 * and int8 MACs per second for the MM work, each result checked against the bundle's golden
 * final_<s>.txt.
 *
 *   otpu-bench [--repeat N] BUNDLE...
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bundle.h"
#include "input.h"
#include "trace.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* MACs of the MM instructions issued (each MXU row times each streamed element). */
static void count_macs(void *user, uint32_t s, uint64_t n, uint32_t pc, const otpu_instr *in)
{
    (void)s, (void)n, (void)pc;
    uint64_t *macs = user;
    if (!in || in->op != OTPU_OP_MM)
        return;
    otpu_mm_ops o = otpu_operands(in, NULL).mm;
    macs[0] += (uint64_t)o.M * o.N * o.KB;
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
 * (D = 128, int8, 512 KiB of weights that stay in cache), repeated 64 times. */
static int synthetic_mm(void)
{
    otpu_config c = otpu_config_default();
    c.D = 128;
    c.DRAM_BYTES = 1u << 21;
    otpu_error e;
    otpu_machine *m = otpu_machine_new(&c, &e);
    if (!m)
        return fprintf(stderr, "otpu-bench: %s\n", e.msg), 2;
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
    otpu_machine_load_program(m, 0, prog, (size_t)(p - prog), &e);
    free(img);
    double t0 = now();
    int failed = otpu_machine_run(m, 0);
    double dt = now() - t0;
    if (failed)
        fprintf(stderr, "otpu-bench: synthetic: %s\n", otpu_machine_error(m)->msg);
    double macs = (double)reps * M * N * KB * 128;
    printf("%-28s %12" PRIu64 " %10.4f %14.4g %14.3g %s\n", "synthetic_mm_M8_K1024_N512",
           otpu_machine_view(m, 0).icount, dt, (double)otpu_machine_view(m, 0).icount / dt,
           macs / dt, failed ? "ERROR" : "(no golden)");
    otpu_machine_free(m);
    return failed;
}

int main(int argc, char **argv)
{
    int repeat = 3, first = 1;
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        printf("usage: otpu-bench [--repeat N] BUNDLE...\n"
               "Runs each bundle N times (default 3) without a listener and reports the best:\n"
               "instructions/s, wall time, int8 MAC/s of its MMs; checks final_<s>.txt.\n");
        return 0;
    }
    if (argc > 2 && !strcmp(argv[1], "--repeat")) {
        repeat = atoi(argv[2]);
        first = 3;
    }
    if (first >= argc || repeat < 1) {
        fprintf(stderr, "otpu-bench: usage: otpu-bench [--repeat N] BUNDLE... (see --help)\n");
        return 2;
    }
    printf("%-28s %12s %10s %14s %14s %s\n", "bundle", "instructions", "wall s", "instr/s",
           "int8 MAC/s", "result");
    int rc = 0;
    for (int i = first; i < argc; i++) {
        otpu_bundle b;
        char err[1024];
        if (otpu_bundle_read(argv[i], &b, err, sizeof err)) {
            fprintf(stderr, "otpu-bench: %s\n", err);
            return 2;
        }
        double best = 1e30;
        uint64_t icount = 0, macs[1] = {0};
        int ok = 1, checked = 1;
        for (int r = 0; r <= repeat; r++) {
            otpu_error e;
            otpu_machine *m = otpu_bundle_machine(&b, &e);
            if (!m) {
                fprintf(stderr, "otpu-bench: %s\n", e.msg);
                return 2;
            }
            otpu_listener l = {macs, count_macs, NULL, NULL};
            if (r == repeat) /* a last, untimed pass counts the MACs */
                otpu_machine_set_listener(m, &l);
            double t0 = now();
            int failed = otpu_machine_run(m, 0);
            double dt = now() - t0;
            if (failed) {
                fprintf(stderr, "otpu-bench: %s: %s\n", argv[i], otpu_machine_error(m)->msg);
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
        const char *name =
            strrchr(argv[i], '/') && strrchr(argv[i], '/')[1] ? strrchr(argv[i], '/') + 1 : argv[i];
        char macs_s[32] = "-";
        if (macs[0])
            snprintf(macs_s, sizeof macs_s, "%.3g", (double)(macs[0] * D) / best);
        printf("%-28s %12" PRIu64 " %10.4f %14.4g %14s %s\n", name, icount, best,
               (double)icount / best, macs_s,
               !ok ? "MISMATCH" : checked ? "final state ok" : "final state not checked");
        rc |= !ok;
        otpu_bundle_free(&b);
    }
    return rc | synthetic_mm();
}
