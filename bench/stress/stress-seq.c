// SPDX-License-Identifier: Apache-2.0
/* stress, sequential baseline: the same trees as stress-weft.c (see
 * stress.h) with plain recursive calls. */
#include "stress.h"

static uint64_t tree(int height, uint64_t first_leaf, uint64_t leaf_iterations)
{
    if (height == 0)
        return stress_leaf(leaf_iterations, first_leaf);
    uint64_t half = UINT64_C(1) << (height - 1);
    uint64_t left = tree(height - 1, first_leaf, leaf_iterations);
    uint64_t right = tree(height - 1, first_leaf + half, leaf_iterations);
    return left + right;
}

int main(int argc, char **argv)
{
    stress_args a = stress_parse(argc, argv, "<leaf-iterations> <height> <repetitions>");
    double t0 = bench_now();
    uint64_t sum = 0;
    for (uint64_t r = 0; r < a.repetitions; r++)
        sum += tree(a.height, 0, a.leaf_iterations);
    double seconds = bench_seconds_since(t0);
    stress_report(&a, sum);
    bench_print_time(seconds);
    return 0;
}
