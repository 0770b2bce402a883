// SPDX-License-Identifier: Apache-2.0
/* The C half of the C/C++ test (shared_tasks.h). */
#include "shared_tasks.h"

TASK_IMPL_1(long, c_fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(c_fib, n - 1);
    long b = CALL(c_fib, n - 2);
    return SYNC(c_fib) + b;
}

VOID_TASK_IMPL_2(c_count, long *, out, int, n) { *out = n; }

TASK_2(long, c_spawns_cxx, long, a, long, b)
{
    SPAWN(cxx_sum, a, b);
    long c = CALL(cxx_sum, b, a);
    return SYNC(cxx_sum) + c;
}

long c_calls_cxx(long a, long b) { return RUN(c_spawns_cxx, a, b); }

void c_layout(size_t *out, int n)
{
    int i = 0;
#define C_LAYOUT_ONE(v) \
    if (i < n) \
        out[i++] = (v);
    SHARED_LAYOUT(C_LAYOUT_ONE)
}
