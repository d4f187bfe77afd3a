/* fpvec_cli.h - what the commands of otpu-fpvec share (fpvec_cli.c): messages that end the
 * tool on bad input, option parsing, the options of generated vectors, and the commands
 * themselves (one file each: fpvec_gen.c, fpvec_check.c, fpvec_rtl.c, fpvec_ulp.c,
 * fpvec_exhaustive.c). */
#ifndef OTPU_FPVEC_CLI_H
#define OTPU_FPVEC_CLI_H

#include <stdint.h>
#include <sys/types.h>

#include "fpvec.h"

#ifndef OTPU_FPVEC_SRCDIR
#define OTPU_FPVEC_SRCDIR "" /* the source tree (meson sets it) */
#endif
#ifndef OTPU_FPVEC_BENCH
#define OTPU_FPVEC_BENCH "" /* the meson-built bench of the project's rtl/otpu_fp.sv */
#endif

#define EXIT_OK 0
#define EXIT_MISMATCH 1
#define EXIT_INPUT 2

extern const char *g_cmd; /* the running command, for messages */

/* One line on stderr, "otpu-fpvec: CMD: ...", control bytes escaped. die: then exit 2;
 * usage_error: with a pointer to --help, then exit 2. */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
double now_s(void);
char *xstrdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *source_dir(void); /* the otpu-lockstep source tree (for the bench's sources) */

typedef struct args {
    int argc, i;
    char **argv;
    const char *value; /* the current option's value */
} args;

/* Is argv[i] the option name (as "--name VALUE" or "--name=VALUE" when it takes a value)?
 * Sets a->value and advances past the value. */
int opt_is(args *a, const char *name, int takes_value);
/* A decimal (or 0x hex) number in lo..hi, or usage_error. */
uint64_t parse_u64(const char *name, const char *v, uint64_t lo, uint64_t hi);
uint32_t parse_ops_opt(const char *v);
/* --rev's value: the ISA revision's description, or usage_error. */
const otpu_rev_desc *parse_rev_opt(const char *v);
int wants_help(int argc, char **argv);

/* The options that choose generated vectors (gen, rtl's DPI mode). */
typedef struct gen_opts {
    int level;
    uint64_t seed, count;
    uint32_t ops;             /* 0 until --ops or gen_opts_finish */
    const otpu_rev_desc *rev; /* --rev (default: the current revision) */
} gen_opts;
void gen_opts_default(gen_opts *o);
/* Consumes a gen option (--level --seed --count --ops --rev) at a->argv[a->i]; returns 0 if it
 * is none. */
int gen_opt(args *a, gen_opts *o);
/* After the options: the ops default to those of the revision's fp32 unit; --ops naming one
 * it lacks is a usage error. */
void gen_opts_finish(gen_opts *o);

/* Reads a vector file ("-": stdin), calling each(v, line number, user) for every vector; a
 * malformed line, an unreadable file or one without vectors ends the tool (exit 2) naming it.
 * Returns the number of vectors. */
uint64_t read_vectors(const char *path, void (*each)(const fpvec_vec *, uint64_t, void *),
                      void *user);

/* The bench (tb_fp) of the otpu_fp.sv at sv, built for revision rev (fpvec_rtl.c): sv NULL,
 * the project's rtl/otpu_fp.sv (the meson-built bench, else one built into the cache). Sets
 * *sv_path to the otpu_fp.sv's absolute path. Ends the tool (exit 2) when it cannot build. */
char *rtl_bench(const char *sv, const otpu_rev_desc *rev, const char *cache, unsigned jobs,
                int rebuild, char **sv_path);

/* --cache DIR: a folder, or one that can be made (output.h); else a usage error (exit 2) */
void check_cache_dir(const char *dir);

/* the bench (argv[0]) started with its output on a pipe (*fd); it dies with the tool */
pid_t bench_spawn(char *const *argv, int *fd);

int cmd_gen(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_rtl(int argc, char **argv);
int cmd_ulp(int argc, char **argv);
int cmd_exhaustive(int argc, char **argv);
int cmd_exhaustive_merge(int argc, char **argv);

#endif
