/* otpu_gen.c - otpu-gen: write K run bundles of a program family (generate.h).
 *
 *   otpu-gen FAMILY --seed N --count K --out DIR [--first I] [--rev NAME] [--data KIND]
 *            [--cover FILE [--tries T] | --variant V] [KEY=VALUE ...]
 *
 * Exit codes: 0 written, 1 a bundle could not be generated or written, 2 bad usage (a Config
 * the family cannot have, or more bundles than the disk holds, included). */
#include "cover.h"
#include "generate.h"
#include "input.h"
#include "output.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

enum {
    COUNT_MAX = 100000,            /* bundles one command writes */
    TRIES_MAX = 64,                /* --tries */
    IMAGE_BYTES = 1 << 17,         /* a slice's DRAM image at most (generate.c's IMAGE_MAX) */
    PROGRAM_BYTES = 1 << 16,       /* a slice's program text, generously */
};

static const char usage[] =
    "usage: otpu-gen FAMILY --seed N --count K --out DIR [--first I] [--rev NAME] [--data KIND]\n"
    "                [--cover FILE [--tries T] | --variant V] [KEY=VALUE ...]\n"
    "\n"
    "Writes K run bundles DIR/FAMILY-N-IIII (I = the index, from --first, default 0), each with\n"
    "gen.txt (family, seed, index and the command that writes that bundle again). Every\n"
    "program has run in the model: case.txt's expect= (and error=) is its outcome. The same\n"
    "command writes the same bytes on every machine.\n"
    "\n"
    "KEY=VALUE sets a Config field (S D MCOLS ACT_BLOCKS TMEM_WORDS DRAM_BYTES IMEM_WORDS LANES\n"
    "PAIR DSTEP STREAM ACT_ROWS; decimal or 0x hex; each once) over the default Config and the\n"
    "family's.\n"
    "--count is 1..100000, and what the bundles take (about 2 x S x 192 KiB each at most) must\n"
    "fit the free space of --out's file system. Each bundle folder appears complete or not at\n"
    "all (written under a temporary name, then renamed). --out is checked before the first\n"
    "bundle: a folder, or one that can be made, where each bundle's name is new or a folder.\n"
    "--rev NAME writes programs of that ISA revision (sim/revision.h; REV= in case.txt): only\n"
    "the instructions, functions and flags it has, run in the model of that revision.\n"
    "--data KIND: 'all' (the default) or 'finite': fp32 data without NaNs, infinities, huge\n"
    "values, tiny ones whose reciprocal overflows, the limits of exp2 and the runs of zeros\n"
    "with one tiny value, for an RTL whose reference leaves a quantization group with a NaN\n"
    "scale undefined (openTPU acf0c1c6, docs/opentpu.md): most programs then get past their\n"
    "quantizations (arithmetic can still make a NaN group); a seed's programs then differ.\n"
    "--cover FILE aims at the bins a coverage file (otpu-sim/otpu-lockstep --coverage,\n"
    "otpu-cov merge) has not hit: of T candidates for each index (--tries, 1..64, default 8)\n"
    "it writes the one whose run in the model hits most of them, then counts that bundle's\n"
    "bins as hit for the next index. A candidate is a variant of the index (--variant V writes\n"
    "variant V; 0, the default, is the bundle without --cover); gen.txt records which.\n"
    "\n"
    "families:\n";

/* One line on stderr (what it quotes escaped: no byte of an argument reaches the terminal
 * raw); exit status 2. */
static int bad(const char *fmt, ...)
{
    char line[2048], shown[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "otpu-gen: %s (otpu-gen --help)\n",
            otpu_escape(line, sizeof line, shown, sizeof shown));
    return 2;
}

/* decimal without leading zeros, or 0x hex: the bundle grammar's numbers (input.h) */
static int number(const char *s, uint64_t *v)
{
    return otpu_parse_number(s, strlen(s), v);
}

/* text after lead (10 columns), wrapped at word boundaries within 92 columns */
static void print_wrapped(const char *lead, const char *text)
{
    enum { WIDTH = 92, INDENT = 10 };
    printf("%-*s", INDENT, lead);
    int col = INDENT;
    while (*text) {
        size_t w = strcspn(text, " ");
        if (col > INDENT && col + 1 + (int)w > WIDTH) {
            printf("\n%*s", INDENT, "");
            col = INDENT;
        } else if (col > INDENT) {
            putchar(' ');
            col++;
        }
        printf("%.*s", (int)w, text);
        col += (int)w;
        text += w;
        text += strspn(text, " ");
    }
    putchar('\n');
}

