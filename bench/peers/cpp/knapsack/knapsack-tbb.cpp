// knapsack on oneTBB (the branch and bound of bench/knapsack/knapsack.h):
// the "skip item i" branch a task_group task, the "take" branch called,
// then wait; a shared best-so-far prunes.
#include <atomic>

#include <tbb/task_group.h>

#include "knapsack-peer.h"
#include "peer-tbb.hpp"

namespace {

constexpr long pruned = -1; // knapsack.h's KNAPSACK_PRUNED

struct problem {
    const knap_peer_item *item;
    int items;
    std::atomic<long> best_so_far{ 0 };
};

// Raises the best-so-far to value.  It is only a pruning hint: every value
// stored is one a complete choice reached and returns up the tree, so a
// stale read only prunes less; the answer travels through the joins.
void raise_best(problem &p, long value)
{
    // Relaxed: racing raisers only make this stale, costing a CAS retry.
    long seen = p.best_so_far.load(std::memory_order_relaxed);
    // Relaxed CAS-max against other raisers: publishes no other data.
    while (value > seen &&
           !p.best_so_far.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
}

long search(problem &p, int i, long capacity, long value)
{
    if (i == p.items || capacity == 0) {
        raise_best(p, value);
        return value;
    }
    // Relaxed vs. raisers elsewhere: a stale value only prunes less.
    if (knap_peer_bound(p.item, i, capacity, value) <=
        p.best_so_far.load(std::memory_order_relaxed))
        return pruned;
    long skip;
    tbb::task_group g;
    g.run([&p, &skip, i, capacity, value] { skip = search(p, i + 1, capacity, value); });
    long take = pruned;
    if (p.item[i].weight <= capacity)
        take = search(p, i + 1, capacity - p.item[i].weight, value + p.item[i].value);
    g.wait();
    return take > skip ? take : skip;
}

} // namespace

long knapsack_parallel(const knap_peer_item *item, int items, long capacity)
{
    problem p;
    p.item = item;
    p.items = items;
    return peer_tbb_run([&p, capacity] { return search(p, 0, capacity, 0); });
}
