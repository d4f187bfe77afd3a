/* rng.h - the generator's own PRNG (xoshiro256** seeded by splitmix64): the same seed gives
 * the same numbers on every machine, whatever the C library. */
#ifndef OTPU_GEN_RNG_H
#define OTPU_GEN_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} gen_rng;

void gen_rng_seed(gen_rng *r, uint64_t seed);
uint64_t gen_rng_u64(gen_rng *r);
uint32_t gen_rng_u32(gen_rng *r);
/* Uniform in [0, n) (0 when n is 0), without modulo bias. */
uint64_t gen_rng_below(gen_rng *r, uint64_t n);
/* Uniform in [lo, hi] (lo when hi < lo). */
uint64_t gen_rng_range(gen_rng *r, uint64_t lo, uint64_t hi);
/* 1 with probability pct percent. */
int gen_rng_chance(gen_rng *r, unsigned pct);
/* A 64-bit hash of a string and numbers, to seed a run from (family, seed, index). */
uint64_t gen_rng_mix(uint64_t h, uint64_t v);
uint64_t gen_rng_hash_str(const char *s);

#endif
