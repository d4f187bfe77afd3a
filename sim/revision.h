/* revision.h - ISA revisions: the one description of what each revision of the ISA changes.
 *
 * The current revision is the ISA of isa.h (OTPU_OPCODES, OTPU_VFUNCS, the flags: isa.def)
 * with the fp32 functions of fp32.h; a bundle without REV= runs it. An older revision is
 * described by its differences from that ISA, in one otpu_rev_desc (revision.c):
 *   - the opcodes, VOP functions and flag bits (per opcode, with a name for messages) it
 *     lacks (the opcodes and flags in its revision block of isa.def, written as
 *     OTPU_REV_<NAME>_LACKS_OP and _LACKS_FLAG by gen_isa.py); everything else decodes,
 *     disassembles and executes as in the current ISA;
 *   - the Config fields it lacks (they must be 0 in its bundles);
 *   - its fp32 composite functions (fp32.h's otpu_f32_fns: exp2, recip, rsqrt, log2), used by
 *     VOP, STREAM and the quantizer, and its NaN rule (otpu_f32_fns's ftz, key, max, min and
 *     abs: what copy, fill, abs, max, min and the row maxima do with a NaN), and two facts of
 *     its fp32 unit that otpu-fpvec needs.
 * The model refuses an instruction the revision lacks when it is about to execute it: an
 * ILLEGAL error (error.h) naming the slice, pc, instruction, what is lacking and the
 * revision; never a silent run.
 *
 * Adding a revision NAME:
 *   1. an enumerator OTPU_REV_NAME below (before OTPU_REV_COUNT);
 *   2. a revision block in isa.def (the opcodes and flags it lacks; sim/gen_isa.py);
 *      its otpu_rev_desc in revision.c: its name, its source, what else it lacks, its fp32
 *      functions (new ones beside the others in fp32.c, declared in fp32.h);
 *   3. its golden vectors (../shared/vectors/rev-NAME): an INSTANTIATE_TEST_SUITE_P line in
 *      tests/test_conformance.cpp (its isa/ bundles), a fpvec_rev_NAME test in
 *      vectors/meson.build (its fp32/ops.vec); what it is in docs/bundle.md.
 * Nothing else names a revision: REV= (bundle.c), --rev (otpu-sim, otpu-fpvec), the model
 * (slice.c, sequencer.c, exec_vop.c, exec_stream.c, exec_quant.c), the coverage model
 * (cov/coverage_model.c, cov/coverage_data.c) and otpu-fpvec (its ops, expected values, NaN
 * rule and the bench's OTPU_FP_NO_* defines) read the description. A revision that changes
 * what an instruction does beyond its fp32 functions (another operand layout, another rule),
 * or whose fp32 unit lacks a function other than log2 and the MXU compare, is not a
 * difference this description can hold yet: it needs a new field here and the code that
 * reads it.
 */
#ifndef OTPU_REVISION_H
#define OTPU_REVISION_H

#include <stddef.h>
#include <stdint.h>

#include "fp32.h"
#include "isa.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    OTPU_REV_CURRENT = 0, /* openTPU isasim.py 6c4c6750 + docs/isa.md (WAITW, RLD MUL) */
    OTPU_REV_ACF0C1C6,    /* openTPU's first public snapshot, commit acf0c1c6 */
    OTPU_REV_COUNT,
    OTPU_REV_UNSET = -1   /* a tool's --rev not given: the bundle's REV= decides */
} otpu_revision;

/* Flag bits of one opcode that a revision lacks (any of mask set in w0[31:24]). */
typedef struct {
    uint8_t op, mask;
    const char *name; /* "CHAIN", "4-bit weights" */
} otpu_rev_flag;

enum { OTPU_REV_MAX_FLAGS = 8, OTPU_REV_MAX_CONFIG = 8 };

typedef struct {
    const char *name;                  /* REV= and --rev */
    const char *source;                /* where the revision comes from, one line */
    uint8_t lacks_op[256];             /* 1: an opcode it lacks */
    uint8_t lacks_vfunc[256];          /* 1: a VOP function it lacks */
    otpu_rev_flag lacks_flag[OTPU_REV_MAX_FLAGS];     /* flag bits it lacks (mask 0 ends) */
    const char *lacks_config[OTPU_REV_MAX_CONFIG];    /* Config fields, 0 in it (NULL ends) */
    otpu_f32_fns fp;                   /* its fp32 composites (log2 NULL: it has none) and
                                          NaN rule */
    int fp_nan_undefined;              /* its fp32 unit leaves NaN operands undefined */
    int fp_no_mm_compare;              /* its fp32 unit has no MXU compare (tb_fp ops 13, 14) */
    int no_run_args;                   /* its runs take no arguments: R8..R15 start at 0 (the
                                          generator writes no ARGS=; its RTL cannot preset them) */
} otpu_rev_desc;

/* The description of revision r (OTPU_REV_CURRENT .. OTPU_REV_COUNT - 1); NULL otherwise. */
const otpu_rev_desc *otpu_rev_desc_of(otpu_revision r);
/* Its name ("current", "acf0c1c6"); "?" for an unknown r. */
const char *otpu_rev_name(otpu_revision r);
/* The revision called name: 0 and *r, or -1 (an unknown name). */
int otpu_rev_from_name(const char *name, otpu_revision *r);
/* Every revision's name, comma-separated ("current, acf0c1c6"), for messages. Returns buf. */
char *otpu_rev_names(char *buf, size_t n);

/* The name of a flag bit among flags (w0[31:24]) of opcode op that revision r lacks, or NULL
 * (the generator's choices and the model's refusal read this one table). */
const char *otpu_rev_flag_lacking(otpu_revision r, unsigned op, unsigned flags);

/* Does revision r lack what the instruction uses (its opcode, flags, VOP function)? o: its
 * decoded operands, or NULL (decoded here). 0: r has everything; 1: r lacks something, named
 * in why ("opcode RLD (0x06)", "VOP function rdot (19)", "QST flag HALF"). */
int otpu_rev_lacks(otpu_revision r, const otpu_instr *in, const otpu_ops *o, char *why,
                   size_t n);

#ifdef __cplusplus
}
#endif
#endif
