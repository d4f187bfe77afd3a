/* exec_stream.c - STREAM (openTPU docs/stream.md; opentpu/isasim.py is the judge where they
 * differ).
 *
 * A descriptor in TMEM programs a pass over the rows of a stream S [rows, cols] (DRAM or
 * TMEM): A = a row dot or the row max; a scalar program over r0..r7, A, X[r], K0..K3;
 * Y = S | S*G + D*B | S*G | S + D*B; O[r] = a dot of Y or a register; Y (or Y*C[q]) is
 * written back. The column slots, constants and row scalars are read before anything is
 * written. When the destination overlaps the source differently, rows run one at a time
 * (a later row reads what an earlier row wrote); otherwise all rows are read, then written. */
#include "fp32.h"
#include "slice.h"
#include "vecops.h"

typedef struct {
    otpu_stream_desc d;
    uint64_t src, dst, vec, xa, ka, out, ks;
    int in_t, out_t, zero, nodst, uses_g, uses_b;
    uint32_t srs, drs;        /* TMEM row strides (descriptor's, or cols) */
    unsigned slots, consts;   /* bitmasks of the slots / constants read */
    int reads_x, carried;
    uint32_t *C[OTPU_STREAM_SLOTS];
    uint32_t K[4], *X;
    uint32_t regs[8];
    const otpu_f32_fns *fp;   /* the revision's composites */
} stream;

static int is_unary(unsigned op)
{
    return op == OTPU_SC_MOV || op == OTPU_SC_RSQRT || op == OTPU_SC_RECIP ||
           op == OTPU_SC_EXP2 || op == OTPU_SC_LOG2;
}

/* One scalar op: the VOP function of the same name (a revision without log2 lacks STREAM). */
static uint32_t scalar_op(const otpu_f32_fns *fp, unsigned op, uint32_t x, uint32_t y)
{
    static const unsigned vfunc[] = {
        [OTPU_SC_ADD] = OTPU_V_ADD,     [OTPU_SC_SUB] = OTPU_V_SUB,
        [OTPU_SC_MUL] = OTPU_V_MUL,     [OTPU_SC_MAX] = OTPU_V_MAX,
        [OTPU_SC_MIN] = OTPU_V_MIN,     [OTPU_SC_MOV] = OTPU_V_COPY,
        [OTPU_SC_RSQRT] = OTPU_V_RSQRT, [OTPU_SC_RECIP] = OTPU_V_RECIP,
        [OTPU_SC_EXP2] = OTPU_V_EXP2,   [OTPU_SC_LOG2] = OTPU_V_LOG2,
        [OTPU_SC_EXP2SUB] = OTPU_V_EXP2SUB,
    };
    return otpu_vop_elementwise(fp, vfunc[op < sizeof vfunc / sizeof *vfunc ? op : OTPU_SC_EXP2SUB],
                                x, y);
}

static uint32_t operand(const stream *st, unsigned code, uint32_t A, uint32_t X)
{
    if (code < 8)
        return st->regs[code];
    if (code == OTPU_OPD_A)
        return A;
    if (code == OTPU_OPD_X)
        return X;
    if (code < OTPU_OPD_ZERO)
        return st->K[code - OTPU_OPD_K0];
    return code == OTPU_OPD_ZERO ? 0 : OTPU_F32_ONE;
}

