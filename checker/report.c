/* report.c - writing a divergence as text and as JSON. */
#include "report.h"
#include "bits.h"
#include "signature.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* DRAM bytes (QST's int8 data and the bytes of a word) are no fp32: bytes and masks instead */
static int byte_write(const otpu_divergence *d)
{
    return d->space == OTPU_SP_DRAM && ((d->mask && d->mask != 0xF) ||
                                        (d->has_expected && d->expected_mask &&
                                         d->expected_mask != 0xF));
}

static int is_float_space(const otpu_divergence *d)
{
    return (d->space == OTPU_SP_TMEM || d->space == OTPU_SP_ASCALE || d->space == OTPU_SP_DRAM) &&
           !byte_write(d);
}

/* "byte 1 = 0x13 (int8 19)" for each byte of mask */
static void bytes_text(FILE *f, uint32_t bits, uint32_t mask)
{
    fprintf(f, "%08x mask %#x:", bits, mask);
    for (int b = 0; b < 4; b++)
        if (mask >> b & 1)
            fprintf(f, " byte %d = 0x%02x (int8 %d)", b, bits >> (8 * b) & 0xFF,
                    (int)(int8_t)(bits >> (8 * b)));
    fprintf(f, "\n");
}

static void facts_text(FILE *f, const char *title, const otpu_div_fact *x, size_t n)
{
    if (!n)
        return;
    fprintf(f, "  %s:\n", title);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "    %s: %s\n", x[i].name, x[i].value);
}

static void regs_text(FILE *f, const otpu_divergence *d)
{
    if (!d->has_regs)
        return;
    int any = 0;
    fprintf(f, "  registers it issued with:");
    for (int r = 1; r < 16; r++)
        if (d->regs[r])
            any = fprintf(f, " R%d=%#x", r, d->regs[r]);
    fprintf(f, any ? " (the others 0)\n" : " all 0\n");
}

static void loops_text(FILE *f, const otpu_divergence *d)
{
    if (!d->loop_depth)
        return;
    fprintf(f, "  loop nest:");
    for (unsigned k = 0; k < d->loop_depth; k++)
        fprintf(f, "%s body pc %u..%u iteration %u of %u", k ? " >" : "", d->loops[k].start,
                d->loops[k].end, d->loops[k].iteration, d->loops[k].total);
    fprintf(f, "\n");
}

