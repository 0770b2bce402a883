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
    if (argc != 2) {
        fprintf(stderr, "usage: %s [-w workers] <n>\n", argv[0]);
        return 2;
    }
    int n = (int)bench_arg_long(argv[0], "n", argv[1], 0, 60);
    if (weft_start(workers, 0, 0) != 0)
        return 1;
    printf("workers: %u\n", weft_workers());
    double t0 = bench_now();
    long r = WEFT_RUN(fib, n);
    double t1 = bench_now();
    printf("fib(%d) = %ld\n", n, r);
    fib_check(n, r);
    bench_print_time(t1 - t0);
    weft_stats_print(stdout);
    weft_stop();
    return 0;
}
