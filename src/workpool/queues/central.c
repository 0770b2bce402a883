// SPDX-License-Identifier: Apache-2.0
/* The central locked queue: the paper's "simple solution" (section 2.3) and
 * baseline.  One LIFO stack behind one mutex, shared by every worker: push,
 * take and "steal" all lock it.  LIFO rather than FIFO keeps the number of
 * waiting items small on tree-shaped work (depth-first order).  It grows
 * without bound (realloc under the lock); a failed allocation reports
 * "full" and the pool's overflow policy applies.
 */
#include "workpool/queues/table.h"

#include <stdlib.h>
#include <string.h>

typedef struct central {
    wp_queue base;
    pthread_mutex_t mu;
    uint64_t *items; /* under mu */
    size_t n, cap;   /* under mu */
    /* A copy of n for lock-free size estimates. */
    _Alignas(WEFT_CACHE_LINE) _Atomic size_t count;
} central;

static int central_create(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out)
{
    (void)owner;
    central *q = aligned_alloc(WEFT_CACHE_LINE, sizeof *q);
    if (q == NULL)
        return ENOMEM;
    q->base.words = p->words;
    q->items = malloc(cap * p->words * sizeof(uint64_t));
    if (q->items == NULL) {
        free(q);
        return ENOMEM;
    }
    pthread_mutex_init(&q->mu, NULL);
    q->n = 0;
    q->cap = cap;
    atomic_init(&q->count, 0);
    *out = &q->base;
    return 0;
}

static void central_destroy(wp_queue *q_)
{
    central *q = (central *)q_;
    pthread_mutex_destroy(&q->mu);
    free(q->items);
    free(q);
}

static bool central_push(wp_queue *q_, const uint64_t *item, wp_worker *self)
{
    central *q = (central *)q_;
    unsigned words = q->base.words;
    pthread_mutex_lock(&q->mu);
    if (q->n == q->cap) {
        uint64_t *bigger = realloc(q->items, q->cap * 2 * words * sizeof(uint64_t));
        if (bigger == NULL) {
            pthread_mutex_unlock(&q->mu);
            return false;
        }
        q->items = bigger;
        q->cap *= 2;
        self->ctr.grows++;
    }
    memcpy(q->items + q->n * words, item, words * sizeof(uint64_t));
    q->n++;
    /* Relaxed: an estimate for the lock-free readers; the mutex orders the
     * items themselves. */
    atomic_store_explicit(&q->count, q->n, memory_order_relaxed);
    pthread_mutex_unlock(&q->mu);
    return true;
}

static bool central_take(wp_queue *q_, uint64_t *item, wp_worker *self)
{
    (void)self;
    central *q = (central *)q_;
    unsigned words = q->base.words;
    pthread_mutex_lock(&q->mu);
    if (q->n == 0) {
        pthread_mutex_unlock(&q->mu);
        return false;
    }
    q->n--;
    memcpy(item, q->items + q->n * words, words * sizeof(uint64_t));
    /* Relaxed: see push. */
    atomic_store_explicit(&q->count, q->n, memory_order_relaxed);
    pthread_mutex_unlock(&q->mu);
    return true;
}

static wp_steal_result central_steal(wp_queue *q, uint64_t *item, wp_worker *thief)
{
    return central_take(q, item, thief) ? WP_STEAL_OK : WP_STEAL_EMPTY;
}

static size_t central_size(wp_queue *q_)
{
    central *q = (central *)q_;
    /* Acquire (more than needed: the items are under the mutex): at
     * termination every owner's last update happens before the checker's
     * read through the idle set's release/acquire chain. */
    return atomic_load_explicit(&q->count, memory_order_acquire);
}

const wp_queue_ops weft__wp_central_ops = {
    .kind = WEFT_QUEUE_CENTRAL,
    .name = "central",
    .shared = true,
    .create = central_create,
    .destroy = central_destroy,
    .push = central_push,
    .take = central_take,
    .steal = central_steal,
    .size = central_size,
};
