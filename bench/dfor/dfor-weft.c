// SPDX-License-Identifier: Apache-2.0
/* dfor: each repetition is a divide-and-conquer parallel for loop split
 * in halves down to the grain (see dfor.h).
 *
 *   dfor-weft [-w workers] <n> <iterations-per-body> <repetitions> [grain]
 */
#include "dfor.h"

#include <weft/weft.h>

/* parallel_for over [lo, hi) with the fixed body. */
WEFT_VOID_TASK_5(parallel_for, uint64_t *, a, long, lo, long, hi, long, iterations, long, grain)
{
    if (hi - lo <= grain) {
        dfor_leaf(a, lo, hi, iterations);
        return;
    }
    /* The halves write disjoint indices: the upper one becomes a task. */
    long mid = lo + (hi - lo) / 2;
    WEFT_SPAWN(parallel_for, a, mid, hi, iterations, grain);
    WEFT_CALL(parallel_for, a, lo, mid, iterations, grain);
    WEFT_SYNC(parallel_for);
}

/* The repetitions in order: SYNC ends one loop before the next starts. */
WEFT_VOID_TASK_2(repeat_loops, uint64_t *, a, const dfor_params *, p)
{
    for (long r = 0; r < p->repetitions; r++)
        WEFT_CALL(parallel_for, a, 0, p->n, p->iterations, p->grain);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    dfor_params p =
        dfor_args(argc, argv, "[-w workers] <n> <iterations-per-body> <repetitions> [grain]");
    uint64_t *a = dfor_setup(p.n);

    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    WEFT_RUN(repeat_loops, a, &p);
    double seconds = bench_seconds_since(t0);

    dfor_print(a, &p);
    dfor_check(a, &p);
    bench_weft_finish(seconds);
    free(a);
    return 0;
}
