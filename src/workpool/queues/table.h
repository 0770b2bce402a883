// SPDX-License-Identifier: Apache-2.0
/* The queue kinds (queues/table.c), and the pieces the algorithms share:
 * slot arrays, rings and the ring queue.  Included by the algorithms and
 * by the pool's set-up; not installed. */
#ifndef WEFT_WORKPOOL_QUEUES_TABLE_H
#define WEFT_WORKPOOL_QUEUES_TABLE_H

#include "workpool/types.h"

extern const wp_queue_ops weft__wp_abp_ops, weft__wp_chase_lev_ops, weft__wp_chase_lev_shrink_ops,
    weft__wp_idem_lifo_ops, weft__wp_idem_fifo_ops, weft__wp_idem_deque_ops,
    weft__wp_duplicating_ops, weft__wp_central_ops;
const wp_queue_ops *weft__wp_queue_ops_of(weft_queue_kind kind);

/* ---- slot arrays: items as relaxed atomic words, so that a thief reading a
 * slot the owner overwrites is a race the algorithm resolves (its CAS or
 * validation fails and the read is dropped), not undefined behaviour ---- */
static inline void wp_slot_store(_Atomic uint64_t *slot, const uint64_t *src, unsigned words)
{
    for (unsigned i = 0; i < words; i++)
        /* Relaxed: published by the queue's release of its index word. */
        atomic_store_explicit(&slot[i], src[i], memory_order_relaxed);
}

static inline void wp_slot_load(_Atomic uint64_t *slot, uint64_t *dst, unsigned words)
{
    for (unsigned i = 0; i < words; i++)
        /* Relaxed: ordered by the queue's acquire of its index word; a torn
         * read is only ever kept if the queue's CAS/validation succeeds. */
        dst[i] = atomic_load_explicit(&slot[i], memory_order_relaxed);
}

/* A circular array of 2^k slots of `words` words (zeroed).  `next` links
 * retired arrays. */
typedef struct wp_ring {
    size_t cap, mask;
    struct wp_ring *next;
    _Atomic uint64_t slots[];
} wp_ring;

wp_ring *weft__wp_ring_new(size_t cap, unsigned words);
static inline _Atomic uint64_t *wp_ring_slot(wp_ring *r, uint64_t index, unsigned words)
{
    return &r->slots[(size_t)(index & r->mask) * words];
}
/* Frees a ring and every ring linked behind it. */
void weft__wp_ring_free_list(wp_ring *r);
/* Copies positions [lo, hi) of one ring into the same positions of another
 * (the owner's resize; the slots are read as a thief would). */
void weft__wp_ring_copy(wp_ring *from, wp_ring *to, uint64_t lo, uint64_t hi, unsigned words);
/* Reads the k items at positions from, from+1, ... into items (a carve). */
void weft__wp_ring_read(wp_ring *r, uint64_t from, size_t k, uint64_t *items, unsigned words);
/* The carve of a queue whose owner takes from the end thieves steal from
 * (the idempotent LIFO and FIFO): up to max owner takes. */
size_t weft__wp_carve_by_takes(wp_queue *q, uint64_t *items, size_t max, wp_worker *self);
/* A queue's size from its two 64-bit indices, read at different moments
 * (so possibly crossed): hi - lo, or 0. */
static inline size_t wp_items_between(uint64_t lo, uint64_t hi)
{
    return (int64_t)(hi - lo) > 0 ? (size_t)(hi - lo) : 0;
}
/* Rounds up to a power of two (at least 2). */
size_t weft__wp_pow2(size_t n);

/* A queue on a ring that grows and whose thieves load the ring pointer:
 * Chase-Lev and the three idempotent queues.  `own` is the owner's copy of
 * the current ring, `shared` the one thieves load (acquire), `retired` the
 * old rings, freed with the queue (a thief may still read an old ring
 * during the run; the shrinking Chase-Lev retires through ebr.c instead).
 * Each queue puts one as its first member. */
typedef struct wp_ring_queue {
    wp_queue base;
    wp_ring *own;
    wp_ring *retired;
    _Atomic(wp_ring *) shared;
} wp_ring_queue;

/* Allocates a queue of `size` bytes (line-aligned, a wp_ring_queue first)
 * with a ring of cap slots; NULL without memory. */
void *weft__wp_ring_queue_new(size_t size, wp_pool *p, size_t cap);
/* The destroy operation of a ring queue: frees the rings and the queue. */
void weft__wp_ring_queue_destroy(wp_queue *q);
/* Growth: a ring of twice the capacity holding positions [lo, hi) of the
 * current one at the same positions, published to thieves with release;
 * the old ring goes on `retired`.  False, changing nothing, at max_cap or
 * without memory. */
bool weft__wp_ring_queue_grow(wp_ring_queue *q, uint64_t lo, uint64_t hi, size_t max_cap);

#endif
