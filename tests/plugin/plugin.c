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

#ifdef PLUGIN_TLS_BYTES
/* Thread-locals of the plugin's own, as a JNI library over Sylvan has (its
 * statistics): more than glibc's static reserve holds. */
static __thread volatile char plugin_tls[PLUGIN_TLS_BYTES];
#endif

/* Starts a pool of `workers` unless one runs, and returns fib(n) computed
 * on it; the pool keeps running. */
__attribute__((visibility("default"))) long plugin_fib(unsigned workers, int n)
{
#ifdef PLUGIN_TLS_BYTES
    plugin_tls[(unsigned)n % PLUGIN_TLS_BYTES] = 1;
#endif
    if (weft_workers() == 0 && weft_start(workers, 0, 0) != 0)
        return -1;
    return WEFT_RUN(pfib, n);
}

/* True if the calling thread is one of the pool's workers: a read of
 * weft's own thread-locals, made on purpose by test_plugin_fault. */
__attribute__((visibility("default"))) int plugin_on_worker(void) { return weft_self() != NULL; }
