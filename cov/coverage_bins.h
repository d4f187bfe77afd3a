/* coverage_bins.h - the inside of a coverage object and how its bins are made and counted, for
 * the files of the coverage model (internal to libotpucov; the contract is coverage.h):
 * coverage_model.c holds the bins of control (opcodes and flags, broadcast modes, hazards, loops,
 * errors, fp32 result classes), the RTL's bins, the files and the report; coverage_data.c
 * (coverage_data.h) the bins of the values the datapath ran on. Both build on this file's. */
#ifndef OTPU_COVERAGE_BINS_H
#define OTPU_COVERAGE_BINS_H

#include <stddef.h>
#include <stdint.h>

#include "coverage.h"
#include "footprint.h"
#include "isa.h"

#define COV_NONE SIZE_MAX

typedef struct {
    size_t group; /* index into cov->groups */
    char *name;
    uint64_t count;
    char *reason; /* NULL: reachable; "count: ..." a figure, not a goal (coverage.h) */
} cov_bin;

enum { K_RAW, K_WAR, K_WAW, KINDS };
enum { M_TMEM, M_DRAM, M_ACT, MEMS };
enum { EDGE_FIRST, EDGE_LAST, EDGE_MISS, EDGES }; /* coverage.h, group hazard-edge */
enum { MAX_VFUNC = 32, MAX_SIZES = 4 }; /* MAX_SIZES: size lines of a format */

/* One window entry: a dispatched unit instruction's footprint. */
typedef struct {
    uint8_t unit;
    uint8_t n;
    otpu_range r[OTPU_FOOTPRINT_MAX];
} win_entry;

typedef struct {
    win_entry w[OTPU_COV_WIN - 1];
    unsigned nw, head; /* head: the oldest */
} window;

/* The RTL's in-flight instructions of one slice, by window slot. */
enum { SLOTS = 256 };
typedef struct {
    uint8_t valid[SLOTS], started[SLOTS], unit[SLOTS];
    uint64_t seq[SLOTS], start_cycle[SLOTS];
    uint64_t nseq;
} rtl_slice;

/* coverage_data.c's bins and what it keeps between an instruction's issue and its retire. */
typedef struct cov_data cov_data;

struct otpu_coverage {
    char **configs;
    size_t nconfigs;
    char **groups;
    size_t ngroups;
    cov_bin *bins;
    size_t nbins, cap;
    int oom;
    /* observation (a coverage built for a Config) */
    int observing;
    otpu_config cfg;
    size_t op_base[256];          /* opcode -> its first entry of opflag */
    size_t *opflag;               /* op_base[op] + flag combination -> its bin (COV_NONE: the
                                   * ISA rejects the combination: no bin, the error group counts
                                   * it) */
    size_t vop_base[MAX_VFUNC];   /* VOP function -> its first vop-bmode bin */
    size_t fp_base[MAX_VFUNC];    /* VOP function -> its fp-class bins */
    size_t hz[OTPU_UNITS][OTPU_UNITS][KINDS][MEMS];
    size_t edge[KINDS][EDGES];    /* hazard-edge bins */
    size_t loop_base, err_base;
    size_t size_bin[256][MAX_SIZES]; /* opcode, size line -> its size-zero bin (COV_NONE: none,
                                   * a line whose 0 is an error) */
    size_t ooo[OTPU_UNITS][OTPU_UNITS], ovl[OTPU_UNITS][OTPU_UNITS];
    int has_rtl;
    window *win;                  /* per slice */
    rtl_slice *rtl;               /* per slice, made on the first RTL event */
    cov_data *data;
    uint32_t *scratch;
    size_t scratch_cap;
    otpu_machine *m;
    otpu_listener next;
};

/* A copy of s (NULL for NULL); NULL and c->oom set when out of memory. */
char *cov_dup_str(otpu_coverage *c, const char *s);
/* The group named name (added if new). */
size_t cov_add_group(otpu_coverage *c, const char *name);
/* Append a bin; its name is printf-formatted. Returns its index (COV_NONE if out of memory). */
size_t cov_add_bin(otpu_coverage *c, size_t group, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Count a hit of bin i (none for COV_NONE). */
static inline void cov_hit(otpu_coverage *c, size_t i)
{
    if (i != COV_NONE && i < c->nbins)
        c->bins[i].count++;
}
/* n words of scratch (reused), or NULL when out of memory */
uint32_t *cov_scratch(otpu_coverage *c, size_t n);

#endif
