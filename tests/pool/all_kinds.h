// SPDX-License-Identifier: Apache-2.0
/* Every queue algorithm of the work pool, for tests that run them all. */
#ifndef WEFT_TESTS_POOL_ALL_KINDS_H
#define WEFT_TESTS_POOL_ALL_KINDS_H

#include <weft/pool.h>

static const weft_queue_kind all_kinds[] = {
    WEFT_QUEUE_ABP,
    WEFT_QUEUE_CHASE_LEV,
    WEFT_QUEUE_CHASE_LEV_SHRINK,
    WEFT_QUEUE_IDEMPOTENT_LIFO,
    WEFT_QUEUE_IDEMPOTENT_FIFO,
    WEFT_QUEUE_IDEMPOTENT_DEQUE,
    WEFT_QUEUE_DUPLICATING,
    WEFT_QUEUE_CENTRAL,
};
#define N_KINDS (sizeof all_kinds / sizeof all_kinds[0])

#endif
