/* variants.c - small variants of a bundle, written and not run (variants.h).
 *
 * Each variant is written by the bundle writer into a scratch folder in DIR (DIR/.variant),
 * read back as a bundle, and renamed to its number only if it is valid; variants.txt is
 * written beside them (output.h: replaced whole, at the end). */
#include "variants.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "isa.h"
#include "output.h"
#include "program.h"
#include "rng.h"

enum { DIR_MAX = 4000, PATH_LEN = DIR_MAX + 64, WHAT_MAX = 8192 };

typedef struct {
    const otpu_bundle *b;
    const shrink_variants_options *opt;
    char scratch[PATH_LEN]; /* where each variant is written and read back first */
    FILE *list;             /* variants.txt (its temporary file) */
    uint64_t written;
    char *err;
    size_t errlen;
} writer;

static int full(const writer *w)
{
    return w->written >= w->opt->max;
}

int shrink_variants_check_dir(const char *dir, char *err, size_t n)
{
    if (strlen(dir) > DIR_MAX)
        return otpu_fail_msg(err, n, "%.200s...: name too long", dir);
    if (otpu_out_check_dir(dir, 0, err, n))
        return -1;
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : otpu_fail_msg(err, n, "%s: cannot read: %s", dir,
                                                   strerror(errno));
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    return empty ? 0 : otpu_fail_msg(err, n, "%s: is not empty (a new or an empty folder "
                                     "holds the variants)", dir);
}

/* Removes the scratch folder and the files in it (a bundle has no sub-folders). */
static void remove_scratch(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    char f[PATH_LEN + 300];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(f, sizeof f, "%s/%s", path, e->d_name);
            remove(f);
        }
    closedir(d);
    rmdir(path);
}

/* c as the next variant, described by what: 1 written, 0 not (not a valid bundle when read
 * back, or the count is reached), -1 with err. */
static int put_variant(writer *w, const otpu_bundle *c, const char *what)
{
    if (full(w))
        return 0;
    if (otpu_bundle_write(w->scratch, c, w->err, w->errlen))
        return -1;
    otpu_bundle v;
    char why[512], name[32], path[PATH_LEN];
    if (otpu_bundle_read(w->scratch, &v, why, sizeof why)) {
        char line[1024];
        snprintf(line, sizeof line, "skipped, not a valid bundle (%s): %s", why, what);
        otpu_print_line(stderr, "otpu-shrink: ", line);
        return 0;
    }
    otpu_bundle_free(&v);
    snprintf(name, sizeof name, "v%03llu", (unsigned long long)w->written + 1);
    snprintf(path, sizeof path, "%s/%s", w->opt->dir, name);
    if (rename(w->scratch, path))
        return otpu_fail_msg(w->err, w->errlen, "%s: cannot create: %s", path, strerror(errno));
    fprintf(w->list, "%s\t%s\n", name, what);
    w->written++;
    return 1;
}

/* The bundle with slice s's program replaced by words (nwords words), as the next variant. */
static int put_prog(writer *w, uint32_t s, uint32_t *words, size_t nwords, const char *what)
{
    const otpu_bundle *b = w->b;
    uint32_t **prog = malloc((b->cfg.S + 1) * sizeof *prog);
    size_t *len = malloc((b->cfg.S + 1) * sizeof *len);
    int r = -1;
    if (!prog || !len) {
        otpu_fail_msg(w->err, w->errlen, "out of memory");
    } else {
        memcpy(prog, b->prog, b->cfg.S * sizeof *prog);
        memcpy(len, b->prog_words, b->cfg.S * sizeof *len);
        prog[s] = words;
        len[s] = nwords;
        otpu_bundle c = *b;
        c.prog = prog;
        c.prog_words = len;
        r = put_variant(w, &c, what);
    }
    free(prog);
    free(len);
    return r;
}

/* 1. each instruction but the final HALT dropped alone */
static int drops(writer *w)
{
    const otpu_bundle *b = w->b;
    int r = 0;
    for (uint32_t s = 0; s < b->cfg.S && r >= 0 && !full(w); s++) {
        size_t n = b->prog_words[s] / 8;
        uint8_t *drop = calloc(n + 1, 1);
        uint32_t *out = malloc(n * 8 * sizeof *out + 1);
        if (!drop || !out)
            r = otpu_fail_msg(w->err, w->errlen, "out of memory");
        for (size_t i = 0; i < n && r >= 0 && !full(w); i++) {
            if (shrink_prog_pinned(b->prog[s], n, i))
                continue;
            drop[i] = 1;
            size_t m = shrink_prog_remove(b->prog[s], n, drop, out);
            drop[i] = 0;
            if (m == SIZE_MAX) {
                r = otpu_fail_msg(w->err, w->errlen, "out of memory");
                break;
            }
            const char *op = otpu_op_name(otpu_decode(b->prog[s] + 8 * i).op);
            char what[200];
            int k = snprintf(what, sizeof what, "drop slice %u instruction %zu (pc %zu): %s", s,
                             i, i, op ? op : "?");
            if (m + 1 < n)
                snprintf(what + k, sizeof what - (size_t)k, "; %zu LOOP%s left empty go%s too",
                         n - 1 - m, n - 1 - m > 1 ? "s" : "", n - 1 - m > 1 ? "" : "es");
            r = put_prog(w, s, out, m * 8, what);
        }
        free(drop);
        free(out);
    }
    return r < 0 ? -1 : 0;
}

