/* check_host.c - host.txt in lockstep: both sides played the same steps; they must have
 * reached the same ones and read the same words (check.h, otpu_check_host). */
#include "scoreboard.h"

#include <string.h>

static otpu_divergence *at_step(otpu_divergence *d, const otpu_host_step *st, char *text,
                                size_t len)
{
    memset(d, 0, sizeof *d);
    d->host_line = st->line;
    otpu_host_step_text(st, text, len);
    return d;
}

int otpu_check_host(otpu_checker *c, const otpu_host *rtl)
{
    const otpu_host *mh = otpu_machine_host(c->m);
    if (!mh || !rtl)
        return OTPU_CHECK_OK;
    /* the steps the model's host takes once every slice halted (an expect at the end) */
    for (int k = 0; k < 1 << 20 &&
                    otpu_machine_settle_counted(c->m, &c->model_polls, c->cycle + POLL_SLACK) > 0;
         k++)
        ;
    size_t nm, nr;
    const otpu_host_record *m = otpu_host_records(mh, &nm), *r = otpu_host_records(rtl, &nr);
    size_t n = nm < nr ? nm : nr;
    otpu_divergence d;
    char t[160];
    for (size_t k = 0; k < n; k++)
        for (size_t w = 0; w < m[k].nread && w < r[k].nread; w++)
            if (m[k].read[w] != r[k].read[w])
                return ck_diverge(c, OTPU_DIV_HOST, m[k].step->slice, NULL,
                                  at_step(&d, m[k].step, t, sizeof t),
                                  "host.txt:%d (%s): the model read %08x at %#llx, the RTL read "
                                  "%08x", m[k].step->line, t, m[k].read[w],
                                  (unsigned long long)(m[k].step->addr + 4 * w), r[k].read[w]);
    if (nm != nr) {
        const otpu_host_step *st = nm > nr ? m[n].step : r[n].step;
        return ck_diverge(c, OTPU_DIV_HOST, st->slice, NULL, at_step(&d, st, t, sizeof t),
                          "host.txt:%d (%s): reached by the %s, never by the %s", st->line, t,
                          nm > nr ? "model" : "RTL", nm > nr ? "RTL" : "model");
    }
    return OTPU_CHECK_OK;
}
