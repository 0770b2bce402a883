// SPDX-License-Identifier: Apache-2.0
/* The short (Lace-style) names compile and mean the same as the long ones. */
#include "check.h"

#include <weft/short.h>

#include "../bench/fib/fib.h"

TASK_1(long, sfib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(sfib, n - 1);
    long b = CALL(sfib, n - 2);
    return SYNC(sfib) + b;
}

VOID_TASK_DECL_2(fill, long *, int)
VOID_TASK_IMPL_2(fill, long *, out, int, n)
{
    if (n == 0)
        return;
    SPAWN(fill, out, n - 1);
    out[n] = n;
    SYNC(fill);
}

/* The widest task: nine arguments under the short name. */
TASK_9(long, sum9, int, a, int, b, int, c, int, d, int, e, int, f, int, g, int, h, int, i)
{
    if (a == 0)
        return b + c + d + e + f + g + h + i;
    SPAWN(sum9, a - 1, b, c, d, e, f, g, h, i);
    return SYNC(sum9) + a;
}

int main(void)
{
    CHECK(weft_start(3, 0, 0) == 0, "start");
    CHECK(RUN(sfib, 25) == fib_iter(25), "sfib");
    CHECK(RUN(sum9, 10, 1, 2, 3, 4, 5, 6, 7, 8) == 55 + 36, "sum9");
    long out[101] = {0};
    RUN(fill, out, 100);
    for (int i = 1; i <= 100; i++)
        CHECK(out[i] == i, "fill %d", i);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: short names\n");
    return 0;
}
