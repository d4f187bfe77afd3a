/* rng.c - splitmix64 and xoshiro256** (public-domain algorithms by Vigna, written here). */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void gen_rng_seed(gen_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t gen_rng_u64(gen_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

uint32_t gen_rng_u32(gen_rng *r)
{
    return (uint32_t)(gen_rng_u64(r) >> 32);
}

uint64_t gen_rng_below(gen_rng *r, uint64_t n)
{
    if (!n)
        return 0;
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
    do
        x = gen_rng_u64(r);
    while (x >= limit);
    return x % n;
}

uint64_t gen_rng_range(gen_rng *r, uint64_t lo, uint64_t hi)
{
    if (hi <= lo)
        return lo;
    if (lo == 0 && hi == UINT64_MAX)
        return gen_rng_u64(r);
    return lo + gen_rng_below(r, hi - lo + 1);
}

int gen_rng_chance(gen_rng *r, unsigned pct)
{
    return gen_rng_below(r, 100) < pct;
}

uint64_t gen_rng_mix(uint64_t h, uint64_t v)
{
    uint64_t x = h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
    return splitmix64(&x);
}

uint64_t gen_rng_hash_str(const char *s)
{
    uint64_t h = 0xCBF29CE484222325ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
    return h;
}
