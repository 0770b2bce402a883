// SPDX-License-Identifier: Apache-2.0
/* The index protocol of the Chase-Lev deque (Chase and Lev, SPAA 2005),
 * with the C11 orders of Lê, Pop, Cohen and Zappa Nardelli (PPoPP 2013),
 * for both of weft's Chase-Lev deques: the Chase-Lev scheduler
 * (src/sched/chase-lev: task pointers, the owner's side inline in task
 * code) and the work pool's Chase-Lev queue (src/workpool/queues/
 * chase_lev.c: items copied in).  What they store, how their arrays grow
 * and what a lost last-item race means differ, and stay with each; the
 * indices and their fences are here.  Not part of the API.
 *
 *   top     thieves (and the owner for the last entry) advance it by CAS;
 *           it never decreases, and 64 bits never wrap, so no tag
 *   bottom  written by the owner only
 *   entries [top, bottom) of a circular array
 *
 *   push:  write the entry; weft__cl_publish(bottom + 1)        release
 *   take:  weft__cl_take_begin: bottom - 1, seq_cst fence, top; if the
 *          entry is the last, weft__cl_claim it against the thieves; if it
 *          was gone, weft__cl_restore the bottom
 *   steal: weft__cl_steal_window: top (acquire), seq_cst fence, bottom
 *          (acquire); read the entry; weft__cl_claim                seq_cst
 *
 * The two seq_cst fences pair up (store bottom / load top against the
 * thief's load top / load bottom): either the thief sees the lowered
 * bottom or the owner sees the thief's CAS, so the last entry goes to
 * exactly one of them.  verification/chase_lev.pml checks the protocol.
 */
#ifndef WEFT_BITS_CHASE_LEV_H
#define WEFT_BITS_CHASE_LEV_H

#include <weft/bits/lang.h>

#include <stdbool.h>

/* Owner, push: bottom = b after the entry at b - 1 was written. */
static inline void weft__cl_publish(WEFT_ATOMIC(int64_t) * bottom, int64_t b)
{
    /* Release: the entry (and a grown array) before a thief sees bottom;
     * Lê et al. use a release fence and a relaxed store, a release store
     * is as strong here, and ThreadSanitizer understands it. */
    atomic_store_explicit(bottom, b, memory_order_release);
}

/* Owner, push: top, to see whether the array is full.  Entries below it
 * were taken, and may be overwritten. */
static inline int64_t weft__cl_owner_top(WEFT_ATOMIC(int64_t) * top)
{
    /* Acquire: pairs with the thieves' CAS: their reads of the entries
     * below top happen before our overwrite. */
    return atomic_load_explicit(top, memory_order_acquire);
}

/* Owner, take: lowers bottom to b (the entry it takes) and returns top as
 * seen after the fence.  top < b: the entry is the owner's; top == b: it
 * is the last, weft__cl_claim it; top > b: it is gone. */
static inline int64_t weft__cl_take_begin(WEFT_ATOMIC(int64_t) * bottom, WEFT_ATOMIC(int64_t) * top,
                                          int64_t b)
{
    /* Relaxed: ordered before the top load by the fence. */
    atomic_store_explicit(bottom, b, memory_order_relaxed);
    /* seq_cst fence: pairs with the steal's fence: either the thief sees
     * the lowered bottom or we see its CAS of top (the last-entry race). */
    atomic_thread_fence(memory_order_seq_cst);
    /* Relaxed: ordered by the fence above. */
    return atomic_load_explicit(top, memory_order_relaxed);
}

/* Owner, after a take that found the deque empty or raced for its last
 * entry: bottom back to b (== top now). */
static inline void weft__cl_restore(WEFT_ATOMIC(int64_t) * bottom, int64_t b)
{
    /* Relaxed: we own bottom; a thief that read the lowered one fails its
     * CAS on top, or sees top == bottom. */
    atomic_store_explicit(bottom, b, memory_order_relaxed);
}

/* Thief: top in *t, and bottom, read in the order the take's race needs;
 * entries [*t, bottom) were there (the caller reads the one at *t). */
static inline int64_t weft__cl_steal_window(WEFT_ATOMIC(int64_t) * top,
                                            WEFT_ATOMIC(int64_t) * bottom, int64_t *t)
{
    /* Acquire: pairs with other thieves' CAS: their reads before ours. */
    *t = atomic_load_explicit(top, memory_order_acquire);
    /* seq_cst fence: pairs with the take's fence (the last-entry race). */
    atomic_thread_fence(memory_order_seq_cst);
    /* Acquire: pairs with the push's release: entries below bottom are
     * written. */
    return atomic_load_explicit(bottom, memory_order_acquire);
}

/* Thief, or the owner for the last entry (or a batch): entries [t, to)
 * are the caller's if top is still t.  On failure *t is top now. */
static inline bool weft__cl_claim(WEFT_ATOMIC(int64_t) * top, int64_t *t, int64_t to)
{
    /* seq_cst: one total order of the CASes on top with the take's and
     * the steal's fences.  Failure relaxed: the caller reports the lost
     * race. */
    return atomic_compare_exchange_strong_explicit(top, t, to, memory_order_seq_cst,
                                                   memory_order_relaxed);
}

#endif
