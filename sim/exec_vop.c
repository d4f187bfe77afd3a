/* exec_vop.c - VOP: elementwise functions, row reductions, ARGMAX, OUTER, and the
 * read-after-write hazard check inside one instruction.
 *
 * The reference reads every operand, then writes every result. The hazard check (an element
 * must not read what an earlier element writes) makes that equal to processing the elements
 * one by one in order, which is what the bodies below do. */
#include <stdlib.h>

#include "fp32.h"
#include "slice.h"
#include "vecops.h"

/* an affine set of TMEM indices: base + r*rs + c*cs, r < rows, c < cols */
typedef struct {
    uint64_t base, rows, rs, cols, cs;
} idxset;

static uint64_t at(const idxset *x, uint64_t r, uint64_t c)
{
    return x->base + r * x->rs + c * x->cs;
}

static uint64_t last(const idxset *x)
{
    return at(x, x->rows - 1, x->cols - 1);
}

static int check(otpu_slice *s, const idxset *x)
{
    return otpu_bounds_tmem(s, x->base, x->rows, x->rs, x->cols, x->cs);
}

static int hazard_at(otpu_slice *s, uint64_t y)
{
    return otpu_fail_at(s, OTPU_ERR_HAZARD, y, "VOP read-after-write hazard at TMEM %llu",
                        (unsigned long long)y);
}

typedef struct {
    uint64_t addr;
    uint64_t pos;
} wpos;