static void report_text(FILE *f, const otpu_divergence *d, const otpu_report_info *info)
{
    otpu_signature sig;
    otpu_div_signature(d, &sig);
    fprintf(f, "FIRST DIVERGENCE: %s\n", otpu_div_kind_name(d->kind));
    fprintf(f, "  %s\n", d->detail);
    fprintf(f, "  signature: %s (%s)\n", sig.key, sig.words);
    fprintf(f, "  slice %u, cycle %" PRIu64 "\n", d->slice, d->cycle);
    if (d->host_line)
        fprintf(f, "  host step: host.txt line %d\n", d->host_line);
    if (d->has_ins)
        fprintf(f, "  instruction n=%" PRIu64 " pc=%u unit %s: %s\n", d->ins.n, d->ins.pc,
                otpu_unit_name((otpu_unit)d->unit), d->ins.disasm);
    loops_text(f, d);
    regs_text(f, d);
    if (d->has_loc) {
        fprintf(f, "  location: %s %#" PRIx64, otpu_space_label(d->space), d->addr);
        if (d->has_tile)
            fprintf(f, " (tile row %u, column %u)", d->row, d->col);
        fprintf(f, "\n");
    }
    int fl = is_float_space(d);
    if (byte_write(d)) {
        if (d->has_expected)
            fprintf(f, "  expected: "), bytes_text(f, d->expected, d->expected_mask);
        if (d->has_actual)
            fprintf(f, "  actual:   "), bytes_text(f, d->actual, d->mask);
    } else {
        if (d->has_expected)
            fprintf(f, fl ? "  expected: %08x (%.9g)\n" : "  expected: %08x\n", d->expected,
                    (double)otpu_float_of(d->expected));
        if (d->has_actual)
            fprintf(f, fl ? "  actual:   %08x (%.9g)\n" : "  actual:   %08x\n", d->actual,
                    (double)otpu_float_of(d->actual));
    }
    if (d->has_expected && d->has_actual && fl)
        fprintf(f, "  ulp distance: %" PRIu64 "\n", otpu_ulp_distance(d->expected, d->actual));
    int ctl = d->kind == OTPU_DIV_CONTROL, reg = d->kind == OTPU_DIV_REGISTER;
    facts_text(f, ctl ? "the two sides' next instructions"
                  : reg ? "the instruction's operands, as each side formed them"
                        : "the element's operands (the model's state at the instruction)",
               d->operands, d->noperands);
    facts_text(f, ctl ? "where their paths split" : "the model's steps from them", d->intermediates,
               d->nintermediates);
    if (d->has_loc)
        fprintf(f, "  other locations of this instruction that differ: %" PRIu64 "\n",
                d->other_diffs);
    if (d->has_other)
        fprintf(f, "  the older conflicting instruction: n=%" PRIu64 " pc=%u %s\n", d->other.n,
                d->other.pc, d->other.disasm);
    if (d->ninputs) {
        fprintf(f, "  inputs and their last writers:\n");
        for (size_t i = 0; i < d->ninputs; i++) {
            const otpu_div_input *x = &d->inputs[i];
            fprintf(f, "    %s [%#" PRIx64 ", %#" PRIx64 "): ", otpu_space_label(x->space), x->lo, x->hi);
            if (x->found)
                fprintf(f, "n=%" PRIu64 " pc=%u %s\n", x->writer.n, x->writer.pc, x->writer.disasm);
            else
                fprintf(f, "the initial contents (no earlier instruction wrote it)\n");
        }
    }
    if (d->ninflight) {
        fprintf(f, "  in flight:\n");
        for (size_t i = 0; i < d->ninflight; i++) {
            const otpu_div_event *e = &d->inflight[i];
            fprintf(f, "    slice %u slot %u %s %s n=%" PRIu64 " pc=%u %s\n", e->slice, e->slot,
                    otpu_unit_name((otpu_unit)e->unit), e->what, e->ins.n, e->ins.pc,
                    e->ins.disasm);
        }
    }
    if (d->nhistory) {
        fprintf(f, "  last %zu events (oldest first):\n", d->nhistory);
        for (size_t i = 0; i < d->nhistory; i++) {
            const otpu_div_event *e = &d->history[i];
            fprintf(f, "    cycle %-8" PRIu64 " %-8s slice %u slot %-2u", e->cycle, e->what,
                    e->slice, e->slot);
            if (e->ins.disasm[0])
                fprintf(f, " n=%" PRIu64 " pc=%u %s", e->ins.n, e->ins.pc, e->ins.disasm);
            fprintf(f, "\n");
        }
    }
    if (info && info->divergences > 1)
        fprintf(f, "  divergences counted in this run: %" PRIu64 "\n", info->divergences);
    if (info && info->repro)
        fprintf(f, "  repro: %s\n", info->repro);
    if (info && info->wave)
        fprintf(f, "  waveform: %s (cycles %" PRIu64 "..%" PRIu64 ")\n", info->wave,
                info->wave_from, info->wave_to);
}

/* The text for a person, every byte of it printable: a report's strings (a path, the repro, a
 * hand-edited divergence.json read back) reach a terminal or a page only escaped as
 * otpu_escape does, the lines kept. */
void otpu_report_text(FILE *f, const otpu_divergence *d, const otpu_report_info *info)
{
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (!m)
        return;
    report_text(m, d, info);
    if (fclose(m)) {
        free(text);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '\n' || (ch >= 0x20 && ch < 0x7F))
            fputc(ch, f);
        else if (ch == '\t' || ch == '\r')
            fputs(ch == '\t' ? "\\t" : "\\r", f);
        else
            fprintf(f, "\\x%02x", ch);
    }
    free(text);
}

