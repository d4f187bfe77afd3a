/* coverage_bins.c - a coverage object's groups and bins made, and its scratch (coverage_bins.h):
 * what the files of the coverage model build their bins with. */
#include "coverage_bins.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *cov_dup_str(otpu_coverage *c, const char *s)
{
    char *d = s ? strdup(s) : NULL;
    if (s && !d)
        c->oom = 1;
    return d;
}

size_t cov_add_group(otpu_coverage *c, const char *name)
{
    for (size_t g = 0; g < c->ngroups; g++)
        if (!strcmp(c->groups[g], name))
            return g;
    char **g = realloc(c->groups, (c->ngroups + 1) * sizeof *g);
    if (!g) {
        c->oom = 1;
        return 0;
    }
    c->groups = g;
    g[c->ngroups] = cov_dup_str(c, name);
    return c->ngroups++;
}

size_t cov_add_bin(otpu_coverage *c, size_t group, const char *reason, const char *fmt, ...)
{
    if (c->nbins == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 256;
        cov_bin *b = realloc(c->bins, cap * sizeof *b);
        if (!b) {
            c->oom = 1;
            return COV_NONE;
        }
        c->bins = b;
        c->cap = cap;
    }
    char name[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    c->bins[c->nbins] = (cov_bin){group, cov_dup_str(c, name), 0, cov_dup_str(c, reason)};
    return c->nbins++;
}

uint32_t *cov_scratch(otpu_coverage *c, size_t n)
{
    if (n > c->scratch_cap) {
        uint32_t *p = realloc(c->scratch, n * sizeof *p);
        if (!p)
            return NULL;
        c->scratch = p;
        c->scratch_cap = n;
    }
    return c->scratch;
}
