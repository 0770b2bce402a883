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

int main(void)
{
    CHECK(weft_start(3, 0, 0) == 0, "start");
    CHECK(RUN(sfib, 25) == fib_iter(25), "sfib");
    long out[101] = {0};
    RUN(fill, out, 100);
    for (int i = 1; i <= 100; i++)
        CHECK(out[i] == i, "fill %d", i);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: short names\n");
    return 0;
}
