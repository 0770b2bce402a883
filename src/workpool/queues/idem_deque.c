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
#include "workpool/workpool.h"

#include <stdlib.h>

#define DE_MAX_CAP 65536u
#define DE_MK(h, s, g)                                                                     \
    (((uint64_t)(h) & 0xFFFFu) | (((uint64_t)(s) & 0x1FFFFu) << 16) |                      \
     (((uint64_t)(g) & 0x7FFFFFFFu) << 33))
#define DE_H(a) ((uint32_t)((a) & 0xFFFFu))
#define DE_S(a) ((uint32_t)(((a) >> 16) & 0x1FFFFu))
#define DE_G(a) ((uint32_t)((a) >> 33))

typedef struct pq_deque {
    pq base;
    pq_ring *ring_own;
    pq_ring *retired;
    _Alignas(POOL_LINE) _Atomic uint64_t anchor;
    _Atomic(pq_ring *) ring;
} pq_deque;

static int deque_create(pool *p, pool_worker *owner, size_t cap, pq **out)
{
    (void)owner;
    pq_deque *q = aligned_alloc(POOL_LINE, sizeof *q);
    if (q == NULL)
        return ENOMEM;
    q->base.words = p->words;
    q->ring_own = pq_ring_new(cap < DE_MAX_CAP ? cap : DE_MAX_CAP, p->words);
    if (q->ring_own == NULL) {
        free(q);
        return ENOMEM;
    }
    q->retired = NULL;
    atomic_init(&q->anchor, DE_MK(0, 0, 0));
    atomic_init(&q->ring, q->ring_own);
    *out = &q->base;
    return 0;
}

static void deque_destroy(pq *q_)
{
    pq_deque *q = (pq_deque *)q_;
    free(q->ring_own);
    pq_ring_free_list(q->retired);
    free(q);
}

static bool deque_grow(pq_deque *q, uint32_t h, uint32_t s)
{
    return pq_ring_double(&q->ring, &q->ring_own, &q->retired, h, (uint64_t)h + s, DE_MAX_CAP,
                          q->base.words);
}

static bool deque_push(pq *q_, const uint64_t *item, pool_worker *self)
{
    pq_deque *q = (pq_deque *)q_;
    /* Relaxed: we are the only writer besides thieves' steals; a stale
     * value only re-exposes stolen items (a duplicate, allowed here). */
    uint64_t a = atomic_load_explicit(&q->anchor, memory_order_relaxed);
    uint32_t h = DE_H(a), s = DE_S(a);
    if (WEFT_UNLIKELY(s >= q->ring_own->cap)) {
        if (!deque_grow(q, h, s))
            return false;
        self->ctr.grows++;
    }
    /* Release fence (seqlock): our last anchor store before the slot write. */
    atomic_thread_fence(memory_order_release);
    pq_slot_store(pq_ring_slot(q->ring_own, h + s, q->base.words), item, q->base.words);
    /* Release: publishes the slot; tag+1 defeats ABA on (head, size). */
    atomic_store_explicit(&q->anchor, DE_MK(h, s + 1, DE_G(a) + 1), memory_order_release);
    return true;
}

static bool deque_take(pq *q_, uint64_t *item, pool_worker *self)
{
    (void)self;
    pq_deque *q = (pq_deque *)q_;
    /* Relaxed: see push. */
    uint64_t a = atomic_load_explicit(&q->anchor, memory_order_relaxed);
    uint32_t h = DE_H(a), s = DE_S(a);
    if (s == 0)
        return false;
    pq_slot_load(pq_ring_slot(q->ring_own, h + s - 1, q->base.words), item, q->base.words);
    /* Release: a plain store that may undo a concurrent steal (the
     * idempotent relaxation); release so a thief reading it sees our slots. */
    atomic_store_explicit(&q->anchor, DE_MK(h, s - 1, DE_G(a)), memory_order_release);
    return true;
}

static pq_result deque_steal(pq *q_, uint64_t *item, pool_worker *thief)
{
    (void)thief;
    pq_deque *q = (pq_deque *)q_;
    /* Acquire: pairs with the owner's release stores: the slots. */
    uint64_t a = atomic_load_explicit(&q->anchor, memory_order_acquire);
    uint32_t h = DE_H(a), s = DE_S(a);
    if (s == 0)
        return PQ_EMPTY;
    /* Acquire: pairs with the grow's release. */
    pq_ring *r = atomic_load_explicit(&q->ring, memory_order_acquire);
    pq_slot_load(pq_ring_slot(r, h, q->base.words), item, q->base.words);
    /* Acquire fence (seqlock): a rewritten slot makes the CAS see the put. */
    atomic_thread_fence(memory_order_acquire);
    /* Acq_rel: the steal; release keeps our slot read before it. */
    if (atomic_compare_exchange_strong_explicit(&q->anchor, &a, DE_MK(h + 1, s - 1, DE_G(a)),
                                                memory_order_acq_rel, memory_order_relaxed))
        return PQ_OK;
    return PQ_ABORT;
}

/* Owner: the oldest items (the thieves' end) in one CAS. */
static size_t deque_carve(pq *q_, uint64_t *items, size_t max, pool_worker *self)
{
    (void)self;
    pq_deque *q = (pq_deque *)q_;
    unsigned words = q->base.words;
    for (;;) {
        /* Acquire: the anchor we validate with the CAS below. */
        uint64_t a = atomic_load_explicit(&q->anchor, memory_order_acquire);
        uint32_t h = DE_H(a), s = DE_S(a);
        if (s == 0)
            return 0;
        uint32_t k = s < max ? s : (uint32_t)max;
        for (uint32_t i = 0; i < k; i++)
            pq_slot_load(pq_ring_slot(q->ring_own, h + i, words), items + (size_t)i * words,
                         words);
        /* Acq_rel: like a steal of k items (only thieves race with us). */
        if (atomic_compare_exchange_strong_explicit(&q->anchor, &a,
                                                    DE_MK(h + k, s - k, DE_G(a)),
                                                    memory_order_acq_rel, memory_order_relaxed))
            return k;
    }
}

static size_t deque_size(pq *q_)
{
    pq_deque *q = (pq_deque *)q_;
    /* Acquire: pairs with the owner's release stores (termination check). */
    return DE_S(atomic_load_explicit(&q->anchor, memory_order_acquire));
}

const pq_ops pq_idem_deque_ops = {
    .kind = WEFT_QUEUE_IDEMPOTENT_DEQUE,
    .name = "idem-deque",
    .idempotent = true,
    .fixed = true,
    .take_fences = false,
    .shared = false,
    .create = deque_create,
    .destroy = deque_destroy,
    .push = deque_push,
    .take = deque_take,
    .steal = deque_steal,
    .steal_half = NULL,
    .carve = deque_carve,
    .size = deque_size,
};
