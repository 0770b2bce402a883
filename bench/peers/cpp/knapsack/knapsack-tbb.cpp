// SPDX-License-Identifier: Apache-2.0
// knapsack on oneTBB (the branch and bound of bench/knapsack/knapsack.h):
// the "skip item i" branch a task_group task, the "take" branch called,
// then wait; a shared best-so-far prunes (knapsack-search.hpp).
#include <tbb/task_group.h>

#include "knapsack-search.hpp"
#include "peer-tbb.hpp"

using namespace knapsack_search;

namespace {

long search(problem &p, int i, long capacity, long value)
{
    long done;
    if (leaf_or_pruned(p, i, capacity, value, &done))
        return done;
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
