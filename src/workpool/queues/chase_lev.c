// SPDX-License-Identifier: Apache-2.0
/* Chase-Lev: the dynamic circular work-stealing deque (SPAA'05), growing,
 * and a variant that also shrinks.
 *
 * top (thieves CAS it, it never decreases) and bottom (the owner's) index a
 * circular array; indices are 64-bit, so top never wraps and needs no tag.
 * The owner pushes and takes at bottom; a thief reads array[top] and
 * advances top by CAS; the owner takes the last item by CAS too.  The
 * indices and their fences are weft's one Chase-Lev protocol,
 * <weft/bits/chase_lev.h> (Lê, Pop, Cohen and Zappa Nardelli's C11
 * orders), which the Chase-Lev scheduler uses too; the item slots are
 * relaxed atomic words:
 *   push:  store slot; weft__cl_publish
 *   take:  weft__cl_take_begin; last item by weft__cl_claim
 *   steal: weft__cl_steal_window; load the array (acquire); read slot;
 *          weft__cl_claim
 *
 * What is the pool's own and not the scheduler's (docs/pool.md, "One
 * Chase-Lev protocol"): items of `words` words copied in and out, where
 * the scheduler stores a task pointer and hands the task over in its state
 * word; a take that loses the last item returns "empty", where the
 * scheduler's owner must join the stolen task; shrinking with epoch-based
 * reclamation; carve (a batch of the oldest items by one CAS); and the
 * push's top load on every push, where the scheduler's fast path keeps a
 * lower bound of top (its push is inline in task code).
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
#include "workpool/ebr.h"
#include "workpool/queues/table.h"

#include <weft/bits/chase_lev.h>

#include <stdlib.h>

typedef struct chase_lev {
    /* Read-mostly: rq.shared is written on a resize only; rq.retired
     * holds the old arrays of the growing variant. */
    wp_ring_queue rq;
    bool shrink;
    size_t min_cap;
    wp_worker *owner;
    /* Thieves CAS this line. */
    _Alignas(WEFT_CACHE_LINE) _Atomic int64_t top;
    /* The owner writes this line on every push and take. */
    _Alignas(WEFT_CACHE_LINE) _Atomic int64_t bottom;
    int64_t bottom_own; /* the owner's copy of bottom */
} chase_lev;

static int create(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out, bool shrink)
{
    chase_lev *q = weft__wp_ring_queue_new(sizeof *q, p, cap);
    if (q == NULL)
        return ENOMEM;
    q->shrink = shrink;
    q->min_cap = cap;
    q->bottom_own = 0;
    q->owner = owner;
    atomic_init(&q->top, 0);
    atomic_init(&q->bottom, 0);
    *out = &q->rq.base;
    return 0;
}

static int cl_create(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out)
{
    return create(p, owner, cap, out, false);
}

static int cl_create_shrink(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out)
{
    return create(p, owner, cap, out, true);
}

/* Owner: moves [t, b) to a new array of new_cap slots.  NULL if out of
 * memory (the array is unchanged). */
static wp_ring *cl_resize(chase_lev *q, int64_t t, int64_t b, size_t new_cap)
{
    unsigned words = q->rq.base.words;
    wp_ring *old = q->rq.own, *fresh = weft__wp_ring_new(new_cap, words);
    if (fresh == NULL)
        return NULL;
    weft__wp_ring_copy(old, fresh, (uint64_t)t, (uint64_t)b, words);
    /* Release: the copied slots before the array pointer, for thieves that
     * acquire-load it. */
    atomic_store_explicit(&q->rq.shared, fresh, memory_order_release);
    q->rq.own = fresh;
    if (q->shrink) {
        weft__wp_ebr_retire(q->owner, old);
    } else {
        old->next = q->rq.retired;
        q->rq.retired = old;
    }
    return fresh;
}

static bool cl_push(wp_queue *q_, const uint64_t *item, wp_worker *self)
{
    chase_lev *q = (chase_lev *)q_;
    int64_t b = q->bottom_own;
    int64_t t = weft__cl_owner_top(&q->top);
    wp_ring *a = q->rq.own;
    if (WEFT_UNLIKELY((uint64_t)(b - t) >= a->mask)) {
        a = cl_resize(q, t, b, a->cap * 2);
        if (a == NULL)
            return false;
        self->ctr.grows++;
    }
    wp_slot_store(wp_ring_slot(a, (uint64_t)b, q_->words), item, q_->words);
    weft__cl_publish(&q->bottom, b + 1);
    q->bottom_own = b + 1;
    return true;
}

