/* host_steps.c - host steps (host.txt, docs/bundle.md) in generated bundles: slices that start
 * by waiting for the host, as openTPU's programs do. The host writes the data, then the flag;
 * now and then first a flag the compare still fails on, and a few polls pass. The words live
 * above the data pool, where no other generated instruction reads or writes. */
#include "host_steps.h"
#include "ops.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { HOST_DATA_WORDS = 4 };

static void say(gen_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(gen_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = sizeof c->host - c->host_len;
    int n = vsnprintf(c->host + c->host_len, room, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < room)
        c->host_len += (size_t)n;
}

/* For a flag compare (cmp, mask): its ref, a value it holds on (*right) and one it does not
 * (*wrong). */
static void flag_values(gen_ctx *c, unsigned cmp, uint32_t mask, uint32_t *ref, uint32_t *right,
                        uint32_t *wrong)
{
    gen_rng *g = &c->rng;
    uint32_t low = mask & (0u - mask); /* a bit the compare sees */
    *right = gen_rng_u32(g);
    if (cmp == OTPU_CMP_GE) { /* a counter: a small step past ref, across the wrap at times */
        *ref = gen_rng_chance(g, 50) ? 0u - (uint32_t)gen_rng_below(g, 64) : gen_rng_u32(g);
        *right = *ref + (uint32_t)gen_rng_below(g, 1000);
        *wrong = *ref - 1 - (uint32_t)gen_rng_below(g, 1000);
    } else if (cmp == OTPU_CMP_EQ) {
        *ref = *right & mask;
        *wrong = *right ^ low;
    } else {
        *ref = (*right & mask) ^ low;
        *wrong = *ref | (gen_rng_u32(g) & ~mask);
    }
}

void gen_host_handshake(gen_ctx *c)
{
    gen_rng *g = &c->rng;
    uint64_t flag = (c->dpool.hi + 3) / 4 * 4, end = flag + 4 * (1 + HOST_DATA_WORDS);
    if (!gen_op_allowed(c, OTPU_OP_WAITW) || end + GEN_CHAIN_BYTES > c->dram_len ||
        !gen_rng_chance(g, 40))
        return;
    uint32_t right[OTPU_MAX_SLICES] = {0};
    int waits[OTPU_MAX_SLICES] = {0};
    say(c, "# otpu-gen: slices that wait for the host at their start\n");
    for (c->s = 0; c->s < c->cfg.S; c->s++) {
        if (c->s && !gen_rng_chance(g, 60))
            continue;
        waits[c->s] = 1;
        unsigned cmp = (unsigned)gen_rng_below(g, 3), n = (unsigned)gen_rng_below(g, 5);
        uint32_t mask = cmp == OTPU_CMP_GE || gen_rng_chance(g, 50)
                            ? 0xFFFFFFFFu : gen_rng_u32(g) | 1u << gen_rng_below(g, 32);
        uint32_t ref, wrong;
        flag_values(c, cmp, mask, &ref, &right[c->s], &wrong);
        memcpy(c->dram[c->s] + flag, &wrong, 4);
        otpu_ops w = gen_ops(OTPU_OP_WAITW);
        w.waitw.dram = (otpu_ri){(uint32_t)flag, (uint32_t)flag, 0};
        w.waitw.tmem = gen_addr(c, &c->tmem, 1, 1);
        w.waitw.ref = (otpu_ri){ref, ref, 0};
        w.waitw.mask = mask;
        w.waitw.cmp = cmp;
        w.waitw.interval = (uint32_t)gen_rng_below(g, 17);
        gen_emit(c, OTPU_OP_WAITW, &w);
        say(c, "await %u waitw\n", c->s);
        if (n) { /* the data, read once the flag holds */
            otpu_ops ld = gen_ops(OTPU_OP_LD);
            ld.dma.dram = (otpu_ri){(uint32_t)flag + 4, (uint32_t)flag + 4, 0};
            ld.dma.tmem = gen_addr(c, &c->tmem, n, 1);
            ld.dma.n = n;
            gen_emit(c, OTPU_OP_LD, &ld);
            say(c, "write %u %#llx", c->s, (unsigned long long)flag + 4);
            for (unsigned k = 0; k < n; k++)
                say(c, " %08x", gen_rng_u32(g));
            say(c, "\n");
        }
        if (gen_rng_chance(g, 40)) { /* a flag the slice still waits on, then a few polls */
            uint32_t again = cmp == OTPU_CMP_GE ? wrong - (uint32_t)gen_rng_below(g, 100)
                                                : wrong ^ (gen_rng_u32(g) & ~mask);
            say(c, "write %u %#llx %08x\npolls %u\n", c->s, (unsigned long long)flag, again,
                1 + (unsigned)gen_rng_below(g, 3));
        }
        say(c, "write %u %#llx %08x\n", c->s, (unsigned long long)flag, right[c->s]);
    }
    say(c, "await all halted\n");
    for (unsigned s = 0; s < c->cfg.S; s++)
        if (waits[s])
            say(c, "expect %u %#llx %08x\n", s, (unsigned long long)flag, right[s]);
    c->s = 0;
}
