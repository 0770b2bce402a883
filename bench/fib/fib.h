/* fib's answer check, shared by fib-seq and fib-weft. */
#ifndef WEFT_BENCH_FIB_H
#define WEFT_BENCH_FIB_H

#include "bench.h"

static inline long fib_iter(int n)
{
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

static inline void fib_check(int n, long r)
{
    BENCH_CHECK(r == fib_iter(n), "fib(%d) = %ld, expected %ld", n, r, fib_iter(n));
}

#endif
