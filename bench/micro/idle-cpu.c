// SPDX-License-Identifier: Apache-2.0
/* CPU used by idle workers: after a RUN, wait `settle` ms, then measure the
 * process's CPU time over `window` ms of idleness.
 * Usage: idle-cpu [-w workers] [settle_ms] [window_ms]
 * Prints "Idle CPU per worker: <percent>%". */
#include "bench.h"

#include <sys/resource.h>
#include <weft/weft.h>

WEFT_TASK_0(int, nothing) { return 1; }

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    long settle = argc > 1 ? bench_arg_long(argv[0], "settle_ms", argv[1], 0, 100000) : 10;
    long window = argc > 2 ? bench_arg_long(argv[0], "window_ms", argv[2], 1, 100000) : 1000;
    if (weft_start(workers, 0, 0) != 0)
        return 1;
    unsigned n = weft_workers();
    BENCH_CHECK(WEFT_RUN(nothing) == 1, "RUN");
    sleep_ms(settle);
    double c0 = cpu_seconds(), t0 = bench_now();
    sleep_ms(window);
    double c1 = cpu_seconds(), t1 = bench_now();
    double pct = 100.0 * (c1 - c0) / (t1 - t0) / n;
    printf("workers: %u\nsettle: %ld ms, window: %ld ms\nIdle CPU per worker: %.3f%%\n", n, settle,
           window, pct);
    weft_stop();
    return 0;
}
