// SPDX-License-Identifier: Apache-2.0
/* The knapsack kernel each peer implements (knapsack-tbb.cpp,
 * knapsack-omp.c).  bench/knapsack/knapsack.h is C only, so the C++
 * kernel gets the items as knap_peer_item, which knapsack-main.c checks
 * is laid out as the header's knap_item, and the bound as
 * knap_peer_bound, the header's knap_bound on that type. */
#ifndef WEFT_PEER_KNAPSACK_H
#define WEFT_PEER_KNAPSACK_H

#include "peer.h"

PEER_BEGIN_DECLS

typedef struct knap_peer_item {
    long weight, value;
    int index;
} knap_peer_item;

/* knapsack.h's knap_bound: no choice of items i.. (no denser than item i)
 * can raise `value` above this within `capacity`. */
static inline long knap_peer_bound(const knap_peer_item *item, int i, long capacity, long value)
{
    return value + capacity * item[i].value / item[i].weight;
}

/* The best value of items[0..items) (by decreasing value/weight) within
 * capacity, by knapsack.h's branch and bound with a shared best-so-far:
 * a task per "skip item i" branch, the "take" branch called, as
 * bench/knapsack/knapsack-weft.c. */
long knapsack_parallel(const knap_peer_item *item, int items, long capacity);

PEER_END_DECLS

#endif
