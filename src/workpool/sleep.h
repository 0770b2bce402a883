// SPDX-License-Identifier: Apache-2.0
/* Idle workers of the work pool: when to sleep, what the last look looks
 * at, and whom to wake.  Static functions for loop.c, termination.c and
 * hosted.c.  The sleep itself is the runtime's parking protocol
 * (src/runtime/parking.h: announce, fence, last look, withdraw or wait,
 * claim by CAS); the full argument for the pool is in docs/pool-design.md,
 * "Sleeping, and why no wake-up is lost".
 *
 * A worker that found nothing for idle_spin_us parks on its own sleep word
 * (WP_ASLEEP while asleep) until somebody claims it (back to WP_AWAKE).
 * There is no timeout: every wake-up must come from a waker.  The pool's
 * count is n_sleeping, and the sleeper un-counts itself when its sleep is
 * over (parking.h names the two rules).  Its last look (wp_work_in_sight)
 * is done, and every queue for work to take (wp_shareable).
 *
 * Wake points (publish, weft__park_publish_fence, read n_sleeping, claim):
 *   - the end of the run (weft__wp_finish): done, fence, claim every sleeper;
 *   - a hosted pool's injection (hosted.c): the inbox's count, fence, wake
 *     one sleeper (the last look counts the inbox as a queue);
 *   - the owner's every take on ABP and Chase-Lev, whose take has a
 *     seq_cst fence after its stores anyway (a take from the overflow
 *     stack fences too): wake one if the queue still holds work to take;
 *   - on the other queues (no fence in their take, by design) the same
 *     after a fence every WP_FENCE_EVERY items of the owner;
 *   - in a run inside a fork-join task, a RUN from outside queued while no
 *     idle fork-join worker sleeps: it claims worker 0, the waiting worker,
 *     whose last look counts the RUNs queued (runtime/external_queue.c,
 *     weft__waiting_wake: seq_cst count, then a seq_cst peek at the word).
 * Hints, without a fence, wake at once whenever the sleeper's announcement
 * is already visible: a push that leaves wake_min items, a steal or a
 * transfer that leaves more work at the victim or brings it to the thief.
 * A hint can miss a sleeper that announces itself while the push is still
 * in flight (a store buffer; relaxed loads in C11), and that sleeper's
 * last look can miss the push: it is then woken at the owner's next wake
 * point, that is when the current process call returns (ABP, Chase-Lev),
 * or within WP_FENCE_EVERY items of the owner (the others).  That is the
 * promise verification/pool_sleep.pml checks: no worker sleeps while a
 * queue holds an item it held at its owner's last wake point, nor after
 * the end of the run.
 */
#ifndef WEFT_WORKPOOL_SLEEP_H
#define WEFT_WORKPOOL_SLEEP_H

#include "workpool/hooks.h"
#include "workpool/types.h"
#include "runtime/external_queue.h"
#include "runtime/parking.h"

/* Items between two periodic wake points on the queues whose take has no
 * fence: the longest a sleeper that missed an item waits for its owner. */
#define WP_FENCE_EVERY 32

/* True if some queue holds at least min items (each queue's own estimate,
 * read with acquire), or a hosted pool's inbox holds any. */
static inline bool wp_any_queue_holds(wp_pool *p, size_t min)
{
    /* Relaxed: ordered by the caller's seq_cst fence (a sleeper's last
     * look, against the injector's fence) or acq_rel idle-word RMWs (the
     * host's own check, which alone injects). */
    if (WEFT_UNLIKELY(p->host != NULL) &&
        atomic_load_explicit(&p->host->inbox_n, memory_order_relaxed) != 0)
        return true;
    if (p->ops->shared)
        return p->ops->size(p->workers[0]->q) >= min;
    for (unsigned i = 0; i < p->n; i++)
        if (p->ops->size(p->workers[i]->q) >= min)
            return true;
    return false;
}

