/* passes.c - the reduction passes (passes.h). */
#include "passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "program.h"
#include "regs.h"

enum { FOLD_MAX_STEPS = 10000000 }; /* the model run that sees the registers */

size_t shrink_instr_count(const otpu_bundle *b)
{
    size_t n = 0;
    for (uint32_t s = 0; s < b->cfg.S; s++)
        n += b->prog_words[s] / 8;
    return n;
}

size_t shrink_dram_bytes(const otpu_bundle *b)
{
    size_t n = 0;
    for (uint32_t s = 0; s < b->cfg.S; s++)
        for (size_t i = 0; i < b->dram_len[s]; i++)
            n += b->dram[s][i] != 0;
    return n;
}

static void progress(const shrink_state *st, const char *pass)
{
    shrink_oracle_counts c = shrink_oracle_counts_get(st->oracle);
    fprintf(stderr,
            "otpu-shrink: %s: %zu instructions, S=%u, %zu DRAM bytes non-zero (%llu candidates "
            "tried)\n",
            pass, shrink_instr_count(st->b), st->b->cfg.S, shrink_dram_bytes(st->b),
            (unsigned long long)c.tried);
}

/* A try's result r (-1 error, 0 not kept, 1 the smaller candidate kept), passed on; a kept one
 * sets *changed and reports the pass. */
static int kept(const shrink_state *st, int r, int *changed, const char *pass)
{
    if (r == 1) {
        *changed = 1;
        progress(st, pass);
    }
    return r;
}

/* The oracle on the bundle as it is now (already edited by the caller): 1 same failure, 0
 * not (or the candidate budget is spent), -1 error. */
static int judge(shrink_state *st)
{
    if (st->max_tries && shrink_oracle_counts_get(st->oracle).tried >= st->max_tries) {
        st->out_of_tries = 1;
        return 0;
    }
    return shrink_oracle_test(st->oracle, st->b, st->err, st->errlen);
}

/* ---- slices */

/* The slice the fault plusargs aim at: +otpu_fault_slice=S, else 0 when there is any +otpu_
 * fault plusarg, else -1 (none). */
static long fault_slice(const char *plusargs)
{
    const char *p = strstr(plusargs, "+otpu_fault_slice=");
    if (p)
        return strtol(p + strlen("+otpu_fault_slice="), NULL, 10);
    return strstr(plusargs, "+otpu_") ? 0 : -1;
}

/* plusargs with the fault's slice number lowered by one (slice k < it is removed). */
static void lower_fault_slice(char *plusargs, size_t n)
{
    const char *key = "+otpu_fault_slice=";
    char *p = strstr(plusargs, key);
    if (!p)
        return;
    char *v = p + strlen(key), *end;
    long s = strtol(v, &end, 10);
    char rest[sizeof((otpu_bundle *)0)->plusargs];
    snprintf(rest, sizeof rest, "%s", end);
    snprintf(v, n - (size_t)(v - plusargs), "%ld%s", s - 1, rest);
}

static int try_without_slice(shrink_state *st, uint32_t k)
{
    otpu_bundle *b = st->b, old = *b;
    uint32_t S = b->cfg.S;
    long f = fault_slice(b->plusargs);
    if (f == (long)k)
        return 0; /* the fault would go with it */
    fprintf(stderr, "otpu-shrink: trying S=%u without slice %u (a new Config: its first run "
            "builds the RTL for it)\n", S - 1, k);
    otpu_bundle c = *b;
    c.cfg.S = S - 1;
    c.prog = malloc((S - 1) * sizeof *c.prog);
    c.prog_words = malloc((S - 1) * sizeof *c.prog_words);
    c.dram = malloc((S - 1) * sizeof *c.dram);
    c.dram_len = malloc((S - 1) * sizeof *c.dram_len);
    int r = -1;
    if (!c.prog || !c.prog_words || !c.dram || !c.dram_len) {
        otpu_fail_msg(st->err, st->errlen, "out of memory");
        goto done;
    }
    for (uint32_t s = 0, t = 0; s < S; s++)
        if (s != k) {
            c.prog[t] = b->prog[s];
            c.prog_words[t] = b->prog_words[s];
            c.dram[t] = b->dram[s];
            c.dram_len[t++] = b->dram_len[s];
        }
    if (f > (long)k)
        lower_fault_slice(c.plusargs, sizeof c.plusargs);
    *b = c;
    r = judge(st);
    if (r == 1) {
        free(old.prog[k]);
        free(old.dram[k]);
        c = old; /* its arrays are freed below */
    } else {
        *b = old;
    }
done:
    free(c.prog);
    free(c.prog_words);
    free(c.dram);
    free(c.dram_len);
    return r;
}

int shrink_slices(shrink_state *st)
{
    int changed = 0;
    for (uint32_t k = st->b->cfg.S; k-- > 0 && st->b->cfg.S > 1;) {
        if (k >= st->b->cfg.S)
            continue;
        if (kept(st, try_without_slice(st, k), &changed, "slices") < 0)
            return -1;
    }
    return changed;
}

