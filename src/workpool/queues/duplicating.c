// SPDX-License-Identifier: Apache-2.0
/* The duplicating queue of the .NET Task Parallel Library (Leijen, Schulte,
 * Burckhardt, OOPSLA'09), as "Work-stealing Queues In Practice" section 3.4
 * describes it: thieves take a lock, the owner takes none and uses no
 * fence; a task may be duplicated when the owner and a thief race for the
 * last item; tailMin repairs the indices a duplication leaves inconsistent.
 * The papers give only that outline; this is weft's construction of it.
 *
 * State: `head` (written by thieves, under the lock), `tail` = (gen, index)
 * written by the owner, a circular array of slots.  Each slot carries the
 * item, `pgen` (a number unique to the push that wrote it) and `sgen` (the
 * pgen of the contents a thief last stole from it).
 *
 * Owner push(x):  write the slot and pgen; tail = (gen, t+1), release.
 * Owner take():   t = t-1; tail = (++gen, t), relaxed, no fence; h = head.
 *   If h <= t the item at t is ours (fast path).  A thief that has not yet
 *   seen our tail store may be taking the same item: that is the one race in
 *   which an item is duplicated.
 * Thief steal():  lock; h = head; T1 = tail; if h < idx(T1): read slot h;
 *   acquire fence; T2 = tail; if gen(T2) != gen(T1) give up (the owner took
 *   something meanwhile, so the slot may be rewritten: seqlock validation);
 *   else mark sgen = pgen, head = h+1 (release), unlock.  With steal-half
 *   the thief takes ceil(n/2) items the same way.
 *
 * After a duplication head > t (by one, or more when the owner took
 * several items with a stale view of head): the two indices disagree, and
 * an item the owner pushes at t is below head, invisible to thieves (they
 * never read below head) and looks "taken" to a naive owner.  The repair
 * (the paper's tailMin) is the owner's `lo`: the lowest index that may
 * still hold an item of the owner.  When the owner's take finds head above
 * its index t, every index in [lo, t] is below head, so no thief can touch
 * them any more, and each holds an item the owner pushed and did not take
 * itself; it is still the owner's unless a thief stole that very push
 * (sgen == pgen, visible through the acquire load of head).  The owner
 * scans down from t for such an item and takes it; then, under the lock, it
 * moves the rest of its items in [lo, t) up to the true head, in order, and
 * sets lo = head (rebase).  The queue is consistent again, so what the
 * owner pushes next lands above head, where thieves see it: left below
 * head, every push would stay hidden for as long as the owner held an item
 * there, and the hidden part would grow with each steal above it (work no
 * thief can take and no sleeper is woken for; a burst after a duplication
 * then ran on its owner alone).  Each index is scanned once before lo
 * passes it and each item is moved at most once, so the repair costs O(1)
 * per push.  A push into an empty queue also restarts at head when head
 * has passed the tail.
 *
 * Thieves read slots only under the lock, so the owner grows the array
 * under the lock and frees the old one at once: no reclamation scheme.
 */
#include "workpool/queues/table.h"

#include <sched.h>
#include <stdlib.h>

#define TAIL(gen, idx) (((uint64_t)(gen) << 32) | (uint32_t)(idx))
#define T_GEN(t) ((uint32_t)((t) >> 32))
#define T_IDX(t) ((uint32_t)(t))
#define DUP_MAX_CAP ((size_t)1 << 30)
/* Slot layout: pgen, sgen, item words. */
#define S_PGEN 0
#define S_SGEN 1
#define S_ITEM 2

typedef struct dup_queue {
    wp_queue base;
    /* Owner-private. */
    wp_ring *ring;   /* also read by thieves under the lock; replaced under it */
    unsigned stride; /* words per slot */
    uint32_t t;      /* tail index */
    uint32_t lo;     /* lowest index that may hold one of our items */
    uint32_t hw;     /* highest tail index published */
    uint32_t gen;    /* bumped by every take */
    uint64_t pushes; /* source of pgen */
    /* Thieves' line. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t lock;
    _Atomic uint32_t head;
    /* Owner-written, thief-read. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t tail;
} dup_queue;

static inline int32_t diff(uint32_t a, uint32_t b) { return (int32_t)(a - b); }

static inline _Atomic uint64_t *dslot(wp_ring *r, unsigned stride, uint32_t i)
{
    return &r->slots[(size_t)(i & r->mask) * stride];
}

static bool try_lock(dup_queue *q)
{
    /* Relaxed peek: the exchange below decides. */
    if (atomic_load_explicit(&q->lock, memory_order_relaxed) != 0)
        return false;
    /* Acquire: the previous holder's writes (head, sgen, array). */
    return atomic_exchange_explicit(&q->lock, 1, memory_order_acquire) == 0;
}

