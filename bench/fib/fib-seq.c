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
    if (argc != 2) {
        fprintf(stderr, "usage: %s <n>\n", argv[0]);
        return 2;
    }
    int n = (int)bench_arg_long(argv[0], "n", argv[1], 0, 60);
    double t0 = bench_now();
    long r = fib(n);
    double t1 = bench_now();
    printf("fib(%d) = %ld\n", n, r);
    fib_check(n, r);
    bench_print_time(t1 - t0);
    return 0;
}