/* The bundle, with fresh in place of old, judged: of the two, the one that is no longer the
 * bundle's is freed (old when the change is kept, 1; fresh otherwise, when the caller puts old
 * back). */
static int judge_change(shrink_state *st, void *old, void *fresh)
{
    int r = judge(st);
    free(r == 1 ? old : fresh);
    return r;
}

/* ---- programs */

/* Slice s's program replaced by words (n words, malloc'ed): kept if it fails the same way
 * (words then belong to the bundle), else freed. */
static int try_prog(shrink_state *st, uint32_t s, uint32_t *words, size_t n)
{
    otpu_bundle *b = st->b;
    uint32_t *old = b->prog[s];
    size_t oldn = b->prog_words[s];
    b->prog[s] = words;
    b->prog_words[s] = n;
    int r = judge_change(st, old, words);
    if (r != 1) {
        b->prog[s] = old;
        b->prog_words[s] = oldn;
    }
    return r;
}

/* A copy of slice s's program to edit (NULL with err: out of memory). */
static uint32_t *prog_copy(shrink_state *st, uint32_t s)
{
    size_t n = st->b->prog_words[s];
    uint32_t *w = malloc(n * sizeof *w + 1);
    if (!w)
        otpu_fail_msg(st->err, st->errlen, "out of memory");
    else
        memcpy(w, st->b->prog[s], n * sizeof *w);
    return w;
}

/* ---- register operands */

/* Every instruction that ran with the same operand values each time gets them as immediates:
 * one candidate a slice (the program does the same, unless the failure hangs on the timing of
 * the register writes). */
int shrink_fold_registers(shrink_state *st)
{
    otpu_bundle *b = st->b;
    shrink_seen **seen = calloc(b->cfg.S, sizeof *seen);
    int changed = 0, r = 0;
    for (uint32_t s = 0; seen && s < b->cfg.S; s++)
        if (!(seen[s] = calloc(b->prog_words[s] / 8 + 1, sizeof **seen)))
            r = -1;
    if (!seen || r < 0) {
        r = otpu_fail_msg(st->err, st->errlen, "out of memory");
        goto done;
    }
    shrink_regs_seen(b, FOLD_MAX_STEPS, seen);
    for (uint32_t s = 0; s < b->cfg.S && r >= 0 && !st->out_of_tries; s++) {
        uint32_t *w = prog_copy(st, s);
        if (!w) {
            r = -1;
            break;
        }
        int folded = 0;
        for (size_t i = 0; i < b->prog_words[s] / 8; i++)
            if (seen[s][i].state == SHRINK_RAN_ALIKE)
                folded |= shrink_prog_fold(w, i, seen[s][i].value);
        if (!folded) {
            free(w);
            continue;
        }
        r = kept(st, try_prog(st, s, w, b->prog_words[s]), &changed, "register operands");
    }
done:
    for (uint32_t s = 0; seen && s < b->cfg.S; s++)
        free(seen[s]);
    free(seen);
    return r < 0 ? -1 : changed;
}

/* ---- instructions */

/* Slice s's program without the instructions drop marks (and the LOOPs left empty). */
static int try_remove(shrink_state *st, uint32_t s, const uint8_t *drop)
{
    size_t n = st->b->prog_words[s] / 8;
    uint32_t *w = malloc(n * 8 * sizeof *w + 1);
    size_t m = w ? shrink_prog_remove(st->b->prog[s], n, drop, w) : SIZE_MAX;
    if (m == SIZE_MAX) {
        free(w);
        return otpu_fail_msg(st->err, st->errlen, "out of memory");
    }
    if (m == n) {
        free(w);
        return 0;
    }
    return try_prog(st, s, w, m * 8);
}

/* The instructions of slice s that may go (all but the final HALT), into items; how many. */
static size_t removable(const otpu_bundle *b, uint32_t s, size_t *items)
{
    size_t n = b->prog_words[s] / 8, k = 0;
    for (size_t i = 0; i < n; i++)
        if (!shrink_prog_pinned(b->prog[s], n, i))
            items[k++] = i;
    return k;
}

/* Removes items[lo, hi) of slice s's program (as a candidate). */
static int try_remove_items(shrink_state *st, uint32_t s, const size_t *items, size_t lo,
                            size_t hi)
{
    size_t n = st->b->prog_words[s] / 8;
    uint8_t *drop = calloc(n + 1, 1);
    if (!drop)
        return otpu_fail_msg(st->err, st->errlen, "out of memory");
    for (size_t i = lo; i < hi; i++)
        drop[items[i]] = 1;
    int r = try_remove(st, s, drop);
    free(drop);
    return r;
}

/* Delta debugging (Zeller's ddmin, complements only) over slice s's removable instructions:
 * remove one of g chunks at a time; on success go on with g - 1 chunks, else with 2g, until
 * every single instruction has been tried alone. First, one guess: everything after the
 * instruction that diverged. */
