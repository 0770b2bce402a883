// SPDX-License-Identifier: Apache-2.0
/* knapsack on OpenMP tasks (the branch and bound of
 * bench/knapsack/knapsack.h): the "skip item i" branch a task, the "take"
 * branch called, then taskwait; a shared best-so-far prunes.  It is a C11
 * atomic, as in knapsack-weft (OpenMP's atomic constructs have no
 * compare-exchange before OpenMP 5.1). */
#include <stdatomic.h>

#include "knapsack.h"
#include "knapsack-peer.h"

/* Raises the best-so-far to value.  It is only a pruning hint: every
 * value stored is one a complete choice reached and returns up the tree,
 * so a stale read only prunes less; the answer travels through the
 * taskwaits. */
static void raise_best(_Atomic long *best_so_far, long value)
{
    /* Relaxed: racing raisers only make this stale, costing a CAS retry. */
    long seen = atomic_load_explicit(best_so_far, memory_order_relaxed);
    /* Relaxed CAS-max against other raisers: publishes no other data. */
    while (value > seen &&
           !atomic_compare_exchange_weak_explicit(best_so_far, &seen, value, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}

static long search(const knap_peer_item *item, int items, _Atomic long *best_so_far, int i,
                   long capacity, long value)
{
    if (i == items || capacity == 0) {
        raise_best(best_so_far, value);
        return value;
    }
    /* Relaxed vs. raisers elsewhere: a stale value only prunes less. */
    if (knap_peer_bound(item, i, capacity, value) <=
        atomic_load_explicit(best_so_far, memory_order_relaxed))
        return KNAPSACK_PRUNED;
    long skip;
#pragma omp task shared(skip) firstprivate(item, items, best_so_far, i, capacity, value)
    skip = search(item, items, best_so_far, i + 1, capacity, value);
    long take = KNAPSACK_PRUNED;
    if (item[i].weight <= capacity)
        take = search(item, items, best_so_far, i + 1, capacity - item[i].weight,
                      value + item[i].value);
#pragma omp taskwait
    return take > skip ? take : skip;
}

long knapsack_parallel(const knap_peer_item *item, int items, long capacity)
{
    _Atomic long best_so_far = 0;
    long best = 0;
#pragma omp parallel shared(best, best_so_far) firstprivate(item, items, capacity)
    {
#pragma omp single
        best = search(item, items, &best_so_far, 0, capacity, 0);
    }
    return best;
}
