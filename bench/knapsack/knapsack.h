// SPDX-License-Identifier: Apache-2.0
/* knapsack (Cilk-5's knapsack, BOTS): 0/1 knapsack by branch and bound,
 * a task per decision.  Shared by knapsack-seq.c and knapsack-weft.c: the
 * instance, the bound and the dynamic-programming check.
 *
 *   knapsack-seq <items> <seed>
 *   knapsack-weft [-w workers] <items> <seed>
 *
 * Instance: a strongly correlated one (value = weight + constant), which
 * keeps the bound weak and the search tree large.  With splitmix64 started
 * from state = seed (each call: state += 0x9E3779B97F4A7C15; z = state;
 * z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) *
 * 0x94D049BB133111EB; z ^= z >> 31), item j = 0 .. items-1 gets
 *     weight[j] = 1 + z_j % KNAPSACK_MAX_WEIGHT     (one draw per item)
 *     value[j]  = weight[j] + KNAPSACK_VALUE_BONUS
 * and the capacity is floor(sum of weights / 2).
 * The items are then ordered by value/weight, highest first (compared
 * exactly as value_a * weight_b vs value_b * weight_a), ties by j.
 *
 * Search, best(i, capacity, value), over that order:
 *   - i == items or capacity == 0: a complete choice; raise the shared
 *     best-so-far to value and return value;
 *   - bound = value + floor(capacity * value[i] / weight[i]): no choice
 *     of items i.. can beat it (they are no denser than item i); if
 *     bound <= best-so-far, return -1 (pruned: nothing better below);
 *   - otherwise return the larger of best(i+1, capacity - weight[i],
 *     value + value[i]) (only if item i fits) and best(i+1, capacity,
 *     value), the "take" branch first.
 * The root is best(0, capacity, 0) with best-so-far = 0.  knapsack-weft
 * spawns the "skip" branch and calls the "take" branch.  Pruning never
 * loses the optimum (a pruned node's bound is at most a value some
 * complete choice reached and returned), so the answer is the optimum
 * whatever the schedule; how much is pruned, and so the work, depends on
 * the schedule in parallel.
 *
 * Output line: "knapsack(<items>, <seed>): capacity <c> best <value>".
 *
 * Check: the answer equals the optimum of the classic dynamic program
 * (table over capacities 0..c, items in input order); otherwise
 * "FAILED: ..." and exit 1.
 */
#ifndef WEFT_BENCH_KNAPSACK_H
#define WEFT_BENCH_KNAPSACK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define KNAPSACK_MAX_WEIGHT 1000
#define KNAPSACK_VALUE_BONUS 100
#define KNAPSACK_MAX_ITEMS 200 /* the check's table stays under 1e5 entries */
#define KNAPSACK_PRUNED (-1L)

typedef struct knap_item {
    long weight, value;
    int index; /* position in generation order: the tie-break */
} knap_item;

typedef struct knap_problem {
    int items;
    long seed;
    long capacity;
    knap_item *item; /* by decreasing value/weight */
} knap_problem;

static inline uint64_t knap_splitmix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static inline int knap_denser_first(const void *pa, const void *pb)
{
    const knap_item *a = pa, *b = pb;
    long lhs = a->value * b->weight, rhs = b->value * a->weight;
    if (lhs != rhs)
        return lhs > rhs ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static inline knap_problem knap_args(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 2, 2, usage,
                      "  items: number of items in [1, %d]; seed: instance seed, "
                      "a non-negative integer\n",
                      KNAPSACK_MAX_ITEMS);
    knap_problem p;
    p.items = (int)bench_arg_long(argv[0], "items", argv[1], 1, KNAPSACK_MAX_ITEMS);
    p.seed = bench_arg_long(argv[0], "seed", argv[2], 0, INT64_MAX);
    p.item = bench_alloc((size_t)p.items, sizeof(knap_item), "items");
    uint64_t state = (uint64_t)p.seed;
    long total = 0;
    for (int j = 0; j < p.items; j++) {
        p.item[j].weight = 1 + (long)(knap_splitmix(&state) % KNAPSACK_MAX_WEIGHT);
        p.item[j].value = p.item[j].weight + KNAPSACK_VALUE_BONUS;
        p.item[j].index = j;
        total += p.item[j].weight;
    }
    p.capacity = total / 2;
    qsort(p.item, (size_t)p.items, sizeof(knap_item), knap_denser_first);
    return p;
}

/* The bound of the search at item i (see the top of the file). */
static inline long knap_bound(const knap_problem *p, int i, long capacity, long value)
{
    return value + capacity * p->item[i].value / p->item[i].weight;
}

/* The optimum by dynamic programming: table[c] = best value within
 * capacity c using the items seen so far. */
static inline long knap_optimum(const knap_problem *p)
{
    long *table = calloc((size_t)p->capacity + 1, sizeof(long));
    BENCH_CHECK(table != NULL, "cannot allocate the check's table");
    for (int j = 0; j < p->items; j++) {
        long w = p->item[j].weight, v = p->item[j].value;
        for (long c = p->capacity; c >= w; c--)
            if (table[c - w] + v > table[c])
                table[c] = table[c - w] + v;
    }
    long best = table[p->capacity];
    free(table);
    return best;
}

static inline void knap_print(const knap_problem *p, long best)
{
    printf("knapsack(%d, %ld): capacity %ld best %ld\n", p->items, p->seed, p->capacity, best);
}

static inline void knap_check(const knap_problem *p, long best)
{
    long optimum = knap_optimum(p);
    BENCH_CHECK(best == optimum, "best value %ld, but the optimum is %ld", best, optimum);
}

#endif
