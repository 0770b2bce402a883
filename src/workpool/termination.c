// SPDX-License-Identifier: Apache-2.0
/* Termination detection of the work pool: the idle set, used by the worker
 * loop (loop.c); the argument in full is in docs/pool-design.md, "Termination
 * detection", and verification/pool_term.pml and pool_sleep.pml check it.
 *
 * The idle set is one 64-bit word: the number of idle workers (low half)
 * and an epoch counting departures (high half).  A worker is in the set
 * only while it holds no item, its queue and overflow stack are empty, and
 * it is not stealing: it leaves the set (epoch + 1, count - 1) before every
 * steal attempt or request and joins (count + 1) after a failed round.
 * Only processing creates items and only non-members process, so when all
 * P workers are members and every queue is empty, the run is over.
 *
 * The worker whose join (or an idle worker whose read) shows count = P
 * scans every queue; if all are empty it confirms with a CAS of the idle
 * word from the value it read to itself.  The CAS reads the latest value,
 * so it succeeds only if nobody left the set since: no steal ran during
 * the scan, so the scan saw a snapshot.  Acq_rel on every update of the
 * word makes each worker's last queue operations visible to the checker,
 * and the checker's scan happen before any later departure (so a later
 * steal cannot have been seen as "empty" by the scan and still have taken
 * an item).  Cost: one RMW when a worker runs out of work and one per
 * steal attempt of an idle worker; nothing per item.  It counts workers,
 * not items, so it is also exact for the idempotent queues, where an item
 * may be processed twice.  The confirmation sets done and wakes every
 * sleeper (sleep.h).
 *
 * In a hosted pool (hosted.c) the workers never end the run: the worker
 * whose join fills the set rings the host's bell, and the host makes the
 * same check (weft__wp_quiescent_at) to learn that its pool is quiescent; the
 * host ends the run with weft__wp_finish when its own protocol says so.
 */
#include "workpool/termination.h"

#include "workpool/sleep.h"

#define WP_IDLE_COUNT(v) ((uint32_t)(v))
#define WP_IDLE_LEAVE (((uint64_t)1 << 32) - 1) /* epoch + 1, count - 1 */

/* The run is over: every worker returns. */
void weft__wp_finish(wp_pool *p)
{
    /* Release: everything before the end of the run, for the workers that
     * acquire done and exit. */
    atomic_store_explicit(&p->done, 1, memory_order_release);
    wp_wake_all(p);
}

bool weft__wp_quiescent_at(wp_pool *p, uint64_t v)
{
    if (WP_IDLE_COUNT(v) != p->n || wp_any_queue_holds(p, 1))
        return false;
    uint64_t expected = v;
    /* Acq_rel: succeeds only if nobody left the idle set since v (an RMW
     * reads the latest value); release orders our scan before any later
     * departure, acquire makes the members' last operations visible. */
    return atomic_compare_exchange_strong_explicit(&p->idle, &expected, v, memory_order_acq_rel,
                                                   memory_order_relaxed);
}

/* v: a value of the idle word with count == P.  True if the run is over. */
static bool wp_idle_confirm(wp_pool *p, uint64_t v)
{
    if (WEFT_UNLIKELY(p->host != NULL)) {
        /* The host decides; wake it (Release: our join, for its check). */
        atomic_fetch_add_explicit(&p->host->bell, 1, memory_order_release);
        weft__futex_wake(&p->host->bell, 1);
        return false;
    }
    if (!weft__wp_quiescent_at(p, v))
        return false;
    weft__wp_finish(p);
    return true;
}

/* Joins the idle set; true if that ended the run. */
bool weft__wp_idle_join(wp_worker *w)
{
    wp_pool *p = w->pool;
    /* Acq_rel: releases our last queue operations to the termination
     * checker; acquires the other members' when we complete the set. */
    uint64_t v = atomic_fetch_add_explicit(&p->idle, 1, memory_order_acq_rel) + 1;
    return WP_IDLE_COUNT(v) == p->n && wp_idle_confirm(p, v);
}

/* A member's look at the set while it searches; true if the run is over. */
bool weft__wp_idle_recheck(wp_worker *w)
{
    wp_pool *p = w->pool;
    /* Acquire: as in weft__wp_idle_join, for a set completed by a departure and
     * a re-join we did not make. */
    uint64_t v = atomic_load_explicit(&p->idle, memory_order_acquire);
    /* A hosted pool's bell rang at the join that filled the set. */
    return WP_IDLE_COUNT(v) == p->n && p->host == NULL && wp_idle_confirm(p, v);
}

/* Leaves the idle set, before a steal attempt. */
void weft__wp_idle_leave(wp_worker *w)
{
    /* Acq_rel: every departure changes the word (epoch + 1), so a checker's
     * confirming CAS fails; ordered before the steal that follows. */
    atomic_fetch_add_explicit(&w->pool->idle, WP_IDLE_LEAVE, memory_order_acq_rel);
}
