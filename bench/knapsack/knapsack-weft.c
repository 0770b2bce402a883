// SPDX-License-Identifier: Apache-2.0
/* knapsack: branch and bound with a task per "skip item i" branch and a
 * shared best-so-far for pruning (see knapsack.h).
 *
 *   knapsack-weft [-w workers] <items> <seed>
 */
#include "knapsack.h"

#include <stdatomic.h>

#include <weft/weft.h>

/* Raises *best_so_far to value.  Relaxed is enough: best-so-far is only a
 * pruning hint.  Every value stored is one a complete choice reached and
 * returns up the tree, so pruning against any value read, stale or not,
 * never loses the optimum; the answer itself travels through SYNC, and
 * no other data is published through this word. */
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

WEFT_TASK_5(long, search, const knap_problem *, p, _Atomic long *, best_so_far, int, i, long,
            capacity, long, value)
{
    if (i == p->items || capacity == 0) {
        raise_best(best_so_far, value);
        return value;
    }
    /* Relaxed vs. raisers elsewhere: a stale value only prunes less. */
    if (knap_bound(p, i, capacity, value) <=
        atomic_load_explicit(best_so_far, memory_order_relaxed))
        return KNAPSACK_PRUNED;
    WEFT_SPAWN(search, p, best_so_far, i + 1, capacity, value);
    long take = KNAPSACK_PRUNED;
    if (p->item[i].weight <= capacity)
        take = WEFT_CALL(search, p, best_so_far, i + 1, capacity - p->item[i].weight,
                         value + p->item[i].value);
    long skip = WEFT_SYNC(search);
    return take > skip ? take : skip;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    knap_problem p = knap_args(argc, argv, "[-w workers] <items> <seed>");
    _Atomic long best_so_far = 0;

    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    long best = WEFT_RUN(search, &p, &best_so_far, 0, p.capacity, 0);
    double seconds = bench_seconds_since(t0);

    knap_print(&p, best);
    knap_check(&p, best);
    bench_weft_finish(seconds);
    free(p.item);
    return 0;
}
