/* config.h - the machine configuration (openTPU isasim.Config) and the ISA revision.
 *
 * A config is a plain value: fill it from a preset (otpu_config_default, _design, _board),
 * change fields, then otpu_config_check() before use. It is frozen once a machine is built.
 */
#ifndef OTPU_CONFIG_H
#define OTPU_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "revision.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t S;          /* slices */
    uint32_t D;          /* MXU depth == quantization block (int8 elements) */
    uint32_t MCOLS;      /* MXU columns */
    uint32_t ACT_BLOCKS; /* ACT RAM depth in blocks of D */
    uint64_t TMEM_WORDS;
    uint64_t DRAM_BYTES; /* up to 4 GiB */
    uint64_t IMEM_WORDS; /* 8 words per instruction */
    uint32_t LANES;      /* timing only */
    uint32_t PAIR;       /* booleans 0/1 */
    uint32_t DSTEP;
    uint32_t STREAM;
    uint32_t ACT_ROWS;   /* 0: MCOLS */
    otpu_revision revision; /* the ISA revision (revision.h); case.txt's REV=, else current */
} otpu_config;

otpu_config otpu_config_default(void); /* isasim.Config() */
otpu_config otpu_config_design(void);  /* isasim.design_config() */
otpu_config otpu_config_board(void);   /* isasim.board_config() without environment overrides */

static inline uint32_t otpu_config_act_rows(const otpu_config *c)
{
    return c->ACT_ROWS ? c->ACT_ROWS : c->MCOLS;
}

/* 0 if the config can be simulated (its revision known, the Config fields the revision lacks
 * 0); otherwise -1 and a one-line reason in err. */
int otpu_config_check(const otpu_config *c, char *err, size_t errlen);

/* The fields' names, in case.txt's order. */
enum { OTPU_CONFIG_FIELDS = 12, OTPU_MAX_SLICES = 64 };
extern const char *const otpu_config_field_names[OTPU_CONFIG_FIELDS];
/* The name of field i, NULL past the last: the one list of Config keys, for a binding that
 * cannot see the array's length (python/otpu checks its struct mirror against it). */
const char *otpu_config_field_name(int i);

/* Field i (in that order); 0 past the last. */
uint64_t otpu_config_get(const otpu_config *c, int i);
/* "S=1 D=32 ..." with every field in that order, then " REV=name" for a revision other than
 * the current one. Returns buf. */
char *otpu_config_str(const otpu_config *c, char *buf, size_t n);

/* Set one field by its case.txt name ("S", "D", ...). Returns 0, or -1 if the name is not a
 * Config field (value is not checked here: otpu_config_check does that). */
int otpu_config_set(otpu_config *c, const char *name, uint64_t value);

#ifdef __cplusplus
}
#endif
#endif