static int by_addr_then_pos(const void *a, const void *b)
{
    const wpos *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The hazard check over addresses beyond TMEM (only OUTER reads what it has not bounds-
 * checked yet; the reference names the hazard before the range): sorted writes, each read
 * looked up. Sizes are bounded by OUTER's rows x 256 columns. */
static int hazard_sparse(otpu_slice *s, const idxset *w, const idxset *rd, int nrd)
{
    size_t n = (size_t)(w->rows * w->cols), k = 0;
    wpos *v = malloc(n * sizeof *v);
    if (!v)
        return otpu_fail(s, OTPU_ERR_NOMEM, "VOP: no memory for the hazard check");
    for (uint64_t r = 0; r < w->rows; r++)
        for (uint64_t c = 0; c < w->cols; c++)
            v[k++] = (wpos){at(w, r, c), r * w->cols + c};
    qsort(v, n, sizeof *v, by_addr_then_pos);
    int rc = 0;
    for (int j = 0; j < nrd && !rc; j++)
        for (uint64_t r = 0; r < rd[j].rows && !rc; r++)
            for (uint64_t c = 0; c < rd[j].cols && !rc; c++) {
                uint64_t y = at(&rd[j], r, c);
                size_t lo = 0, hi = n; /* the first write of y: the lowest position */
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (v[mid].addr < y)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                if (lo < n && v[lo].addr == y && v[lo].pos < r * rd[j].cols + c)
                    rc = hazard_at(s, y);
            }
    free(v);
    return rc;
}

/* Writes w (row-end positions if rowend: a reduction writes after reading its whole row of
 * `cols` reads); reads rd[0..nrd) at positions r*cols + c. Raises the hazard the reference
 * names: the first read, in read order, of an address an earlier element wrote. */
static int hazard(otpu_slice *s, const idxset *w, int rowend, uint64_t cols, const idxset *rd,
                  int nrd)
{
    uint64_t W = s->cfg->TMEM_WORDS;
    int overlap = 0, beyond = 0;
    for (int k = 0; k < nrd; k++)
        if (rd[k].rows && rd[k].cols && !(last(&rd[k]) < w->base || last(w) < rd[k].base)) {
            overlap = 1;
            beyond |= last(&rd[k]) >= W;
        }
    if (!overlap || !w->rows || !w->cols)
        return 0;
    if (beyond && last(w) >= W && !rowend)
        return hazard_sparse(s, w, rd, nrd);
    if (otpu_stamp_begin(s))
        return -1;
    for (uint64_t r = 0; r < w->rows; r++)
        for (uint64_t c = 0; c < w->cols; c++) {
            uint64_t x = at(w, r, c);
            if (x < W && s->hz[x].stamp != s->hz_gen) {
                s->hz[x].stamp = s->hz_gen;
                s->hz[x].pos = (uint32_t)(rowend ? (r + 1) * cols - 1 : r * w->cols + c);
            }
        }
    /* addresses beyond TMEM are neither stamped nor looked up: with no read beyond TMEM
     * (the others were bounds-checked before) no write there can be read */
    for (int k = 0; k < nrd; k++)
        for (uint64_t r = 0; r < rd[k].rows; r++)
            for (uint64_t c = 0; c < rd[k].cols; c++) {
                uint64_t y = at(&rd[k], r, c);
                if (y < W && s->hz[y].stamp == s->hz_gen && s->hz[y].pos < r * rd[k].cols + c)
                    return hazard_at(s, y);
            }
    return 0;
}

static int is_elementwise(unsigned f)
{
    return otpu_vfunc_is_binary(f) || f == OTPU_V_COPY || f == OTPU_V_EXP2 || f == OTPU_V_RECIP ||
           f == OTPU_V_RSQRT || f == OTPU_V_ABS || f == OTPU_V_LOG2;
}

uint32_t otpu_vop_elementwise(const otpu_f32_fns *fp, unsigned f, uint32_t a, uint32_t b)
{
    switch (f) {
    case OTPU_V_ADD: return otpu_f32_add(a, b);
    case OTPU_V_SUB: return otpu_f32_sub(a, b);
    case OTPU_V_RSUB: return otpu_f32_sub(b, a);
    case OTPU_V_MUL: return otpu_f32_mul(a, b);
    case OTPU_V_MAX: return fp->max(a, b);
    case OTPU_V_MIN: return fp->min(a, b);
    case OTPU_V_COPY: return fp->ftz(a);
    case OTPU_V_EXP2: return fp->exp2(a);
    case OTPU_V_RECIP: return fp->recip(a);
    case OTPU_V_RSQRT: return fp->rsqrt(a);
    case OTPU_V_ABS: return fp->abs(a);
    case OTPU_V_FILL: return fp->ftz(b);
    case OTPU_V_EXP2SUB: return fp->exp2(otpu_f32_sub(a, b));
    default: return fp->log2(a); /* OTPU_V_LOG2 (a revision without it lacks the function) */
    }
}

/* dst = dst * Dv(c) + B(r) * Cv(c): Cv and Dv are read before anything is written. */
static int outer(otpu_slice *s, const otpu_vop_ops *v)
{
    uint64_t dst = v->dst.value, dv = v->a.value, b = v->b.value, cv = v->imm.value;
    uint32_t rows = v->rows, cols = v->cols, drs = v->drs, brs = v->brs, bmode = v->bmode;
    if (bmode != OTPU_B_ROW || cols > OTPU_OUTER_MAX_COLS)
        return otpu_fail(s, OTPU_ERR_ILLEGAL,
                         "VOP OUTER: bmode must be ROW and cols <= 256 (bmode %u, cols %u)",
                         bmode, cols);
    int done = v->done, dscalar = v->dscalar;
    if (otpu_bounds_tmem(s, cv, 1, 0, cols, 1))
        return -1;
    if (!done && otpu_bounds_tmem(s, dv, 1, 0, cols, dscalar ? 0 : 1))
        return -1;
    idxset d = {dst, rows, drs, cols, 1}, bb = {b, rows, brs, cols, 0};
    idxset reads[2] = {d, bb};
    if (hazard(s, &d, 0, cols, reads, 2) || check(s, &d) || check(s, &bb))
        return -1;
    uint32_t C[OTPU_OUTER_MAX_COLS], Dv[OTPU_OUTER_MAX_COLS];
    for (uint32_t c = 0; c < cols; c++) {
        C[c] = s->tmem[cv + c];
        Dv[c] = done ? OTPU_F32_ONE : s->tmem[dv + (dscalar ? 0 : c)];
    }
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            uint64_t x = at(&d, r, c);
            uint32_t y = otpu_f32_add(otpu_f32_mul(s->tmem[x], Dv[c]),
                                      otpu_f32_mul(s->tmem[b + (uint64_t)r * brs], C[c]));
            otpu_tmem_put(s, x, y);
        }
    return 0;
}

