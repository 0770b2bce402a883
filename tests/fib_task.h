// SPDX-License-Identifier: Apache-2.0
/* The task most tests use as load: fib with a task per call, and the
 * reference it is checked against (the fib benchmark's). */
#ifndef WEFT_TESTS_FIB_TASK_H
#define WEFT_TESTS_FIB_TASK_H

#include <weft/weft.h>

#include "../bench/fib/fib.h" /* fib_iter: the closed-form reference */

#define fib_ref fib_iter

WEFT_TASK_1(long, pfib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(pfib, n - 1);
    long b = WEFT_CALL(pfib, n - 2);
    return WEFT_SYNC(pfib) + b;
}

#endif
