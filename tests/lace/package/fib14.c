// SPDX-License-Identifier: Apache-2.0
/* fib in Lace 1.4's API (which Lace 1.5 kept, TASK(f) with it), for a
 * parent project that builds weft in place of a Lace source (embedded.sh)
 * and for a Lace 1.5 program's request of the package (check.sh). */
#include <lace.h>
#include <stdio.h>

TASK_1(int, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    int b = CALL(fib, n - 2);
    return SYNC(fib) + b;
}

int main(void)
{
    (void)TASK(fib); /* fib_CALL, as Sylvan 1.9 passes its hooks */
    lace_start(2, 0);
    int r = RUN(fib, 24);
    lace_stop();
    printf("fib(24) = %d\n", r);
    return r == 46368 ? 0 : 1;
}