static int ddmin_slice(shrink_state *st, uint32_t s)
{
    size_t *items = malloc((st->b->prog_words[s] / 8 + 1) * sizeof *items);
    if (!items)
        return otpu_fail_msg(st->err, st->errlen, "out of memory");
    int changed = 0, r = 0;
    uint32_t ws, wpc;
    size_t k = removable(st->b, s, items);
    if (shrink_oracle_where(st->oracle, &ws, &wpc) && ws == s) {
        size_t lo = 0;
        while (lo < k && items[lo] <= wpc)
            lo++;
        if (lo < k && (r = try_remove_items(st, s, items, lo, k)) == 1) {
            changed = 1;
            progress(st, "instructions after the divergence");
        }
    }
    for (size_t g = 2; r >= 0 && !st->out_of_tries;) {
        k = removable(st->b, s, items);
        if (k == 0)
            break;
        if (g > k)
            g = k;
        int removed = 0;
        for (size_t c = g; c-- > 0 && !removed;) { /* from the end: later code matters less */
            r = try_remove_items(st, s, items, k * c / g, k * (c + 1) / g);
            if (r < 0)
                break;
            removed = r;
        }
        if (removed) {
            changed = 1;
            progress(st, "instructions");
            g = g > 2 ? g - 1 : 2;
        } else if (g == k) {
            break;
        } else {
            g = 2 * g < k ? 2 * g : k;
        }
    }
    free(items);
    return r < 0 ? -1 : changed;
}

int shrink_instructions(shrink_state *st)
{
    int changed = 0;
    for (uint32_t s = 0; s < st->b->cfg.S; s++) {
        int r = ddmin_slice(st, s);
        if (r < 0)
            return -1;
        changed |= r;
    }
    return changed;
}

/* ---- LOOP trip counts */

static int try_count(shrink_state *st, uint32_t s, size_t i, uint32_t count)
{
    uint32_t *w = prog_copy(st, s);
    if (!w)
        return -1;
    shrink_prog_set_count(w, i, count);
    return try_prog(st, s, w, st->b->prog_words[s]);
}

/* Each LOOP's count as low as it goes: 1, else a bisection between 1 and its count (a count
 * given by a register is tried as 1 only). */
int shrink_loop_counts(shrink_state *st)
{
    int changed = 0;
    for (uint32_t s = 0; s < st->b->cfg.S; s++)
        for (size_t i = 0; i < st->b->prog_words[s] / 8; i++) {
            uint32_t count;
            int by_reg;
            if (!shrink_prog_loop(st->b->prog[s], i, &count, &by_reg) || (!by_reg && count <= 1))
                continue;
            uint32_t lo = 1, hi = by_reg ? 2 : count; /* hi: the least count known to fail */
            while (lo < hi && !st->out_of_tries) {
                uint32_t mid = lo + (hi - lo) / 2;
                int r = try_count(st, s, i, mid);
                if (r < 0)
                    return -1;
                if (r) {
                    hi = mid;
                    changed = 1;
                    progress(st, "loop counts");
                } else {
                    lo = mid + 1;
                }
                if (by_reg)
                    break;
            }
        }
    return changed;
}

int shrink_unchain(shrink_state *st)
{
    int changed = 0;
    for (uint32_t s = 0; s < st->b->cfg.S; s++)
        for (size_t i = 0; i < st->b->prog_words[s] / 8 && !st->out_of_tries; i++) {
            if (!shrink_prog_chains(st->b->prog[s], i))
                continue;
            uint32_t *w = prog_copy(st, s);
            if (!w)
                return -1;
            shrink_prog_unchain(w, i);
            if (kept(st, try_prog(st, s, w, st->b->prog_words[s]), &changed, "HALT CHAIN") < 0)
                return -1;
        }
    return changed;
}

/* ---- DRAM images */

static int try_zero(shrink_state *st, uint32_t s, size_t off, size_t len)
{
    otpu_bundle *b = st->b;
    size_t n = b->dram_len[s];
    uint8_t *d = malloc(n + 1), *old = b->dram[s];
    if (!d)
        return otpu_fail_msg(st->err, st->errlen, "out of memory");
    memcpy(d, old, n);
    memset(d + off, 0, len);
    b->dram[s] = d;
    int r = judge_change(st, old, d);
    if (r != 1)
        b->dram[s] = old;
    return r;
}

static int any_nonzero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 1;
    return 0;
}

/* Zeroes ranges of each slice's DRAM image (the bundle writer trims trailing zeros): halves,
 * then quarters, ... down to 1/16 of the image (at least 64 bytes), every range that still
 * holds data. */
int shrink_dram(shrink_state *st)
{
    int changed = 0;
    for (uint32_t s = 0; s < st->b->cfg.S; s++) {
        size_t len = st->b->dram_len[s];
        while (len && !st->b->dram[s][len - 1])
            len--;
        size_t least = len / 16 > 64 ? len / 16 : 64;
        for (size_t size = (len / 2 + 3) & ~(size_t)3; len && !st->out_of_tries; size /= 2) {
            size = size < least ? least : size;
            for (size_t off = 0; off < len && !st->out_of_tries; off += size) {
                size_t k = off + size < len ? size : len - off;
                if (!any_nonzero(st->b->dram[s] + off, k))
                    continue;
                if (kept(st, try_zero(st, s, off, k), &changed, "DRAM") < 0)
                    return -1;
            }
            if (size == least)
                break;
        }
    }
    return changed;
}
