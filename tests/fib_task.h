/* The task most tests use as load: fib with a task per call, and the
 * closed-form reference it is checked against. */
#ifndef WEFT_TESTS_FIB_TASK_H
#define WEFT_TESTS_FIB_TASK_H

#include <weft/weft.h>

static inline long fib_ref(int n)
{
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

WEFT_TASK_1(long, pfib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(pfib, n - 1);
    long b = WEFT_CALL(pfib, n - 2);
    return WEFT_SYNC(pfib) + b;
}

#endif
