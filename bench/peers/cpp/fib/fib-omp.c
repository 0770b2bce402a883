// SPDX-License-Identifier: Apache-2.0
/* fib on OpenMP tasks: one branch a task, the other a call, then
 * taskwait -- the shape of fib-weft's SPAWN, CALL, SYNC.  No cut-off (no
 * if/final clause).  Tied tasks, the default: untied measured no faster
 * with libgomp and slower with libomp. */
#include "fib-peer.h"

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a) firstprivate(n)
    a = fib(n - 1);
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

long fib_parallel(int n)
{
    long r = 0;
#pragma omp parallel shared(r) firstprivate(n)
    {
#pragma omp single
        r = fib(n);
    }
    return r;
}
