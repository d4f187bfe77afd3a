/* exec_quant.c - the quantizer's instructions: QACT (TMEM rows -> ACT RAM) and QST (TMEM rows
 * -> DRAM bytes and scales). */
#include "fp32.h"
#include "quant.h"
#include "slice.h"

/* Read row r of the source (with QACT's per-row and per-column factors) into x and quantize
 * it: per block of D, or the whole row in row mode. s[k] receives block k's scale. */
static void quant_row(otpu_slice *s, uint64_t src, uint32_t srs, uint32_t r, uint32_t KB,
                      int row_mode, int64_t cscale, int64_t rscale, uint32_t *x, int8_t *q,
                      uint32_t *sc)
{
    uint32_t D = s->cfg->D;
    size_t n = (size_t)KB * D;
    const uint32_t *t = s->tmem + src + (uint64_t)r * srs;
    for (size_t c = 0; c < n; c++) {
        uint32_t v = t[c];
        if (rscale >= 0)
            v = otpu_f32_mul(v, s->tmem[rscale + r]);
        if (cscale >= 0)
            v = otpu_f32_mul(v, s->tmem[cscale + c]);
        x[c] = v;
    }
    if (row_mode) {
        uint32_t one = otpu_quantize_group(s->fp, x, n, q);
        for (uint32_t k = 0; k < KB; k++)
            sc[k] = one;
    } else {
        for (uint32_t k = 0; k < KB; k++)
            sc[k] = otpu_quantize_group(s->fp, x + (size_t)k * D, D, q + (size_t)k * D);
    }
}

int otpu_exec_qact(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    const otpu_config *cfg = s->cfg;
    const otpu_qact_ops *a = &o->qact;
    uint64_t src = a->src.value;
    uint32_t rows = a->rows, ab = a->ab, KB = a->KB, srs = a->srs;
    int dup = a->dup;
    uint32_t act_rows = otpu_config_act_rows(cfg);
    /* DUP's copy is row r + rows. The reference raises when the copies do not fit the ACT RAM,
     * except for one row in a one-row ACT RAM: there its copy is dropped (numpy broadcasts the
     * row into an empty slice). */
    if ((dup ? 2 * rows > cfg->MCOLS || (rows > 1 && 2 * rows > act_rows) : rows > act_rows) ||
        ab + KB > cfg->ACT_BLOCKS)
        return otpu_fail(s, OTPU_ERR_BOUNDS,
                         "QACT out of ACT RAM bounds (rows %u%s; ACT RAM rows %u, MCOLS %u; "
                         "blocks %u..%u of %u)",
                         rows, dup ? " DUP" : "", act_rows, cfg->MCOLS, ab, ab + KB,
                         cfg->ACT_BLOCKS);
    int64_t cs = a->has_cscale ? (int64_t)a->cscale : -1;
    int64_t rsc = a->has_rscale ? (int64_t)a->rscale : -1;
    size_t n = (size_t)KB * cfg->D;
    if (otpu_bounds_tmem(s, src, rows, srs, n, 1) ||
        (rsc >= 0 && otpu_bounds_tmem(s, (uint64_t)rsc, 1, 0, rows, 1)) ||
        (cs >= 0 && otpu_bounds_tmem(s, (uint64_t)cs, 1, 0, n, 1)))
        return -1;
    uint32_t *x = otpu_scratch(s, 2 * n + KB + 1);
    if (!x)
        return -1;
    int8_t *q = (int8_t *)(x + n);
    uint32_t *sc = x + 2 * n;
    for (uint32_t r = 0; r < rows; r++) {
        quant_row(s, src, srs, r, KB, a->row, cs, rsc, x, q, sc);
        for (uint32_t r0 = 0; r0 <= (dup ? rows : 0) && r0 + r < act_rows;
             r0 += rows ? rows : 1) {
            for (size_t c = 0; c < n; c++)
                otpu_act_put(s, r0 + r, (uint64_t)ab * cfg->D + c, q[c]);
            for (uint32_t k = 0; k < KB; k++)
                otpu_ascale_put(s, r0 + r, ab + k, sc[k]);
        }
    }
    return 0;
}