static void print_help(void)
{
    fputs(usage, stdout);
    for (size_t i = 0; i < gen_nfamilies; i++) {
        char lead[16], data[600];
        snprintf(lead, sizeof lead, "  %s", gen_families[i].name);
        snprintf(data, sizeof data, "data: %s", gen_families[i].data);
        print_wrapped(lead, gen_families[i].what);
        print_wrapped("", data);
    }
    fputs("\nThe common data (gen/README.md, \"Data\"): each slice's DRAM image holds fp32 words\n"
          "(random mantissas whose sums and products round, halves and small integers, runs\n"
          "that tie or saturate when quantized, near-ties, cancellation pairs, now and then an\n"
          "edge value), int8/4-bit weights over their whole range (one-sign full-scale runs,\n"
          "alternating signs, ramps, sparse rows) and scale words of each format; every\n"
          "program first loads 4,096 TMEM words from it and quantizes the whole ACT RAM.\n",
          stdout);
    printf("\nexit status: 0 written, 1 a bundle could not be generated or written, 2 bad usage\n");
}

/* gen.txt's text (gen/README.md): how the bundle was made; qout is --out, shell-quoted */
static void gen_txt(char *t, size_t n, const char *family, uint64_t seed, uint64_t index,
                    uint64_t variant, const char *qout, const char *overrides,
                    const gen_info *info)
{
    char q[700], var[64] = "";
    if (variant)
        snprintf(var, sizeof var, " --variant %llu", (unsigned long long)variant);
    int k = snprintf(t, n, "family=%s\nseed=%llu\nindex=%llu\nvariant=%llu\ncommand=otpu-gen %s "
                           "--seed %llu --first %llu --count 1 --out %s%s%s\n",
                     family, (unsigned long long)seed, (unsigned long long)index,
                     (unsigned long long)variant, family, (unsigned long long)seed,
                     (unsigned long long)index, qout, var, overrides);
    size_t len = k < 0 ? 0 : (size_t)k < n ? (size_t)k : n - 1;
    if (info->model_error[0] && len < n) /* (one line: the message is escaped) */
        len += (size_t)snprintf(t + len, n - len, "model_error=%s\n",
                                otpu_escape(info->model_error, sizeof info->model_error, q,
                                            sizeof q));
    if (len < n)
        snprintf(t + len, n - len, "repaired=%u\ndiscarded=%u\n", info->repaired,
                 info->discarded);
}

/* Refuses a count whose bundles would not fit the free space of out's file system (an
 * estimate from above: every image and program at its largest). 0, or 2 said. */
static int room_for(const char *out, uint64_t count, const otpu_config *cfg)
{
    struct statvfs fs;
    if (statvfs(out, &fs))
        return 0; /* (unknown: the writes will say) */
    uint64_t image = cfg->DRAM_BYTES < IMAGE_BYTES ? cfg->DRAM_BYTES : IMAGE_BYTES;
    uint64_t each = (uint64_t)cfg->S * (image + PROGRAM_BYTES) + 4096;
    uint64_t free_bytes = (uint64_t)fs.f_bavail * fs.f_frsize;
    if (count > free_bytes / each)
        return bad("--count %llu: up to %llu MiB of bundles, and %s has %llu MiB free",
                   (unsigned long long)count, (unsigned long long)(count * each >> 20), out,
                   (unsigned long long)(free_bytes >> 20));
    return 0;
}

/* Every bundle folder the run writes into out either is not there yet or is a folder (a
 * bundle is replaced whole: bundle.h); anything else there (a file, a device) is refused now,
 * not after the bundles before it were written. 0, or -1 with err set. */
static int bundles_replaceable(const char *out, const char *family, uint64_t seed,
                               uint64_t first, uint64_t count, char *err, size_t n)
{
    struct stat st;
    for (uint64_t i = first; i < first + count && !stat(out, &st); i++) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/%s-%llu-%04llu", out, family, (unsigned long long)seed,
                 (unsigned long long)i);
        if (!lstat(dir, &st) && !S_ISDIR(st.st_mode))
            return otpu_fail_msg(err, n, "%s: is %s, not a bundle folder", dir,
                                 otpu_file_type(st.st_mode));
    }
    return 0;
}

/* The bundle for index i into *b: variant *variant; with holes (--cover), the candidate of
 * variants 0..tries-1 whose run hits most of holes' empty bins (*variant says which), its bins
 * then added to holes. 0, or otpu_gen_bundle's code with err. */
