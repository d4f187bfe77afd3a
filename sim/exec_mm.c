/* exec_mm.c - MM on the MXU (openTPU docs/isa.md "MM", "Weight formats", "Column reuse").
 *
 * Block products are exact integers (int8 x int8, or 4-bit codes times their sub-block
 * multipliers), then i2f, the weight scale and the ACT scale as rounded fp32 products, then
 * isum_4 over the K blocks. The reference pads that sum with +0 terms to a multiple of 4
 * (isasim.py calls fp32.interleaved_sum with its default pad), and so does this. */
#include "dot.h"
#include "fp32.h"
#include "slice.h"
#include "vecops.h"

/* the ACT rows an MM reads: M, or 2 M with PAIR */
static uint32_t rows_read(const otpu_mm_ops *a)
{
    return a->pair ? 2 * a->M : a->M;
}

static int mm_check(otpu_slice *s, const otpu_mm_ops *a)
{
    const otpu_config *cfg = s->cfg;
    uint32_t R = rows_read(a);
    uint32_t D = cfg->D;
    if (!(R > 0 && R <= otpu_config_act_rows(cfg)) || a->ab + a->KB > cfg->ACT_BLOCKS)
        return otpu_fail(
            s, OTPU_ERR_BOUNDS,
            "MM: M or ACT RAM range out of bounds (%u rows of %u, blocks %u..%u of %u)", R,
            otpu_config_act_rows(cfg), a->ab, a->ab + a->KB, cfg->ACT_BLOCKS);
    if (a->M > cfg->MCOLS && (a->rmax || a->ascale))
        return otpu_fail(s, OTPU_ERR_BOUNDS, "MM: RMAX and ASCALE need M <= MCOLS (M %u, MCOLS %u)",
                         a->M, cfg->MCOLS);
    if (a->pair && R > cfg->MCOLS)
        return otpu_fail(s, OTPU_ERR_BOUNDS, "MM: PAIR needs 2*M <= MCOLS (M %u, MCOLS %u)", a->M,
                         cfg->MCOLS);
    if (a->wf == 3)
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "MM: bad weight format 3");
    if (a->pair && a->wf == OTPU_WF_INT8)
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "MM: PAIR needs 4-bit weights");
    if (a->pair && !a->unit && (a->ssa.value % 8 || a->srs % 8))
        return otpu_fail(s, OTPU_ERR_BOUNDS,
                         "MM: PAIR reads a chunk's two scale words at once: ssa and srs must be "
                         "multiples of 8 (ssa %#llx, srs %u)",
                         (unsigned long long)a->ssa.value, a->srs);
    uint64_t bpb = a->wf == OTPU_WF_INT8 ? D : D / 2;
    __int128 end = (__int128)a->sa.value + ((__int128)a->N - 1) * a->rs +
                   (__int128)((a->KB * bpb + D - 1) / D) * D;
    if (a->sa.value % D || a->rs % D || end > (__int128)cfg->DRAM_BYTES)
        return otpu_fail_at(s, OTPU_ERR_BOUNDS, a->sa.value,
                            "MM: streamed rows must be D-byte aligned and in range (sa %#llx, rs "
                            "%u, N %u, KB %u)",
                            (unsigned long long)a->sa.value, a->rs, a->N, a->KB);
    if (!a->unit && otpu_bounds_dram_words(s, a->ssa.value, a->N, a->srs, a->KB, 4))
        return -1;
    if (a->ascale && !(a->unit && a->acc))
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "MM: ASCALE needs UNIT and ACC");
    if (a->ascale && otpu_bounds_tmem(s, a->ssa.value, 1, 0, a->M, 1))
        return -1;
    if (otpu_bounds_tmem(s, a->out.value, a->M, a->ors, a->N, 1))
        return -1;
    if (a->rmax && !a->N)
        return otpu_fail(s, OTPU_ERR_BOUNDS, "MM: RMAX needs N >= 1");
    return 0;
}

/* t[r * KB + k] for ACT rows r < R and blocks k of streamed row n (only the (r, k) pairs a
 * PAIR MM uses when pair is set). iblk: scratch for R * KB int8 block products. */
