/* generate.c - build, run in the model, repair or regenerate, return (generate.h).
 *
 * A family builds programs that are valid by construction as far as it knows; the model
 * decides. An error the family did not intend names its slice and pc: that instruction
 * becomes a NOP (a HALT CHAIN a plain HALT) and the run is repeated, a bounded number of
 * times. What cannot be repaired that way (a collective, a step limit, the intended error
 * instruction failing with another kind) throws the whole program away for the next one. */
#include "generate.h"
#include "revision.h"

#include "data.h"
#include "families.h"
#include "layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_ATTEMPTS = 64,      /* programs built for one bundle */
    MAX_REPAIRS = 96,       /* model runs to repair one program */
    MAX_STEPS = 400000,     /* the model's step limit while checking */
    IMAGE_MAX = 1 << 17,    /* bytes of each DRAM image (the rest of DRAM is zero) */
};

/* (the data every family writes first: layout.c; what each adds or changes: .data) */
const gen_family gen_families[] = {
    {"mix", "every opcode, VOP function and flag; all units busy; loops (of count 0 too); "
            "RLD; HALT CHAIN; BAR/GATHER (each slice its own GATHER source, stride and data)",
     "the common data; host data words when slices wait for the host",
     NULL, NULL, gen_family_mix},
    {"hazard", "a tiny shared pool of TMEM, DRAM and ACT rows: RAW/WAR/WAW between every pair "
               "of units; ranges that meet at exactly the first or last word, or miss by one",
     "the common data, laid out in the tiny pool", NULL, NULL, gen_family_hazard},
    {"dma", "LD/ST/QST at every alignment, lengths around chunks, strides, the highest "
            "addresses",
     "the common data; LDs read past the pool (words of the whole 16 KiB image)", NULL, NULL,
     gen_family_dma},
    {"mm", "QACT and MM: replay past MCOLS, ACC chains, RMAX, ASCALE, 4-bit weights, PAIR/DUP "
           "(turns PAIR on)",
     "the common data; every MM's scale words of its weight format; a quarter of the chains "
     "full-scale: activations of one magnitude and sign times weights of one sign at full scale "
     "(a K block's integer past 2^17)",
     gen_family_mm_defaults, NULL, gen_family_mm},
    {"stream", "DSTEP and STREAM descriptors with edge shapes (turns DSTEP and STREAM on)",
     "the common data", gen_family_stream_defaults, gen_family_stream_refuses,
     gen_family_stream},
    {"fp", "VOP-heavy programs: every function, rows past 64 columns",
     "the common data with a fifth of the words fp32 edge values (zeros, subnormals, inf, NaN, "
     "ulps around 1 and ties, the limits of exp2/recip/rsqrt/log2)", NULL, NULL, gen_family_fp},
    {"error", "a valid prefix, then one ISA error of each kind in turn (a collective: a BAR "
              "alone or GATHERs that disagree; a TMEM range: an LD/ST or STREAM rows past the end)",
     "the common data", NULL, NULL, gen_family_error},
};
const size_t gen_nfamilies = sizeof gen_families / sizeof gen_families[0];

const gen_family *gen_family_find(const char *name)
{
    for (size_t i = 0; i < gen_nfamilies; i++)
        if (!strcmp(gen_families[i].name, name))
            return &gen_families[i];
    return NULL;
}

/* ------------------------------------------------------------------ build, run, repair */

static void ctx_free(gen_ctx *c)
{
    for (unsigned s = 0; s < OTPU_MAX_SLICES; s++) {
        free(c->prog[s].ins);
        free(c->dram[s]);
    }
}

static int ctx_init(gen_ctx *c, const otpu_config *cfg, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    gen_rng_seed(&c->rng, seed);
    c->cfg = *cfg;
    c->dram_len = cfg->DRAM_BYTES < IMAGE_MAX ? (size_t)cfg->DRAM_BYTES : IMAGE_MAX;
    for (unsigned s = 0; s < cfg->S; s++) {
        c->prog[s].last_end = -1;
        if (!(c->dram[s] = calloc(1, c->dram_len)))
            return -1;
    }
    uint64_t chain = c->dram_len >= 2 * GEN_CHAIN_BYTES ? GEN_CHAIN_BYTES : 0;
    c->tmem = (gen_pool){0, cfg->TMEM_WORDS < 4096 ? cfg->TMEM_WORDS : 4096};
    c->dpool = (gen_pool){0, c->dram_len - chain < 65536 ? c->dram_len - chain : 65536};
    c->act_blocks = cfg->ACT_BLOCKS;
    c->max_rows = 4;
    c->max_cols = 130;
    c->edge_pct = 5;
    for (unsigned k = 0; k < 8; k++) /* run arguments: small, chunk-sized, huge, negative */
        c->args[k] = gen_rng_chance(&c->rng, 50) ? (uint32_t)gen_rng_below(&c->rng, 4096)
                                                 : gen_rng_u32(&c->rng);
    if (otpu_rev_desc_of(cfg->revision)->no_run_args) /* (the draws above keep the seeds' other
                                                         choices the same) */
        memset(c->args, 0, sizeof c->args);
    return 0;
}