/* 2. each LOOP with an immediate trip count above 1 lowered to 1, and above 2 to count - 1 (a
 * count that adds a register is not known before a run: left alone) */
static int loops(writer *w)
{
    const otpu_bundle *b = w->b;
    for (uint32_t s = 0; s < b->cfg.S; s++)
        for (size_t i = 0; i < b->prog_words[s] / 8; i++) {
            uint32_t count, to[2];
            int by_reg;
            if (!shrink_prog_loop(b->prog[s], i, &count, &by_reg) || by_reg || count <= 1)
                continue;
            to[0] = 1;
            to[1] = count - 1;
            for (int k = 0; k < (count > 2 ? 2 : 1); k++) {
                if (full(w))
                    return 0;
                uint32_t *words = malloc(b->prog_words[s] * sizeof *words + 1);
                if (!words)
                    return otpu_fail_msg(w->err, w->errlen, "out of memory");
                memcpy(words, b->prog[s], b->prog_words[s] * sizeof *words);
                shrink_prog_set_count(words, i, to[k]);
                char what[200];
                snprintf(what, sizeof what, "loop slice %u pc %zu count %u -> %u", s, i, count,
                         to[k]);
                int r = put_prog(w, s, words, b->prog_words[s], what);
                free(words);
                if (r < 0)
                    return -1;
            }
        }
    return 0;
}

/* Fills d (len bytes) from r, byte by byte in the same order on every machine; the last byte
 * is not zero, so the image keeps its size when written (the writer trims trailing zeros). */
static void redraw(gen_rng *r, uint8_t *d, size_t len)
{
    for (size_t i = 0; i < len;) {
        uint64_t x = gen_rng_u64(r);
        for (int j = 0; j < 8 && i < len; j++, i++)
            d[i] = (uint8_t)(x >> (8 * j));
    }
    if (len && !d[len - 1])
        d[len - 1] = (uint8_t)gen_rng_range(r, 1, 255);
}

/* 3. other data: draw k of every slice's DRAM image, of the same size, from the seed */
static int data(writer *w, unsigned draw)
{
    const otpu_bundle *b = w->b;
    uint8_t **dram = calloc(b->cfg.S + 1, sizeof *dram);
    char *what = malloc(WHAT_MAX);
    int r = 0;
    if (!dram || !what) {
        r = otpu_fail_msg(w->err, w->errlen, "out of memory");
        goto done;
    }
    gen_rng rng;
    gen_rng_seed(&rng, gen_rng_mix(w->opt->seed, draw));
    size_t k = (size_t)snprintf(what, WHAT_MAX, "data seed %llu draw %u (DRAM bytes",
                                (unsigned long long)w->opt->seed, draw);
    int any = 0;
    for (uint32_t s = 0; s < b->cfg.S; s++) {
        size_t len = b->dram_len[s];
        if (!len)
            continue;
        if (!(dram[s] = malloc(len))) {
            r = otpu_fail_msg(w->err, w->errlen, "out of memory");
            goto done;
        }
        redraw(&rng, dram[s], len);
        if (k < WHAT_MAX)
            k += (size_t)snprintf(what + k, WHAT_MAX - k, "%s 0..%zu of slice %u",
                                  any ? "," : "", len - 1, s);
        any = 1;
    }
    if (k < WHAT_MAX)
        snprintf(what + k, WHAT_MAX - k, " redrawn)");
    if (any) {
        otpu_bundle c = *b;
        uint8_t **images = malloc((b->cfg.S + 1) * sizeof *images);
        if (!images) {
            r = otpu_fail_msg(w->err, w->errlen, "out of memory");
            goto done;
        }
        for (uint32_t s = 0; s < b->cfg.S; s++)
            images[s] = dram[s] ? dram[s] : b->dram[s];
        c.dram = images;
        r = put_variant(w, &c, what);
        free(images);
    }
done:
    for (uint32_t s = 0; dram && s < b->cfg.S; s++)
        free(dram[s]);
    free(dram);
    free(what);
    return r < 0 ? -1 : 0;
}

long shrink_variants_write(const otpu_bundle *b, const shrink_variants_options *opt, char *err,
                           size_t n)
{
    writer w = {b, opt, "", NULL, 0, err, n};
    char list[PATH_LEN];
    int made = !otpu_input_exists(opt->dir);
    if (otpu_out_make_dir(opt->dir, err, n))
        return -1;
    snprintf(w.scratch, sizeof w.scratch, "%s/.variant", opt->dir);
    snprintf(list, sizeof list, "%s/variants.txt", opt->dir);
    otpu_out out;
    if (otpu_out_check(&out, list, 0, err, n))
        return -1;
    if (!(w.list = otpu_out_open(&out, err, n))) {
        otpu_out_discard(&out);
        return -1;
    }
    int r = drops(&w);
    if (r == 0)
        r = loops(&w);
    for (unsigned k = 1; k <= SHRINK_DATA_VARIANTS && r == 0 && !full(&w); k++)
        r = data(&w, k);
    remove_scratch(w.scratch);
    if (r < 0 || !w.written) {
        otpu_out_discard(&out);
        if (made)
            rmdir(opt->dir); /* (only when empty) */
        return r < 0 ? -1 : 0;
    }
    if (otpu_out_commit(&out, err, n))
        return -1;
    return (long)w.written;
}
