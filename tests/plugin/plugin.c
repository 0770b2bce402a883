// SPDX-License-Identifier: Apache-2.0
/* A plugin that starts a pool and leaves it running: test_plugin_unload
 * loads it with dlopen, calls plugin_fib and closes it. */
#include <weft/weft.h>

WEFT_TASK_1(long, pfib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(pfib, n - 1);
    long b = WEFT_CALL(pfib, n - 2);
    return WEFT_SYNC(pfib) + b;
}

/* Starts a pool of `workers` unless one runs, and returns fib(n) computed
 * on it; the pool keeps running. */
__attribute__((visibility("default"))) long plugin_fib(unsigned workers, int n)
{
    if (weft_workers() == 0 && weft_start(workers, 0, 0) != 0)
        return -1;
    return WEFT_RUN(pfib, n);
}
