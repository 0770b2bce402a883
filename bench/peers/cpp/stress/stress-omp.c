// SPDX-License-Identifier: Apache-2.0
/* stress on OpenMP tasks: the left subtree of every inner node a task and
 * the right one called, then taskwait; the trees run one after the other
 * inside one parallel region, so the serialisation between trees costs a
 * taskwait, not a new region (as stress-weft's root task). */
#include "stress.h"
#include "stress-peer.h"

static uint64_t tree(int height, uint64_t first_leaf, uint64_t leaf_iterations)
{
    if (height == 0)
        return stress_leaf(leaf_iterations, first_leaf);
    uint64_t half = UINT64_C(1) << (height - 1);
    uint64_t left;
#pragma omp task shared(left) firstprivate(height, first_leaf, leaf_iterations)
    left = tree(height - 1, first_leaf, leaf_iterations);
    uint64_t right = tree(height - 1, first_leaf + half, leaf_iterations);
#pragma omp taskwait
    return left + right;
}

uint64_t stress_parallel(int height, uint64_t leaf_iterations, uint64_t repetitions)
{
    uint64_t sum = 0;
#pragma omp parallel shared(sum) firstprivate(height, leaf_iterations, repetitions)
    {
#pragma omp single
        for (uint64_t r = 0; r < repetitions; r++)
            sum += tree(height, 0, leaf_iterations);
    }
    return sum;
}
