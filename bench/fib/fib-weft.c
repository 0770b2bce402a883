// SPDX-License-Identifier: Apache-2.0
/* fib with a task per call and no cut-off: the spawn/sync overhead test of
 * the Lace and Wool papers. */
#include "fib.h"

#include <weft/weft.h>

WEFT_TASK_1(long, fib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(fib, n - 1);
    long b = WEFT_CALL(fib, n - 2);
    long a = WEFT_SYNC(fib);
    return a + b;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    int n = fib_args(argc, argv, "[-w workers] <n>");
    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    long r = WEFT_RUN(fib, n);
    double seconds = bench_seconds_since(t0);
    printf("fib(%d) = %ld\n", n, r);
    fib_check(n, r);
    bench_weft_finish(seconds);
    return 0;
}
