/* bits.h - an fp32 value and its bits, without aliasing: the one place these casts live. */
#ifndef OTPU_BITS_H
#define OTPU_BITS_H

#include <stdint.h>
#include <string.h>

static inline float otpu_float_of(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline uint32_t otpu_bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

#endif