static void lock(dup_queue *q)
{
    for (unsigned spins = 0; !try_lock(q); spins++) {
        if (spins < 64)
            weft_cpu_relax();
        else
            sched_yield(); /* the holder may be descheduled */
    }
}

static void unlock(dup_queue *q)
{
    /* Release: our writes before the next holder's. */
    atomic_store_explicit(&q->lock, 0, memory_order_release);
}

static int dup_create(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out)
{
    (void)owner;
    dup_queue *q = aligned_alloc(WEFT_CACHE_LINE, sizeof *q);
    if (q == NULL)
        return ENOMEM;
    q->base.words = p->words;
    q->stride = p->words + 2;
    q->ring = weft__wp_ring_new(cap, q->stride);
    if (q->ring == NULL) {
        free(q);
        return ENOMEM;
    }
    q->t = q->lo = q->hw = 0;
    q->gen = 0;
    q->pushes = 0;
    atomic_init(&q->lock, 0);
    atomic_init(&q->head, 0);
    atomic_init(&q->tail, TAIL(0, 0));
    *out = &q->base;
    return 0;
}

static void dup_destroy(wp_queue *q_)
{
    dup_queue *q = (dup_queue *)q_;
    free(q->ring);
    free(q);
}

/* Owner: room for the indices [lo, top] (thieves may read up to hw). */
static bool dup_grow(dup_queue *q, uint32_t top)
{
    size_t need = (size_t)(uint32_t)(top - q->lo) + 1, cap = q->ring->cap;
    while (cap < need)
        cap *= 2;
    if (cap > DUP_MAX_CAP)
        return false;
    wp_ring *fresh = weft__wp_ring_new(cap, q->stride);
    if (fresh == NULL)
        return false;
    lock(q);
    wp_ring *old = q->ring;
    for (uint32_t i = q->lo; i != top; i++) {
        uint64_t tmp[WP_MAX_WORDS + 2];
        wp_slot_load(dslot(old, q->stride, i), tmp, q->stride);
        wp_slot_store(dslot(fresh, q->stride, i), tmp, q->stride);
    }
    q->ring = fresh; /* plain: thieves read it only under the lock */
    unlock(q);
    free(old); /* nobody reads it: thieves read arrays only under the lock */
    return true;
}

static bool dup_push(wp_queue *q_, const uint64_t *item, wp_worker *self)
{
    dup_queue *q = (dup_queue *)q_;
    if (q->t == q->lo) {
        /* We hold nothing.  If head passed our tail (everything stolen, or a
         * duplication), restart at head so the item is visible to thieves.
         * Relaxed: any value read is at most the true head, which is all
         * that is needed (head only grows). */
        uint32_t h = atomic_load_explicit(&q->head, memory_order_relaxed);
        if (diff(h, q->t) > 0)
            q->t = q->lo = h;
    }
    uint32_t t = q->t, top = diff(q->hw, t + 1) > 0 ? q->hw : t + 1;
    if (WEFT_UNLIKELY((size_t)(uint32_t)(top - q->lo) > q->ring->cap)) {
        if (!dup_grow(q, top))
            return false;
        self->ctr.grows++;
    }
    _Atomic uint64_t *s = dslot(q->ring, q->stride, t);
    /* Release fence (seqlock): our last tail store (a take's gen) before the
     * slot writes, for a thief validating a read of them. */
    atomic_thread_fence(memory_order_release);
    wp_slot_store(s + S_ITEM, item, q->base.words);
    /* Relaxed: published with the slot by the tail release below. */
    atomic_store_explicit(&s[S_PGEN], ++q->pushes, memory_order_relaxed);
    /* Release: publishes the slot to thieves that acquire-load tail. */
    atomic_store_explicit(&q->tail, TAIL(q->gen, t + 1), memory_order_release);
    q->t = t + 1;
    if (diff(q->t, q->hw) > 0)
        q->hw = q->t;
    return true;
}

