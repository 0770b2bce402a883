/* Chase-Lev: the dynamic circular work-stealing deque (SPAA'05), growing,
 * and a variant that also shrinks.
 *
 * top (thieves CAS it, it never decreases) and bottom (the owner's) index a
 * circular array; indices are 64-bit, so top never wraps and needs no tag.
 * The owner pushes and takes at bottom; a thief reads array[top] and
 * advances top by CAS; the owner takes the last item by CAS too.  Memory
 * orders are those of Lê, Pop, Cohen and Zappa Nardelli's C11 version
 * (PPoPP'13, proved correct for C11), with the item slots relaxed atomic
 * words:
 *   push:  store slot; bottom = b+1 (release)
 *   take:  bottom = b-1; seq_cst fence; load top; last item by CAS
 *   steal: load top (acquire); seq_cst fence; load bottom (acquire);
 *          load the array (acquire); read slot; CAS top (seq_cst)
 *
 * Growing: when b - t reaches the capacity, the owner copies [t, b) into an
 * array twice the size (same index -> slot mapping, index & mask) and
 * publishes it with release; thieves still holding the old array read the
 * same items there (the owner never writes an old array again).
 *
 * Shrinking (WEFT_QUEUE_CHASE_LEV_SHRINK): after a take that leaves fewer
 * than cap/4 items, the owner copies [t, b) into an array half the size,
 * never below the initial capacity.  A thief with a stale top may read a
 * slot of the new array that holds another index; its CAS on top fails.
 *
 * Reclaiming old arrays (there is no garbage collector):
 *   - growing only: an old array is freed when the run ends.  The retired
 *     arrays have sizes cap/2 + cap/4 + ... < cap, so this "retire until
 *     quiescent" costs at most as much memory as the live array and the
 *     thieves nothing;
 *   - growing and shrinking: repeated grow/shrink cycles would make that
 *     unbounded, so old arrays go through epoch-based reclamation (ebr.c):
 *     a thief announces the global epoch before its steal and withdraws
 *     after; an array retired in epoch r is freed once the epoch reaches
 *     r + 2.  The announcement is one relaxed store and the withdrawal one
 *     release store; the steal's existing seq_cst fence orders the
 *     announcement before the array load, so a steal costs no extra fence.
 */
#include "workpool/workpool.h"

#include <stdlib.h>

typedef struct pq_cl {
    pq base;
    bool shrink;
    size_t min_cap;
    pq_ring *ring_own;   /* the current array (the owner's copy) */
    uint64_t bottom_own; /* the owner's copy of bottom */
    pq_ring *retired;    /* growing variant: old arrays, freed at the end */
    pool_worker *owner;
    /* Thieves CAS this line. */
    _Alignas(POOL_LINE) _Atomic uint64_t top;
    /* The owner writes this line: bottom on every push and take, the
     * array pointer on a resize. */
    _Alignas(POOL_LINE) _Atomic uint64_t bottom;
    _Atomic(pq_ring *) ring;
} pq_cl;

static int cl_create_common(pool *p, pool_worker *owner, size_t cap, pq **out, bool shrink)
{
    pq_cl *q = aligned_alloc(POOL_LINE, sizeof *q);
    if (q == NULL)
        return ENOMEM;
    q->base.words = p->words;
    q->shrink = shrink;
    q->min_cap = cap;
    q->ring_own = pq_ring_new(cap, p->words);
    if (q->ring_own == NULL) {
        free(q);
        return ENOMEM;
    }
    q->bottom_own = 0;
    q->retired = NULL;
    q->owner = owner;
    atomic_init(&q->top, 0);
    atomic_init(&q->bottom, 0);
    atomic_init(&q->ring, q->ring_own);
    *out = &q->base;
    return 0;
}

static int cl_create(pool *p, pool_worker *owner, size_t cap, pq **out)
{
    return cl_create_common(p, owner, cap, out, false);
}

