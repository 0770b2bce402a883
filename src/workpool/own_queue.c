// SPDX-License-Identifier: Apache-2.0
/* A worker's own queue and its overflow stack, as the owner pushes to
 * them: the queue first; on "full" (fixed-size queues only) the overflow
 * stack, which grows without bound (WEFT_POOL_OVERFLOW_SPILL), or a
 * refusal (WEFT_POOL_OVERFLOW_FAIL, user pushes only).  The owner's takes,
 * the hot path, are in loop.c. */
#include "workpool/own_queue.h"

#include <stdlib.h>
#include <string.h>

static void spill_push(wp_worker *w, const uint64_t *item)
{
    unsigned words = w->pool->words;
    if (w->spill_n == w->spill_cap) {
        size_t cap = w->spill_cap ? w->spill_cap * 2 : 256;
        uint64_t *bigger = realloc(w->spill, cap * words * sizeof(uint64_t));
        if (bigger == NULL)
            weft__fatal("out of memory: overflow stack of worker %u (%zu items)", w->id,
                        w->spill_n);
        w->spill = bigger;
        w->spill_cap = cap;
    }
    memcpy(w->spill + w->spill_n * words, item, words * sizeof(uint64_t));
    w->spill_n++;
}

/* Pushes to the own queue; on "full", spills, or (user pushes with the
 * FAIL policy) refuses. */
bool weft__wp_local_push(wp_worker *w, const uint64_t *item, bool user)
{
    wp_pool *p = w->pool;
    if (WEFT_LIKELY(p->ops->push(w->q, item, w)))
        return true;
    w->ctr.overflows++;
    if (user && p->cfg.overflow == WEFT_POOL_OVERFLOW_FAIL)
        return false;
    spill_push(w, item);
    return true;
}
