// SPDX-License-Identifier: Apache-2.0
/* Idempotent LIFO (Michael, Vechev, Saraswat, "Idempotent work stealing",
 * PPoPP'09).
 *
 * The owner puts, takes and thieves steal at the same end, the tail.  The
 * tail is packed with a tag into one 64-bit `anchor` = (tag, tail):
 *   put:   write tasks[t]; anchor = (tag+1, t+1)       (a plain store)
 *   take:  read tasks[t-1]; anchor = (tag, t-1)        (a plain store, no
 *          fence, no CAS: the point of the algorithm)
 *   steal: read anchor and tasks[t-1]; CAS anchor (tag, t) -> (tag, t-1)
 * The owner's plain stores may overwrite a thief's CAS, so an item can be
 * delivered twice (the owner's take and a thief's steal, or an item made
 * visible again): "at least once", valid only for idempotent work.  The tag,
 * incremented by every put, stops a thief from succeeding after a take and
 * a put reused its slot (ABA).  32 bits of tag: a thief would have to sleep
 * through 2^32 puts between its read and its CAS.
 *
 * The array grows (doubling) when full; old arrays stay valid (the owner
 * never writes them again) and are freed when the run ends, which costs at
 * most the size of the live array.  Thieves load the array pointer after
 * the anchor (acquire): a tail beyond the old capacity implies the new
 * array.
 *
 * Slots are relaxed atomic words; the release fence at the start of put and
 * the acquire fence before the thief's CAS make a thief that read a slot
 * being rewritten see the take's anchor store, so its CAS fails (seqlock):
 * a torn item is never delivered.
 */
#include "workpool/queues/table.h"

#include <stdlib.h>

#define ANCHOR(tag, tail) (((uint64_t)(tag) << 32) | (uint32_t)(tail))
#define A_TAG(a) ((uint32_t)((a) >> 32))
#define A_TAIL(a) ((uint32_t)(a))
#define LIFO_MAX_CAP ((size_t)1 << 31)

typedef struct idem_lifo {
    wp_ring_queue rq;
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t anchor;
} idem_lifo;

static int lifo_create(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out)
{
    (void)owner;
    idem_lifo *q = weft__wp_ring_queue_new(sizeof *q, p, cap);
    if (q == NULL)
        return ENOMEM;
    atomic_init(&q->anchor, ANCHOR(0, 0));
    *out = &q->rq.base;
    return 0;
}

static bool lifo_push(wp_queue *q_, const uint64_t *item, wp_worker *self)
{
    idem_lifo *q = (idem_lifo *)q_;
    /* Relaxed: we write the tag; thieves only lower the tail (a stale value
     * only re-exposes items: a duplicate, which this queue allows). */
    uint64_t a = atomic_load_explicit(&q->anchor, memory_order_relaxed);
    uint32_t t = A_TAIL(a);
    if (WEFT_UNLIKELY(t == q->rq.own->cap)) {
        if (!weft__wp_ring_queue_grow(&q->rq, 0, t, LIFO_MAX_CAP))
            return false;
        self->ctr.grows++;
    }
    /* Release fence (seqlock): our last anchor store before the slot write. */
    atomic_thread_fence(memory_order_release);
    wp_slot_store(wp_ring_slot(q->rq.own, t, q_->words), item, q_->words);
    /* Release: publishes the slot; tag+1 defeats ABA on the tail. */
    atomic_store_explicit(&q->anchor, ANCHOR(A_TAG(a) + 1, t + 1), memory_order_release);
    return true;
}

static bool lifo_take(wp_queue *q_, uint64_t *item, wp_worker *self)
{
    (void)self;
    idem_lifo *q = (idem_lifo *)q_;
    /* Relaxed: see push. */
    uint64_t a = atomic_load_explicit(&q->anchor, memory_order_relaxed);
    uint32_t t = A_TAIL(a);
    if (t == 0)
        return false;
    wp_slot_load(wp_ring_slot(q->rq.own, t - 1, q_->words), item, q_->words);
    /* Release: a plain store that may undo a concurrent steal (the
     * idempotent relaxation); release so a thief reading it sees our slots. */
    atomic_store_explicit(&q->anchor, ANCHOR(A_TAG(a), t - 1), memory_order_release);
    return true;
}

static wp_steal_result lifo_steal(wp_queue *q_, uint64_t *item, wp_worker *thief)
{
    (void)thief;
    idem_lifo *q = (idem_lifo *)q_;
    /* Acquire: pairs with the owner's release stores: the slots below. */
    uint64_t a = atomic_load_explicit(&q->anchor, memory_order_acquire);
    uint32_t t = A_TAIL(a);
    if (t == 0)
        return WP_STEAL_EMPTY;
    /* Acquire: pairs with the grow's release: an array holding index t-1. */
    wp_ring *r = atomic_load_explicit(&q->rq.shared, memory_order_acquire);
    wp_slot_load(wp_ring_slot(r, t - 1, q_->words), item, q_->words);
    /* Acquire fence (seqlock): a rewritten slot makes the CAS see the take. */
    atomic_thread_fence(memory_order_acquire);
    /* Acq_rel: the steal; release keeps our slot read before it. */
    if (atomic_compare_exchange_strong_explicit(&q->anchor, &a, ANCHOR(A_TAG(a), t - 1),
                                                memory_order_acq_rel, memory_order_relaxed))
        return WP_STEAL_OK;
    return WP_STEAL_ABORT;
}

static size_t lifo_size(wp_queue *q_)
{
    idem_lifo *q = (idem_lifo *)q_;
    /* Acquire: pairs with the owner's release stores (termination check). */
    return A_TAIL(atomic_load_explicit(&q->anchor, memory_order_acquire));
}

const wp_queue_ops weft__wp_idem_lifo_ops = {
    .kind = WEFT_QUEUE_IDEMPOTENT_LIFO,
    .name = "idem-lifo",
    .idempotent = true,
    .create = lifo_create,
    .destroy = weft__wp_ring_queue_destroy,
    .push = lifo_push,
    .take = lifo_take,
    .steal = lifo_steal,
    .carve = weft__wp_carve_by_takes, /* one end only: the newest items */
    .size = lifo_size,
};
