/* otpu_fpvec.c - otpu-fpvec: the fp32 conformance vectors of openTPU's arithmetic.
 *
 *   otpu-fpvec gen   [--level N] [--seed S] [--ops LIST] [--count N] [-o FILE]
 *   otpu-fpvec check [--show N] FILE
 *   otpu-fpvec rtl   [--sv PATH] [--level N] [--seed S] [--ops LIST] [--count N] [--show N]
 *                    [--cache DIR] [--jobs N] [--rebuild] [FILE]
 *   otpu-fpvec ulp   [--samples N] [--functions LIST] [--sweep-step K] [--seed S]
 *                    [--threads N]
 *   otpu-fpvec exhaustive OP... [--sv PATH] [--rev R] [--range LO:HI] [--shard I/N] [-j N]
 *                    [--json FILE] [--mismatches FILE]
 *   otpu-fpvec exhaustive-merge [--json FILE] [--mismatches FILE] RESULT.json...
 *
 * Every command has --help. Exit status: 0 everything matched (ulp: every bound held), 1 a
 * mismatch (ulp: a bound exceeded), 2 bad input (usage, unreadable or malformed file, no
 * vectors, a bench that cannot be built or run).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "fpvec_cli.h"

static const char HELP_MAIN[] =
    "usage: otpu-fpvec COMMAND [OPTIONS]\n"
    "\n"
    "fp32 conformance vectors for openTPU's arithmetic: sim/fp32.c (the C model) and an RTL\n"
    "otpu_fp.sv (package otpu_fp) against each other and the golden vectors.\n"
    "\n"
    "commands:\n"
    "  gen    write vectors (op a b expected) made by sim/fp32.c, at level 1 or 2\n"
    "  check  run sim/fp32.c over a vector file\n"
    "  rtl    run the Verilated bench (project's otpu_fp.sv or --sv PATH) over a vector file,\n"
    "         or over generated vectors through DPI (no file)\n"
    "  ulp    worst error of exp2, log2, recip, rsqrt in ulp against the exact value\n"
    "  exhaustive  every input of the one-operand functions, sim/fp32.c against the RTL, in\n"
    "         parallel bench processes; a range or a shard of the inputs, a JSON result\n"
    "  exhaustive-merge  the report of several exhaustive results (shards) together\n"
    "\n"
    "otpu-fpvec COMMAND --help for a command's options. Exit status: 0 all matched (ulp: within\n"
    "the bounds), 1 mismatches (ulp: a bound exceeded), 2 bad input.\n";


int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_DFL);
    if (argc < 2)
        usage_error("a command is needed: gen, check, rtl, ulp, exhaustive or exhaustive-merge");
    const char *cmd = argv[1];
    char *help_argv[] = {NULL, "--help", NULL};
    if (strcmp(cmd, "help") == 0 && argc > 2) { /* otpu-fpvec help COMMAND */
        cmd = help_argv[0] = argv[2];
        argc = 2;
        argv = help_argv;
    } else if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(HELP_MAIN, stdout);
        return EXIT_OK;
    } else {
        argc--;
        argv++;
    }
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } commands[] = {
        {"gen", cmd_gen},
        {"check", cmd_check},
        {"rtl", cmd_rtl},
        {"ulp", cmd_ulp},
        {"exhaustive", cmd_exhaustive},
        {"exhaustive-merge", cmd_exhaustive_merge},
    };
    g_cmd = cmd;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc, argv);
    g_cmd = "";
    usage_error("unknown command '%s' (commands: gen check rtl ulp exhaustive "
                "exhaustive-merge)", cmd);
    return EXIT_INPUT;
}
