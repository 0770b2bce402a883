// SPDX-License-Identifier: Apache-2.0
/* fib written against Lace's API (<lace.h>): the same program as
 * fib-weft.c, run through weft's Lace layer. */
#include "fib.h"

#include <lace.h>
#include <unistd.h>

TASK_1(long, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    long b = CALL(fib, n - 2);
    long a = SYNC(fib);
    return a + b;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    if (argc != 2) {
        fprintf(stderr, "usage: %s [-w workers] <n>\n", argv[0]);
        return 2;
    }
    int n = (int)bench_arg_long(argv[0], "n", argv[1], 0, 60);
    lace_start(workers, 0);
    printf("workers: %u\n", lace_workers());
    double t0 = bench_now();
    long r = RUN(fib, n);
    double t1 = bench_now();
    printf("fib(%d) = %ld\n", n, r);
    fib_check(n, r);
    bench_print_time(t1 - t0);
    lace_count_report_file(stdout);
    lace_stop();
    return 0;
}
