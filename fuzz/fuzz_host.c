/* fuzz_host.c - host.txt (docs/bundle.md): the parser on any bytes, then the steps it accepts
 * played by the executor against a device whose answers come from the input too. The first
 * byte picks the slice count. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    const uint8_t *bits; /* the device's answers, in turn */
    size_t n, at;
    uint64_t now;
    uint32_t dram[64];
} fake;

static int next(fake *f)
{
    return f->n ? f->bits[f->at++ % f->n] : 0;
}

static int polling(void *d, uint32_t s) { (void)s; return next(d) & 1; }
static int halted(void *d, uint32_t s) { (void)s; return next(d) & 2; }
static int stopped(void *d, uint32_t s) { (void)s; return next(d) & 4; }
static uint64_t polls(void *d, uint32_t s) { (void)s; return (uint64_t)next(d); }
static uint64_t now(void *d) { return ((fake *)d)->now += (uint64_t)next(d) << 24; }

static int write_(void *d, uint32_t s, uint64_t addr, const uint32_t *w, size_t n, char *err,
                  size_t errlen)
{
    (void)s, (void)err, (void)errlen;
    fake *f = d;
    for (size_t k = 0; k < n; k++)
        f->dram[(addr / 4 + k) % 64] = w[k];
    return next(d) & 8 ? 1 : 0;
}

static int read_(void *d, uint32_t s, uint64_t addr, uint32_t *w, size_t n)
{
    (void)s;
    fake *f = d;
    for (size_t k = 0; k < n; k++)
        w[k] = f->dram[(addr / 4 + k) % 64];
    return next(d) & 16 ? 1 : 0;
}

static int run(void *d, uint32_t s, const uint32_t *prog, size_t nwords, const uint32_t args[8],
               char *err, size_t errlen)
{
    (void)s, (void)prog, (void)nwords, (void)args, (void)err, (void)errlen;
    return next(d) & 32 ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    otpu_config c = otpu_config_default();
    c.S = 1 + data[0] % 4;
    c.DRAM_BYTES = 4096;
    otpu_host_script sc;
    char err[512];
    if (otpu_host_parse((const char *)data + 1, size - 1, "host.txt", &c, &sc, err, sizeof err))
        return 0;
    for (size_t k = 0; k < sc.n; k++) {
        char text[160];
        otpu_host_step_text(&sc.steps[k], text, sizeof text);
    }
    static const otpu_host_device dev = {polling, halted, stopped, polls, now, write_, read_, run};
    uint32_t args[8] = {0};
    otpu_host *h = otpu_host_new(&sc, c.S, args);
    fake f = {data, size, 0, 0, {0}};
    for (int round = 0; h && round < 64 && otpu_host_advance(h, &dev, &f) >= 0; round++)
        ;
    if (h) {
        size_t n;
        otpu_host_records(h, &n);
        otpu_host_verdict(h, err, sizeof err);
    }
    otpu_host_free(h);
    otpu_host_script_free(&sc);
    return 0;
}
