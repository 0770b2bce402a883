// SPDX-License-Identifier: Apache-2.0
/* dfs on weft: every child of a node spawned, then all joined (dfs.h). */
#include "dfs.h"

#include <weft/weft.h>

WEFT_TASK_3(uint64_t, tree, int, depth, int, width, long, grain)
{
    if (depth == 0)
        return dfs_leaf(grain);
    for (int i = 0; i < width; i++)
        WEFT_SPAWN(tree, depth - 1, width, grain);
    uint64_t sum = 0;
    for (int i = 0; i < width; i++)
        sum += WEFT_SYNC(tree);
    return sum;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    dfs_params p = dfs_args(argc, argv, "[-w workers] ");
    if (weft_start(workers, 0, 0) != 0)
        return 1;
    printf("workers: %u\n", weft_workers());
    double t0 = bench_now();
    uint64_t r = 0;
    for (int i = 0; i < p.reps; i++)
        r = WEFT_RUN(tree, p.depth, p.width, p.grain);
    double t1 = bench_now();
    dfs_report(&p, r);
    bench_print_time(t1 - t0);
    bench_weft_stop();
    return 0;
}
