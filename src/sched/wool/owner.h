// SPDX-License-Identifier: Apache-2.0
/* Owner-side fast paths of Wool's direct task stack (Faxén, Figure 3, with
 * the private tasks of section III-B), inlined into every task's SPAWN and
 * SYNC.  The slow paths and the thief side are in wool_deque.c; the
 * protocol is explained in docs/sched-wool.md.  Not part of the API.
 *
 * Only the owner calls anything in this file.  A task is public (thieves
 * may take it) if its slot is below own.public_end, private otherwise.
 *   SPAWN  one release store of the state word (no RMW, no fence);
 *   SYNC   private: a plain load and store;
 *          public: one compare-and-swap TASK -> EMPTY on the state word,
 *          the only way to take a task that a thief may be taking too.
 */
#ifndef WEFT_SCHED_WOOL_OWNER_H
#define WEFT_SCHED_WOOL_OWNER_H

#include <weft/bits/worker.h>

/* Slow paths (wool_deque.c). */
void weft__wool_push_slow(weft_worker *w, weft_task *head);
bool weft__wool_sync_slow(weft_worker *w, weft_task *t);
void weft__wool_privatize(weft_worker *w, weft_task *t);
void weft__wool_poll_slow(weft_worker *w, weft_task *head);

/* SPAWN, Figure 3 `spawn_f`: the caller has written the arguments into t
 * (== top); this stores TASK(wrapper) last and polls the trip wire's
 * notification (section III-B: checked on every spawn and join). */
static inline void weft_wool_push(weft_worker *w, weft_task *t, uintptr_t wrapper)
{
    /* Release: a thief's acquire CAS that reads this TASK sees the
     * arguments; and, for a private slot, sees the owner's earlier lowering
     * of public_end, so a thief that read the old boundary backs off.  A
     * plain MOV on x86, as the paper's spawn. */
    atomic_store_explicit(&t->state, wrapper, memory_order_release);
    WEFT_COUNT(w, tasks, 1);
    WEFT_COUNT_PEAK(w, t);
    /* Relaxed: a request seen one spawn late only delays sharing. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&w->shared.plain_from, memory_order_relaxed) ==
                      WEFT_WOOL_REQUEST))
        weft__wool_push_slow(w, t + 1);
}

/* SYNC fast path, Figure 3 `join_f` when the task is there to take: true =
 * the caller runs t inline (t's state is now EMPTY).  false: it was
 * stolen, a thief is in the middle of a steal attempt on it, or a thief
 * asked for work while t is private; weft__wool_sync_slow decides. */
static inline bool weft_wool_pop(weft_worker *w, weft_task *t)
{
    /* Relaxed: our own slot; what a thief may have done to it is decided
     * below (private) or by the CAS (public). */
    uintptr_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
    /* Private and nobody asks (t >= o_public_end, no request).  Relaxed:
     * as in weft_wool_push. */
    if (WEFT_LIKELY((uintptr_t)t >=
                    atomic_load_explicit(&w->shared.plain_from, memory_order_relaxed))) {
        /* No thief commits a steal of a private task, so a plain load and
         * store take it; a thief that claimed it from a stale view (a
         * STOLEN mark) backs off, which the slow path waits for.  One bit
         * tells TASK from STOLEN and DONE; EMPTY (a SYNC without a SPAWN)
         * is caught here only by WEFT_CHECKS builds, as with split. */
        if (WEFT_LIKELY((s & 2u) == 0)) {
            /* Relaxed: see above.  EMPTY keeps "slots from head on are
             * EMPTY" (weft_current_head). */
            atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
            return true;
        }
        return false;
    }
    /* Public: thieves may be taking it.  The paper swaps EMPTY in; weft
     * compares-and-swaps TASK -> EMPTY (one locked instruction either way)
     * so that a failed attempt leaves a thief's STOLEN mark in place (see
     * docs/sched-wool.md).  Relaxed: on success the task is ours and its
     * contents are our own writes; on failure the slow path orders. */
    if (t < w->own.public_end && weft_wool_is_task(s) &&
        atomic_compare_exchange_strong_explicit(&t->state, &s, WEFT_STATE_EMPTY,
                                                memory_order_relaxed, memory_order_relaxed)) {
        if (WEFT_UNLIKELY(++w->own.public_inlined >= WEFT_WOOL_PRIVATIZE_AFTER))
            weft__wool_privatize(w, t);
        return true;
    }
    return false;
}

/* The seam the task macros use (bits/sched.h). */
#define weft_sched_reserve weft_deque_reserve
#define WEFT_SCHED_SPARE_SLOTS 0 /* every slot below end holds a task */
#define weft_sched_sentinel(w) ((w)->end)
#define weft_sched_push weft_wool_push
#define weft_sched_sync_fast weft_wool_pop
#define weft_sched_sync_slow weft__wool_sync_slow
/* Private tasks are made public only by their owner, when it sees a
 * thief's request: WEFT_YIELD polls for it, so that a long task that
 * spawns nothing still answers.  Relaxed: as in weft_wool_push. */
#define weft_sched_poll(w, head) \
    ((void)(head), \
     atomic_load_explicit(&(w)->shared.plain_from, memory_order_relaxed) == WEFT_WOOL_REQUEST)
#define weft_sched_poll_slow weft__wool_poll_slow

#endif
