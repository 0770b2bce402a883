// SPDX-License-Identifier: Apache-2.0
/* Many short RUNs from main against the same work inside one RUN: a loop
 * of `calls` RUNs of fib(n) from the main thread (the pattern of a
 * library that RUNs once per top-level operation), and one RUN whose task
 * makes the same `calls` calls of fib(n) (each spawning as usual).  The
 * two alternate, `reps` times each.
 * Usage: run-loop [-w workers] [calls] [n] [reps]
 * Prints each repetition, the medians and their ratio (loop / inside). */
#include "bench.h"

#include <weft/weft.h>

#include "../fib/fib.h" /* fib_iter: the reference */

WEFT_TASK_1(long, fib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(fib, n - 1);
    long b = WEFT_CALL(fib, n - 2);
    return WEFT_SYNC(fib) + b;
}

WEFT_TASK_2(long, many_fibs, long, calls, int, n)
{
    long sum = 0;
    for (long i = 0; i < calls; i++)
        sum += WEFT_CALL(fib, n);
    return sum;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    long calls = argc > 1 ? bench_arg_long(argv[0], "calls", argv[1], 1, 100000000) : 100000;
    int n = argc > 2 ? (int)bench_arg_long(argv[0], "n", argv[2], 0, 40) : 18;
    int reps = argc > 3 ? (int)bench_arg_long(argv[0], "reps", argv[3], 1, 1000) : 5;
    if (weft_start(workers, 0, 0) != 0)
        return 1;
    printf("workers: %u, %ld calls of fib(%d), %d repetitions\n", weft_workers(), calls, n, reps);
    long expect = calls * fib_iter(n);
    double *loop = malloc(sizeof *loop * (size_t)reps),
           *inside = malloc(sizeof *inside * (size_t)reps);
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now();
        long sum = 0;
        for (long i = 0; i < calls; i++)
            sum += WEFT_RUN(fib, n);
        double t1 = bench_now();
        BENCH_CHECK(sum == expect, "loop of RUNs: %ld, expected %ld", sum, expect);
        long s2 = WEFT_RUN(many_fibs, calls, n);
        double t2 = bench_now();
        BENCH_CHECK(s2 == expect, "inside one RUN: %ld, expected %ld", s2, expect);
        loop[r] = t1 - t0;
        inside[r] = t2 - t1;
        printf("rep %d: loop of RUNs %.3f s, inside one RUN %.3f s\n", r, loop[r], inside[r]);
    }
    bench_sort_doubles(loop, (size_t)reps);
    bench_sort_doubles(inside, (size_t)reps);
    printf("median: loop of RUNs %.3f s (%.2f us per RUN), inside one RUN %.3f s, ratio %.3f\n",
           loop[reps / 2], loop[reps / 2] / (double)calls * 1e6, inside[reps / 2],
           loop[reps / 2] / inside[reps / 2]);
    free(loop);
    free(inside);
    weft_stop();
    return 0;
}
