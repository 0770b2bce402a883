// SPDX-License-Identifier: Apache-2.0
/* The table of queue kinds, and the pieces the algorithms share: slot
 * rings, and the ring queue (a growing ring that thieves load by pointer)
 * under Chase-Lev and the three idempotent queues. */
#include "workpool/queues/table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const wp_queue_ops *const kinds[WEFT_QUEUE_KINDS] = {
    [WEFT_QUEUE_ABP] = &weft__wp_abp_ops,
    [WEFT_QUEUE_CHASE_LEV] = &weft__wp_chase_lev_ops,
    [WEFT_QUEUE_CHASE_LEV_SHRINK] = &weft__wp_chase_lev_shrink_ops,
    [WEFT_QUEUE_IDEMPOTENT_LIFO] = &weft__wp_idem_lifo_ops,
    [WEFT_QUEUE_IDEMPOTENT_FIFO] = &weft__wp_idem_fifo_ops,
    [WEFT_QUEUE_IDEMPOTENT_DEQUE] = &weft__wp_idem_deque_ops,
    [WEFT_QUEUE_DUPLICATING] = &weft__wp_duplicating_ops,
    [WEFT_QUEUE_CENTRAL] = &weft__wp_central_ops,
};

const wp_queue_ops *weft__wp_queue_ops_of(weft_queue_kind kind)
{
    if ((unsigned)kind >= WEFT_QUEUE_KINDS)
        return NULL;
    return kinds[kind];
}

const char *weft_queue_name(weft_queue_kind kind)
{
    const wp_queue_ops *ops = weft__wp_queue_ops_of(kind);
    return ops ? ops->name : "?";
}

int weft_queue_from_name(const char *name, weft_queue_kind *out)
{
    if (name == NULL || out == NULL)
        return EINVAL;
    for (unsigned k = 0; k < WEFT_QUEUE_KINDS; k++) {
        if (strcmp(kinds[k]->name, name) == 0) {
            *out = (weft_queue_kind)k;
            return 0;
        }
    }
    return EINVAL;
}

bool weft_queue_is_idempotent(weft_queue_kind kind)
{
    const wp_queue_ops *ops = weft__wp_queue_ops_of(kind);
    return ops != NULL && ops->idempotent;
}

size_t weft__wp_pow2(size_t n)
{
    size_t c = 2;
    while (c < n && c < ((size_t)1 << 62))
        c <<= 1;
    return c;
}

/* ---- rings ---- */

wp_ring *weft__wp_ring_new(size_t cap, unsigned words)
{
    if (cap > ((size_t)1 << 40) / words)
        return NULL;
    /* calloc: slots start zeroed, so a thief's speculative read of a slot
     * never written is a read of defined memory. */
    wp_ring *r = calloc(1, sizeof *r + cap * words * sizeof(uint64_t));
    if (r == NULL)
        return NULL;
    r->cap = cap;
    r->mask = cap - 1;
    r->next = NULL;
    return r;
}

void weft__wp_ring_copy(wp_ring *from, wp_ring *to, uint64_t lo, uint64_t hi, unsigned words)
{
    for (uint64_t i = lo; i != hi; i++) {
        uint64_t tmp[WP_MAX_WORDS];
        wp_slot_load(wp_ring_slot(from, i, words), tmp, words);
        wp_slot_store(wp_ring_slot(to, i, words), tmp, words);
    }
}

void weft__wp_ring_read(wp_ring *r, uint64_t from, size_t k, uint64_t *items, unsigned words)
{
    for (size_t i = 0; i < k; i++)
        wp_slot_load(wp_ring_slot(r, from + i, words), items + i * words, words);
}

void weft__wp_ring_free_list(wp_ring *r)
{
    while (r != NULL) {
        wp_ring *next = r->next;
        free(r);
        r = next;
    }
}

size_t weft__wp_carve_by_takes(wp_queue *q, uint64_t *items, size_t max, wp_worker *self)
{
    size_t k = 0;
    while (k < max && q->ops->take(q, items + k * q->words, self))
        k++;
    return k;
}

/* ---- ring queues ---- */

void *weft__wp_ring_queue_new(size_t size, wp_pool *p, size_t cap)
{
    wp_ring_queue *q = aligned_alloc(WEFT_CACHE_LINE, size);
    if (q == NULL)
        return NULL;
    memset(q, 0, size);
    q->base.words = p->words;
    q->own = weft__wp_ring_new(cap, p->words);
    if (q->own == NULL) {
        free(q);
        return NULL;
    }
    q->retired = NULL;
    atomic_init(&q->shared, q->own);
    return q;
}

void weft__wp_ring_queue_destroy(wp_queue *q_)
{
    wp_ring_queue *q = (wp_ring_queue *)q_;
    free(q->own);
    weft__wp_ring_free_list(q->retired);
    free(q);
}

bool weft__wp_ring_queue_grow(wp_ring_queue *q, uint64_t lo, uint64_t hi, size_t max_cap)
{
    wp_ring *old = q->own;
    if (old->cap >= max_cap)
        return false;
    wp_ring *fresh = weft__wp_ring_new(old->cap * 2, q->base.words);
    if (fresh == NULL)
        return false;
    weft__wp_ring_copy(old, fresh, lo, hi, q->base.words);
    /* Release: the copied slots before the pointer (thieves acquire it). */
    atomic_store_explicit(&q->shared, fresh, memory_order_release);
    q->own = fresh;
    old->next = q->retired;
    q->retired = old;
    return true;
}
