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
#include "workpool/workpool.h"

#include <stdlib.h>

typedef struct pq_fifo {
    pq base;
    pq_ring *ring_own;
    pq_ring *retired;
    uint64_t tail_own;
    /* Thieves CAS head; the owner stores it. */
    _Alignas(POOL_LINE) _Atomic uint64_t head;
    /* The owner writes tail on every put, the array pointer on a grow. */
    _Alignas(POOL_LINE) _Atomic uint64_t tail;
    _Atomic(pq_ring *) ring;
} pq_fifo;

static int fifo_create(pool *p, pool_worker *owner, size_t cap, pq **out)
{
    (void)owner;
    pq_fifo *q = aligned_alloc(POOL_LINE, sizeof *q);
    if (q == NULL)
        return ENOMEM;
    q->base.words = p->words;
    q->ring_own = pq_ring_new(cap, p->words);
    if (q->ring_own == NULL) {
        free(q);
        return ENOMEM;
    }
    q->retired = NULL;
    q->tail_own = 0;
    atomic_init(&q->head, 0);
    atomic_init(&q->tail, 0);
    atomic_init(&q->ring, q->ring_own);
    *out = &q->base;
    return 0;
}

static void fifo_destroy(pq *q_)
{
    pq_fifo *q = (pq_fifo *)q_;
    free(q->ring_own);
    pq_ring_free_list(q->retired);
    free(q);
}

static bool fifo_grow(pq_fifo *q, uint64_t h, uint64_t t)
{
    return pq_ring_double(&q->ring, &q->ring_own, &q->retired, h, t, (size_t)1 << 40,
                          q->base.words);
}

static bool fifo_push(pq *q_, const uint64_t *item, pool_worker *self)
{
    pq_fifo *q = (pq_fifo *)q_;
    /* Acquire: pairs with thieves' CAS: their reads of the slots they freed
     * happen before we rewrite them. */
    uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    uint64_t t = q->tail_own;
    if (WEFT_UNLIKELY(t - h >= q->ring_own->cap)) {
        if (!fifo_grow(q, h, t))
            return false;
        self->ctr.grows++;
    }
    /* Release fence (seqlock): our head stores before the slot write. */
    atomic_thread_fence(memory_order_release);
    pq_slot_store(pq_ring_slot(q->ring_own, t, q->base.words), item, q->base.words);
    /* Release: publishes the slot to thieves that acquire-load tail. */
    atomic_store_explicit(&q->tail, t + 1, memory_order_release);
    q->tail_own = t + 1;
    return true;
}

static bool fifo_take(pq *q_, uint64_t *item, pool_worker *self)
{
    (void)self;
    pq_fifo *q = (pq_fifo *)q_;
    /* Acquire: pairs with thieves' CAS (the latest head we can see). */
    uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    if ((int64_t)(q->tail_own - h) <= 0)
        return false;
    pq_slot_load(pq_ring_slot(q->ring_own, h, q->base.words), item, q->base.words);
    /* Release: a plain store that may undo concurrent steals (the
     * idempotent relaxation); release so a thief reading it sees our slots. */
    atomic_store_explicit(&q->head, h + 1, memory_order_release);
    return true;
}

static pq_result fifo_steal(pq *q_, uint64_t *item, pool_worker *thief)
{
    (void)thief;
    pq_fifo *q = (pq_fifo *)q_;
    /* Acquire: pairs with the owner's head store and other thieves' CAS. */
    uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    /* Acquire: pairs with put's release: the slots below tail are written. */
    uint64_t t = atomic_load_explicit(&q->tail, memory_order_acquire);
    if ((int64_t)(t - h) <= 0)
        return PQ_EMPTY;
    /* Acquire: pairs with the grow's release: an array holding index h. */
    pq_ring *r = atomic_load_explicit(&q->ring, memory_order_acquire);
    pq_slot_load(pq_ring_slot(r, h, q->base.words), item, q->base.words);
    /* Acquire fence (seqlock): see the top of the file. */
    atomic_thread_fence(memory_order_acquire);
    /* Acq_rel: the steal; release keeps our slot read before it. */
    if (atomic_compare_exchange_strong_explicit(&q->head, &h, h + 1, memory_order_acq_rel,
                                                memory_order_relaxed))
        return PQ_OK;
    return PQ_ABORT;
}

/* Owner: the oldest items are at the owner's own end. */
static size_t fifo_carve(pq *q_, uint64_t *items, size_t max, pool_worker *self)
{
    size_t k = 0;
    while (k < max && fifo_take(q_, items + k * q_->words, self))
        k++;
    return k;
}

static size_t fifo_size(pq *q_)
{
    pq_fifo *q = (pq_fifo *)q_;
    /* Acquire: pairs with the owner's release of tail (termination check). */
    uint64_t t = atomic_load_explicit(&q->tail, memory_order_acquire);
    /* Acquire: pairs with the head stores and CASes. */
    uint64_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    return (int64_t)(t - h) > 0 ? (size_t)(t - h) : 0;
}

const pq_ops pq_idem_fifo_ops = {
    .kind = WEFT_QUEUE_IDEMPOTENT_FIFO,
    .name = "idem-fifo",
    .idempotent = true,
    .fixed = false,
    .take_fences = false,
    .shared = false,
    .create = fifo_create,
    .destroy = fifo_destroy,
    .push = fifo_push,
    .take = fifo_take,
    .steal = fifo_steal,
    .steal_half = NULL,
    .carve = fifo_carve,
    .size = fifo_size,
};
