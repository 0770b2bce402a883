// SPDX-License-Identifier: Apache-2.0
/* stress with a task per inner tree node: the repetitions run inside one
 * root task, so the serialisation between trees costs a join, not a RUN
 * from outside the pool (see stress.h). */
#include "stress.h"

#include <weft/weft.h>

WEFT_TASK_3(uint64_t, stress_tree, int, height, uint64_t, first_leaf, uint64_t, leaf_iterations)
{
    if (height == 0)
        return stress_leaf(leaf_iterations, first_leaf);
    uint64_t half = UINT64_C(1) << (height - 1);
    WEFT_SPAWN(stress_tree, height - 1, first_leaf, leaf_iterations);
    uint64_t right = WEFT_CALL(stress_tree, height - 1, first_leaf + half, leaf_iterations);
    uint64_t left = WEFT_SYNC(stress_tree);
    return left + right;
}

WEFT_TASK_3(uint64_t, stress_repeat, int, height, uint64_t, leaf_iterations, uint64_t, repetitions)
{
    uint64_t sum = 0;
    for (uint64_t r = 0; r < repetitions; r++)
        sum += WEFT_CALL(stress_tree, height, 0, leaf_iterations);
    return sum;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    stress_args a =
        stress_parse(argc, argv, "[-w workers] <leaf-iterations> <height> <repetitions>");
    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    uint64_t sum = WEFT_RUN(stress_repeat, a.height, a.leaf_iterations, a.repetitions);
    double seconds = bench_seconds_since(t0);
    stress_report(&a, sum);
    bench_weft_finish(seconds);
    return 0;
}
