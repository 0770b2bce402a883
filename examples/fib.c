// SPDX-License-Identifier: Apache-2.0
/* The smallest weft program: parallel Fibonacci.
 *   cc -O2 fib.c $(pkg-config --cflags --libs weft) -o fib && ./fib 35 */
#include <stdio.h>
#include <stdlib.h>
#include <weft/weft.h>

WEFT_TASK_1(long, fib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(fib, n - 1);         /* may be stolen by another worker */
    long b = WEFT_CALL(fib, n - 2); /* an ordinary call */
    long a = WEFT_SYNC(fib);        /* joins the SPAWN above */
    return a + b;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 30;
    if (weft_start(0, 0, 0) != 0) /* 0: one worker per CPU, default sizes */
        return 1;
    printf("fib(%d) = %ld on %u workers\n", n, WEFT_RUN(fib, n), weft_workers());
    weft_stop();
    return 0;
}