int otpu_exec_vop(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    const otpu_vop_ops *v = &o->vop;
    uint64_t dst = v->dst.value, a = v->a.value, b = v->b.value;
    uint32_t rows = v->rows, cols = v->cols, drs = v->drs, ars = v->ars, brs = v->brs;
    uint32_t func = v->func, bmode = v->bmode, imm = v->imm.value;
    if (func == OTPU_V_OUTER)
        return outer(s, v);

    idxset A = {a, rows, ars, cols, 1}, B = {b, rows, 0, cols, 0};
    int reads_a = func != OTPU_V_FILL;
    int reads_b = (otpu_vfunc_is_binary(func) || func == OTPU_V_RDOT) && bmode != OTPU_B_SCALAR;
    if (bmode == OTPU_B_FULL)
        B = (idxset){b, rows, brs, cols, 1};
    else if (bmode == OTPU_B_ROW)
        B = (idxset){b, rows, brs, cols, 0};
    else if (bmode == OTPU_B_COL)
        B = (idxset){b, rows, 0, cols, 1};
    if ((reads_a && check(s, &A)) || (reads_b && check(s, &B)))
        return -1;
    /* B(r, c) as a pointer and a column stride */
#define BPTR(r)                                                                                    \
    (bmode == OTPU_B_SCALAR ? &imm : s->tmem + b + (bmode == OTPU_B_COL ? 0 : (uint64_t)(r)*brs))
    size_t bstride = (bmode == OTPU_B_FULL || bmode == OTPU_B_COL) ? 1 : 0;

    if (func == OTPU_V_ARGMAX) {
        if (rows > 1 && drs < 2)
            return otpu_fail(s, OTPU_ERR_ILLEGAL,
                             "VOP ARGMAX: rows > 1 needs drs >= 2 (a pair per row; drs %u)", drs);
        if (!cols)
            return otpu_fail(s, OTPU_ERR_BOUNDS, "VOP ARGMAX: cols must be at least 1");
        idxset D = {dst, rows, drs, 2, 1};
        if (hazard(s, &D, 1, cols, &A, 1) || check(s, &D))
            return -1;
        int32_t base = (int32_t)imm;
        for (uint32_t r = 0; r < rows; r++) {
            const uint32_t *row = s->tmem + at(&A, r, 0);
            size_t c = otpu_argmax(s->fp->key, row, cols);
            uint32_t m = s->fp->ftz(row[c]), ix = otpu_f32_i2f((int64_t)c + base);
            otpu_tmem_put(s, at(&D, r, 0), m);
            otpu_tmem_put(s, at(&D, r, 1), ix);
        }
        return 0;
    }
    if (func == OTPU_V_RSUM || func == OTPU_V_RMAX || func == OTPU_V_RSSQ ||
        func == OTPU_V_RDOT) {
        idxset D = {dst, rows, drs, 1, 1};
        idxset reads[2] = {A, B};
        if (hazard(s, &D, 1, cols, reads, reads_b ? 2 : 1))
            return -1;
        if (func == OTPU_V_RMAX && !cols)
            return otpu_fail(s, OTPU_ERR_BOUNDS, "VOP RMAX: cols must be at least 1");
        if (check(s, &D))
            return -1;
        uint32_t *tmp = otpu_scratch(s, cols);
        if (!tmp && cols)
            return -1;
        for (uint32_t r = 0; r < rows; r++) {
            const uint32_t *row = s->tmem + at(&A, r, 0);
            uint32_t y;
            if (func == OTPU_V_RSUM)
                y = otpu_f32_isum(row, cols, 1, OTPU_RED_PARTIALS, 1);
            else if (func == OTPU_V_RMAX)
                y = s->fp->ftz(row[otpu_argmax(s->fp->key, row, cols)]);
            else if (func == OTPU_V_RSSQ)
                y = otpu_rdot(row, row, 1, cols, tmp);
            else
                y = otpu_rdot(row, BPTR(r), bstride, cols, tmp);
            otpu_tmem_put(s, at(&D, r, 0), y);
        }
        return 0;
    }
    idxset D = {dst, rows, drs, cols, 1};
    idxset reads[2];
    int nrd = 0;
    if (reads_a)
        reads[nrd++] = A;
    if (reads_b)
        reads[nrd++] = B;
    if (hazard(s, &D, 0, cols, reads, nrd))
        return -1;
    if (!is_elementwise(func))
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "VOP: bad func %u", func);
    if (check(s, &D))
        return -1;
    int uses_b = reads_b || bmode == OTPU_B_SCALAR;
    for (uint32_t r = 0; r < rows; r++) {
        const uint32_t *bp = uses_b ? BPTR(r) : &imm;
        for (uint32_t c = 0; c < cols; c++) {
            uint32_t av = reads_a ? s->tmem[at(&A, r, c)] : 0;
            uint32_t bv = uses_b ? bp[c * bstride] : 0;
            otpu_tmem_put(s, at(&D, r, c), otpu_vop_elementwise(s->fp, func, av, bv));
        }
    }
#undef BPTR
    return 0;
}
