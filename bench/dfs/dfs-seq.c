// SPDX-License-Identifier: Apache-2.0
/* dfs, sequential baseline (dfs.h). */
#include "dfs.h"

static uint64_t tree(int depth, int width, long grain)
{
    if (depth == 0)
        return dfs_leaf(grain);
    uint64_t sum = 0;
    for (int i = 0; i < width; i++)
        sum += tree(depth - 1, width, grain);
    return sum;
}

int main(int argc, char **argv)
{
    dfs_params p = dfs_args(argc, argv, "");
    double t0 = bench_now();
    uint64_t r = 0;
    for (int i = 0; i < p.reps; i++)
        r = tree(p.depth, p.width, p.grain);
    double t1 = bench_now();
    dfs_report(&p, r);
    bench_print_time(t1 - t0);
    return 0;
}
