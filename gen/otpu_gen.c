/* otpu_gen.c - otpu-gen: write K run bundles of a program family (generate.h).
 *
 *   otpu-gen FAMILY --seed N --count K --out DIR [--first I] [--rev NAME] [KEY=VALUE ...]
 *
 * Exit codes: 0 written, 1 a bundle could not be generated or written, 2 bad usage. */
#include "generate.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    "--rev NAME writes programs of that ISA revision (sim/revision.h; REV= in case.txt): only\n"
    "the instructions, functions and flags it has, run in the model of that revision.\n"
    "\n"
    "families:\n";

static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("otpu-gen: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs(" (otpu-gen --help)\n", stderr);
    va_end(ap);
    return 2;
}

/* decimal without leading zeros, or 0x hex: the bundle grammar's numbers */
static int number(const char *s, uint64_t *v)
{
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *p = hex ? s + 2 : s;
    const char *digits = hex ? "0123456789abcdefABCDEF" : "0123456789";
    if (!*p || (!hex && p[0] == '0' && p[1]) || strspn(p, digits) != strlen(p))
        return -1;
    errno = 0;
    unsigned long long x = strtoull(p, NULL, hex ? 16 : 10);
    if (errno)
        return -1;
    *v = x;
    return 0;
}

static void print_help(void)
{
    fputs(usage, stdout);
    for (size_t i = 0; i < gen_nfamilies; i++)
        printf("  %-7s %s\n", gen_families[i].name, gen_families[i].what);
    printf("\nexit status: 0 written, 1 a bundle could not be generated or written, 2 bad usage\n");
}

static int write_gen_txt(const char *dir, const char *family, uint64_t seed, uint64_t index,
                         const char *out, const char *overrides, const gen_info *info)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/gen.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "family=%s\nseed=%llu\nindex=%llu\ncommand=otpu-gen %s --seed %llu --first %llu "
               "--count 1 --out %s%s\n",
            family, (unsigned long long)seed, (unsigned long long)index, family,
            (unsigned long long)seed, (unsigned long long)index, out, overrides);
    if (info->model_error[0])
        fprintf(f, "model_error=%s\n", info->model_error);
    fprintf(f, "repaired=%u\ndiscarded=%u\n", info->repaired, info->discarded);
    return fclose(f);
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
            else if (v < 1 || v > 1000000)
                return bad("--count: %s is not 1..1000000", argv[i]);
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
    if (mkdir(out, 0777) && errno != EEXIST)
        return bad("--out %s: cannot create: %s", out, strerror(errno));
    struct stat st;
    if (stat(out, &st) || !S_ISDIR(st.st_mode) || access(out, W_OK | X_OK))
        return bad("--out %s: not a writable folder", out);
    int progress = count >= 50 || isatty(2);
    for (uint64_t i = first; i < first + count; i++) {
        otpu_bundle b;
        char err[1024], dir[4096];
        gen_info info;
        if (otpu_gen_bundle(f, seed, i, &cfg, &b, &info, err, sizeof err)) {
            fprintf(stderr, "otpu-gen: %s\n", err);
            return 1;
        }
        snprintf(dir, sizeof dir, "%s/%s-%llu-%04llu", out, family, (unsigned long long)seed,
                 (unsigned long long)i);
        int rc = otpu_bundle_write(dir, &b, err, sizeof err);
        otpu_bundle_free(&b);
        if (rc) {
            fprintf(stderr, "otpu-gen: %s\n", err);
            return 1;
        }
        if (write_gen_txt(dir, family, seed, i, out, overrides, &info)) {
            fprintf(stderr, "otpu-gen: %s/gen.txt: cannot write\n", dir);
            return 1;
        }
        if (progress && ((i - first + 1) % 100 == 0 || i + 1 == first + count))
            fprintf(stderr, "otpu-gen: %llu/%llu bundles\n", (unsigned long long)(i - first + 1),
                    (unsigned long long)count);
    }
    return 0;
}
