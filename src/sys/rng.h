// SPDX-License-Identifier: Apache-2.0
/* Per-thread pseudo-random numbers for victim choice and randomised
 * intervals: cheap, not for anything that needs quality.  Not installed. */
#ifndef WEFT_SYS_RNG_H
#define WEFT_SYS_RNG_H

#include <stdint.h>

/* xorshift64* (Vigna): one step of the state (never 0) and a 64-bit
 * output whose high bits are good. */
static inline uint64_t weft_rng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* A number in [0, n), n > 0, from the output's high half. */
static inline uint32_t weft_rng_below(uint64_t *state, uint32_t n)
{
    return (uint32_t)((weft_rng_next(state) >> 32) % n);
}

/* splitmix64: a well-mixed value from consecutive states; used to seed. */
static inline uint64_t weft_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A non-zero xorshift state for stream `index` (worker number) from a
 * base seed. */
static inline uint64_t weft_rng_seed(uint64_t base, uint64_t index)
{
    uint64_t s = base ^ (index * 0xD1B54A32D192ED03ULL);
    uint64_t x = weft_splitmix64(&s);
    return x ? x : 0x9E3779B97F4A7C15ULL;
}

#endif
