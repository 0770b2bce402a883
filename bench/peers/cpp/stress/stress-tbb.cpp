// SPDX-License-Identifier: Apache-2.0
// stress on oneTBB: a task_group per inner tree node, the left subtree a
// task and the right one called, then wait; the trees run one after the
// other inside one arena call, so the serialisation between trees costs a
// wait, not an entry into the arena (as stress-weft's root task).
#include <tbb/task_group.h>

#include "peer-tbb.hpp"
#include "stress-peer.h"
#include "stress.h"

static uint64_t tree(int height, uint64_t first_leaf, uint64_t leaf_iterations)
{
    if (height == 0)
        return stress_leaf(leaf_iterations, first_leaf);
    uint64_t half = UINT64_C(1) << (height - 1);
    uint64_t left;
    tbb::task_group g;
    g.run([&left, height, first_leaf, leaf_iterations] {
        left = tree(height - 1, first_leaf, leaf_iterations);
    });
    uint64_t right = tree(height - 1, first_leaf + half, leaf_iterations);
    g.wait();
    return left + right;
}

uint64_t stress_parallel(int height, uint64_t leaf_iterations, uint64_t repetitions)
{
    return peer_tbb_run([=] {
        uint64_t sum = 0;
        for (uint64_t r = 0; r < repetitions; r++)
            sum += tree(height, 0, leaf_iterations);
        return sum;
    });
}