/* The words of a program as prog_<s>.hex holds them. */
static uint32_t *program_words(const gen_prog *p)
{
    uint32_t *w = malloc((p->n ? p->n : 1) * 32);
    for (size_t i = 0; w && i < p->n; i++)
        memcpy(w + 8 * i, p->ins[i].w, 32);
    return w;
}

/* The bundle of the context: its programs' words in prog (malloc'ed, NULL if out of memory),
 * its DRAM images borrowed. */
static void to_bundle(gen_ctx *c, otpu_bundle *b, uint32_t **prog, size_t *pw, uint8_t **dram,
                      size_t *dl)
{
    memset(b, 0, sizeof *b);
    b->cfg = c->cfg;
    memcpy(b->args, c->args, sizeof b->args);
    b->nargs = otpu_rev_desc_of(c->cfg.revision)->no_run_args ? 0 : 8;
    for (unsigned s = 0; s < c->cfg.S; s++) {
        prog[s] = program_words(&c->prog[s]);
        pw[s] = c->prog[s].n * 8;
        dram[s] = c->dram[s];
        dl[s] = c->dram_len;
    }
    b->prog = prog;
    b->prog_words = pw;
    b->dram = dram;
    b->dram_len = dl;
}

/* The host steps of the context (host_steps.c) into b (parsed as a bundle's host.txt); 0, or
 * -1 when out of memory. */
static int host_to_bundle(const gen_ctx *c, otpu_bundle *b)
{
    if (!c->host_len)
        return 0;
    char err[256];
    if (!(b->host_text = malloc(c->host_len)))
        return -1;
    memcpy(b->host_text, c->host, c->host_len);
    b->host_len = c->host_len;
    return otpu_host_parse(b->host_text, b->host_len, "host.txt", &c->cfg, &b->host, err,
                           sizeof err);
}

static void host_free(otpu_bundle *b)
{
    otpu_host_script_free(&b->host);
    free(b->host_text);
    b->host_text = NULL;
}

/* The reference's wording of each kind, for an error line when the model's own message
 * is not classified as its kind (otpu_err_classify reads the reference's messages). */
static const char *reference_wording(otpu_err_kind k)
{
    switch (k) {
    case OTPU_ERR_DRAM_ADDR: return "bad DRAM word address";
    case OTPU_ERR_TMEM_RANGE: return "TMEM index out of range";
    case OTPU_ERR_PAST_END: return "past end of program";
    case OTPU_ERR_LOOP: return "LOOP with empty body";
    case OTPU_ERR_HAZARD: return "VOP read-after-write hazard";
    case OTPU_ERR_BOUNDS: return "out of bounds";
    case OTPU_ERR_ILLEGAL: return "bad opcode";
    case OTPU_ERR_COLLECTIVE: return "collective with a halted slice";
    case OTPU_ERR_WAITW: return "WAITW timeout";
    case OTPU_ERR_CHAIN: return "HALT CHAIN to a bad address";
    default: return "";
    }
}

enum { RUN_ACCEPT, RUN_REPAIRED, RUN_DISCARD };

/* One model run of the context: accept it (filling *b's expectation), repair it, or
 * discard it. */
static int run_once(gen_ctx *c, otpu_bundle *b, char *msg, size_t msglen, gen_info *info);

/* run_once with the host steps in b: they stay with an accepted bundle */
static int check_once(gen_ctx *c, otpu_bundle *b, char *msg, size_t msglen, gen_info *info)
{
    int r = run_once(c, b, msg, msglen, info);
    if (r != RUN_ACCEPT)
        host_free(b);
    return r;
}

/* The intended error stops the reference's machine at once, so on several slices the others'
 * programs are checked here too: run in slice-errors mode (machine.h), as the RTL runs them,
 * every slice must end (halt, or the intended kind of error) within the step limit. An other
 * error of a slice is repaired as run_once repairs one. */
