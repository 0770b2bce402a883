// SPDX-License-Identifier: Apache-2.0
/* fib, sequential baseline: the same recursion as fib-weft.c, no tasks. */
#include "fib.h"

static long fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
    int n = fib_args(argc, argv, "<n>");
    double t0 = bench_now();
    long r = fib(n);
    double seconds = bench_seconds_since(t0);
    printf("fib(%d) = %ld\n", n, r);
    fib_check(n, r);
    bench_print_time(seconds);
    return 0;
}