static int choose(const gen_family *f, uint64_t seed, uint64_t i, gen_data data,
                  const otpu_config *cfg,
                  otpu_coverage *holes, unsigned tries, uint64_t *variant, otpu_bundle *b,
                  gen_info *info, char *err, size_t errlen)
{
    if (!holes)
        return otpu_gen_bundle(f, seed, i, *variant, data, cfg, b, info, err, errlen);
    if (!gen_cover_empty(holes))
        tries = 1; /* (nothing left to aim at) */
    otpu_coverage *best = NULL;
    size_t best_score = 0;
    int rc = -1;
    for (unsigned t = 0; t < tries; t++) {
        otpu_bundle cand;
        gen_info cinfo;
        int r = otpu_gen_bundle(f, seed, i, t, data, cfg, &cand, &cinfo, err, errlen);
        if (r == GEN_BAD_CONFIG || (r && !t)) {
            rc = r;
            break;
        }
        if (r) /* (a later variant with no valid program: the others stand) */
            continue;
        otpu_coverage *run = gen_cover_run(&cand);
        size_t score = run ? gen_cover_score(holes, run) : 0;
        if (run && (!best || score > best_score)) {
            if (best)
                otpu_bundle_free(b);
            otpu_coverage_free(best);
            *b = cand, *info = cinfo, *variant = t;
            best = run, best_score = score;
            rc = 0;
        } else {
            otpu_coverage_free(run);
            otpu_bundle_free(&cand);
            if (!run) {
                snprintf(err, errlen, "out of memory running a candidate for coverage");
                rc = -1;
                break;
            }
        }
    }
    if (rc && best) {
        otpu_bundle_free(b);
    } else if (best && otpu_coverage_merge(holes, best, err, errlen)) {
        otpu_bundle_free(b);
        rc = -1;
    }
    otpu_coverage_free(best);
    return rc;
}

