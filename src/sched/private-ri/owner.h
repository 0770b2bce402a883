// SPDX-License-Identifier: Apache-2.0
/* Owner-side fast paths of private-ri (Acar, Charguéraud and Rainey, PPoPP
 * 2013, Figure 2), inlined into every task's SPAWN and SYNC.  The slow
 * paths and the thief side are in private_ri.c and
 * ../private-common/private_deque.c; docs/sched-private.md explains the
 * protocol.  Not part of the API.
 *
 * The deque is private: no thief ever reads own.top or a slot at or above
 * it, so pushing and popping need no atomic RMW and no fence.  What the
 * paper's `communicate` does between tasks happens at polls: every SPAWN,
 * SYNC and WEFT_YIELD is one.  A poll is one relaxed load of the request
 * cell, folded into the fast path's single comparison (as the split deque
 * folds splitreq into `limit`); answering is the slow path.
 */
#ifndef WEFT_SCHED_PRIVATE_RI_OWNER_H
#define WEFT_SCHED_PRIVATE_RI_OWNER_H

#include <weft/bits/worker.h>

/* Slow paths (../private-common/private_deque.c, private_ri.c). */
bool weft__priv_sync_slow(weft_worker *w, weft_task *t);
/* A poll that found a request: answer it.  head: the owner's deque top,
 * [own.top, head) are the tasks it may hand out. */
void weft__priv_poll_slow(weft_worker *w, weft_task *head);

/* SPAWN (Figure 1 add_task: push_bottom, then the poll).  The caller has
 * written the arguments into t (== head). */
static inline void weft_ri_push(weft_worker *w, weft_task *t, uintptr_t wrapper)
{
    /* Relaxed: a private slot; the hand-over publishes it (release). */
    atomic_store_explicit(&t->state, wrapper, memory_order_relaxed);
    WEFT_COUNT(w, tasks, 1);
    WEFT_COUNT_PEAK(w, t);
    /* req is own.top <= t while nobody asks; a request, or BLOCKED (we
     * were not polling: thieves must learn that we are), is above every
     * slot.  Relaxed: a request seen one poll late is answered one poll
     * late. */
    if (WEFT_UNLIKELY((uintptr_t)t < atomic_load_explicit(&w->shared.req, memory_order_relaxed)))
        weft__priv_poll_slow(w, t + 1);
}

/* SYNC fast path: true if t (the new head) is private and the caller may
 * run it inline; its slot is then EMPTY.  Otherwise weft__priv_sync_slow. */
static inline bool weft_ri_pop_private(weft_worker *w, weft_task *t)
{
    /* One test: t >= own.top (private) and no request pending (those
     * values are above every slot).  Relaxed: as in weft_ri_push. */
    if (WEFT_LIKELY((uintptr_t)t >= atomic_load_explicit(&w->shared.req, memory_order_relaxed))) {
        /* Relaxed: our private slot.  EMPTY keeps weft_current_head's
         * invariant. */
        atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
        return true;
    }
    return false;
}

/* WEFT_YIELD's check (weft.h): a thief's or the sleepers' request (not
 * BLOCKED, not own.top), and a task to give (without one the request
 * waits for the next SPAWN).  Relaxed: as in weft_ri_push. */
static inline bool weft_ri_poll(weft_worker *w, weft_task *head)
{
    uintptr_t r = atomic_load_explicit(&w->shared.req, memory_order_relaxed);
    return WEFT_UNLIKELY(r - WEFT_RI_REQ_BASE < WEFT_RI_BLOCKED - WEFT_RI_REQ_BASE) &&
           head > w->own.top;
}

/* The seam the task macros use (bits/sched.h). */
#define weft_sched_reserve weft_deque_reserve
#define WEFT_SCHED_SPARE_SLOTS 0 /* every slot below end holds a task */
#define weft_sched_sentinel(w) ((w)->end)
#define weft_sched_push weft_ri_push
#define weft_sched_sync_fast weft_ri_pop_private
#define weft_sched_sync_slow weft__priv_sync_slow
/* Owners hand out work only when they poll: long tasks must call
 * WEFT_YIELD() (docs/sched-private.md). */
#define weft_sched_poll weft_ri_poll
#define weft_sched_poll_slow weft__priv_poll_slow

#endif