/* Owner, with head above index i (i in [lo, head)): true if slot i still
 * holds an item of ours, one we pushed and no thief stole (sgen != pgen). */
static inline bool owned(dup_queue *q, wp_ring *r, uint32_t i)
{
    _Atomic uint64_t *s = dslot(r, q->stride, i);
    /* Relaxed: our own write. */
    uint64_t pgen = atomic_load_explicit(&s[S_PGEN], memory_order_relaxed);
    /* Relaxed: a thief wrote it before its release of head, which
     * dup_take's acquire load of head (above i) has seen, or before its
     * unlock, which the lock rebase holds has acquired. */
    uint64_t sgen = atomic_load_explicit(&s[S_SGEN], memory_order_relaxed);
    return sgen != pgen;
}

/* Owner, after a take found head above its index: [lo, end) is below
 * head, out of thieves' reach.  Moves the items of ours still there up to
 * the true head, in order, and publishes them: the queue is consistent
 * again (lo = head), so what we push next is above head, where thieves
 * can see it.  Without the move, a push would land below head as long as
 * we held an item there, and each steal above would widen the hidden part:
 * work nobody else could take, and no wake-up for it (size counts only
 * from head).  Under the lock, so the true head cannot move meanwhile and
 * no thief reads a slot we rewrite.  The source indices are below head
 * and the targets above it, and head - lo <= hw - lo <= cap, so a target
 * never overwrites a source not yet read.  Each index of [lo, end) is
 * looked at once before lo passes it, and each item is moved at most once
 * (placed at or above head, only a steal takes head past it): O(1) per
 * push.  `seen` is the head the take read; with nothing to move and seen
 * at the highest tail ever published, which head never exceeds, it is the
 * true head and the lock is not needed. */
static void rebase(dup_queue *q, uint32_t end, uint32_t seen)
{
    wp_ring *r = q->ring;
    bool locked = end != q->lo || seen != q->hw;
    uint32_t head = seen;
    if (locked) {
        lock(q);
        /* Relaxed: written only under the lock, which we hold. */
        head = atomic_load_explicit(&q->head, memory_order_relaxed);
    }
    uint32_t to = head;
    for (uint32_t i = q->lo; i != end; i++) {
        if (!owned(q, r, i))
            continue;
        uint64_t tmp[WP_MAX_WORDS];
        _Atomic uint64_t *dst = dslot(r, q->stride, to++);
        wp_slot_load(dslot(r, q->stride, i) + S_ITEM, tmp, q->base.words);
        wp_slot_store(dst + S_ITEM, tmp, q->base.words);
        /* Relaxed: published by the unlock; a fresh pgen, so no thief's
         * old mark on this slot matches it. */
        atomic_store_explicit(&dst[S_PGEN], ++q->pushes, memory_order_relaxed);
    }
    q->lo = head;
    q->t = to;
    if (diff(to, q->hw) > 0)
        q->hw = to;
    /* Release: the moved items, for thieves (which also take the lock
     * after our unlock) and for size()'s readers. */
    atomic_store_explicit(&q->tail, TAIL(++q->gen, to), memory_order_release);
    if (locked)
        unlock(q);
}

static bool dup_take(wp_queue *q_, uint64_t *item, wp_worker *self)
{
    (void)self;
    dup_queue *q = (dup_queue *)q_;
    if (q->t == q->lo)
        return false;
    uint32_t t = --q->t;
    q->gen++;
    /* Relaxed: the claim, deliberately without a fence: a thief that does
     * not see it yet may take the same item (the one duplication race). */
    atomic_store_explicit(&q->tail, TAIL(q->gen, t), memory_order_relaxed);
    /* Acquire: pairs with thieves' release of head: their sgen marks. */
    uint32_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    wp_ring *r = q->ring;
    if (diff(t, h) >= 0) {
        wp_slot_load(dslot(r, q->stride, t) + S_ITEM, item, q->base.words);
        return true;
    }
    /* head passed t: [lo, t] is out of thieves' reach; find our newest
     * item there that no thief stole. */
    for (uint32_t i = t;; i--) {
        if (owned(q, r, i)) {
            wp_slot_load(dslot(r, q->stride, i) + S_ITEM, item, q->base.words);
            rebase(q, i, h);
            return true;
        }
        if (i == q->lo)
            break;
    }
    /* Nothing left: restart at the true head. */
    rebase(q, q->lo, h);
    return false;
}

