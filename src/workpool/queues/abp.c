// SPDX-License-Identifier: Apache-2.0
/* ABP: the Arora-Blumofe-Plaxton deque (SPAA'98), as in Figure 2 of "Work-
 * stealing Queues In Practice".
 *
 * A fixed array deq[0 .. cap), the owner's `bot`, and `age` = (tag, top) in
 * one 64-bit word that thieves update by CAS.  The owner pushes and takes at
 * bot; thieves take deq[top] and advance top by CAS on the whole age.  When
 * the owner empties the deque it resets bot and top to 0 and increments the
 * tag, so that a thief that read age before the reset cannot succeed after
 * it (ABA: the same top with different contents).
 *
 * Memory orders follow Lê, Pop, Cohen and Zappa Nardelli's C11 Chase-Lev
 * (PPoPP'13), which has the same owner/thief race on (bottom, top):
 *   - push: slot, then bot with release;
 *   - take: bot-1, seq_cst fence, load age: either the thief sees the lowered
 *     bot or the owner sees the thief's CAS; the last item is decided by CAS;
 *   - steal: load age, seq_cst fence, load bot, read the slot, CAS age.
 * A thief's read of a slot the owner is rewriting (after a reset) is a race
 * on relaxed atomic words that the failing CAS discards; the release fence
 * in push and the acquire fence before the thief's CAS make sure that a
 * thief that read a rewritten slot sees the reset's new tag (seqlock).
 *
 * Overflow: the array is fixed.  bot only returns to 0 when the owner
 * empties the deque, so when bot reaches cap with the deque not full of live
 * items (thieves advanced top by at least cap/2), the owner compacts: it
 * claims the whole deque by CAS to (tag+1, cap) (thieves see it empty and
 * every older age fails), moves the live items down, and publishes (tag+2,
 * 0) with release.  Otherwise push reports "full" and the pool applies the
 * configured overflow policy (spill or ENOBUFS): never corruption.
 */
#include "workpool/queues/table.h"

#include <stdlib.h>

#define AGE(tag, top) (((uint64_t)(tag) << 32) | (uint32_t)(top))
#define AGE_TAG(a) ((uint32_t)((a) >> 32))
#define AGE_TOP(a) ((uint32_t)(a))

typedef struct abp {
    wp_queue base;
    uint32_t cap;
    uint32_t bot_own; /* the owner's copy of bot */
    _Atomic uint64_t *deq;
    /* Thieves CAS this line. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t age;
    /* The owner writes this line on every push and take. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t bot;
} abp;

static inline _Atomic uint64_t *slot(abp *q, uint32_t i)
{
    return &q->deq[(size_t)i * q->base.words];
}

static int abp_create(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out)
{
    (void)owner;
    abp *q = aligned_alloc(WEFT_CACHE_LINE, sizeof *q);
    if (q == NULL)
        return ENOMEM;
    q->base.words = p->words;
    q->cap = (uint32_t)cap;
    q->bot_own = 0;
    q->deq = calloc(cap, (size_t)p->words * sizeof(uint64_t));
    if (q->deq == NULL) {
        free(q);
        return ENOMEM;
    }
    atomic_init(&q->age, AGE(0, 0));
    atomic_init(&q->bot, 0);
    *out = &q->base;
    return 0;
}

static void abp_destroy(wp_queue *q_)
{
    abp *q = (abp *)q_;
    free(q->deq);
    free(q);
}

/* Owner, bot == cap: makes room by moving the live items to the bottom. */
static bool abp_compact(abp *q)
{
    /* Relaxed: the CAS below decides. */
    uint64_t old = atomic_load_explicit(&q->age, memory_order_relaxed);
    for (;;) {
        if (AGE_TOP(old) == 0 || AGE_TOP(old) < q->cap / 2)
            return false; /* less than half (or nothing) would be freed: full */
        /* seq_cst: claims the deque; every thief CAS on an older age fails. */
        if (atomic_compare_exchange_weak_explicit(&q->age, &old, AGE(AGE_TAG(old) + 1, q->cap),
                                                  memory_order_seq_cst, memory_order_relaxed))
            break;
    }
    uint32_t top = AGE_TOP(old), n = q->bot_own - top;
    unsigned words = q->base.words;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t tmp[WP_MAX_WORDS];
        wp_slot_load(slot(q, top + i), tmp, words);
        wp_slot_store(slot(q, i), tmp, words);
    }
    /* Relaxed: published by the release store of age below. */
    atomic_store_explicit(&q->bot, n, memory_order_relaxed);
    q->bot_own = n;
    /* Release: the moved items and bot before thieves see top = 0 again. */
    atomic_store_explicit(&q->age, AGE(AGE_TAG(old) + 2, 0), memory_order_release);
    return true;
}

static bool abp_push(wp_queue *q_, const uint64_t *item, wp_worker *self)
{
    (void)self;
    abp *q = (abp *)q_;
    uint32_t b = q->bot_own;
    if (WEFT_UNLIKELY(b == q->cap)) {
        if (!abp_compact(q))
            return false;
        b = q->bot_own;
    }
    /* Release fence (seqlock): our last reset of age is ordered before the
     * slot writes, for a thief that reads one of them (see the top). */
    atomic_thread_fence(memory_order_release);
    wp_slot_store(slot(q, b), item, q->base.words);
    /* Release: publishes the slot to thieves that acquire-load bot. */
    atomic_store_explicit(&q->bot, b + 1, memory_order_release);
    q->bot_own = b + 1;
    return true;
}