/* ------------------------------------------------------------------ JSON */

/* The length of the valid UTF-8 sequence at s (1..4), or 0 */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
            : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    for (int k = 1; k < n; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    if ((n == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0))) ||
        (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))))
        return 0; /* (overlong, a surrogate, past U+10FFFF) */
    return n;
}

/* s as a JSON string: valid JSON whatever its bytes (a byte of no UTF-8 sequence becomes the
 * text \xNN, as otpu_escape writes it) */
static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        int k = utf8_len((const unsigned char *)s);
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20 || ch == 0x7F)
            fprintf(f, "\\u%04x", ch);
        else if (!k)
            fprintf(f, "\\\\x%02x", ch);
        else
            fwrite(s, 1, (size_t)k, f), s += k - 1;
    }
    fputc('"', f);
}

static void jins(FILE *f, const otpu_div_instr *i)
{
    fprintf(f, "{\"n\": %" PRIu64 ", \"pc\": %u, \"disasm\": ", i->n, i->pc);
    jstr(f, i->disasm);
    fprintf(f, "}");
}

static void jbits(FILE *f, const char *key, uint32_t b, int fl, uint32_t bytes)
{
    fprintf(f, ",\n  \"%s\": {\"bits\": \"%08x\"", key, b);
    if (bytes) {
        fprintf(f, ", \"mask\": %u, \"bytes\": [", bytes);
        for (int k = 0, first = 1; k < 4; k++)
            if (bytes >> k & 1) {
                fprintf(f, "%s{\"byte\": %d, \"hex\": \"%02x\", \"int8\": %d}", first ? "" : ", ",
                        k, b >> (8 * k) & 0xFF, (int)(int8_t)(b >> (8 * k)));
                first = 0;
            }
        fprintf(f, "]");
    }
    if (fl) {
        char num[48];
        float x = otpu_float_of(b);
        if (x != x || x - x != 0) /* NaN, infinities: JSON has no literal for them */
            snprintf(num, sizeof num, "\"%s\"", x != x ? "nan" : x > 0 ? "inf" : "-inf");
        else
            snprintf(num, sizeof num, "%.9g", (double)x);
        fprintf(f, ", \"float\": %s", num);
    }
    fprintf(f, "}");
}

static void jfacts(FILE *f, const char *key, const otpu_div_fact *x, size_t n)
{
    fprintf(f, ",\n  \"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        jstr(f, x[i].name);
        fprintf(f, ", \"value\": ");
        jstr(f, x[i].value);
        fprintf(f, "}");
    }
    fprintf(f, "%s]", n ? "\n  " : "");
}

static void jevents(FILE *f, const char *key, const otpu_div_event *e, size_t n)
{
    fprintf(f, ",\n  \"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"what\": ", i ? "," : "");
        jstr(f, e[i].what);
        fprintf(f, ", \"cycle\": %" PRIu64 ", \"slice\": %u, \"slot\": %u, \"unit\": ", e[i].cycle,
                e[i].slice, e[i].slot);
        jstr(f, otpu_unit_name((otpu_unit)e[i].unit));
        fprintf(f, ", \"instruction\": ");
        jins(f, &e[i].ins);
        fprintf(f, "}");
    }
    fprintf(f, "%s]", n ? "\n  " : "");
}

