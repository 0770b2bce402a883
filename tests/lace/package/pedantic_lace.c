// SPDX-License-Identifier: Apache-2.0
/* A Lace 1 program as its users write it (SPAWN's value kept and unused,
 * CALL, SYNC, RUN), built through the installed package under
 * -Wall -Wextra -Wpedantic -Werror (check.sh): lace.h adds no warning,
 * as Lace's own does not. */
#include <lace.h>

TASK_1(int, pfib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(pfib, n - 1);
    Task *t = SPAWN(pfib, n - 2);
    (void)t;
    int c = CALL(pfib, n - 3);
    int b = SYNC(pfib);
    int a = SYNC(pfib);
    return a + b + c;
}

int main(void)
{
    lace_start(2, 0);
    int r = RUN(pfib, 18);
    lace_stop();
    printf("pfib(18) = %d\n", r);
    return 0;
}