/* Claims worker v if it sleeps, and wakes it; true if this call did. */
static inline bool wp_claim(wp_worker *v)
{
    uint32_t asleep = WP_ASLEEP;
    if (!weft__park_claim(&v->sleep_word, &asleep, WP_AWAKE))
        return false;
    weft__park_wake(&v->sleep_word, 1);
    return true;
}

/* Wakes one sleeper: claims the first sleeping worker (other than self)
 * from a random start; true if it woke one.  Called after n_sleeping was
 * seen non-zero. */
static inline bool wp_wake_one(wp_worker *self)
{
    wp_pool *p = self->pool;
    /* Acquire fence: with the caller's relaxed read of n_sleeping, which
     * read a value of the sleepers' increments (weft__park_announce: seq_cst,
     * so release), it makes their sleep words visible to the peeks below. */
    atomic_thread_fence(memory_order_acquire);
    unsigned n = p->n, i = weft_rng_below(&self->rng, n);
    for (unsigned k = 0; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
        wp_worker *v = p->workers[i];
        /* Relaxed peek: ordered by the fences above; the CAS decides. */
        if (v != self && atomic_load_explicit(&v->sleep_word, memory_order_relaxed) == WP_ASLEEP &&
            wp_claim(v)) {
            self->ctr.wakes++;
            WEFT_TRACE_WAKE(wp_traced(self), v->id);
            return true;
        }
    }
    return false;
}

/* Wakes a sleeper if anyone sleeps and queue q holds at least min items;
 * true if it woke one.  At a wake point the caller has fenced; elsewhere
 * it is a hint. */
static inline bool wp_wake_for(wp_worker *w, wp_queue *q, size_t min)
{
    wp_pool *p = w->pool;
    /* Relaxed: after a wake point's fence this is the waker's read (Dekker with
     * weft__park_announce's); without one a hint that may read a stale 0. */
    if (WEFT_LIKELY(atomic_load_explicit(&p->n_sleeping, memory_order_relaxed) == 0) ||
        p->ops->size(q) < min)
        return false;
    return wp_wake_one(w);
}

/* The end of the run: claims every sleeper.  done is stored before. */
static inline void wp_wake_all(wp_pool *p)
{
    weft__park_publish_fence(); /* F_W: done against a sleeper's announcement */
    for (unsigned i = 0; i < p->n; i++) {
        wp_worker *v = p->workers[i];
        /* Relaxed peek: ordered by the fence above; the CAS decides. */
        if (atomic_load_explicit(&v->sleep_word, memory_order_relaxed) == WP_ASLEEP)
            wp_claim(v);
    }
}

/* The sleeper's last look: anything to do?  After weft__park_announce's
 * fence. */
static inline bool wp_work_in_sight(wp_pool *p)
{
    /* Relaxed: ordered by the caller's seq_cst fence (Dekker with
     * wp_wake_all's). */
    if (atomic_load_explicit(&p->done, memory_order_relaxed))
        return true;
    return wp_any_queue_holds(p, p->share_min);
}

/* Parks until claimed, or returns at once if the last look sees work or
 * the end of the run; a fork-join worker waiting in the run (w->waiting)
 * also counts a RUN from outside queued, and a RUN queued later claims it
 * too (runtime/external_queue.h, weft__waiting_wake). */
static inline void wp_sleep(wp_worker *w)
{
    wp_pool *p = w->pool;
    weft__park_announce(&w->sleep_word, WP_ASLEEP, &p->n_sleeping);
    if (wp_work_in_sight(p) || (w->waiting != NULL && weft_waiting_wanted(w->waiting))) {
        (void)weft__park_withdraw(&w->sleep_word, WP_ASLEEP, WP_AWAKE);
    } else {
        w->ctr.sleeps++;
        weft__park_wait(&w->sleep_word, WP_AWAKE);
    }
    weft__park_uncount(&p->n_sleeping); /* the pool's rule: the sleeper un-counts itself */
}

#endif
