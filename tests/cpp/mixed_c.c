// SPDX-License-Identifier: Apache-2.0
/* The C half of test_cpp_mixed: C tasks that call C++ code using the C++
 * API (under their own unjoined SPAWNs, where the C++ side's context is
 * stale and must be found again), and C tasks the C++ half calls. */
#include <weft/weft.h>

#include "mixed.h"

/* Leaves sum [lo, lo + MIXED_LEAF) in C++ (parallel_reduce or a task_group). */
WEFT_TASK_2(long, c_tree, int, depth, long, lo)
{
    if (depth == 0)
        return cpp_range_sum(lo, lo + MIXED_LEAF);
    WEFT_SPAWN(c_tree, depth - 1, lo);
    long b = WEFT_CALL(c_tree, depth - 1, lo + ((long)MIXED_LEAF << (depth - 1)));
    long a = WEFT_SYNC(c_tree);
    return a + b;
}

long c_tree_run(int depth) { return WEFT_RUN(c_tree, depth, 0); }

/* fib in C; at n == 12, with a SPAWN pending, adds C++'s fib(10) - 55. */
WEFT_TASK_1(long, c_fib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(c_fib, n - 1);
    long b = WEFT_CALL(c_fib, n - 2);
    if (n == 12)
        b += cpp_fib(10) - 55;
    long a = WEFT_SYNC(c_fib);
    return a + b;
}

long c_fib_here(int n)
{
    WEFT_ME;
    return WEFT_CALL(c_fib, n);
}
