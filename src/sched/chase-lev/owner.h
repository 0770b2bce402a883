// SPDX-License-Identifier: Apache-2.0
/* Owner-side fast paths of the Chase-Lev scheduler (Chase and Lev, SPAA
 * 2005: a growable circular array of task pointers, owner at the bottom,
 * thieves CAS the top), the baseline Acar et al. measure private deques
 * against.  Descriptors stay on weft's direct task stack; the deque holds
 * pointers to them.  Thief side and slow paths: chase_lev_deque.c.
 *
 * Unlike the split deque, every task is shared as soon as it is pushed, so
 * SYNC must fence on every pop (the pop/steal race on the last task), which
 * is the cost this scheduler is here to show.
 */
#ifndef WEFT_SCHED_CHASE_LEV_OWNER_H
#define WEFT_SCHED_CHASE_LEV_OWNER_H

#include <weft/bits/worker.h>
#include <weft/bits/chase_lev.h> /* the indices' protocol, shared with the work pool */

void weft__cl_push_slow(weft_worker *w, weft_task *t);
bool weft__cl_sync_slow(weft_worker *w, weft_task *t);
void weft__cl_serve_wake_req(weft_worker *w);

/* SPAWN: the arguments are in t; publish it at the bottom. */
static inline void weft_cl_push(weft_worker *w, weft_task *t, uintptr_t wrapper)
{
    /* Relaxed: published by the release store of bottom below. */
    atomic_store_explicit(&t->state, wrapper, memory_order_relaxed);
    WEFT_COUNT(w, tasks, 1);
    WEFT_COUNT_PEAK(w, t);
    int64_t b = w->own.bottom;
    if (WEFT_UNLIKELY(b - w->own.top_seen >= w->own.array->mask)) {
        weft__cl_push_slow(w, t); /* maybe full: re-read top, grow */
        return;
    }
    /* Relaxed: the release store of bottom publishes it. */
    atomic_store_explicit(&w->own.array->slot[b & w->own.array->mask], t, memory_order_relaxed);
    /* A thief that reads the new bottom sees the slot and the descriptor's
     * arguments and wrapper. */
    weft__cl_publish(&w->shared.bottom, b + 1);
    w->own.bottom = b + 1;
    /* Relaxed: a sleeper's request; seen here or, at the latest, after
     * the fence of the next SYNC (see chase_lev_deque.c). */
    if (WEFT_UNLIKELY(atomic_load_explicit(&w->shared.wake_req, memory_order_relaxed)))
        weft__cl_serve_wake_req(w);
}

/* SYNC fast path: take the bottom task back when at least one other task
 * is left above top, so no thief can be racing for it. */
static inline bool weft_cl_pop_private(weft_worker *w, weft_task *t)
{
    int64_t b = w->own.bottom - 1;
    /* Bottom lowered, the fence, top: either we see a thief's top, or it
     * sees our bottom. */
    int64_t top = weft__cl_take_begin(&w->shared.bottom, &w->shared.top, b);
    /* Relaxed, after the fence: a sleeper that did not see our last push
     * (its seq_cst read of bottom) posted its request before the fence,
     * so we see it here; see chase_lev_deque.c. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&w->shared.wake_req, memory_order_relaxed)))
        weft__cl_serve_wake_req(w);
    if (WEFT_LIKELY(top < b)) {
        w->own.bottom = b;
        w->own.top_seen = top;
        /* Relaxed: our own slot now (no thief can take index b). */
        atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
        return true;
    }
    return false;
}

#define weft_sched_reserve weft_deque_reserve
#define WEFT_SCHED_SPARE_SLOTS 0 /* every slot below end holds a task */
#define weft_sched_sentinel(w) ((w)->end)
#define weft_sched_push weft_cl_push
#define weft_sched_sync_fast weft_cl_pop_private
#define weft_sched_sync_slow weft__cl_sync_slow
/* Every task is stealable from its push on, but a sleeper that missed one
 * is woken only when the owner sees its wake request: at a push, after a
 * SYNC's fence, or here, so that a task that neither spawns nor syncs for
 * a while (a long leaf, a task waiting for its child to be stolen) still
 * wakes it.  Relaxed: the sleeper's store becomes visible in finite time,
 * and a poll loop reads it again. */
#define weft_sched_poll(w, head) \
    ((void)(head), atomic_load_explicit(&(w)->shared.wake_req, memory_order_relaxed) != 0)
#define weft_sched_poll_slow(w, head) ((void)(head), weft__cl_serve_wake_req(w))

#endif
