// SPDX-License-Identifier: Apache-2.0
/* The sizes weft_start accepts (config.c checks them; the Lace libraries
 * map Lace's sizes onto them through the front-end seam, frontend.h).
 * WEFT_MAX_WORKERS is weft/config.h's.  Not installed. */
#ifndef WEFT_RUNTIME_LIMITS_H
#define WEFT_RUNTIME_LIMITS_H

#include <stddef.h>

/* Below 2^31 slots every slot index fits in 32 bits (the split deque packs
 * two of them in one word). */
#define WEFT_MAX_DEQUE_SLOTS (((size_t)1 << 31) - 1)
/* The fewest slots weft_start accepts. */
#define WEFT_MIN_DEQUE_SLOTS ((size_t)16)
/* A worker's stack, fork-join pool's and work pool's alike: the range
 * accepted (memory.h has the default). */
#define WEFT_MIN_STACK_SIZE ((size_t)64 << 10)
#define WEFT_MAX_STACK_SIZE ((size_t)1 << 40)

#endif