int main(int argc, char **argv)
{
    const char *family = NULL, *out = NULL, *cover = NULL;
    uint64_t seed = 0, count = 0, first = 0, variant = 0, tries = 8;
    int have_tries = 0, have_variant = 0;
    otpu_revision rev = OTPU_REV_CURRENT;
    gen_data data = GEN_DATA_ALL;
    int have_seed = 0, have_count = 0;
    char overrides[4096] = "";
    const char *keys[64];
    uint64_t vals[64];
    int nkeys = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_help();
            return 0;
        }
        int opt = !strcmp(a, "--seed") || !strcmp(a, "--count") || !strcmp(a, "--out") ||
                  !strcmp(a, "--first") || !strcmp(a, "--rev") || !strcmp(a, "--cover") ||
                  !strcmp(a, "--tries") || !strcmp(a, "--variant") || !strcmp(a, "--data");
        if (opt && i + 1 == argc)
            return bad("%s needs a value", a);
        if (!strcmp(a, "--out")) {
            out = argv[++i];
        } else if (!strcmp(a, "--cover")) {
            cover = argv[++i];
        } else if (!strcmp(a, "--data")) {
            if (strcmp(argv[++i], "all") && strcmp(argv[i], "finite"))
                return bad("--data: '%s' is not all or finite", argv[i]);
            data = strcmp(argv[i], "all") ? GEN_DATA_FINITE : GEN_DATA_ALL;
            if (data == GEN_DATA_FINITE) /* (gen.txt's command: the bundle made again) */
                snprintf(overrides + strlen(overrides), sizeof overrides - strlen(overrides),
                         " --data finite");
        } else if (!strcmp(a, "--rev")) {
            char names[128];
            if (otpu_rev_from_name(argv[++i], &rev))
                return bad("--rev: '%s' is not a revision (%s)", argv[i],
                           otpu_rev_names(names, sizeof names));
            snprintf(overrides + strlen(overrides), sizeof overrides - strlen(overrides),
                     " --rev %s", argv[i]);
        } else if (opt) {
            uint64_t v;
            if (number(argv[++i], &v))
                return bad("%s: '%s' is not a number (decimal, or hex with 0x)", a, argv[i]);
            if (!strcmp(a, "--seed"))
                seed = v, have_seed = 1;
            else if (!strcmp(a, "--first"))
                first = v;
            else if (!strcmp(a, "--variant"))
                variant = v, have_variant = 1;
            else if (!strcmp(a, "--tries") && (v < 1 || v > TRIES_MAX))
                return bad("--tries: %s is not 1..%d", argv[i], TRIES_MAX);
            else if (!strcmp(a, "--tries"))
                tries = v, have_tries = 1;
            else if (v < 1 || v > COUNT_MAX)
                return bad("--count: %s is not 1..%d", argv[i], COUNT_MAX);
            else
                count = v, have_count = 1;
        } else if (a[0] == '-') {
            return bad("unknown option '%s'", a);
        } else if (strchr(a, '=')) {
            const char *eq = strchr(a, '=');
            static char names[64][32];
            uint64_t v;
            if (nkeys == 64 || (size_t)(eq - a) >= sizeof names[0])
                return bad("'%s': not a Config field", a);
            memcpy(names[nkeys], a, (size_t)(eq - a));
            names[nkeys][eq - a] = 0;
            otpu_config probe = otpu_config_default();
            if (otpu_config_set(&probe, names[nkeys], 0) == -1)
                return bad("'%s': %s is not a Config field", a, names[nkeys]);
            for (int k = 0; k < nkeys; k++) /* (as case.txt: a field once) */
                if (!strcmp(keys[k], names[nkeys]))
                    return bad("'%s': %s is given twice", a, names[nkeys]);
            if (number(eq + 1, &v))
                return bad("'%s': %s is not a number (decimal, or hex with 0x)", a, eq + 1);
            keys[nkeys] = names[nkeys];
            vals[nkeys++] = v;
            snprintf(overrides + strlen(overrides), sizeof overrides - strlen(overrides), " %s",
                     a);
        } else if (!family) {
            family = a;
        } else {
            return bad("unexpected argument '%s'", a);
        }
    }
    if (!family)
        return bad("no FAMILY given");
    const gen_family *f = gen_family_find(family);
    if (!f)
        return bad("unknown family '%s'", family);
    if (!have_seed || !have_count || !out)
        return bad("--seed, --count and --out are required");
    if (first > UINT64_MAX - count)
        return bad("--first %llu + --count overflows", (unsigned long long)first);
    if (cover && have_variant)
        return bad("--cover chooses the variant: not with --variant");
    if (have_tries && !cover)
        return bad("--tries goes with --cover");
    otpu_config cfg = otpu_config_default();
    if (f->defaults)
        f->defaults(&cfg);
    cfg.revision = rev; /* the family's defaults give way to what the revision lacks */
    for (const char *const *k = otpu_rev_desc_of(rev)->lacks_config;
         k < otpu_rev_desc_of(rev)->lacks_config + OTPU_REV_MAX_CONFIG && *k; k++)
        otpu_config_set(&cfg, *k, 0);
    for (int k = 0; k < nkeys; k++)
        if (otpu_config_set(&cfg, keys[k], vals[k]))
            return bad("%s=%llu is too large", keys[k], (unsigned long long)vals[k]);
    char why[256];
    if (otpu_config_check(&cfg, why, sizeof why))
        return bad("%s", why);
    if (f->refuses && f->refuses(&cfg))
        return bad("family %s: %s%s%s%s", family, f->refuses(&cfg),
                   rev == OTPU_REV_CURRENT ? "" : ", which ISA revision ",
                   rev == OTPU_REV_CURRENT ? "" : otpu_rev_name(rev),
                   rev == OTPU_REV_CURRENT ? "" : " lacks");
    char qout[4200], shown[200], err[1200];
    otpu_escape(out, 160, shown, sizeof shown);
    if (!otpu_shell_quote(out, qout, sizeof qout))
        return bad("--out '%s': a control byte, or too long, in a folder name", shown);
    if (otpu_out_check_dir(out, 0, err, sizeof err) || bundles_replaceable(out, family, seed,
                                                                            first, count, err,
                                                                            sizeof err))
        return bad("--out: %s", err);
    otpu_coverage *holes = NULL;
    if (cover && !(holes = otpu_coverage_read_json(cover, err, sizeof err)))
        return bad("--cover: %s", err);
    /* the folder is made once everything else is known to be good */
    int rc = otpu_out_make_dir(out, err, sizeof err) ? bad("--out: %s", err)
             : room_for(out, count, &cfg)             ? 2
                                                      : 0;
    int progress = count >= 50 || isatty(2);
    for (uint64_t i = first; i < first + count && !rc; i++) {
        otpu_bundle b;
        char dir[4200], note[6000];
        gen_info info;
        uint64_t v = variant;
        rc = choose(f, seed, i, data, &cfg, holes, (unsigned)tries, &v, &b, &info, err, sizeof err);
        if (rc) {
            otpu_print_line(stderr, "otpu-gen: ", err);
            rc = rc == GEN_BAD_CONFIG ? 2 : 1;
            break;
        }
        snprintf(dir, sizeof dir, "%s/%s-%llu-%04llu", out, family, (unsigned long long)seed,
                 (unsigned long long)i);
        gen_txt(note, sizeof note, family, seed, i, v, qout, overrides, &info);
        rc = otpu_bundle_write_note(dir, &b, "gen.txt", note, err, sizeof err);
        otpu_bundle_free(&b);
        if (rc) {
            otpu_print_line(stderr, "otpu-gen: ", err);
            rc = 1;
            break;
        }
        if (progress && ((i - first + 1) % 100 == 0 || i + 1 == first + count)) {
            fprintf(stderr, "otpu-gen: %llu/%llu bundles", (unsigned long long)(i - first + 1),
                    (unsigned long long)count);
            if (holes)
                fprintf(stderr, " (--cover: %zu bins still empty)", gen_cover_empty(holes));
            fputc('\n', stderr);
        }
    }
    otpu_coverage_free(holes);
    return rc;
}
