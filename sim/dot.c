/* dot.c - which int8 dot product path runs: the table of paths (dot_*.c), the choice at run
 * time (the best the CPU has, $OTPU_DOT_PATH, or otpu_dot_select), and the public calls. */
#include "dot.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "dot_kernel.h"

/* best first */
static const otpu_dot_kernel *const kernels[] = {
#ifdef OTPU_DOT_X86
    &otpu_dot_kernel_avx512vnni,
    &otpu_dot_kernel_avxvnni,
    &otpu_dot_kernel_avx2,
#endif
    &otpu_dot_kernel_portable,
};
enum { NKERNELS = sizeof kernels / sizeof kernels[0] };

static _Atomic(const otpu_dot_kernel *) active;

/* what the CPU has does not change while the process runs: found once */
static once_flag once = ONCE_FLAG_INIT;
static const char *known[NKERNELS + 1], *available[NKERNELS + 1];
static const otpu_dot_kernel *best;

static void find_paths(void)
{
    size_t n = 0;
    for (size_t i = 0; i < NKERNELS; i++) {
        known[i] = kernels[i]->name;
        if (kernels[i]->supported()) {
            available[n++] = kernels[i]->name;
            if (!best)
                best = kernels[i];
        }
    }
}

static void ready(void)
{
    call_once(&once, find_paths);
}

/* "a b c" */
static const char *joined(const char *const *names, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (; *names && at < n; names++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? " " : "", *names);
    return buf;
}

/* name NULL, "" or "auto": the best; NULL with the reason in err for an unknown name or a
 * path this CPU lacks */
static const otpu_dot_kernel *lookup(const char *name, char *err, size_t errlen)
{
    ready();
    if (!name || !*name || !strcmp(name, "auto"))
        return best;
    char list[128];
    for (size_t i = 0; i < NKERNELS; i++) {
        if (strcmp(kernels[i]->name, name))
            continue;
        if (kernels[i]->supported())
            return kernels[i];
        snprintf(err, errlen, "this CPU cannot run the int8 dot product path '%s' (it has: %s)",
                 name, joined(available, list, sizeof list));
        return NULL;
    }
    snprintf(err, errlen, "unknown int8 dot product path '%s' (known: %s, auto)", name,
             joined(known, list, sizeof list));
    return NULL;
}

/* The first use: $OTPU_DOT_PATH's path when it is a good one, else the best (a bad value is
 * reported by otpu_dot_env_check, which otpu_machine_new calls). Racing first uses all store
 * the same choice. */
static const otpu_dot_kernel *kernel(void)
{
    const otpu_dot_kernel *k = atomic_load_explicit(&active, memory_order_acquire);
    if (k)
        return k;
    char err[256];
    k = lookup(getenv("OTPU_DOT_PATH"), err, sizeof err);
    if (!k)
        k = best;
    const otpu_dot_kernel *none = NULL;
    if (!atomic_compare_exchange_strong(&active, &none, k))
        k = none; /* otpu_dot_select (or another first use) came first */
    return k;
}

int32_t otpu_dot_i8(const int8_t *a, const int8_t *b, size_t n)
{
    return kernel()->dot(a, b, n);
}

void otpu_dot_i8_rows(const int8_t *rows_base, size_t row_stride, size_t rows, const int8_t *w,
                      size_t n, int32_t *out)
{
    kernel()->blocks(rows_base, row_stride, rows, w, n, 1, out);
}

void otpu_dot_i8_blocks(const int8_t *rows_base, size_t row_stride, size_t rows, const int8_t *w,
                        size_t n, size_t nblocks, int32_t *out)
{
    kernel()->blocks(rows_base, row_stride, rows, w, n, nblocks, out);
}

int32_t otpu_dot_i8_portable(const int8_t *a, const int8_t *b, size_t n)
{
    return otpu_dot_kernel_portable.dot(a, b, n);
}

const char *otpu_dot_path(void)
{
    return kernel()->name;
}

const char *const *otpu_dot_paths_known(void)
{
    ready();
    return known;
}

const char *const *otpu_dot_paths(void)
{
    ready();
    return available;
}

int otpu_dot_available(const char *name)
{
    for (size_t i = 0; name && i < NKERNELS; i++)
        if (!strcmp(kernels[i]->name, name))
            return kernels[i]->supported() != 0;
    return -1;
}

int otpu_dot_select(const char *name, char *err, size_t errlen)
{
    const otpu_dot_kernel *k = lookup(name, err, errlen);
    if (!k)
        return -1;
    atomic_store_explicit(&active, k, memory_order_release);
    return 0;
}

int otpu_dot_env_check(char *err, size_t errlen)
{
    const char *v = getenv("OTPU_DOT_PATH");
    char why[256];
    if (lookup(v, why, sizeof why))
        return 0;
    snprintf(err, errlen, "OTPU_DOT_PATH: %s", why);
    return -1;
}
