// SPDX-License-Identifier: Apache-2.0
/* Owner-side fast paths of private-si (Acar, Charguéraud and Rainey, PPoPP
 * 2013, Figure 3), inlined into every task's SPAWN and SYNC.  The slow
 * paths and the receiver side are in private_si.c and
 * ../private-common/private_deque.c; docs/sched-private.md explains the
 * protocol.  Not part of the API.
 *
 * The deque is private: no receiver ever reads own.top or a slot at or
 * above it, so pushing and popping need no atomic RMW and no fence.  What
 * the paper's `communicate` does between tasks happens at polls: every
 * SPAWN, SYNC and WEFT_YIELD is one.  A poll is one relaxed load of the
 * number of open cells; while some are open it also decrements a
 * countdown on the owner's line, and when that runs out the slow path
 * reads the clock and, every delta on average, makes a deal attempt.
 */
#ifndef WEFT_SCHED_PRIVATE_SI_OWNER_H
#define WEFT_SCHED_PRIVATE_SI_OWNER_H

#include <weft/bits/worker.h>

/* Slow paths (../private-common/private_deque.c, private_si.c). */
bool weft__priv_sync_slow(weft_worker *w, weft_task *t);
/* A poll whose countdown ran out: read the clock and maybe deal.  head:
 * the owner's deque top, [own.top, head) are the tasks it may deal. */
void weft__priv_poll_slow(weft_worker *w, weft_task *head);

/* The number of open communication cells (idle workers waiting for a
 * deal), on a line of its own.  A deal attempt can only succeed while it
 * is non-zero, so while every worker is busy a poll is this one load and
 * no countdown (a decrement in memory at every SPAWN and SYNC would chain
 * them through store forwarding). */
extern WEFT_ATOMIC(uint32_t) weft__si_open_cells_g;

/* A poll: true when the countdown to the next clock read ran out. */
static inline bool weft_si_poll_due(weft_worker *w)
{
    /* Relaxed: a hint; a stale value delays a deal attempt by some polls. */
    return WEFT_UNLIKELY(atomic_load_explicit(&weft__si_open_cells_g, memory_order_relaxed) != 0) &&
           --w->own.polls == 0;
}

/* SPAWN (Figure 1 add_task: push_bottom, then the poll).  The caller has
 * written the arguments into t (== head). */
static inline void weft_si_push(weft_worker *w, weft_task *t, uintptr_t wrapper)
{
    /* Relaxed: a private slot; the deal publishes it (release). */
    atomic_store_explicit(&t->state, wrapper, memory_order_relaxed);
    WEFT_COUNT(w, tasks, 1);
    WEFT_COUNT_PEAK(w, t);
    if (weft_si_poll_due(w))
        weft__priv_poll_slow(w, t + 1);
}

/* SYNC fast path: true if t (the new head) is private and the caller may
 * run it inline; its slot is then EMPTY.  Otherwise weft__priv_sync_slow. */
static inline bool weft_si_pop_private(weft_worker *w, weft_task *t)
{
    if (WEFT_LIKELY(t >= w->own.top)) {
        /* Relaxed: our private slot (no receiver can have it). */
        atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
        /* The poll; t itself is ours to run now, so deal only below it. */
        if (weft_si_poll_due(w))
            weft__priv_poll_slow(w, t);
        return true;
    }
    return false;
}

/* WEFT_YIELD's check (weft.h). */
static inline bool weft_si_poll(weft_worker *w, weft_task *head)
{
    (void)head;
    return weft_si_poll_due(w);
}

/* The seam the task macros use (bits/sched.h). */
#define weft_sched_reserve weft_deque_reserve
#define WEFT_SCHED_SPARE_SLOTS 0 /* every slot below end holds a task */
#define weft_sched_sentinel(w) ((w)->end)
#define weft_sched_push weft_si_push
#define weft_sched_sync_fast weft_si_pop_private
#define weft_sched_sync_slow weft__priv_sync_slow
/* Owners deal work only when they poll: long tasks must call
 * WEFT_YIELD() (docs/sched-private.md). */
#define weft_sched_poll weft_si_poll
#define weft_sched_poll_slow weft__priv_poll_slow

#endif