void otpu_report_json(FILE *f, const otpu_divergence *d, const otpu_report_info *info)
{
    fprintf(f, "{\n  \"schema\": \"otpu-lockstep/divergence/1\",\n  \"kind\": ");
    jstr(f, otpu_div_kind_name(d->kind));
    fprintf(f, ",\n  \"detail\": ");
    jstr(f, d->detail);
    otpu_signature sig;
    otpu_div_signature(d, &sig);
    fprintf(f, ",\n  \"signature\": {\"key\": ");
    jstr(f, sig.key);
    fprintf(f, ", \"words\": ");
    jstr(f, sig.words);
    fprintf(f, "}");
    fprintf(f, ",\n  \"slice\": %u,\n  \"cycle\": %" PRIu64, d->slice, d->cycle);
    if (d->host_line)
        fprintf(f, ",\n  \"host_line\": %d", d->host_line);
    fprintf(f, ",\n  \"instruction\": ");
    if (d->has_ins) {
        jins(f, &d->ins);
        fprintf(f, ",\n  \"unit\": ");
        jstr(f, otpu_unit_name((otpu_unit)d->unit));
    } else {
        fprintf(f, "null,\n  \"unit\": null");
    }
    fprintf(f, ",\n  \"loops\": [");
    for (unsigned k = 0; k < d->loop_depth; k++)
        fprintf(f, "%s{\"start\": %u, \"end\": %u, \"iteration\": %u, \"total\": %u}",
                k ? ", " : "", d->loops[k].start, d->loops[k].end, d->loops[k].iteration,
                d->loops[k].total);
    fprintf(f, "]");
    if (d->has_loc) {
        fprintf(f, ",\n  \"location\": {\"space\": ");
        jstr(f, otpu_space_label(d->space));
        fprintf(f, ", \"address\": %" PRIu64, d->addr);
        if (d->has_tile)
            fprintf(f, ", \"row\": %u, \"column\": %u", d->row, d->col);
        fprintf(f, ", \"mask\": %u}", d->mask ? d->mask : 0xF);
    } else {
        fprintf(f, ",\n  \"location\": null");
    }
    int fl = is_float_space(d), by = byte_write(d);
    if (d->has_expected)
        jbits(f, "expected", d->expected, fl, by ? d->expected_mask : 0);
    if (d->has_actual)
        jbits(f, "actual", d->actual, fl, by ? d->mask : 0);
    if (d->has_regs) {
        fprintf(f, ",\n  \"registers\": [");
        for (int r = 0; r < 16; r++)
            fprintf(f, "%s%u", r ? ", " : "", d->regs[r]);
        fprintf(f, "]");
    }
    if (d->has_expected && d->has_actual && fl)
        fprintf(f, ",\n  \"ulp_distance\": %" PRIu64, otpu_ulp_distance(d->expected, d->actual));
    jfacts(f, "operands", d->operands, d->noperands);
    jfacts(f, "intermediates", d->intermediates, d->nintermediates);
    fprintf(f, ",\n  \"other_differing_locations\": %" PRIu64, d->other_diffs);
    if (d->has_other) {
        fprintf(f, ",\n  \"conflicting_instruction\": ");
        jins(f, &d->other);
    }
    fprintf(f, ",\n  \"inputs\": [");
    for (size_t i = 0; i < d->ninputs; i++) {
        const otpu_div_input *x = &d->inputs[i];
        fprintf(f, "%s\n    {\"space\": ", i ? "," : "");
        jstr(f, otpu_space_label(x->space));
        fprintf(f, ", \"lo\": %" PRIu64 ", \"hi\": %" PRIu64 ", \"last_writer\": ", x->lo, x->hi);
        if (x->found)
            jins(f, &x->writer);
        else
            fprintf(f, "null");
        fprintf(f, "}");
    }
    fprintf(f, "%s]", d->ninputs ? "\n  " : "");
    jevents(f, "history", d->history, d->nhistory);
    jevents(f, "in_flight", d->inflight, d->ninflight);
    fprintf(f, ",\n  \"divergences\": %" PRIu64, info ? info->divergences : 1);
    fprintf(f, ",\n  \"bundle\": ");
    jstr(f, info ? info->bundle : NULL);
    fprintf(f, ",\n  \"repro\": ");
    jstr(f, info ? info->repro : NULL);
    fprintf(f, ",\n  \"waveform\": ");
    if (info && info->wave) {
        fprintf(f, "{\"file\": ");
        jstr(f, info->wave);
        fprintf(f, ", \"from_cycle\": %" PRIu64 ", \"to_cycle\": %" PRIu64
                ", \"marker_time\": %" PRIu64 "}", info->wave_from, info->wave_to,
                info->wave_marker);
    } else {
        fprintf(f, "null");
    }
    fprintf(f, "\n}\n");
}