static void block_terms(otpu_slice *s, const otpu_mm_ops *a, uint32_t n, uint32_t *t, int8_t *wdec,
                        int32_t *isum, int32_t *iblk)
{
    uint32_t R = rows_read(a);
    const otpu_config *cfg = s->cfg;
    uint32_t D = cfg->D, sub = D / OTPU_NSUB;
    const int8_t *actbase = s->act + (size_t)a->ab * D;
    /* int8: every block of the streamed row against every row in one call (a streamed row's
     * KB * D bytes are contiguous, and so are a row's KB blocks in ACT RAM) */
    if (a->wf == OTPU_WF_INT8)
        otpu_dot_i8_blocks(actbase, s->act_row, R,
                           (const int8_t *)s->dram + a->sa.value + (uint64_t)n * a->rs, D, a->KB,
                           iblk);
    for (uint32_t k = 0; k < a->KB; k++) {
        uint32_t ws = OTPU_F32_ONE, sw = 0;
        if (!a->unit)
            sw = otpu_m32(s, a->ssa.value + (uint64_t)n * a->srs + 4 * (uint64_t)k);
        /* the rows this block is computed for: all, or with PAIR the even/odd half */
        uint32_t r0 = 0, r1 = R;
        if (a->pair) {
            r0 = (k & 1) ? a->M : 0;
            r1 = r0 + a->M;
        }
        const int8_t *act = actbase + (size_t)k * D;
        if (a->wf == OTPU_WF_INT8) {
            if (!a->unit)
                ws = sw;
            for (uint32_t r = r0; r < r1; r++)
                isum[r - r0] = iblk[(size_t)r * a->KB + k];
        } else {
            const uint8_t *p = s->dram + a->sa.value + (uint64_t)n * a->rs + (uint64_t)k * (D / 2);
            const int8_t *dec = a->wf == OTPU_WF_INT4 ? otpu_dec_int4 : otpu_dec_fp4;
            for (uint32_t i = 0; i < D / 2; i++) {
                wdec[2 * i] = dec[p[i] & 15];
                wdec[2 * i + 1] = dec[p[i] >> 4];
            }
            uint32_t mb[OTPU_NSUB] = {1, 1, 1, 1};
            if (!a->unit) {
                ws = otpu_f32_ftz(sw << 16); /* bf16 block scale */
                for (int b = 0; b < OTPU_NSUB; b++)
                    mb[b] = (sw >> (16 + 4 * b)) & 15;
            }
            for (uint32_t r = r0; r < r1; r++) {
                const int8_t *ar = act + (size_t)r * s->act_row;
                int64_t acc = 0;
                for (int b = 0; b < OTPU_NSUB; b++)
                    acc += (int64_t)mb[b] * otpu_dot_i8(ar + b * sub, wdec + b * sub, sub);
                isum[r - r0] = (int32_t)acc;
            }
        }
        for (uint32_t r = r0; r < r1; r++) {
            uint32_t v = otpu_f32_mul_inline(otpu_f32_i2f32_inline(isum[r - r0]), ws);
            t[(size_t)r * a->KB + k] =
                otpu_f32_mul_inline(v, s->ascale[(size_t)r * cfg->ACT_BLOCKS + a->ab + k]);
        }
    }
}

enum { MM_PREFETCH = 8 }; /* streamed rows ahead */

static void prefetch(const uint8_t *p, uint64_t len)
{
#if defined(__GNUC__) || defined(__clang__)
    for (uint64_t i = 0; i < len; i += 64)
        __builtin_prefetch(p + i);
#else
    (void)p, (void)len;
#endif
}

int otpu_exec_mm(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    const otpu_mm_ops *a = &o->mm;
    uint32_t R = rows_read(a);
    if (mm_check(s, a))
        return -1;
    uint32_t D = s->cfg->D;
    size_t nt = (size_t)R * a->KB, ny = (size_t)a->M * a->N;
    size_t nchunks = a->pair ? (a->KB + 1) / 2 : a->KB;
    /* scratch: t [R*KB], y [M*N], decoded weights [D bytes], isum [R], pair sums [chunks],
     * int8 block products [R*KB] */
    uint32_t *t = otpu_scratch(s, nt + ny + D / 4 + R + nchunks + 1 + nt);
    if (!t)
        return -1;
    uint32_t *y = t + nt;
    int8_t *wdec = (int8_t *)(y + ny);
    int32_t *isum = (int32_t *)(y + ny + D / 4);
    uint32_t *p = (uint32_t *)isum + R;
    int32_t *iblk = (int32_t *)(p + nchunks + 1);
    uint64_t rowbytes = a->wf == OTPU_WF_INT8 ? (uint64_t)a->KB * D : (uint64_t)a->KB * D / 2;
    for (uint32_t n = 0; n < a->N; n++) {
        /* a strided weight row is fetched ahead by hand: the hardware prefetchers follow a
         * contiguous stream, not rows a stride apart */
        if (n + MM_PREFETCH < a->N && a->rs != rowbytes)
            prefetch(s->dram + a->sa.value + (uint64_t)(n + MM_PREFETCH) * a->rs, rowbytes);
        block_terms(s, a, n, t, wdec, isum, iblk);
        for (uint32_t j = 0; j < a->M; j++) {
            const uint32_t *tj = t + (size_t)j * a->KB;
            if (a->pair) {
                const uint32_t *to = t + (size_t)(j + a->M) * a->KB;
                for (size_t c = 0; c < nchunks; c++)
                    p[c] = otpu_f32_add_inline(tj[2 * c], 2 * c + 1 < a->KB ? to[2 * c + 1] : 0);
                tj = p;
            }
            y[(size_t)j * a->N + n] = otpu_f32_isum_inline(tj, nchunks, 1, OTPU_MM_PARTIALS, 1);
        }
    }
    /* every old accumulator is read before any result is written */
    if (a->ascale || a->acc)
        for (uint32_t j = 0; j < a->M; j++) {
            uint32_t alpha = a->ascale ? s->tmem[a->ssa.value + j] : 0;
            for (uint32_t n = 0; n < a->N; n++) {
                uint32_t old = s->tmem[a->out.value + (uint64_t)j * a->ors + n],
                         *yy = &y[(size_t)j * a->N + n];
                *yy = otpu_f32_add_inline(a->ascale ? otpu_f32_mul_inline(old, alpha) : old, *yy);
            }
        }
    for (uint32_t j = 0; j < a->M; j++)
        for (uint32_t n = 0; n < a->N; n++)
            otpu_tmem_put(s, a->out.value + (uint64_t)j * a->ors + n, y[(size_t)j * a->N + n]);
    /* the reference checks the RMAX words only after writing the outputs */
    if (a->rmax && otpu_bounds_tmem(s, a->out.value + (uint64_t)a->M * a->ors, 1, 0, a->M, 1))
        return -1;
    if (a->rmax)
        for (uint32_t j = 0; j < a->M; j++) {
            const uint32_t *row = y + (size_t)j * a->N;
            uint32_t best = s->fp->ftz(row[otpu_argmax(s->fp->key, row, a->N)]);
            otpu_tmem_put(s, a->out.value + (uint64_t)a->M * a->ors + j, best);
        }
    return 0;
}
