// SPDX-License-Identifier: Apache-2.0
/* knapsack, sequential baseline: the branch and bound of knapsack-weft.c
 * (see knapsack.h) with plain calls and a plain best-so-far.
 *
 *   knapsack-seq <items> <seed>
 *
 * Also prints the number of search nodes, which is deterministic here
 * (not in parallel, where pruning depends on the schedule). */
#include "knapsack.h"

static long nodes;

static long search(const knap_problem *p, long *best_so_far, int i, long capacity, long value)
{
    nodes++;
    if (i == p->items || capacity == 0) {
        if (value > *best_so_far)
            *best_so_far = value;
        return value;
    }
    if (knap_bound(p, i, capacity, value) <= *best_so_far)
        return KNAPSACK_PRUNED;
    long take = KNAPSACK_PRUNED;
    if (p->item[i].weight <= capacity)
        take =
            search(p, best_so_far, i + 1, capacity - p->item[i].weight, value + p->item[i].value);
    long skip = search(p, best_so_far, i + 1, capacity, value);
    return take > skip ? take : skip;
}

int main(int argc, char **argv)
{
    knap_problem p = knap_args(argc, argv, "<items> <seed>");
    long best_so_far = 0;

    double t0 = bench_now();
    long best = search(&p, &best_so_far, 0, p.capacity, 0);
    double seconds = bench_seconds_since(t0);

    knap_print(&p, best);
    printf("nodes: %ld\n", nodes);
    knap_check(&p, best);
    bench_print_time(seconds);
    free(p.item);
    return 0;
}
