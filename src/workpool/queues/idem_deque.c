// SPDX-License-Identifier: Apache-2.0
/* Idempotent double-ended queue (Michael, Vechev, Saraswat, PPoPP'09).
 *
 * The owner puts and takes at the tail (LIFO), thieves steal at the head
 * (FIFO).  head, size and a tag share one 64-bit `anchor` so that a steal
 * is one CAS and the owner's operations are plain stores:
 *   put:   write tasks[head+size]; anchor = (head, size+1, tag+1)
 *   take:  read tasks[head+size-1]; anchor = (head, size-1, tag)
 *   steal: read anchor, tasks[head]; CAS -> (head+1, size-1, tag)
 * The owner's plain stores may overwrite a thief's CAS, so an item can be
 * delivered twice (idempotent work only).  The tag, bumped by every put,
 * stops a thief from succeeding after a take and a put left (head, size)
 * unchanged with other contents.
 *
 * Packing: head 16 bits, size 17 bits, tag 31 bits.  head is a logical
 * index modulo 2^16, mapped to a slot by `& mask`; since every capacity is
 * a power of two up to 2^16, the same logical index maps consistently in
 * every array, so a thief holding an old array and an old anchor computes
 * the same transition as one holding the new ones (the array grows by
 * copying logical indices head .. head+size-1).  The queue therefore holds
 * at most 65536 items; a put beyond that reports "full" and the pool
 * applies its overflow policy.  31 bits of tag: a thief would have to sleep
 * through 2^31 puts between its read and its CAS for an ABA.
 *
 * Old arrays are freed when the run ends.  Slots are relaxed atomic words
 * with the same seqlock fences as the other idempotent queues.
 */
#include "workpool/queues/table.h"

#include <stdlib.h>

#define DE_MAX_CAP 65536u
#define DE_MK(h, s, g) \
    (((uint64_t)(h)&0xFFFFu) | (((uint64_t)(s)&0x1FFFFu) << 16) | \
     (((uint64_t)(g)&0x7FFFFFFFu) << 33))
#define DE_H(a) ((uint32_t)((a)&0xFFFFu))
#define DE_S(a) ((uint32_t)(((a) >> 16) & 0x1FFFFu))
#define DE_G(a) ((uint32_t)((a) >> 33))

typedef struct idem_deque {
    wp_ring_queue rq;
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t anchor;
} idem_deque;

static int deque_create(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out)
{
    (void)owner;
    idem_deque *q = weft__wp_ring_queue_new(sizeof *q, p, cap < DE_MAX_CAP ? cap : DE_MAX_CAP);
    if (q == NULL)
        return ENOMEM;
    atomic_init(&q->anchor, DE_MK(0, 0, 0));
    *out = &q->rq.base;
    return 0;
}

static bool deque_push(wp_queue *q_, const uint64_t *item, wp_worker *self)
{
    idem_deque *q = (idem_deque *)q_;
    /* Relaxed: we are the only writer besides thieves' steals; a stale
     * value only re-exposes stolen items (a duplicate, allowed here). */
    uint64_t a = atomic_load_explicit(&q->anchor, memory_order_relaxed);
    uint32_t h = DE_H(a), s = DE_S(a);
    if (WEFT_UNLIKELY(s >= q->rq.own->cap)) {
        if (!weft__wp_ring_queue_grow(&q->rq, h, (uint64_t)h + s, DE_MAX_CAP))
            return false;
        self->ctr.grows++;
    }
    /* Release fence (seqlock): our last anchor store before the slot write. */
    atomic_thread_fence(memory_order_release);
    wp_slot_store(wp_ring_slot(q->rq.own, h + s, q_->words), item, q_->words);
    /* Release: publishes the slot; tag+1 defeats ABA on (head, size). */
    atomic_store_explicit(&q->anchor, DE_MK(h, s + 1, DE_G(a) + 1), memory_order_release);
    return true;
}

static bool deque_take(wp_queue *q_, uint64_t *item, wp_worker *self)
{
    (void)self;
    idem_deque *q = (idem_deque *)q_;
    /* Relaxed: see push. */
    uint64_t a = atomic_load_explicit(&q->anchor, memory_order_relaxed);
    uint32_t h = DE_H(a), s = DE_S(a);
    if (s == 0)
        return false;
    wp_slot_load(wp_ring_slot(q->rq.own, h + s - 1, q_->words), item, q_->words);
    /* Release: a plain store that may undo a concurrent steal (the
     * idempotent relaxation); release so a thief reading it sees our slots. */
    atomic_store_explicit(&q->anchor, DE_MK(h, s - 1, DE_G(a)), memory_order_release);
    return true;
}

static wp_steal_result deque_steal(wp_queue *q_, uint64_t *item, wp_worker *thief)
{
    (void)thief;
    idem_deque *q = (idem_deque *)q_;
    /* Acquire: pairs with the owner's release stores: the slots. */
    uint64_t a = atomic_load_explicit(&q->anchor, memory_order_acquire);
    uint32_t h = DE_H(a), s = DE_S(a);
    if (s == 0)
        return WP_STEAL_EMPTY;
    /* Acquire: pairs with the grow's release. */
    wp_ring *r = atomic_load_explicit(&q->rq.shared, memory_order_acquire);
    wp_slot_load(wp_ring_slot(r, h, q_->words), item, q_->words);
    /* Acquire fence (seqlock): a rewritten slot makes the CAS see the put. */
    atomic_thread_fence(memory_order_acquire);
    /* Acq_rel: the steal; release keeps our slot read before it. */
    if (atomic_compare_exchange_strong_explicit(&q->anchor, &a, DE_MK(h + 1, s - 1, DE_G(a)),
                                                memory_order_acq_rel, memory_order_relaxed))
        return WP_STEAL_OK;
    return WP_STEAL_ABORT;
}

/* Owner: the oldest items (the thieves' end) in one CAS. */
static size_t deque_carve(wp_queue *q_, uint64_t *items, size_t max, wp_worker *self)
{
    (void)self;
    idem_deque *q = (idem_deque *)q_;
    for (;;) {
        /* Acquire: the anchor we validate with the CAS below. */
        uint64_t a = atomic_load_explicit(&q->anchor, memory_order_acquire);
        uint32_t h = DE_H(a), s = DE_S(a);
        if (s == 0)
            return 0;
        uint32_t k = s < max ? s : (uint32_t)max;
        weft__wp_ring_read(q->rq.own, h, k, items, q_->words);
        /* Acq_rel: like a steal of k items (only thieves race with us). */
        if (atomic_compare_exchange_strong_explicit(&q->anchor, &a, DE_MK(h + k, s - k, DE_G(a)),
                                                    memory_order_acq_rel, memory_order_relaxed))
            return k;
    }
}

static size_t deque_size(wp_queue *q_)
{
    idem_deque *q = (idem_deque *)q_;
    /* Acquire: pairs with the owner's release stores (termination check). */
    return DE_S(atomic_load_explicit(&q->anchor, memory_order_acquire));
}

const wp_queue_ops weft__wp_idem_deque_ops = {
    .kind = WEFT_QUEUE_IDEMPOTENT_DEQUE,
    .name = "idem-deque",
    .idempotent = true,
    .fixed = true,
    .create = deque_create,
    .destroy = weft__wp_ring_queue_destroy,
    .push = deque_push,
    .take = deque_take,
    .steal = deque_steal,
    .carve = deque_carve,
    .size = deque_size,
};