/* Decode, check and read every input that precedes the rows (isasim's order of checks). */
static int setup(otpu_slice *s, const otpu_stream_ops *o, stream *st, uint32_t *buf)
{
    uint64_t TW = s->cfg->TMEM_WORDS, at = o->desc;
    st->fp = s->fp;
    st->ks = o->ks;
    size_t navail = at < TW ? (size_t)(TW - at) : 0;
    if (navail > OTPU_STREAM_DESC_FIXED + OTPU_STREAM_MAX_OPS)
        navail = OTPU_STREAM_DESC_FIXED + OTPU_STREAM_MAX_OPS;
    char why[160];
    if (navail < OTPU_STREAM_DESC_FIXED)
        return otpu_fail_at(s, OTPU_ERR_BOUNDS, at,
                            "STREAM: descriptor at TMEM %llu runs past the end of TMEM",
                            (unsigned long long)at);
    if (otpu_stream_desc_decode(s->tmem + at, navail, &st->d, why, sizeof why))
        return otpu_fail_at(s, OTPU_ERR_ILLEGAL, at, "STREAM: %s", why);
    const otpu_stream_desc *d = &st->d;
    st->src = o->src.value;
    st->dst = o->dst.value;
    st->vec = o->vec.value;
    st->xa = o->x.value;
    st->ka = o->k.value;
    st->out = o->out;
    if (!d->rows || !d->cols)
        return otpu_fail(s, OTPU_ERR_BOUNDS, "STREAM: rows and cols must be nonzero");
    if (d->q_en && d->o_reg_en)
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "STREAM: O is either Q's dot or a register");
    for (unsigned k = 0; k < d->nops; k++)
        if (d->ops[k][0] > OTPU_SC_EXP2SUB)
            return otpu_fail(s, OTPU_ERR_ILLEGAL, "STREAM: bad scalar op %u", d->ops[k][0]);
    st->uses_g = d->u_mode == OTPU_U_FMMA || d->u_mode == OTPU_U_MUL;
    st->uses_b = d->u_mode == OTPU_U_FMMA || d->u_mode == OTPU_U_ADD;
    st->consts = d->rinit;
    unsigned written_by_ops = 0, written = 0;
    for (unsigned k = 0; k < d->nops; k++)
        written_by_ops |= 1u << d->ops[k][1];
    for (unsigned k = 0; k < d->nops; k++) {
        unsigned n = is_unary(d->ops[k][0]) ? 1 : 2;
        for (unsigned i = 0; i < n; i++) {
            unsigned c = d->ops[k][2 + i];
            if (c >= OTPU_OPD_K0 && c < OTPU_OPD_K0 + 4)
                st->consts |= 1u << (c - OTPU_OPD_K0);
            if (c == OTPU_OPD_X)
                st->reads_x = 1;
            /* a register read before this row's program writes it, that some op writes */
            if (c < 8 && !(written >> c & 1) && (written_by_ops >> c & 1))
                st->carried = 1;
        }
        written |= 1u << d->ops[k][1];
    }
    const struct {
        int on;
        unsigned src, idx, slot, cnst;
    } users[3] = {
        {d->a_en, d->a_op, d->a_idx, OTPU_A_SLOT, OTPU_A_CONST},
        {st->uses_g, d->g_src, d->g_idx, OTPU_G_SLOT, OTPU_G_CONST},
        {st->uses_b, d->b_src, d->b_idx, OTPU_BS_SLOT, OTPU_BS_CONST},
    };
    for (int u = 0; u < 3; u++)
        if (users[u].on && (users[u].src == users[u].slot || users[u].src == users[u].cnst)) {
            if (users[u].idx >= OTPU_STREAM_SLOTS)
                return otpu_fail(s, OTPU_ERR_BOUNDS,
                                 "STREAM: slot or constant index out of range (%u)", users[u].idx);
            if (users[u].src == users[u].slot)
                st->slots |= 1u << users[u].idx;
            else
                st->consts |= 1u << users[u].idx;
        }
    if ((d->q_en && !d->q_self) || d->out_p2)
        st->slots |= 1u << d->q_idx;
    /* the inputs, before anything is written */
    for (unsigned i = 0; i < OTPU_STREAM_SLOTS; i++)
        if (st->slots >> i & 1) {
            uint64_t base = st->vec + (uint64_t)i * d->cols;
            if (otpu_bounds_tmem(s, base, 1, 0, d->cols, 1))
                return -1;
            st->C[i] = buf + (size_t)i * d->cols;
            memcpy(st->C[i], s->tmem + base, d->cols * sizeof(uint32_t));
        }
    for (unsigned j = 0; j < 4; j++)
        if (st->consts >> j & 1) {
            uint64_t a = st->ka + (uint64_t)j * st->ks;
            if (otpu_bounds_tmem(s, a, 1, 0, 1, 1))
                return -1;
            st->K[j] = s->tmem[a];
        }
    if (st->reads_x) {
        if (otpu_bounds_tmem(s, st->xa, 1, 0, d->rows, 1))
            return -1;
        st->X = buf + (size_t)OTPU_STREAM_SLOTS * d->cols;
        memcpy(st->X, s->tmem + st->xa, d->rows * sizeof(uint32_t));
    }
    uint32_t D = s->cfg->D;
    st->in_t = !!o->src_t;
    st->out_t = !!o->dst_t;
    st->zero = !!o->zero;
    st->nodst = !!o->nodst;
    st->srs = d->srs ? d->srs : d->cols;
    st->drs = d->drs ? d->drs : d->cols;
    if ((!st->in_t && !st->zero && st->src % D) || (!st->out_t && !st->nodst && st->dst % D))
        return otpu_fail(s, OTPU_ERR_BOUNDS, "STREAM: a DRAM stream must be DRAM-chunk aligned");
    uint64_t n = (uint64_t)d->rows * d->cols;
    if (!st->in_t && !st->zero && otpu_bounds_dram_words(s, st->src, 1, 0, n, 4))
        return -1;
    if (!st->out_t && !st->nodst && otpu_bounds_dram_words(s, st->dst, 1, 0, n, 4))
        return -1;
    if (st->uses_b && d->b_src > OTPU_BS_REG)
        return otpu_fail(s, OTPU_ERR_ILLEGAL, "STREAM: bad B source %u", d->b_src);
    for (unsigned j = 0; j < 4; j++)
        if (d->rinit >> j & 1)
            st->regs[4 + j] = st->K[j];
    return 0;
}