static bool abp_take(wp_queue *q_, uint64_t *item, wp_worker *self)
{
    (void)self;
    abp *q = (abp *)q_;
    uint32_t b = q->bot_own;
    if (b == 0)
        return false;
    b--;
    /* Relaxed: ordered before the age load by the fence. */
    atomic_store_explicit(&q->bot, b, memory_order_relaxed);
    q->bot_own = b;
    /* seq_cst fence: pairs with the thief's fence between its age and bot
     * loads; one of us sees the other (the last-item race). */
    atomic_thread_fence(memory_order_seq_cst);
    /* Relaxed: ordered by the fence above. */
    uint64_t old = atomic_load_explicit(&q->age, memory_order_relaxed);
    uint32_t top = AGE_TOP(old);
    if (b > top) {
        wp_slot_load(slot(q, b), item, q->base.words);
        return true;
    }
    /* At most the item at b is left, and thieves may be taking it: reset.
     * bot = 0 comes first (as in ABP's popBottom): a thief that sees the new
     * age must see the new bot, or it would take a stale slot below it. */
    uint64_t fresh = AGE(AGE_TAG(old) + 1, 0);
    /* Relaxed: published by the release (CAS or store) of age below. */
    atomic_store_explicit(&q->bot, 0, memory_order_relaxed);
    q->bot_own = 0;
    bool got = false;
    if (b == top) {
        wp_slot_load(slot(q, b), item, q->base.words);
        /* seq_cst: the last item goes to whoever moves age first; release
         * publishes bot = 0 with the new age. */
        got = atomic_compare_exchange_strong_explicit(&q->age, &old, fresh, memory_order_seq_cst,
                                                      memory_order_relaxed);
    }
    if (!got)
        /* Release: the reset (bot = 0) before thieves see the new age. */
        atomic_store_explicit(&q->age, fresh, memory_order_release);
    return got;
}

static wp_steal_result abp_steal(wp_queue *q_, uint64_t *item, wp_worker *thief)
{
    (void)thief;
    abp *q = (abp *)q_;
    /* Acquire: pairs with the release of a reset or compaction. */
    uint64_t old = atomic_load_explicit(&q->age, memory_order_acquire);
    /* seq_cst fence: pairs with the one in take (the last-item race). */
    atomic_thread_fence(memory_order_seq_cst);
    /* Acquire: pairs with push's release: the slots below bot are written. */
    uint32_t b = atomic_load_explicit(&q->bot, memory_order_acquire);
    uint32_t top = AGE_TOP(old);
    if (b <= top)
        return WP_STEAL_EMPTY;
    wp_slot_load(slot(q, top), item, q->base.words);
    /* Acquire fence (seqlock): a slot value written after a reset makes the
     * CAS below see that reset's tag, so it fails. */
    atomic_thread_fence(memory_order_acquire);
    /* seq_cst: the steal; the tag makes it fail after any reset. */
    if (atomic_compare_exchange_strong_explicit(&q->age, &old, AGE(AGE_TAG(old), top + 1),
                                                memory_order_seq_cst, memory_order_relaxed))
        return WP_STEAL_OK;
    return WP_STEAL_ABORT;
}

/* Owner: the `max` oldest items in one CAS (thieves may race; retry). */
static size_t abp_carve(wp_queue *q_, uint64_t *items, size_t max, wp_worker *self)
{
    (void)self;
    abp *q = (abp *)q_;
    unsigned words = q->base.words;
    for (;;) {
        /* Acquire: orders our slot reads after the age we validate. */
        uint64_t old = atomic_load_explicit(&q->age, memory_order_acquire);
        uint32_t top = AGE_TOP(old), b = q->bot_own;
        if (b <= top)
            return 0;
        size_t k = b - top < max ? b - top : max;
        for (size_t i = 0; i < k; i++)
            wp_slot_load(slot(q, top + (uint32_t)i), items + i * words, words);
        /* seq_cst: like a thief's CAS, for k items; we own bot so no other
         * race exists. */
        if (atomic_compare_exchange_strong_explicit(&q->age, &old,
                                                    AGE(AGE_TAG(old), top + (uint32_t)k),
                                                    memory_order_seq_cst, memory_order_relaxed))
            return k;
    }
}

static size_t abp_size(wp_queue *q_)
{
    abp *q = (abp *)q_;
    /* Acquire: pairs with the owner's release stores (termination check). */
    uint32_t b = atomic_load_explicit(&q->bot, memory_order_acquire);
    /* Acquire: pairs with thieves' CAS and the owner's reset. */
    uint32_t top = AGE_TOP(atomic_load_explicit(&q->age, memory_order_acquire));
    return b > top ? b - top : 0;
}

const wp_queue_ops weft__wp_abp_ops = {
    .kind = WEFT_QUEUE_ABP,
    .name = "abp",
    .fixed = true,
    .take_fences = true,
    .create = abp_create,
    .destroy = abp_destroy,
    .push = abp_push,
    .take = abp_take,
    .steal = abp_steal,
    .carve = abp_carve,
    .size = abp_size,
};