static int cl_create_shrink(pool *p, pool_worker *owner, size_t cap, pq **out)
{
    return cl_create_common(p, owner, cap, out, true);
}

static void cl_destroy(pq *q_)
{
    pq_cl *q = (pq_cl *)q_;
    free(q->ring_own);
    pq_ring_free_list(q->retired);
    free(q);
}

/* Owner: moves [t, b) to a new array of new_cap slots.  NULL if out of
 * memory (the array is unchanged). */
static pq_ring *cl_resize(pq_cl *q, uint64_t t, uint64_t b, size_t new_cap)
{
    unsigned words = q->base.words;
    pq_ring *old = q->ring_own, *fresh = pq_ring_new(new_cap, words);
    if (fresh == NULL)
        return NULL;
    pq_ring_copy(old, fresh, t, b, words);
    /* Release: the copied slots before the array pointer, for thieves that
     * acquire-load it. */
    atomic_store_explicit(&q->ring, fresh, memory_order_release);
    q->ring_own = fresh;
    if (q->shrink) {
        pool_ebr_retire(q->owner, old);
    } else {
        old->next = q->retired;
        q->retired = old;
    }
    return fresh;
}

static bool cl_push(pq *q_, const uint64_t *item, pool_worker *self)
{
    pq_cl *q = (pq_cl *)q_;
    uint64_t b = q->bottom_own;
    /* Acquire: top bounds the slots thieves may still read; their reads of
     * the slots below it happen before our overwrite (CAS is seq_cst). */
    uint64_t t = atomic_load_explicit(&q->top, memory_order_acquire);
    pq_ring *a = q->ring_own;
    if (WEFT_UNLIKELY(b - t >= a->mask)) {
        a = cl_resize(q, t, b, a->cap * 2);
        if (a == NULL)
            return false;
        self->ctr.grows++;
    }
    pq_slot_store(pq_ring_slot(a, b, q->base.words), item, q->base.words);
    /* Release: the slot (and a new array) before thieves see bottom (Lê et
     * al. use a release fence and a relaxed store; a release store is as
     * strong here, and ThreadSanitizer understands it). */
    atomic_store_explicit(&q->bottom, b + 1, memory_order_release);
    q->bottom_own = b + 1;
    return true;
}

static bool cl_take(pq *q_, uint64_t *item, pool_worker *self)
{
    pq_cl *q = (pq_cl *)q_;
    uint64_t b = q->bottom_own - 1;
    pq_ring *a = q->ring_own;
    /* Relaxed: ordered before the top load by the fence. */
    atomic_store_explicit(&q->bottom, b, memory_order_relaxed);
    q->bottom_own = b;
    /* seq_cst fence: pairs with the steal's fence: either the thief sees the
     * lowered bottom or we see its CAS of top (the last-item race). */
    atomic_thread_fence(memory_order_seq_cst);
    /* Relaxed: ordered by the fence above. */
    uint64_t t = atomic_load_explicit(&q->top, memory_order_relaxed);
    if ((int64_t)(b - t) < 0) {
        /* Empty: a thief took the last item. */
        /* Relaxed: we own bottom; thieves see top == bottom either way. */
        atomic_store_explicit(&q->bottom, b + 1, memory_order_relaxed);
        q->bottom_own = b + 1;
        return false;
    }
    pq_slot_load(pq_ring_slot(a, b, q->base.words), item, q->base.words);
    if (b == t) {
        /* seq_cst: the last item goes to whoever advances top first. */
        bool won = atomic_compare_exchange_strong_explicit(&q->top, &t, t + 1,
                                                           memory_order_seq_cst,
                                                           memory_order_relaxed);
        /* Relaxed: top is t + 1 either way; bottom follows. */
        atomic_store_explicit(&q->bottom, b + 1, memory_order_relaxed);
        q->bottom_own = b + 1;
        return won;
    }
    if (q->shrink && a->cap > q->min_cap && b - t < a->cap / 4) {
        if (cl_resize(q, t, b, a->cap / 2) != NULL)
            self->ctr.shrinks++;
    }
    return true;
}