/* Do the source and destination index sets share an element without being the same set? */
static int rows_chain(otpu_slice *s, const stream *st, int *seq)
{
    const otpu_stream_desc *d = &st->d;
    *seq = 0;
    if (st->in_t != st->out_t || st->zero || st->nodst)
        return 0;
    uint64_t R = d->rows, Cn = d->cols;
    if (!st->in_t) { /* DRAM: both are contiguous runs of rows*cols words */
        uint64_t len = 4 * R * Cn;
        *seq = st->src != st->dst && st->src < st->dst + len && st->dst < st->src + len;
        return 0;
    }
    if (st->src == st->dst && (R == 1 || st->srs == st->drs))
        return 0;
    uint64_t slast = st->src + (R - 1) * st->srs + Cn - 1,
             dlast = st->dst + (R - 1) * st->drs + Cn - 1;
    if (slast < st->dst || dlast < st->src)
        return 0;
    if (otpu_stamp_begin(s))
        return -1;
    uint64_t W = s->cfg->TMEM_WORDS;
    for (uint64_t r = 0; r < R; r++)
        for (uint64_t c = 0; c < Cn; c++) {
            uint64_t x = st->src + r * st->srs + c;
            if (x < W)
                s->hz[x].stamp = s->hz_gen;
        }
    for (uint64_t r = 0; r < R && !*seq; r++)
        for (uint64_t c = 0; c < Cn; c++) {
            uint64_t y = st->dst + r * st->drs + c;
            if (y < W && s->hz[y].stamp == s->hz_gen) {
                *seq = 1;
                break;
            }
        }
    return 0;
}

/* One row: S (cols words) becomes Y in place; returns O. */
static uint32_t row(stream *st, uint32_t r, uint32_t *S, uint32_t *tmp)
{
    const otpu_stream_desc *d = &st->d;
    uint32_t cols = d->cols, one = OTPU_F32_ONE;
    uint32_t A = 0;
    if (d->a_en) {
        if (d->a_op == OTPU_A_MAX)
            A = st->fp->ftz(S[otpu_argmax(st->fp->key, S, cols)]);
        else if (d->a_op == OTPU_A_SLOT)
            A = otpu_rdot(S, st->C[d->a_idx], 1, cols, tmp);
        else if (d->a_op == OTPU_A_SELF)
            A = otpu_rdot(S, S, 1, cols, tmp);
        else
            A = otpu_rdot(S, &st->K[d->a_idx], 0, cols, tmp);
    }
    uint32_t X = st->X ? st->X[r] : 0;
    for (unsigned k = 0; k < d->nops; k++) {
        const uint8_t *op = d->ops[k];
        st->regs[op[1]] = scalar_op(st->fp, op[0], operand(st, op[2], A, X),
                                    is_unary(op[0]) ? 0 : operand(st, op[3], A, X));
    }
    uint32_t Dv = st->regs[d->d_reg], Gr = st->regs[d->g_idx & 7], Br = st->regs[d->b_idx & 7];
    const uint32_t *G = &one, *B = &Br;
    size_t gs = 0, bs = 0;
    /* (only the operands the update mode reads: the others' indexes were not checked) */
    if (st->uses_g && d->g_src == OTPU_G_REG)
        G = &Gr;
    else if (st->uses_g && d->g_src == OTPU_G_SLOT)
        G = st->C[d->g_idx], gs = 1;
    else if (st->uses_g && d->g_src == OTPU_G_CONST)
        G = &st->K[d->g_idx];
    if (st->uses_b && d->b_src == OTPU_BS_SLOT)
        B = st->C[d->b_idx], bs = 1;
    else if (st->uses_b && d->b_src == OTPU_BS_CONST)
        B = &st->K[d->b_idx];
    for (uint32_t c = 0; c < cols; c++) {
        uint32_t x = S[c];
        switch (d->u_mode) {
        case OTPU_U_PASS: x = otpu_f32_ftz(x); break;
        case OTPU_U_FMMA:
            x = otpu_f32_add(otpu_f32_mul(x, G[c * gs]), otpu_f32_mul(Dv, B[c * bs]));
            break;
        case OTPU_U_MUL: x = otpu_f32_mul(x, G[c * gs]); break;
        default: x = otpu_f32_add(x, otpu_f32_mul(Dv, B[c * bs])); break;
        }
        S[c] = x;
    }
    uint32_t O = 0;
    if (d->q_en)
        O = otpu_rdot(S, d->q_self ? S : st->C[d->q_idx], 1, cols, tmp);
    else if (d->o_reg_en)
        O = st->regs[d->o_reg];
    if (d->out_p2)
        for (uint32_t c = 0; c < cols; c++)
            S[c] = otpu_f32_mul(S[c], st->C[d->q_idx][c]);
    return O;
}