/* strict mode: no data byte of a QST lands in one of its scale words (the ISA: the data and
 * scale ranges must not overlap; the scales are contiguous, so per row the first data byte at
 * or above them decides). Called after the data range was checked. */
static int qst_strict(otpu_slice *s, const otpu_qst_ops *a, uint64_t ne)
{
    uint64_t lo = a->sdst.value, hi = lo + 4 * (uint64_t)a->rows * (a->row ? 1 : a->KB);
    for (uint64_t r = 0; r < a->rows && ne && lo < hi; r++) {
        uint64_t base = a->dst.value + r * a->drs, es = a->es, c;
        if (base >= lo)
            c = 0;
        else if (!es)
            continue; /* every byte of the row at base, below the scales */
        else
            c = (lo - base + es - 1) / es;
        if (c < ne && base + c * es < hi)
            return otpu_fail_at(s, OTPU_ERR_RULE, base + c * es,
                                "QST: data byte %#llx (row %llu, element %llu) lies in its scale "
                                "words [%#llx, %#llx) (the ISA: data and scale ranges must not "
                                "overlap; strict mode)",
                                (unsigned long long)(base + c * es), (unsigned long long)r,
                                (unsigned long long)c, (unsigned long long)lo,
                                (unsigned long long)hi);
    }
    return 0;
}

int otpu_exec_qst(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    const otpu_config *cfg = s->cfg;
    const otpu_qst_ops *a = &o->qst;
    uint64_t src = a->src.value, dst = a->dst.value, sdst = a->sdst.value;
    uint32_t rows = a->rows, KB = a->KB, srs = a->srs, drs = a->drs, es = a->es;
    int row_mode = a->row, half = a->half;
    if (half && !row_mode)
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "QST: HALF needs ROW mode");
    size_t n = (size_t)KB * cfg->D, ne = half ? n / 2 : n;
    if (row_mode && rows && !KB)
        return otpu_fail(s, OTPU_ERR_BOUNDS, "QST: ROW mode needs KB >= 1 (a row to scale)");
    if (otpu_bounds_tmem(s, src, rows, srs, n, 1))
        return -1;
    if (rows && ne) {
        unsigned __int128 top = (unsigned __int128)dst + (unsigned __int128)(rows - 1) * drs +
                                (unsigned __int128)(ne - 1) * es;
        if (top >= cfg->DRAM_BYTES)
            return otpu_fail_at(s, OTPU_ERR_BOUNDS, (uint64_t)(top > UINT64_MAX ? UINT64_MAX : top),
                                "QST: byte address out of range (DRAM_BYTES %#llx)",
                                (unsigned long long)cfg->DRAM_BYTES);
    }
    if ((s->strict & OTPU_STRICT_QST) && qst_strict(s, a, ne))
        return -1;
    uint32_t *x = otpu_scratch(s, 2 * n + (size_t)rows * KB + 1);
    if (!x)
        return -1;
    int8_t *q = (int8_t *)(x + n);
    uint32_t *sc = x + 2 * n;
    for (uint32_t r = 0; r < rows; r++) {
        quant_row(s, src, srs, r, KB, row_mode, -1, -1, x, q, sc + (size_t)r * KB);
        for (size_t c = 0; c < ne; c++)
            otpu_m8_put(s, dst + (uint64_t)r * drs + c * (uint64_t)es, (uint8_t)q[c]);
    }
    if (row_mode) {
        if (otpu_bounds_dram_words(s, sdst, 1, 0, rows, 4))
            return -1;
        for (uint32_t r = 0; r < rows; r++)
            otpu_m32_put(s, sdst + 4 * (uint64_t)r, sc[(size_t)r * KB]);
    } else {
        if (otpu_bounds_dram_words(s, sdst, rows, 4 * (uint64_t)KB, KB, 4))
            return -1;
        for (size_t i = 0; i < (size_t)rows * KB; i++)
            otpu_m32_put(s, sdst + 4 * (uint64_t)i, sc[i]);
    }
    return 0;
}
