// SPDX-License-Identifier: Apache-2.0
/* dfs written against Lace's API (<lace.h>): the same program as
 * dfs-weft.c, run through weft's Lace layer. */
#include "dfs.h"

#include <lace.h>

TASK_3(uint64_t, tree, int, depth, int, width, long, grain)
{
    if (depth == 0)
        return dfs_leaf(grain);
    for (int i = 0; i < width; i++)
        SPAWN(tree, depth - 1, width, grain);
    uint64_t sum = 0;
    for (int i = 0; i < width; i++)
        sum += SYNC(tree);
    return sum;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    dfs_params p = dfs_args(argc, argv, "[-w workers] ");
    lace_start(workers, 0);
    printf("workers: %u\n", lace_workers());
    double t0 = bench_now();
    uint64_t r = 0;
    for (int i = 0; i < p.reps; i++)
        r = RUN(tree, p.depth, p.width, p.grain);
    double t1 = bench_now();
    dfs_report(&p, r);
    bench_print_time(t1 - t0);
    lace_count_report_file(stdout);
    lace_stop();
    return 0;
}
