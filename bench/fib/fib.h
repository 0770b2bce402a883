// SPDX-License-Identifier: Apache-2.0
/* fib's input and answer check, shared by fib-seq and fib-weft. */
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

/* Parses <n> (after -w was taken out by the caller). */
static inline int fib_args(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 1, 1, usage, NULL);
    return (int)bench_arg_long(argv[0], "n", argv[1], 0, 60);
}

static inline void fib_check(int n, long r)
{
    BENCH_CHECK(r == fib_iter(n), "fib(%d) = %ld, expected %ld", n, r, fib_iter(n));
}

#endif