static int load(otpu_slice *s, const stream *st, uint32_t r0, uint32_t nr, uint32_t *S)
{
    uint32_t cols = st->d.cols;
    if (st->zero) {
        memset(S, 0, (size_t)nr * cols * sizeof *S);
        return 0;
    }
    if (st->in_t) {
        if (otpu_bounds_tmem(s, st->src + (uint64_t)r0 * st->srs, nr, st->srs, cols, 1))
            return -1;
        for (uint32_t r = 0; r < nr; r++)
            memcpy(S + (size_t)r * cols, s->tmem + st->src + (uint64_t)(r0 + r) * st->srs,
                   cols * sizeof *S);
        return 0;
    }
    for (size_t i = 0; i < (size_t)nr * cols; i++)
        S[i] = otpu_m32(s, st->src + 4 * ((uint64_t)r0 * cols + i));
    return 0;
}

static int store(otpu_slice *s, const stream *st, uint32_t r0, uint32_t nr, const uint32_t *Y)
{
    uint32_t cols = st->d.cols;
    if (st->nodst)
        return 0;
    if (st->out_t) {
        if (otpu_bounds_tmem(s, st->dst + (uint64_t)r0 * st->drs, nr, st->drs, cols, 1))
            return -1;
        for (uint32_t r = 0; r < nr; r++)
            for (uint32_t c = 0; c < cols; c++)
                otpu_tmem_put(s, st->dst + (uint64_t)(r0 + r) * st->drs + c,
                              Y[(size_t)r * cols + c]);
        return 0;
    }
    for (size_t i = 0; i < (size_t)nr * cols; i++)
        otpu_m32_put(s, st->dst + 4 * ((uint64_t)r0 * cols + i), Y[i]);
    return 0;
}

int otpu_exec_stream(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)in;
    stream st;
    memset(&st, 0, sizeof st);
    /* the most any descriptor can ask for: 4 slots of 4095 columns and 4095 row scalars */
    uint32_t *inputs = otpu_scratch(s, (size_t)(OTPU_STREAM_SLOTS + 1) * 4096);
    if (!inputs)
        return -1;
    /* setup may not grow the scratch: its slot and X copies live in it */
    if (setup(s, &o->stream, &st, inputs))
        return -1;
    int seq;
    if (rows_chain(s, &st, &seq))
        return -1;
    uint32_t rows = st.d.rows, cols = st.d.cols, nr = seq ? 1 : rows;
    size_t fixed = (size_t)(OTPU_STREAM_SLOTS + 1) * 4096;
    uint32_t *all = otpu_scratch(s, fixed + (size_t)nr * cols + rows + cols);
    if (!all)
        return -1;
    /* re-point the copies: the scratch may have moved */
    for (unsigned i = 0; i < OTPU_STREAM_SLOTS; i++)
        if (st.C[i])
            st.C[i] = all + (size_t)i * cols;
    if (st.X)
        st.X = all + (size_t)OTPU_STREAM_SLOTS * cols;
    uint32_t *S = all + fixed, *O = S + (size_t)nr * cols, *tmp = O + rows;
    for (uint32_t r0 = 0; r0 < rows; r0 += nr) {
        if (load(s, &st, r0, nr, S))
            return -1;
        for (uint32_t r = 0; r < nr; r++)
            O[r0 + r] = row(&st, r0 + r, S + (size_t)r * cols, tmp);
        if (store(s, &st, r0, nr, S))
            return -1;
    }
    if (st.d.q_en || st.d.o_reg_en) {
        if (otpu_bounds_tmem(s, st.out, 1, 0, rows, 1))
            return -1;
        for (uint32_t r = 0; r < rows; r++)
            otpu_tmem_put(s, st.out + r, O[r]);
    }
    for (unsigned j = 0; j < 4; j++)
        if (st.d.rsave >> j & 1) {
            uint64_t a = st.ka + (uint64_t)j * st.ks;
            if (otpu_bounds_tmem(s, a, 1, 0, 1, 1))
                return -1;
            otpu_tmem_put(s, a, st.regs[4 + j]);
        }
    return 0;
}