static bool cl_take(wp_queue *q_, uint64_t *item, wp_worker *self)
{
    chase_lev *q = (chase_lev *)q_;
    int64_t b = q->bottom_own - 1;
    wp_ring *a = q->rq.own;
    q->bottom_own = b;
    /* Its fence is also F_W of the owner's wake point after the take
     * (sleep.h). */
    int64_t t = weft__cl_take_begin(&q->bottom, &q->top, b);
    if (b < t) {
        /* Empty: a thief took the last item. */
        weft__cl_restore(&q->bottom, b + 1);
        q->bottom_own = b + 1;
        return false;
    }
    wp_slot_load(wp_ring_slot(a, (uint64_t)b, q_->words), item, q_->words);
    if (b == t) {
        /* The last item goes to whoever advances top first; top is t + 1
         * either way, and bottom follows. */
        bool won = weft__cl_claim(&q->top, &t, t + 1);
        weft__cl_restore(&q->bottom, b + 1);
        q->bottom_own = b + 1;
        return won;
    }
    if (q->shrink && a->cap > q->min_cap && (uint64_t)(b - t) < a->cap / 4) {
        if (cl_resize(q, t, b, a->cap / 2) != NULL)
            self->ctr.shrinks++;
    }
    return true;
}

static wp_steal_result cl_steal(wp_queue *q_, uint64_t *item, wp_worker *thief)
{
    chase_lev *q = (chase_lev *)q_;
    if (q->shrink)
        weft__wp_ebr_enter(thief);
    int64_t t;
    /* Its fence also orders our epoch announcement before the array load
     * (ebr.c). */
    int64_t b = weft__cl_steal_window(&q->top, &q->bottom, &t);
    wp_steal_result r = WP_STEAL_EMPTY;
    if (t < b) {
        /* Acquire: pairs with the resize's release: the copied slots. */
        wp_ring *a = atomic_load_explicit(&q->rq.shared, memory_order_acquire);
        wp_slot_load(wp_ring_slot(a, (uint64_t)t, q_->words), item, q_->words);
        r = weft__cl_claim(&q->top, &t, t + 1) ? WP_STEAL_OK : WP_STEAL_ABORT;
    }
    if (q->shrink)
        weft__wp_ebr_exit(thief);
    return r;
}

/* Owner: the `max` oldest items by one CAS of top (thieves may race). */
static size_t cl_carve(wp_queue *q_, uint64_t *items, size_t max, wp_worker *self)
{
    (void)self;
    chase_lev *q = (chase_lev *)q_;
    for (;;) {
        /* The CAS below validates. */
        int64_t t = weft__cl_owner_top(&q->top);
        int64_t b = q->bottom_own;
        if (b <= t)
            return 0;
        size_t k = (uint64_t)(b - t) < max ? (size_t)(b - t) : max;
        weft__wp_ring_read(q->rq.own, (uint64_t)t, k, items, q_->words);
        /* Like a steal of k items; bottom is ours, so only thieves race. */
        if (weft__cl_claim(&q->top, &t, t + (int64_t)k))
            return k;
    }
}

static size_t cl_size(wp_queue *q_)
{
    chase_lev *q = (chase_lev *)q_;
    /* Acquire: pairs with the owner's stores (termination check). */
    int64_t b = atomic_load_explicit(&q->bottom, memory_order_acquire);
    /* Acquire: pairs with thieves' CAS. */
    int64_t t = atomic_load_explicit(&q->top, memory_order_acquire);
    return wp_items_between((uint64_t)t, (uint64_t)b);
}

/* The two variants differ in create (shrink or not) and their names. */
#define CHASE_LEV_OPS(KIND, NAME, CREATE) \
    { \
        .kind = KIND, .name = NAME, .take_fences = true, .create = CREATE, \
        .destroy = weft__wp_ring_queue_destroy, .push = cl_push, .take = cl_take, \
        .steal = cl_steal, .carve = cl_carve, .size = cl_size, \
    }
const wp_queue_ops weft__wp_chase_lev_ops =
    CHASE_LEV_OPS(WEFT_QUEUE_CHASE_LEV, "chase-lev", cl_create);
const wp_queue_ops weft__wp_chase_lev_shrink_ops =
    CHASE_LEV_OPS(WEFT_QUEUE_CHASE_LEV_SHRINK, "chase-lev-shrink", cl_create_shrink);
