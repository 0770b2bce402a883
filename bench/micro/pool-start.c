// SPDX-License-Identifier: Apache-2.0
/* What a work pool costs to start and stop: weft_pool_run of one item whose
 * process function does nothing, `runs` times back to back from main's
 * thread (no fork-join pool running).  Each run starts the pool's threads,
 * reads the CPU budget when no count is given (docs/configuration.md,
 * "Worker count"), runs the item, detects the end and joins the threads.
 * Usage: pool-start [-w workers] [runs]   (-w 0 or none: the default count)
 * Prints the median, 90th percentile, least and most in microseconds. */
#include "bench.h"

#include <weft/pool.h>

static void nothing(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)ctx;
    (void)item;
    (void)arg;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    int runs = argc > 1 ? (int)bench_arg_long(argv[0], "runs", argv[1], 1, 1000000) : 2000;
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(long));
    cfg.workers = workers;
    double *us = bench_alloc((size_t)runs, sizeof *us, "figures");
    long item = 0;
    double start = bench_now();
    for (int i = 0; i < runs; i++) {
        double t0 = bench_now();
        int err = weft_pool_run(&cfg, &item, 1, nothing, NULL, NULL);
        us[i] = (bench_now() - t0) * 1e6;
        BENCH_CHECK(err == 0, "weft_pool_run: error %d", err);
    }
    double total = bench_seconds_since(start);
    bench_sort_doubles(us, (size_t)runs);
    if (workers)
        printf("workers: %u\n", workers);
    else
        printf("workers: the default count\n");
    printf("pool start, one item, stop: median %.1f us, p90 %.1f us, least %.1f us, most %.1f us "
           "(%d runs)\n",
           us[runs / 2], us[runs * 9 / 10], us[0], us[runs - 1], runs);
    printf("Time: %f\n", total);
    free(us);
    return 0;
}