/* Thief: up to `max` items (1 for steal-one, ceil(n/2) for steal-half).
 * Returns the number taken; *why says EMPTY or ABORT when it is 0. */
#define DUP_HALF_MAX 256
static size_t dup_steal_n(dup_queue *q, uint64_t *items, size_t max, bool half,
                          wp_steal_result *why)
{
    *why = WP_STEAL_ABORT;
    if (!try_lock(q))
        return 0;
    /* Relaxed: written only under the lock, which we hold. */
    uint32_t h = atomic_load_explicit(&q->head, memory_order_relaxed);
    /* Acquire: pairs with push's release: the slots below the tail. */
    uint64_t t1 = atomic_load_explicit(&q->tail, memory_order_acquire);
    int32_t n = diff(T_IDX(t1), h);
    if (n <= 0) {
        unlock(q);
        *why = WP_STEAL_EMPTY;
        return 0;
    }
    size_t k = half ? ((size_t)n + 1) / 2 : 1;
    if (k > max)
        k = max;
    if (k > DUP_HALF_MAX)
        k = DUP_HALF_MAX;
    uint64_t pgens[DUP_HALF_MAX];
    unsigned words = q->base.words;
    for (size_t j = 0; j < k; j++) {
        _Atomic uint64_t *s = dslot(q->ring, q->stride, h + (uint32_t)j);
        /* Relaxed: ordered by the tail acquire above, validated below. */
        pgens[j] = atomic_load_explicit(&s[S_PGEN], memory_order_relaxed);
        wp_slot_load(s + S_ITEM, items + j * words, words);
    }
    /* Acquire fence (seqlock): if we read a slot rewritten after a take we
     * did not see, the tail load below sees that take's gen. */
    atomic_thread_fence(memory_order_acquire);
    /* Relaxed: ordered by the fence above. */
    uint64_t t2 = atomic_load_explicit(&q->tail, memory_order_relaxed);
    if (T_GEN(t2) != T_GEN(t1)) {
        unlock(q);
        return 0;
    }
    for (size_t j = 0; j < k; j++)
        /* Relaxed: published by the release of head below. */
        atomic_store_explicit(&dslot(q->ring, q->stride, h + (uint32_t)j)[S_SGEN], pgens[j],
                              memory_order_relaxed);
    /* Release: our sgen marks before the new head (the owner acquires it). */
    atomic_store_explicit(&q->head, h + (uint32_t)k, memory_order_release);
    unlock(q);
    *why = WP_STEAL_OK;
    return k;
}

static wp_steal_result dup_steal(wp_queue *q_, uint64_t *item, wp_worker *thief)
{
    (void)thief;
    wp_steal_result why;
    dup_steal_n((dup_queue *)q_, item, 1, false, &why);
    return why;
}

/* Native steal-half: the lock makes taking several items as simple as one. */
static size_t dup_steal_half(wp_queue *q_, uint64_t *items, size_t max, wp_worker *thief)
{
    wp_steal_result why;
    size_t k = dup_steal_n((dup_queue *)q_, items, max, true, &why);
    if (why == WP_STEAL_EMPTY)
        thief->ctr.steal_empty++;
    else if (why == WP_STEAL_ABORT)
        thief->ctr.steal_aborts++;
    return k;
}

static size_t dup_size(wp_queue *q_)
{
    dup_queue *q = (dup_queue *)q_;
    /* Acquire: pairs with the owner's release of tail (termination check). */
    uint32_t t = T_IDX(atomic_load_explicit(&q->tail, memory_order_acquire));
    /* Acquire: pairs with thieves' release of head. */
    uint32_t h = atomic_load_explicit(&q->head, memory_order_acquire);
    return diff(t, h) > 0 ? (size_t)diff(t, h) : 0;
}

const wp_queue_ops weft__wp_duplicating_ops = {
    .kind = WEFT_QUEUE_DUPLICATING,
    .name = "duplicating",
    .idempotent = true,
    .create = dup_create,
    .destroy = dup_destroy,
    .push = dup_push,
    .take = dup_take,
    .steal = dup_steal,
    .steal_half = dup_steal_half,
    .size = dup_size,
};