static pq_result cl_steal(pq *q_, uint64_t *item, pool_worker *thief)
{
    pq_cl *q = (pq_cl *)q_;
    if (q->shrink)
        pool_ebr_enter(thief);
    /* Acquire: pairs with other thieves' CAS (their reads before ours). */
    uint64_t t = atomic_load_explicit(&q->top, memory_order_acquire);
    /* seq_cst fence: pairs with take's fence (last-item race); also orders
     * our epoch announcement before the array load (ebr.c). */
    atomic_thread_fence(memory_order_seq_cst);
    /* Acquire: pairs with push's release: the slots below bottom are written. */
    uint64_t b = atomic_load_explicit(&q->bottom, memory_order_acquire);
    pq_result r = PQ_EMPTY;
    if ((int64_t)(b - t) > 0) {
        /* Acquire: pairs with the resize's release: the copied slots. */
        pq_ring *a = atomic_load_explicit(&q->ring, memory_order_acquire);
        pq_slot_load(pq_ring_slot(a, t, q->base.words), item, q->base.words);
        /* seq_cst: the steal; top never repeats, so no tag is needed. */
        r = atomic_compare_exchange_strong_explicit(&q->top, &t, t + 1, memory_order_seq_cst,
                                                    memory_order_relaxed)
                ? PQ_OK
                : PQ_ABORT;
    }
    if (q->shrink)
        pool_ebr_exit(thief);
    return r;
}

/* Owner: the `max` oldest items by one CAS of top (thieves may race). */
static size_t cl_carve(pq *q_, uint64_t *items, size_t max, pool_worker *self)
{
    (void)self;
    pq_cl *q = (pq_cl *)q_;
    unsigned words = q->base.words;
    for (;;) {
        /* Acquire: as in push; the CAS below validates. */
        uint64_t t = atomic_load_explicit(&q->top, memory_order_acquire);
        uint64_t b = q->bottom_own;
        if ((int64_t)(b - t) <= 0)
            return 0;
        size_t k = b - t < max ? (size_t)(b - t) : max;
        for (size_t i = 0; i < k; i++)
            pq_slot_load(pq_ring_slot(q->ring_own, t + i, words), items + i * words, words);
        /* seq_cst: like a steal of k items; bottom is ours, so only thieves
         * race with it. */
        if (atomic_compare_exchange_strong_explicit(&q->top, &t, t + k, memory_order_seq_cst,
                                                    memory_order_relaxed))
            return k;
    }
}

static size_t cl_size(pq *q_)
{
    pq_cl *q = (pq_cl *)q_;
    /* Acquire: pairs with the owner's stores (termination check). */
    uint64_t b = atomic_load_explicit(&q->bottom, memory_order_acquire);
    /* Acquire: pairs with thieves' CAS. */
    uint64_t t = atomic_load_explicit(&q->top, memory_order_acquire);
    return (int64_t)(b - t) > 0 ? (size_t)(b - t) : 0;
}

const pq_ops pq_chaselev_ops = {
    .kind = WEFT_QUEUE_CHASE_LEV,
    .name = "chase-lev",
    .idempotent = false,
    .fixed = false,
    .take_fences = true,
    .shared = false,
    .create = cl_create,
    .destroy = cl_destroy,
    .push = cl_push,
    .take = cl_take,
    .steal = cl_steal,
    .steal_half = NULL,
    .carve = cl_carve,
    .size = cl_size,
};

const pq_ops pq_chaselev_shrink_ops = {
    .kind = WEFT_QUEUE_CHASE_LEV_SHRINK,
    .name = "chase-lev-shrink",
    .idempotent = false,
    .fixed = false,
    .take_fences = true,
    .shared = false,
    .create = cl_create_shrink,
    .destroy = cl_destroy,
    .push = cl_push,
    .take = cl_take,
    .steal = cl_steal,
    .steal_half = NULL,
    .carve = cl_carve,
    .size = cl_size,
};
