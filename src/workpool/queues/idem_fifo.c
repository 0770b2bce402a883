// SPDX-License-Identifier: Apache-2.0
/* Idempotent FIFO (Michael, Vechev, Saraswat, PPoPP'09).
 *
 * The owner puts at the tail; the owner and thieves both take at the head
 * (oldest first).  head and tail are 64-bit indices into a circular array:
 *   put:   write tasks[t]; tail = t+1                 (release)
 *   take:  read tasks[h]; head = h+1                  (a plain store)
 *   steal: read head, tail, tasks[h]; CAS head h -> h+1
 * The owner's plain store of head may move it back over thieves' CASes, so
 * an item can be delivered twice (idempotent work only).  No tag is needed:
 * head only moves back by the owner's own store, never past what the owner
 * has seen, and the owner only rewrites a slot whose index is below every
 * head it has read, so no thief can succeed on a rewritten slot (its CAS
 * expects an index head never takes again).
 *
 * The array grows when full (copying [head, tail) with the same index ->
 * slot mapping); old arrays are freed when the run ends (at most the size
 * of the live array).  Slots are relaxed atomic words; the fences at the
 * start of put and before the thief's CAS make the thief of a slot being
 * rewritten fail (seqlock), so a torn item is never delivered.
 */
#include "workpool/queues/table.h"

#include <stdlib.h>

typedef struct idem_fifo {
    wp_ring_queue rq; /* read-mostly: rq.shared is written on a grow only */
    /* Thieves CAS head; the owner stores it. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t head;
    /* The owner writes this line on every put. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t tail;
    uint64_t tail_own; /* the owner's copy of tail */
} idem_fifo;

static int fifo_create(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out)
{
    (void)owner;
    idem_fifo *q = weft__wp_ring_queue_new(sizeof *q, p, cap);
    if (q == NULL)
        return ENOMEM;
    q->tail_own = 0;
    atomic_init(&q->head, 0);
    atomic_init(&q->tail, 0);
    *out = &q->rq.base;
    return 0;
}

static bool fifo_push(wp_queue *q_, const uint64_t *item, wp_worker *self)
{
    idem_fifo *q = (idem_fifo *)q_;
    /* Acquire: pairs with thieves' CAS: their reads of the slots they freed
     * happen before we rewrite them. */
    uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    uint64_t t = q->tail_own;
    if (WEFT_UNLIKELY(t - h >= q->rq.own->cap)) {
        if (!weft__wp_ring_queue_grow(&q->rq, h, t, (size_t)1 << 40))
            return false;
        self->ctr.grows++;
    }
    /* Release fence (seqlock): our head stores before the slot write. */
    atomic_thread_fence(memory_order_release);
    wp_slot_store(wp_ring_slot(q->rq.own, t, q_->words), item, q_->words);
    /* Release: publishes the slot to thieves that acquire-load tail. */
    atomic_store_explicit(&q->tail, t + 1, memory_order_release);
    q->tail_own = t + 1;
    return true;
}

static bool fifo_take(wp_queue *q_, uint64_t *item, wp_worker *self)
{
    (void)self;
    idem_fifo *q = (idem_fifo *)q_;
    /* Acquire: pairs with thieves' CAS (the latest head we can see). */
    uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    if ((int64_t)(q->tail_own - h) <= 0)
        return false;
    wp_slot_load(wp_ring_slot(q->rq.own, h, q_->words), item, q_->words);
    /* Release: a plain store that may undo concurrent steals (the
     * idempotent relaxation); release so a thief reading it sees our slots. */
    atomic_store_explicit(&q->head, h + 1, memory_order_release);
    return true;
}

static wp_steal_result fifo_steal(wp_queue *q_, uint64_t *item, wp_worker *thief)
{
    (void)thief;
    idem_fifo *q = (idem_fifo *)q_;
    /* Acquire: pairs with the owner's head store and other thieves' CAS. */
    uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    /* Acquire: pairs with put's release: the slots below tail are written. */
    uint64_t t = atomic_load_explicit(&q->tail, memory_order_acquire);
    if ((int64_t)(t - h) <= 0)
        return WP_STEAL_EMPTY;
    /* Acquire: pairs with the grow's release: an array holding index h. */
    wp_ring *r = atomic_load_explicit(&q->rq.shared, memory_order_acquire);
    wp_slot_load(wp_ring_slot(r, h, q_->words), item, q_->words);
    /* Acquire fence (seqlock): see the top of the file. */
    atomic_thread_fence(memory_order_acquire);
    /* Acq_rel: the steal; release keeps our slot read before it. */
    if (atomic_compare_exchange_strong_explicit(&q->head, &h, h + 1, memory_order_acq_rel,
                                                memory_order_relaxed))
        return WP_STEAL_OK;
    return WP_STEAL_ABORT;
}

static size_t fifo_size(wp_queue *q_)
{
    idem_fifo *q = (idem_fifo *)q_;
    /* Acquire: pairs with the owner's release of tail (termination check). */
    uint64_t t = atomic_load_explicit(&q->tail, memory_order_acquire);
    /* Acquire: pairs with the head stores and CASes. */
    uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    return wp_items_between(h, t);
}

const wp_queue_ops weft__wp_idem_fifo_ops = {
    .kind = WEFT_QUEUE_IDEMPOTENT_FIFO,
    .name = "idem-fifo",
    .idempotent = true,
    .create = fifo_create,
    .destroy = weft__wp_ring_queue_destroy,
    .push = fifo_push,
    .take = fifo_take,
    .steal = fifo_steal,
    .carve = weft__wp_carve_by_takes, /* the oldest items are at the owner's end */
    .size = fifo_size,
};
