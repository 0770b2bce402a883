// knapsack with weft::join: the "take item i" branch runs here while the
// "skip item i" branch waits for thieves, as knapsack-weft spawns the skip
// and calls the take; a shared best-so-far prunes.
#include <atomic>

#include <weft/weft.hpp>

#include "knapsack-peer.h"

namespace {

constexpr long pruned = -1; // knapsack.h's KNAPSACK_PRUNED

struct problem {
    const knap_peer_item *item;
    int items;
    std::atomic<long> best_so_far{0};
};

// Raises the best-so-far to value.  It is only a pruning hint: every value
// stored is one a complete choice reached and returns up the tree, so a
// stale read only prunes less; the answer travels through the joins.
void raise_best(problem &p, long value)
{
    // Relaxed: racing raisers only make this stale, costing a CAS retry.
    long seen = p.best_so_far.load(std::memory_order_relaxed);
    // Relaxed CAS-max against other raisers: publishes no other data.
    while (value > seen && !p.best_so_far.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
}

long search(problem &p, int i, long capacity, long value)
{
    if (i == p.items || capacity == 0) {
        raise_best(p, value);
        return value;
    }
    // Relaxed vs. raisers elsewhere: a stale value only prunes less.
    if (knap_peer_bound(p.item, i, capacity, value) <= p.best_so_far.load(std::memory_order_relaxed))
        return pruned;
    problem *pp = &p;
    auto [take, skip] = weft::join(
        [=] {
            const knap_peer_item &it = pp->item[i];
            return it.weight <= capacity ? search(*pp, i + 1, capacity - it.weight, value + it.value)
                                         : pruned;
        },
        [=] { return search(*pp, i + 1, capacity, value); });
    return take > skip ? take : skip;
}

} // namespace

long knapsack_parallel(const knap_peer_item *item, int items, long capacity)
{
    problem p;
    p.item = item;
    p.items = items;
    return weft::run([&p, capacity] { return search(p, 0, capacity, 0); });
}
