// SPDX-License-Identifier: Apache-2.0
// fib on oneTBB: a task_group per call, one branch run as a task and the
// other called directly, then wait -- the shape of fib-weft's SPAWN, CALL,
// SYNC.  No cut-off.  (tbb::parallel_invoke measured the same here.)
#include <tbb/task_group.h>

#include "fib-peer.h"
#include "peer-tbb.hpp"

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
    tbb::task_group g;
    g.run([&a, n] { a = fib(n - 1); });
    b = fib(n - 2);
    g.wait();
    return a + b;
}

long fib_parallel(int n)
{
    return peer_tbb_run([n] { return fib(n); });
}
