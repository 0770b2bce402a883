// SPDX-License-Identifier: Apache-2.0
// What the C++ knapsack kernels share (knapsack-tbb.cpp here,
// bench/knapsack/knapsack-cpp.cpp): the problem with its shared
// best-so-far, and how a complete choice raises it.
#ifndef WEFT_PEER_KNAPSACK_SEARCH_HPP
#define WEFT_PEER_KNAPSACK_SEARCH_HPP

#include <atomic>

#include "knapsack-peer.h"

namespace knapsack_search {

constexpr long pruned = -1; // knapsack.h's KNAPSACK_PRUNED

struct problem {
    const knap_peer_item *item;
    int items;
    std::atomic<long> best_so_far{0};
};

// Raises the best-so-far to value.  It is only a pruning hint: every value
// stored is one a complete choice reached and returns up the tree, so a
// stale read only prunes less; the answer travels through the joins.
inline void raise_best(problem &p, long value)
{
    // Relaxed: racing raisers only make this stale, costing a CAS retry.
    long seen = p.best_so_far.load(std::memory_order_relaxed);
    // Relaxed CAS-max against other raisers: publishes no other data.
    while (value > seen &&
           !p.best_so_far.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
}

// The search's first steps at item i: a leaf raises the best and returns
// its value, a node its bound cannot lift above the best returns pruned;
// anything else returns false and the kernel branches.
inline bool leaf_or_pruned(problem &p, int i, long capacity, long value, long *result)
{
    if (i == p.items || capacity == 0) {
        raise_best(p, value);
        *result = value;
        return true;
    }
    // Relaxed vs. raisers elsewhere: a stale value only prunes less.
    if (knap_peer_bound(p.item, i, capacity, value) <=
        p.best_so_far.load(std::memory_order_relaxed)) {
        *result = pruned;
        return true;
    }
    return false;
}

} // namespace knapsack_search

#endif