static int every_slice_ends(gen_ctx *c, const otpu_bundle *b, gen_info *info)
{
    uint32_t *prog[OTPU_MAX_SLICES];
    size_t pw[OTPU_MAX_SLICES], dl[OTPU_MAX_SLICES];
    uint8_t *dram[OTPU_MAX_SLICES];
    otpu_bundle t;
    to_bundle(c, &t, prog, pw, dram, dl);
    t.host = b->host; /* (borrowed) */
    t.host_text = b->host_text;
    t.host_len = b->host_len;
    int oom = 0;
    for (unsigned s = 0; s < c->cfg.S; s++)
        oom |= !prog[s];
    otpu_error e;
    otpu_machine *m = oom ? NULL : otpu_bundle_machine(&t, &e);
    for (unsigned s = 0; s < c->cfg.S; s++)
        free(prog[s]);
    if (!m)
        return RUN_DISCARD;
    otpu_machine_set_strict(m, OTPU_STRICT_ALL);
    otpu_machine_set_slice_errors(m, 1);
    otpu_machine_run(m, MAX_STEPS);
    int r = otpu_machine_steps(m) >= MAX_STEPS ? RUN_DISCARD : RUN_ACCEPT;
    for (uint32_t s = 0; s < c->cfg.S && r == RUN_ACCEPT; s++) {
        const otpu_error *se = otpu_machine_slice_error(m, s);
        if (!se || se->kind == c->want_kind)
            continue;
        gen_prog *p = &c->prog[s];
        if (se->kind == OTPU_ERR_COLLECTIVE || se->pc >= p->n) {
            r = RUN_DISCARD;
        } else {
            otpu_instr *in = &p->ins[se->pc];
            info->repaired++;
            otpu_encode_operands(in->op == OTPU_OP_HALT ? OTPU_OP_HALT : OTPU_OP_NOP,
                                 &(otpu_ops){0}, in);
            r = RUN_REPAIRED;
        }
    }
    otpu_machine_free(m);
    return r;
}

static int run_once(gen_ctx *c, otpu_bundle *b, char *msg, size_t msglen, gen_info *info)
{
    uint32_t *prog[OTPU_MAX_SLICES];
    size_t pw[OTPU_MAX_SLICES], dl[OTPU_MAX_SLICES];
    uint8_t *dram[OTPU_MAX_SLICES];
    to_bundle(c, b, prog, pw, dram, dl);
    otpu_error e;
    int oom = host_to_bundle(c, b) != 0;
    for (unsigned s = 0; s < c->cfg.S; s++)
        oom |= !prog[s];
    otpu_machine *m = oom ? NULL : otpu_bundle_machine(b, &e);
    for (unsigned s = 0; s < c->cfg.S; s++)
        free(prog[s]);
    b->prog = NULL;
    if (!m)
        return RUN_DISCARD;
    otpu_machine_set_strict(m, OTPU_STRICT_ALL); /* nothing the ISA forbids, checked or not */
    int rc = otpu_machine_run(m, MAX_STEPS);
    const otpu_error *err = otpu_machine_error(m);
    int chained = otpu_machine_chains(m) > 0;
    otpu_error copy = *err;
    char why[600];
    /* (a clean run whose host steps fail: a random instruction took the host's flag) */
    int host_failed = !rc && otpu_machine_host(m) && otpu_host_verdict(otpu_machine_host(m), why,
                                                                        sizeof why);
    otpu_machine_free(m);
    if (host_failed)
        return RUN_DISCARD;
    if (getenv("OTPU_GEN_DEBUG") && rc)
        fprintf(stderr, "DEBUG %s\n", copy.msg);
    if (!rc)
        return c->want_error ? RUN_DISCARD : RUN_ACCEPT;
    if (c->want_error && copy.kind == c->want_kind &&
        (c->want_pc == UINT32_MAX ||
         ((uint32_t)copy.slice == c->want_slice && copy.pc == c->want_pc))) {
        int others = c->cfg.S > 1 ? every_slice_ends(c, b, info) : RUN_ACCEPT;
        if (others != RUN_ACCEPT)
            return others;
        snprintf(msg, msglen, "%s",
                 otpu_err_classify(copy.msg) == copy.kind ? copy.msg
                                                          : reference_wording(copy.kind));
        snprintf(info->model_error, sizeof info->model_error, "%s", copy.msg);
        return RUN_ACCEPT;
    }
    if (copy.slice < 0 || (unsigned)copy.slice >= c->cfg.S)
        return RUN_DISCARD;
    gen_prog *p = &c->prog[copy.slice];
    if (copy.kind == OTPU_ERR_COLLECTIVE || copy.kind == OTPU_ERR_DEADLOCK ||
        copy.kind == OTPU_ERR_STEP_LIMIT || copy.kind == OTPU_ERR_NOMEM ||
        copy.kind == OTPU_ERR_PAST_END)
        return RUN_DISCARD;
    if (c->want_error && (uint32_t)copy.slice == c->want_slice && copy.pc >= c->want_pc)
        return RUN_DISCARD; /* the intended instruction failed otherwise, or came later */
    if (chained && copy.slice == 0) { /* the chained program: drop the chain */
        for (size_t i = p->n; i-- > 0;)
            if (p->ins[i].op == OTPU_OP_HALT) {
                otpu_encode_operands(OTPU_OP_HALT, &(otpu_ops){0}, &p->ins[i]);
                break;
            }
        return RUN_REPAIRED;
    }
    if (copy.pc >= p->n)
        return RUN_DISCARD;
    otpu_instr *in = &p->ins[copy.pc];
    unsigned op = in->op == OTPU_OP_HALT ? OTPU_OP_HALT : OTPU_OP_NOP;
    info->repaired++;
    otpu_encode_operands(op, &(otpu_ops){0}, in);
    return RUN_REPAIRED;
}

