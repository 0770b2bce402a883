/* Owner-side fast paths of the private-deque schedulers (Acar, Charguéraud
 * and Rainey, PPoPP 2013), inlined into every task's SPAWN and SYNC.  The
 * slow paths and the thief side are in src/private_deque.c,
 * src/private_ri.c and src/private_si.c; docs/sched-private.md explains the
 * protocols.  Not part of the API.
 *
 * The deque is private: no thief ever reads o_top or a slot at or above
 * it, so pushing and popping need no atomic RMW and no fence.  What the
 * paper's `communicate` does between tasks happens here at polls: every
 * SPAWN, SYNC and WEFT_YIELD is one.
 *   private-ri  a poll is one relaxed load of the request cell, folded into
 *               the fast path's single comparison (as the split deque
 *               folds splitreq into `limit`); answering is the slow path.
 *   private-si  a poll is one relaxed load of the number of open cells;
 *               while some are open it also decrements a countdown on the
 *               owner's line, and when that runs out the slow path reads
 *               the clock and, every delta on average, makes a deal
 *               attempt.
 */
#ifndef WEFT_BITS_PRIVATE_DEQUE_H
#define WEFT_BITS_PRIVATE_DEQUE_H

#include <weft/bits/worker.h>

/* Slow paths (src/private_deque.c, src/private_ri.c, src/private_si.c). */
bool weft_priv_sync_slow(weft_worker *w, weft_task *t);
/* A poll that found something to do: answer a request (ri) or read the
 * clock and maybe deal (si).  head: the owner's deque top, [o_top, head)
 * are the tasks it may hand out. */
void weft_priv_poll_slow(weft_worker *w, weft_task *head);

#if WEFT_SCHED_PRIVATE_SI
/* The number of open communication cells (idle workers waiting for a
 * deal), on a line of its own.  A deal attempt can only succeed while it
 * is non-zero, so while every worker is busy a poll is this one load and
 * no countdown (a decrement in memory at every SPAWN and SYNC would chain
 * them through store forwarding). */
extern _Atomic uint32_t weft_si_open_cells_g;

/* A poll: true when the countdown to the next clock read ran out. */
static inline bool weft_si_poll_due(weft_worker *w)
{
    /* Relaxed: a hint; a stale value delays a deal attempt by some polls. */
    return WEFT_UNLIKELY(atomic_load_explicit(&weft_si_open_cells_g, memory_order_relaxed) != 0) &&
           --w->si_polls == 0;
}
#endif

/* SPAWN (Figure 1 add_task: push_bottom, then the poll).  The caller has
 * written the arguments into t (== head). */
static inline void weft_priv_push(weft_worker *w, weft_task *t, uintptr_t wrapper)
{
    /* Relaxed: a private slot; the hand-over publishes it (release). */
    atomic_store_explicit(&t->state, wrapper, memory_order_relaxed);
    WEFT_COUNT(w, tasks, 1);
    WEFT_COUNT_PEAK(w, t);
#if WEFT_SCHED_PRIVATE_RI
    /* ri_req is o_top <= t while nobody asks; a request, or BLOCKED (we
     * were not polling: thieves must learn that we are), is above every
     * slot.  Relaxed: a request seen one poll late is answered one poll
     * late. */
    if (WEFT_UNLIKELY((uintptr_t)t < atomic_load_explicit(&w->ri_req, memory_order_relaxed)))
        weft_priv_poll_slow(w, t + 1);
#else
    if (weft_si_poll_due(w))
        weft_priv_poll_slow(w, t + 1);
#endif
}

/* SYNC fast path: true if t (the new head) is private and the caller may
 * run it inline; its slot is then EMPTY.  Otherwise weft_priv_sync_slow. */
static inline bool weft_priv_pop_private(weft_worker *w, weft_task *t)
{
#if WEFT_SCHED_PRIVATE_RI
    /* One test: t >= o_top (private) and no request pending (those values
     * are above every slot).  Relaxed: as in weft_priv_push. */
    if (WEFT_LIKELY((uintptr_t)t >= atomic_load_explicit(&w->ri_req, memory_order_relaxed))) {
        /* Relaxed: our private slot.  EMPTY keeps weft_current_head's
         * invariant. */
        atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
        return true;
    }
    return false;
#else
    if (WEFT_LIKELY(t >= w->o_top)) {
        /* Relaxed: our private slot (no receiver can have it). */
        atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
        /* The poll; t itself is ours to run now, so deal only below it. */
        if (weft_si_poll_due(w))
            weft_priv_poll_slow(w, t);
        return true;
    }
    return false;
#endif
}

/* WEFT_YIELD's check (weft.h): does the owner have to do anything? */
static inline bool weft_priv_poll(weft_worker *w, weft_task *head)
{
#if WEFT_SCHED_PRIVATE_RI
    /* A thief's or the sleepers' request (not BLOCKED, not o_top), and a
     * task to give (without one the request waits for the next SPAWN).
     * Relaxed: as in weft_priv_push. */
    uintptr_t r = atomic_load_explicit(&w->ri_req, memory_order_relaxed);
    return WEFT_UNLIKELY(r - WEFT_RI_REQ_BASE < WEFT_RI_BLOCKED - WEFT_RI_REQ_BASE) &&
           head > w->o_top;
#else
    (void)head;
    return weft_si_poll_due(w);
#endif
}

/* The names the task macros use (bits/sched.h). */
#define weft_sched_reserve weft_deque_reserve
#define weft_sched_push weft_priv_push
#define weft_sched_pop_private weft_priv_pop_private
#define weft_sched_sync_slow weft_priv_sync_slow
/* Owners hand out work only when they poll: long tasks must call
 * WEFT_YIELD() (docs/sched-private.md). */
#define weft_sched_poll weft_priv_poll
#define weft_sched_poll_slow weft_priv_poll_slow

#endif
