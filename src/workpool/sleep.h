/* Idle workers of the work pool: sleeping and waking.  Static functions
 * for loop.c and termination.c; the full argument is in docs/pool.md,
 * "Sleeping, and why no wake-up is lost".
 *
 * A worker that found nothing for idle_spin_us sleeps on its own futex
 * word until somebody claims it.  There is no timeout: every wake-up must
 * come from a waker.
 *
 *   sleeper (wp_sleep)                  waker at a wake point
 *   S1 sleep_word = ASLEEP              W1 publish: a push's index store,
 *   S2 n_sleeping += 1                     or done
 *   S3 seq_cst fence F_S                W2 seq_cst fence F_W
 *   S4 last look: done, and every       W3 read n_sleeping, then the
 *      queue for work to take              sleep words; claim an ASLEEP
 *      (wp_shareable)                      one by CAS and futex_wake it
 *   S5 work seen: withdraw (CAS own
 *      word back); else futex_wait
 *      while the word is ASLEEP
 *   S6 n_sleeping -= 1
 *
 * F_S and F_W are ordered in the single total order of seq_cst fences.
 * If F_W comes first, the last look sees what W1 published (or a later
 * value: the item taken by someone else).  If F_S comes first, W3 sees S1
 * and S2 (or later values: someone else claimed the sleeper).  So either
 * the sleeper does not sleep or it is claimed; futex_wait compares the
 * word, so a claim that lands before the sleeper blocks makes it return at
 * once, and a CAS decides every claim, so each sleep ends exactly once.
 * The sleeper un-counts itself (S6): n_sleeping never drops below the
 * number of workers between S2 and S6, so W3 cannot read 0 while one of
 * them waits.
 *
 * Wake points (W1-W3 with a fence):
 *   - the end of the run (wp_finish): done, fence, claim every sleeper;
 *   - a hosted pool's injection (hosted.c): the inbox's count, fence, wake
 *     one sleeper (the last look counts the inbox as a queue);
 *   - the owner's every take on ABP and Chase-Lev, whose take has a
 *     seq_cst fence after its stores anyway (a take from the overflow
 *     stack fences too): wake one if the queue still holds work to take;
 *   - on the other queues (no fence in their take, by design) the same
 *     after a fence every WP_FENCE_EVERY items of the owner.
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

#include "workpool/workpool.h"

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
    /* Acq_rel: the claim; exactly one claimer (a waker, or the sleeper
     * withdrawing) turns an ASLEEP word back to AWAKE. */
    if (!atomic_compare_exchange_strong_explicit(&v->sleep_word, &asleep, WP_AWAKE,
                                                 memory_order_acq_rel, memory_order_relaxed))
        return false;
    weft_futex_wake(&v->sleep_word, 1);
    return true;
}

/* W3 for one sleeper: claims the first sleeping worker (other than self)
 * from a random start; true if it woke one.  Called after n_sleeping was
 * seen non-zero. */
static inline bool wp_wake_one(wp_worker *self)
{
    wp_pool *p = self->pool;
    /* Acquire fence: with the caller's relaxed read of n_sleeping, which
     * read a value of the sleepers' release increments (S2), it makes their
     * sleep words (S1) visible to the peeks below. */
    atomic_thread_fence(memory_order_acquire);
    unsigned n = p->n, i = weft_rng_below(&self->rng, n);
    for (unsigned k = 0; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
        wp_worker *v = p->workers[i];
        /* Relaxed peek: ordered by the fences above; the CAS decides. */
        if (v != self &&
            atomic_load_explicit(&v->sleep_word, memory_order_relaxed) == WP_ASLEEP &&
            wp_claim(v)) {
            self->ctr.wakes++;
            WP_TRACE_WAKE(self, v->id);
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
    /* Relaxed: after a wake point's seq_cst fence this is W3 (Dekker with
     * wp_sleep); without one a hint that may read a stale 0. */
    if (WEFT_LIKELY(atomic_load_explicit(&p->n_sleeping, memory_order_relaxed) == 0) ||
        p->ops->size(q) < min)
        return false;
    return wp_wake_one(w);
}

/* The end of the run: claims every sleeper.  done is stored before. */
static inline void wp_wake_all(wp_pool *p)
{
    /* seq_cst fence: F_W, done against a sleeper's announcement. */
    atomic_thread_fence(memory_order_seq_cst);
    for (unsigned i = 0; i < p->n; i++) {
        wp_worker *v = p->workers[i];
        /* Relaxed peek: ordered by the fence above; the CAS decides. */
        if (atomic_load_explicit(&v->sleep_word, memory_order_relaxed) == WP_ASLEEP)
            wp_claim(v);
    }
}

/* The sleeper's last look (S4): anything to do?  After its fence. */
static inline bool wp_work_in_sight(wp_pool *p)
{
    /* Relaxed: ordered by the caller's seq_cst fence (Dekker with
     * wp_wake_all's). */
    if (atomic_load_explicit(&p->done, memory_order_relaxed))
        return true;
    return wp_any_queue_holds(p, p->share_min);
}

/* S1-S6: sleeps until claimed, or returns at once if the last look sees
 * work or the end of the run. */
static inline void wp_sleep(wp_worker *w)
{
    wp_pool *p = w->pool;
    /* S1.  Relaxed: ordered before the last look by the fence below, and
     * before a waker's peek by the release increment. */
    atomic_store_explicit(&w->sleep_word, WP_ASLEEP, memory_order_relaxed);
    /* S2.  Release: publishes S1 to a waker whose read of the count (and
     * acquire fence) sees this increment. */
    atomic_fetch_add_explicit(&p->n_sleeping, 1, memory_order_release);
    /* S3.  seq_cst fence F_S: the sleeper's half of every Dekker pair. */
    atomic_thread_fence(memory_order_seq_cst);
    if (wp_work_in_sight(p)) {
        uint32_t asleep = WP_ASLEEP;
        /* Acq_rel: withdraws, unless a waker claimed us first (the same
         * claim a waker makes; its futex_wake then finds nobody). */
        atomic_compare_exchange_strong_explicit(&w->sleep_word, &asleep, WP_AWAKE,
                                                memory_order_acq_rel, memory_order_relaxed);
    } else {
        w->ctr.sleeps++;
        /* Acquire: pairs with the claim. */
        while (atomic_load_explicit(&w->sleep_word, memory_order_acquire) == WP_ASLEEP)
            weft_futex_wait(&w->sleep_word, WP_ASLEEP);
    }
    /* S6.  Relaxed: a count; the claim decided who ended the sleep. */
    atomic_fetch_sub_explicit(&p->n_sleeping, 1, memory_order_relaxed);
}

#endif
