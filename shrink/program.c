/* program.c - removing instructions, lowering LOOP counts, folding register operands, plain
 * HALTs (program.h).
 *
 * LOOP's operands (openTPU docs/isa.md, format LOOP; sim/isa.c otpu_operands): w1 is the body
 * length (the instructions after the LOOP that repeat), w2 the trip count's immediate, added
 * to R[ra]. They are edited as plain words of otpu_instr.w[] and the instruction re-encoded. */
#include "program.h"

#include <stdlib.h>
#include <string.h>

#include "isa.h"

static otpu_instr at(const uint32_t *words, size_t i)
{
    return otpu_decode(words + 8 * i);
}

size_t shrink_prog_remove(const uint32_t *words, size_t n, const uint8_t *drop, uint32_t *out)
{
    /* a LOOP's new body: the kept instructions in (j, j + body]; a LOOP left empty goes
     * too, which can empty an enclosing one: so from the innermost (last) LOOP outwards */
    uint8_t *gone = malloc(n + 1);
    uint32_t *body = malloc((n + 1) * sizeof *body);
    if (!gone || !body) {
        free(gone);
        free(body);
        return SIZE_MAX;
    }
    memcpy(gone, drop, n);
    for (size_t j = n; j-- > 0;) {
        otpu_instr in = at(words, j);
        if (gone[j] || in.op != OTPU_OP_LOOP)
            continue;
        size_t end = j + in.w[1] < n ? j + in.w[1] : n - 1;
        uint32_t kept = 0;
        for (size_t i = j + 1; i <= end; i++)
            kept += !gone[i];
        body[j] = kept;
        gone[j] = kept == 0 && in.w[1] > 0;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (gone[i])
            continue;
        otpu_instr in = at(words, i);
        if (in.op == OTPU_OP_LOOP)
            in.w[1] = body[i];
        otpu_encode(&in, out + 8 * m++);
    }
    free(gone);
    free(body);
    return m;
}

int shrink_prog_pinned(const uint32_t *words, size_t n, size_t i)
{
    return i + 1 == n && at(words, i).op == OTPU_OP_HALT;
}

int shrink_prog_loop(const uint32_t *words, size_t i, uint32_t *count, int *by_reg)
{
    otpu_instr in = at(words, i);
    if (in.op != OTPU_OP_LOOP)
        return 0;
    *count = in.w[2];
    *by_reg = in.ra != 0;
    return 1;
}

void shrink_prog_set_count(uint32_t *words, size_t i, uint32_t count)
{
    otpu_instr in = at(words, i);
    in.w[2] = count;
    in.ra = 0; /* R0 reads 0: the count is the immediate alone */
    otpu_encode(&in, words + 8 * i);
}

int shrink_prog_chains(const uint32_t *words, size_t i)
{
    otpu_instr in = at(words, i);
    return in.op == OTPU_OP_HALT && (in.flags & OTPU_F_CHAIN);
}

void shrink_prog_unchain(uint32_t *words, size_t i)
{
    otpu_instr in = at(words, i);
    in.flags = 0;
    in.ra = in.rb = 0; /* CHAIN's address and count registers */
    otpu_encode(&in, words + 8 * i);
}

int shrink_prog_fold(uint32_t *words, size_t i, const uint32_t value[6])
{
    otpu_instr in = at(words, i);
    if (otpu_op_format(in.op) == OTPU_FMT_HALT)
        return 0; /* CHAIN's operands are registers alone: nowhere to put an immediate */
    otpu_ops o = otpu_operands(&in, NULL);
    int changed = 0;
    for (unsigned k = 0; k < o.nri; k++) {
        otpu_ri *x = (otpu_ri *)((char *)&o + o.ri_at[k]);
        changed |= x->reg != 0;
        x->reg = 0;
        x->imm = value[k];
    }
    if (!changed)
        return 0;
    otpu_instr out;
    otpu_encode_operands(in.op, &o, &out);
    otpu_encode(&out, words + 8 * i);
    return 1;
}
