/* report_html.c - divergence.html (report.h, otpu_report_html): the text report on one static
 * page (no script, no network), every byte of it escaped, under a title that says what
 * diverged where; readable in any browser, linked from the regression's index.html. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* s as HTML text: its markup characters as entities, its control bytes (but the text's
 * newlines) and non-ASCII as \xNN (otpu_escape's form) */
static void esc(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '&')
            fputs("&amp;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if ((c < 0x20 && c != '\n') || c >= 0x7F)
            fprintf(f, "\\x%02x", c);
        else
            fputc(c, f);
    }
}

int otpu_report_html(FILE *f, const otpu_divergence *d, const otpu_report_info *info)
{
    char *text = NULL, title[200];
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (!m)
        return -1;
    otpu_report_text(m, d, info);
    if (fclose(m)) {
        free(text);
        return -1;
    }
    int t = snprintf(title, sizeof title, "otpu-lockstep: %s at slice %u, cycle %llu",
                     otpu_div_kind_name(d->kind), d->slice, (unsigned long long)d->cycle);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
    esc(f, title, (size_t)t);
    fputs("</title>\n<style>body { font: 14px/1.4 sans-serif; margin: 16px 24px; } "
          "pre { font: 13px/1.35 monospace; background: #f6f6f6; padding: 12px; "
          "overflow-x: auto; }</style></head>\n<body>\n<h1>", f);
    esc(f, title, (size_t)t);
    fputs("</h1>\n<p>", f);
    esc(f, d->detail, strlen(d->detail));
    fputs("</p>\n<pre>", f);
    esc(f, text, n);
    fputs("</pre>\n", f);
    if (info && info->wave) {
        fputs("<p>Waveform: open it at the divergence with <code>gtkwave ", f);
        esc(f, info->wave, strlen(info->wave));
        fputs("</code> (its save file <code>wave.gtkw</code> is beside it).</p>\n", f);
    }
    fputs("</body></html>\n", f);
    free(text);
    return ferror(f) ? -1 : 0;
}
