// SPDX-License-Identifier: Apache-2.0
/* Latency of a RUN of an empty task from a non-worker thread.
 * cold: before each RUN the caller sleeps `gap` ms so every worker has gone
 *       to sleep (the idle spin is much shorter); hot: back-to-back RUNs.
 * Usage: run-latency [-w workers] [runs] [gap_ms]
 * Prints medians and 90th percentiles in microseconds. */
#include "bench.h"

#include <weft/weft.h>

WEFT_TASK_0(int, nothing) { return 1; }

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void report(const char *what, double *us, int n)
{
    bench_sort_doubles(us, (size_t)n);
    printf("%s RUN latency: median %.1f us, p90 %.1f us, min %.1f us, max %.1f us\n", what,
           us[n / 2], us[n * 9 / 10], us[0], us[n - 1]);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    int runs = argc > 1 ? (int)bench_arg_long(argv[0], "runs", argv[1], 1, 100000) : 200;
    long gap = argc > 2 ? bench_arg_long(argv[0], "gap_ms", argv[2], 0, 10000) : 20;
    if (weft_start(workers, 0, 0) != 0)
        return 1;
    printf("workers: %u\n", weft_workers());
    double *us = malloc(sizeof *us * (size_t)runs);
    for (int i = 0; i < runs; i++) {
        sleep_ms(gap);
        double t0 = bench_now();
        BENCH_CHECK(WEFT_RUN(nothing) == 1, "RUN");
        us[i] = (bench_now() - t0) * 1e6;
    }
    report("cold (workers asleep)", us, runs);
    for (int i = 0; i < runs; i++) {
        double t0 = bench_now();
        BENCH_CHECK(WEFT_RUN(nothing) == 1, "RUN");
        us[i] = (bench_now() - t0) * 1e6;
    }
    report("hot (back to back)", us, runs);
    free(us);
    weft_stop();
    return 0;
}
