// SPDX-License-Identifier: Apache-2.0
// knapsack with weft::join: the "take item i" branch runs here while the
// "skip item i" branch waits for thieves, as knapsack-weft spawns the skip
// and calls the take; a shared best-so-far prunes (the peers'
// knapsack-search.hpp).
#include <weft/weft.hpp>

#include "knapsack-search.hpp"

using namespace knapsack_search;

namespace {

long search(problem &p, int i, long capacity, long value)
{
    long done;
    if (leaf_or_pruned(p, i, capacity, value, &done))
        return done;
    problem *pp = &p;
    auto [take, skip] = weft::join(
        [=] {
            const knap_peer_item &it = pp->item[i];
            return it.weight <= capacity
                       ? search(*pp, i + 1, capacity - it.weight, value + it.value)
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
