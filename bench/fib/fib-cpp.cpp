// fib with a task per call and no cut-off, written with weft::join: the
// C++ API's spawn/sync overhead beside fib-weft's C macros.
#include "fib.h"

#include <weft/weft.hpp>

static long fib(int n)
{
    if (n < 2)
        return n;
    // As fib-weft: fib(n - 1) is offered to thieves, fib(n - 2) runs first.
    auto [a, b] = weft::join([n] { return fib(n - 2); }, [n] { return fib(n - 1); });
    return a + b;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    int n = fib_args(argc, argv, "[-w workers] <n>");
    weft::scheduler pool(workers);
    std::printf("workers: %u\n", pool.workers());
    double t0 = bench_now();
    long r = weft::run([n] { return fib(n); });
    double seconds = bench_seconds_since(t0);
    std::printf("fib(%d) = %ld\n", n, r);
    fib_check(n, r);
    bench_weft_report(seconds);
    return 0;
}
