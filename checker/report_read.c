/* report_read.c - a stored divergence.json read back (report.h, otpu_report_read): the
 * facts of checker/REPORT.md's schema into an otpu_divergence, so that every renderer (text,
 * HTML) works from a report copied out of a CI artifact as from a live run. */
#include "report.h"

#include <jansson.h>

#include "json_input.h"
#include <stdlib.h>
#include <string.h>

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static uint64_t num(json_t *o, const char *k)
{
    return (uint64_t)json_integer_value(json_object_get(o, k));
}

static void copy(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src);
}

static int index_of(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

static void instr(json_t *o, otpu_div_instr *i)
{
    i->n = num(o, "n");
    i->pc = (uint32_t)num(o, "pc");
    copy(i->disasm, sizeof i->disasm, str(o, "disasm"));
}

static void events(json_t *a, otpu_div_event *e, size_t max, size_t *n)
{
    static const char *const units[] = {"DMA", "MXU", "QUANT", "VPU", "COLL", "SEQ"};
    size_t k;
    json_t *x;
    *n = 0;
    json_array_foreach(a, k, x) {
        if (*n == max)
            break;
        otpu_div_event *ev = &e[(*n)++];
        copy(ev->what, sizeof ev->what, str(x, "what"));
        ev->cycle = num(x, "cycle");
        ev->slice = (uint32_t)num(x, "slice");
        ev->slot = (uint32_t)num(x, "slot");
        int u = index_of(str(x, "unit"), units, 6);
        ev->unit = u < 0 ? 0 : (uint32_t)u;
        if (json_is_object(json_object_get(x, "instruction")))
            instr(json_object_get(x, "instruction"), &ev->ins);
    }
}

static uint32_t bits(json_t *o, int *has, uint32_t *mask)
{
    *has = json_is_object(o);
    if (mask && json_object_get(o, "mask"))
        *mask = (uint32_t)num(o, "mask");
    return (uint32_t)strtoul(str(o, "bits"), NULL, 16);
}

static otpu_div_fact *facts(json_t *a, size_t *n)
{
    *n = json_array_size(a);
    otpu_div_fact *f = calloc(*n ? *n : 1, sizeof *f);
    size_t k;
    json_t *x;
    json_array_foreach(a, k, x) {
        copy(f[k].name, sizeof f[k].name, str(x, "name"));
        copy(f[k].value, sizeof f[k].value, str(x, "value"));
    }
    return f;
}

int otpu_report_read(const char *path, otpu_report_stored *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    char why[512];
    json_t *o = otpu_json_read(path, OTPU_JSON_MAX_BYTES, why, sizeof why);
    if (!o)
        return snprintf(err, errlen, "not a divergence report: %s", why), -1;
    if (strcmp(str(o, "schema"), "otpu-lockstep/divergence/1")) {
        json_decref(o);
        return snprintf(err, errlen, "%s: not a divergence report (schema '%s', expected "
                        "otpu-lockstep/divergence/1)", path, str(o, "schema")), -1;
    }
    otpu_divergence *d = &r->d;
    static const char *const spaces[] = {"register", "TMEM", "DRAM", "ACT", "ASCALE"};
    static const char *const units[] = {"DMA", "MXU", "QUANT", "VPU", "COLL", "SEQ"};
    int kind = -1;
    for (int k = 0; k < OTPU_DIV_KINDS && kind < 0; k++)
        if (!strcmp(str(o, "kind"), otpu_div_kind_name((otpu_div_kind)k)))
            kind = k;
    d->kind = kind < 0 ? OTPU_DIV_NONE : (otpu_div_kind)kind;
    copy(d->detail, sizeof d->detail, str(o, "detail"));
    d->slice = (uint32_t)num(o, "slice");
    d->cycle = num(o, "cycle");
    d->host_line = (int)num(o, "host_line");
    if ((d->has_ins = json_is_object(json_object_get(o, "instruction")))) {
        instr(json_object_get(o, "instruction"), &d->ins);
        int u = index_of(str(o, "unit"), units, 6);
        d->unit = u < 0 ? 0 : (uint32_t)u;
    }
    size_t k;
    json_t *x;
    json_array_foreach(json_object_get(o, "loops"), k, x) {
        if (k == 4)
            break;
        d->loops[k].start = (uint32_t)num(x, "start");
        d->loops[k].end = (uint32_t)num(x, "end");
        d->loops[k].iteration = (uint32_t)num(x, "iteration");
        d->loops[k].total = (uint32_t)num(x, "total");
        d->loop_depth = (unsigned)k + 1;
    }
    json_t *loc = json_object_get(o, "location");
    if ((d->has_loc = json_is_object(loc))) {
        int sp = index_of(str(loc, "space"), spaces, 5);
        d->space = sp < 0 ? OTPU_SP_TMEM : (otpu_space)sp;
        d->addr = num(loc, "address");
        d->mask = (uint32_t)num(loc, "mask");
        if ((d->has_tile = json_object_get(loc, "row") != NULL)) {
            d->row = (uint32_t)num(loc, "row");
            d->col = (uint32_t)num(loc, "column");
        }
    }
    d->expected = bits(json_object_get(o, "expected"), &d->has_expected, &d->expected_mask);
    d->actual = bits(json_object_get(o, "actual"), &d->has_actual, NULL);
    json_array_foreach(json_object_get(o, "registers"), k, x) {
        if (k < 16) {
            d->regs[k] = (uint32_t)json_integer_value(x);
            d->has_regs = 1;
        }
    }
    d->other_diffs = num(o, "other_differing_locations");
    if ((d->has_other = json_is_object(json_object_get(o, "conflicting_instruction"))))
        instr(json_object_get(o, "conflicting_instruction"), &d->other);
    json_array_foreach(json_object_get(o, "inputs"), k, x) {
        if (k == OTPU_DIV_INPUTS)
            break;
        otpu_div_input *in = &d->inputs[d->ninputs++];
        int sp = index_of(str(x, "space"), spaces, 5);
        in->space = sp < 0 ? OTPU_SP_TMEM : (otpu_space)sp;
        in->lo = num(x, "lo");
        in->hi = num(x, "hi");
        if ((in->found = json_is_object(json_object_get(x, "last_writer"))))
            instr(json_object_get(x, "last_writer"), &in->writer);
    }
    events(json_object_get(o, "history"), d->history, OTPU_DIV_HISTORY, &d->nhistory);
    events(json_object_get(o, "in_flight"), d->inflight, OTPU_DIV_INFLIGHT, &d->ninflight);
    r->operands = facts(json_object_get(o, "operands"), &d->noperands);
    r->intermediates = facts(json_object_get(o, "intermediates"), &d->nintermediates);
    d->operands = r->operands;
    d->intermediates = r->intermediates;
    r->bundle = strdup(str(o, "bundle"));
    r->repro = strdup(str(o, "repro"));
    r->info.bundle = r->bundle;
    r->info.repro = r->repro[0] ? r->repro : NULL;
    r->info.divergences = num(o, "divergences");
    json_t *w = json_object_get(o, "waveform");
    if (json_is_object(w)) {
        r->wave = strdup(str(w, "file"));
        r->info.wave = r->wave;
        r->info.wave_from = num(w, "from_cycle");
        r->info.wave_to = num(w, "to_cycle");
        r->info.wave_marker = num(w, "marker_time");
    }
    json_decref(o);
    if (!r->operands || !r->intermediates || !r->bundle || !r->repro) {
        otpu_report_stored_free(r);
        return snprintf(err, errlen, "%s: out of memory", path), -1;
    }
    return 0;
}

void otpu_report_stored_free(otpu_report_stored *r)
{
    free(r->operands);
    free(r->intermediates);
    free(r->bundle);
    free(r->repro);
    free(r->wave);
    memset(r, 0, sizeof *r);
}