int otpu_gen_bundle(const gen_family *f, uint64_t seed, uint64_t index, uint64_t variant,
                    gen_data data, const otpu_config *cfg, otpu_bundle *out, gen_info *info,
                    char *err, size_t errlen)
{
    gen_info scratch;
    if (!info)
        info = &scratch;
    memset(info, 0, sizeof *info);
    gen_rng rng;
    uint64_t h = gen_rng_mix(gen_rng_mix(gen_rng_hash_str(f->name), seed), index);
    gen_rng_seed(&rng, variant ? gen_rng_mix(h, variant) : h);
    gen_ctx *c = malloc(sizeof *c);
    if (!c)
        return snprintf(err, errlen, "out of memory"), -1;
    memset(out, 0, sizeof *out);
    for (unsigned attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        if (ctx_init(c, cfg, gen_rng_u64(&rng))) {
            ctx_free(c);
            break;
        }
        c->index = index;
        c->data = data;
        c->vfunc_next = (unsigned)index; /* the bundles start at every VOP function */
        gen_layout_data(c); /* first: a family may write into the images (descriptors, ...) */
        if (f->build(c)) {
            snprintf(err, errlen, "family %s cannot generate for this Config (%s)", f->name,
                     c->note);
            ctx_free(c);
            free(c);
            return GEN_BAD_CONFIG;
        }
        char msg[sizeof out->error] = "";
        otpu_bundle b;
        int r = RUN_REPAIRED;
        for (unsigned k = 0; k < MAX_REPAIRS && r == RUN_REPAIRED; k++)
            r = check_once(c, &b, msg, sizeof msg, info);
        if (r == RUN_ACCEPT) {
            *out = b;
            out->expect_error = c->want_error;
            snprintf(out->error, sizeof out->error, "%s", msg);
            char var[40] = "";
            if (variant)
                snprintf(var, sizeof var, " variant %llu", (unsigned long long)variant);
            snprintf(out->desc, sizeof out->desc, "otpu-gen %s seed %llu index %llu%s%s%s",
                     f->name, (unsigned long long)seed, (unsigned long long)index, var,
                     c->note[0] ? ": " : "", c->note);
            uint32_t S = cfg->S;
            out->prog = calloc(S, sizeof *out->prog);
            out->prog_words = calloc(S, sizeof *out->prog_words);
            out->dram = calloc(S, sizeof *out->dram);
            out->dram_len = calloc(S, sizeof *out->dram_len);
            int oom = !out->prog || !out->prog_words || !out->dram || !out->dram_len;
            for (unsigned s = 0; s < S && !oom; s++) {
                out->prog[s] = program_words(&c->prog[s]);
                out->prog_words[s] = c->prog[s].n * 8;
                out->dram[s] = c->dram[s];
                out->dram_len[s] = c->dram_len;
                c->dram[s] = NULL;
                oom = !out->prog[s];
            }
            ctx_free(c);
            free(c);
            info->discarded = attempt;
            if (oom) {
                otpu_bundle_free(out);
                return snprintf(err, errlen, "out of memory"), -1;
            }
            return 0;
        }
        ctx_free(c);
    }
    free(c);
    snprintf(err, errlen, "family %s: no valid program in %d attempts for seed %llu index %llu",
             f->name, MAX_ATTEMPTS, (unsigned long long)seed, (unsigned long long)index);
    return -1;
}
