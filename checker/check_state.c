/* check_state.c - a halted slice against the model (pc, nothing in flight, the whole state
 * as the backstop), and the end of the run. */
#include "scoreboard.h"

#include "dram_pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int first_diff_words(const uint32_t *a, const uint32_t *b, uint64_t n, uint64_t *at,
                            uint64_t *count)
{
    *count = 0;
    for (uint64_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            if (!*count)
                *at = i;
            ++*count;
        }
    return *count != 0;
}

static int state_diff(otpu_checker *c, uint32_t s, otpu_space sp, uint64_t at, uint64_t count,
                      uint32_t want, uint32_t got, const char *what)
{
    otpu_divergence d;
    ck_at_location(&d, sp, at);
    d.has_expected = d.has_actual = 1;
    d.expected = want;
    d.actual = got;
    d.other_diffs = count - 1;
    return ck_diverge(c, OTPU_DIV_END_STATE, s, NULL, &d,
                   "%s differs at halt: %llu location%s, the first at %llu", what,
                   (unsigned long long)count, count > 1 ? "s" : "", (unsigned long long)at);
}

static int compare_state(otpu_checker *c, uint32_t s, const otpu_rtl_state *rtl)
{
    const otpu_config *cfg = c->cfg;
    otpu_slice_view v = otpu_machine_view(c->m, s);
    uint64_t at = 0, count;
    if (rtl->R && first_diff_words(v.R + 1, rtl->R + 1, 15, &at, &count))
        return state_diff(c, s, OTPU_SP_REG, at + 1, count, v.R[at + 1], rtl->R[at + 1],
                          "a register");
    if (rtl->tmem && first_diff_words(v.tmem, rtl->tmem, cfg->TMEM_WORDS, &at, &count))
        return state_diff(c, s, OTPU_SP_TMEM, at, count, v.tmem[at], rtl->tmem[at], "TMEM");
    if (rtl->dram) {
        /* the RTL's image, then zeros to DRAM_BYTES. The model's pages it never touched are
         * zero: compared as zeros, they are not faulted in (a 32 MiB DRAM is mostly such) */
        uint64_t len = rtl->dram_len < cfg->DRAM_BYTES ? rtl->dram_len : cfg->DRAM_BYTES;
        uint8_t *touched = malloc((size_t)((cfg->DRAM_BYTES + 4095) / 4096));
        if (touched)
            otpu_dram_pages_touched(c->m, s, touched);
        count = 0;
        for (uint64_t page = 0; page < cfg->DRAM_BYTES; page += 4096) {
            uint64_t end = page + 4096 < cfg->DRAM_BYTES ? page + 4096 : cfg->DRAM_BYTES;
            static const uint8_t zero[4096];
            const uint8_t *model = touched && !touched[page / 4096] ? zero : v.dram + page;
            if (end <= len ? !memcmp(model, rtl->dram + page, (size_t)(end - page))
                           : page >= len && !memcmp(model, zero, (size_t)(end - page)))
                continue;
            for (uint64_t i = page; i < end; i += 4) {
                uint32_t want, got = 0;
                memcpy(&want, v.dram + i, 4);
                if (i < len)
                    memcpy(&got, rtl->dram + i, (size_t)(len - i < 4 ? len - i : 4));
                if (want != got && !count++)
                    at = i;
            }
        }
        free(touched);
        if (count) {
            uint32_t want, got = 0;
            memcpy(&want, v.dram + at, 4);
            if (at < len)
                memcpy(&got, rtl->dram + at, (size_t)(len - at < 4 ? len - at : 4));
            return state_diff(c, s, OTPU_SP_DRAM, at, count, want, got, "DRAM");
        }
    }
    uint64_t rows = otpu_config_act_rows(cfg);
    if (rtl->act) {
        uint64_t n = rows * cfg->ACT_BLOCKS * cfg->D;
        count = 0;
        for (uint64_t i = 0; i < n; i++)
            if (v.act[i] != rtl->act[i] && !count++)
                at = i;
        if (count)
            return state_diff(c, s, OTPU_SP_ACT, at, count, (uint8_t)v.act[at],
                              (uint8_t)rtl->act[at], "the ACT RAM");
    }
    if (rtl->ascale && first_diff_words(v.ascale, rtl->ascale, rows * cfg->ACT_BLOCKS, &at, &count))
        return state_diff(c, s, OTPU_SP_ASCALE, at, count, v.ascale[at], rtl->ascale[at],
                          "the ACT scales");
    return OTPU_CHECK_OK;
}

int otpu_check_halt(otpu_checker *c, uint32_t s, const otpu_rtl_state *rtl)
{
    if (ck_check_slice(c, s))
        return OTPU_CHECK_BAD_CALL;
    slice_state *ss = &c->sl[s];
    ss->rtl_halted = 1;
    c->last_progress = c->cycle;
    ck_remember(c, "halt", s, 0, 0, NULL);
    if (ss->model_error)
        return ck_diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                          "the RTL halted slice %u; the model stops it with an error at pc %u: "
                          "%s", s, ss->model_error_pc, ck_model_error(c, s));
    rec *r = NULL;
    int st = ck_model_next(c, s, &r);
    if (st == 0) {
        otpu_divergence d;
        memset(&d, 0, sizeof d);
        ck_explain_split(c, s, UINT32_MAX, r->pc, &d);
        return ck_diverge(c, OTPU_DIV_CONTROL, s, r, &d,
                       "the RTL halted; the model's slice %u goes on with pc %u", s, r->pc);
    }
    if (st < 0)
        return ss->model_error ? ck_diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                                         "the RTL halted; the model stops with an error at pc "
                                         "%u: %s", ss->model_error_pc,
                                         ck_model_error(c, s))
                               : OTPU_CHECK_OK;
    for (rec *q = ss->head; q; q = q->next)
        if (q->dispatched)
            return ck_diverge(c, OTPU_DIV_MISSING, s, q, NULL,
                           "the RTL halted with slot %u (pc %u) still in flight", q->slot, q->pc);
    otpu_slice_view v = otpu_machine_view(c->m, s);
    if (rtl && rtl->pc != v.pc)
        return ck_diverge(c, OTPU_DIV_CONTROL, s, NULL, NULL,
                       "the RTL halted at pc %u, the model at pc %u", rtl->pc, v.pc);
    return rtl ? compare_state(c, s, rtl) : OTPU_CHECK_OK;
}

int otpu_check_end(otpu_checker *c)
{
    for (uint32_t s = 0; s < c->cfg->S; s++) {
        slice_state *ss = &c->sl[s];
        if (ss->rtl_halted || ss->rtl_error)
            continue;
        if (ss->model_error)
            return ck_diverge(c, OTPU_DIV_ERROR, s, NULL, NULL,
                           "the model stops slice %u with an error at pc %u (%s); the RTL did "
                           "not report it", s, ss->model_error_pc, ck_model_error(c, s));
        return ck_diverge(c, OTPU_DIV_HANG, s, NULL, NULL,
                       "the run ended and slice %u neither halted nor stopped on an error", s);
    }
    return OTPU_CHECK_OK;
}
