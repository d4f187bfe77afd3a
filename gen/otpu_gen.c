/* otpu_gen.c - otpu-gen: write K run bundles of a program family (generate.h).
 *
 *   otpu-gen FAMILY --seed N --count K --out DIR [--first I] [--rev NAME] [KEY=VALUE ...]
 *
 * Exit codes: 0 written, 1 a bundle could not be generated or written, 2 bad usage (a Config
 * the family cannot have, or more bundles than the disk holds, included). */
#include "generate.h"
#include "input.h"

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
    IMAGE_BYTES = 1 << 17,         /* a slice's DRAM image at most (generate.c's IMAGE_MAX) */
    PROGRAM_BYTES = 1 << 16,       /* a slice's program text, generously */
};

static const char usage[] =
    "usage: otpu-gen FAMILY --seed N --count K --out DIR [--first I] [--rev NAME]\n"
    "                [KEY=VALUE ...]\n"
    "\n"
    "Writes K run bundles DIR/FAMILY-N-IIII (I = the index, from --first, default 0), each with\n"
    "gen.txt (family, seed, index and the command that writes that bundle again). Every\n"
    "program has run in the model: case.txt's expect= (and error=) is its outcome. The same\n"
    "command writes the same bytes on every machine.\n"
    "\n"
    "KEY=VALUE sets a Config field (S D MCOLS ACT_BLOCKS TMEM_WORDS DRAM_BYTES IMEM_WORDS LANES\n"
    "PAIR DSTEP STREAM ACT_ROWS; decimal or 0x hex) over the default Config and the family's.\n"
    "--count is 1..100000, and what the bundles take (about 2 x S x 192 KiB each at most) must\n"
    "fit the free space of --out's file system. Each bundle folder appears complete or not at\n"
    "all (written under a temporary name, then renamed).\n"
    "--rev NAME writes programs of that ISA revision (sim/revision.h; REV= in case.txt): only\n"
    "the instructions, functions and flags it has, run in the model of that revision.\n"
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

static void print_help(void)
{
    fputs(usage, stdout);
    for (size_t i = 0; i < gen_nfamilies; i++)
        printf("  %-7s %s\n", gen_families[i].name, gen_families[i].what);
    printf("\nexit status: 0 written, 1 a bundle could not be generated or written, 2 bad usage\n");
}

/* gen.txt's text (gen/README.md): how the bundle was made; qout is --out, shell-quoted */
static void gen_txt(char *t, size_t n, const char *family, uint64_t seed, uint64_t index,
                    const char *qout, const char *overrides, const gen_info *info)
{
    char q[700];
    int k = snprintf(t, n, "family=%s\nseed=%llu\nindex=%llu\ncommand=otpu-gen %s --seed %llu "
                           "--first %llu --count 1 --out %s%s\n",
                     family, (unsigned long long)seed, (unsigned long long)index, family,
                     (unsigned long long)seed, (unsigned long long)index, qout, overrides);
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

int main(int argc, char **argv)
{
    const char *family = NULL, *out = NULL;
    uint64_t seed = 0, count = 0, first = 0;
    otpu_revision rev = OTPU_REV_CURRENT;
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
                  !strcmp(a, "--first") || !strcmp(a, "--rev");
        if (opt && i + 1 == argc)
            return bad("%s needs a value", a);
        if (!strcmp(a, "--out")) {
            out = argv[++i];
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
    char qout[4200], shown[200];
    otpu_escape(out, 160, shown, sizeof shown);
    if (!otpu_shell_quote(out, qout, sizeof qout))
        return bad("--out '%s': a control byte, or too long, in a folder name", shown);
    if (mkdir(out, 0777) && errno != EEXIST)
        return bad("--out %s: cannot create: %s", shown, strerror(errno));
    struct stat st;
    if (stat(out, &st) || !S_ISDIR(st.st_mode) || access(out, W_OK | X_OK))
        return bad("--out %s: not a writable folder", shown);
    if (room_for(out, count, &cfg))
        return 2;
    int progress = count >= 50 || isatty(2);
    for (uint64_t i = first; i < first + count; i++) {
        otpu_bundle b;
        char err[1024], dir[4200], note[6000];
        gen_info info;
        int rc = otpu_gen_bundle(f, seed, i, &cfg, &b, &info, err, sizeof err);
        if (rc) {
            fprintf(stderr, "otpu-gen: %s\n", err);
            return rc == GEN_BAD_CONFIG ? 2 : 1;
        }
        snprintf(dir, sizeof dir, "%s/%s-%llu-%04llu", out, family, (unsigned long long)seed,
                 (unsigned long long)i);
        gen_txt(note, sizeof note, family, seed, i, qout, overrides, &info);
        rc = otpu_bundle_write_note(dir, &b, "gen.txt", note, err, sizeof err);
        otpu_bundle_free(&b);
        if (rc) {
            fprintf(stderr, "otpu-gen: %s\n", otpu_escape(err, sizeof err, note, sizeof note));
            return 1;
        }
        if (progress && ((i - first + 1) % 100 == 0 || i + 1 == first + count))
            fprintf(stderr, "otpu-gen: %llu/%llu bundles\n", (unsigned long long)(i - first + 1),
                    (unsigned long long)count);
    }
    return 0;
}
