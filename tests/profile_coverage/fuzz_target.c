// SPDX-License-Identifier: Apache-2.0
/* A libFuzzer target on weft's profiling library: libFuzzer defines
 * __sanitizer_cov_trace_pc too, and the program must link and run
 * (check.sh builds it with clang -fsanitize=fuzzer,address). */
#include <stddef.h>
#include <stdint.h>
#include <weft/weft.h>

WEFT_TASK_1(long, pfib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(pfib, n - 1);
    long b = WEFT_CALL(pfib, n - 2);
    return WEFT_SYNC(pfib) + b;
}

static long fib_ref(int n) { return n < 2 ? n : fib_ref(n - 1) + fib_ref(n - 2); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int started;
    if (!started) {
        if (weft_start(2, 0, 0) != 0)
            __builtin_trap();
        started = 1;
    }
    int n = size ? data[0] % 16 : 10;
    if (WEFT_RUN(pfib, n) != fib_ref(n))
        __builtin_trap();
    return 0;
}
