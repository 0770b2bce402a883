// SPDX-License-Identifier: Apache-2.0
/* Owner-side fast paths of the split deque (Lace, Figure 4), inlined into
 * every task's SPAWN and SYNC.  The slow paths and the thief side are in
 * split_deque.c.  Installed as <weft/sched/split/owner.h>; not part of the API.
 *
 * Only the owner calls anything in this file.  None of it executes an
 * atomic read-modify-write or a fence: the shared part of the deque is
 * touched only when thieves asked (splitreq) or when the task being
 * synced may have been stolen.
 */
#ifndef WEFT_SCHED_SPLIT_OWNER_H
#define WEFT_SCHED_SPLIT_OWNER_H

#include <weft/bits/worker.h>

/* Slow paths (split_deque.c). */
void weft__split_push_slow(weft_worker *w, weft_task *head);
bool weft__split_sync_slow(weft_worker *w, weft_task *t);
/* w->join_guard moved: publish it in limit (split_deque.c). */
void weft__split_guard_moved(weft_worker *w);
/* WEFT_YIELD with a thief's request pending (split_deque.c). */
void weft__split_poll_slow(weft_worker *w, weft_task *head);

/* SPAWN, Figure 4 `push` lines 11-20.  The caller has written the arguments
 * into `t` (== head); this stores the wrapper and exposes the task. */
static WEFT_ALWAYS_INLINE void weft_split_push(weft_worker *w, weft_task *t, uintptr_t wrapper)
{
    /* Relaxed: thieves read this slot only after a release on (tail,split)
     * that comes later (grow_shared / push_slow), never before. */
    atomic_store_explicit(&t->state, wrapper, memory_order_relaxed);
    WEFT_COUNT(w, tasks, 1);
    WEFT_COUNT_PEAK(w, t);
    /* Lines 14 and 20 in one test: limit is o_split (<= t) unless all are
     * stolen (end) or a thief asked (WEFT_SPLITREQ).  Relaxed: a request
     * seen one spawn late only delays sharing by that spawn. */
    if (WEFT_UNLIKELY((uintptr_t)t < atomic_load_explicit(&w->shared.limit, memory_order_relaxed)))
        weft__split_push_slow(w, t + 1);
}

/* SYNC fast path, Figure 4 `pop` lines 23-30 when the task at t (the new
 * head) is private and no thief is asking (t >= limit covers lines 23, 25
 * and 29): returns true and the caller runs the task inline.  Otherwise
 * the caller takes weft__split_sync_slow.  limit is also at least the
 * join guard, so every SYNC below it takes the slow path. */
static WEFT_ALWAYS_INLINE bool weft_split_pop_private(weft_worker *w, weft_task *t)
{
    /* Relaxed: as in weft_split_push. */
    if (WEFT_LIKELY((uintptr_t)t >= atomic_load_explicit(&w->shared.limit, memory_order_relaxed))) {
        /* Relaxed: a private slot is never read by thieves.  Clearing keeps
         * "slots at or above head are EMPTY", which weft_current_head uses. */
        atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
        return true;
    }
    return false;
}

/* Checks there is room for one more task before the caller writes to t.
 * The last slot is never used: with head == end, grow_shared's new split
 * could be `end`, which is also the encoding of o_allstolen, and a shared
 * unstolen task would be taken for stolen (docs/verification.md, finding
 * 2). */
static inline void weft_split_reserve(weft_worker *w, weft_task *t)
{
    if (WEFT_UNLIKELY(t + 1 >= w->end))
        weft__deque_overflow(w->id, (size_t)(t - w->dq), w->deque_slots);
}

/* The seam the task macros use (bits/sched.h).  The sentinel stands in
 * the slot below end, the first that weft_split_reserve refuses: one slot
 * of the deque is spare. */
#define WEFT_SCHED_SPARE_SLOTS 1
#define weft_sched_reserve weft_split_reserve
#define weft_sched_sentinel(w) ((w)->end - WEFT_SCHED_SPARE_SLOTS)
/* Views of a worker that show the split point and the thieves' allstolen
 * hint under names of their own (the Lace API's WorkerP) find them here. */
#define WEFT_SCHED_SPLIT_POINT_OFFSET offsetof(struct weft_worker, own.split)
#define WEFT_SCHED_ALLSTOLEN_OFFSET \
    (offsetof(struct weft_worker, shared) + offsetof(weft_sched_shared, allstolen))
#define weft_sched_push weft_split_push
#define weft_sched_sync_fast weft_split_pop_private
#define weft_sched_sync_slow weft__split_sync_slow
/* limit folds in w->join_guard (split_deque.c). */
#define WEFT_SCHED_GUARDS_JOINS 1
#define weft_sched_guard_moved weft__split_guard_moved
/* WEFT_YIELD: a thief's request is served there as at a SPAWN, so that a
 * task that runs long without spawning shares its private tasks.  Relaxed:
 * as in weft_split_push (a request seen one poll late waits that long). */
#define weft_sched_poll(w, head) \
    ((void)(head), atomic_load_explicit(&(w)->shared.limit, memory_order_relaxed) == WEFT_SPLITREQ)
#define weft_sched_poll_slow weft__split_poll_slow

#endif
