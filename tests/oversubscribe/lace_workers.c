// SPDX-License-Identifier: Apache-2.0
/* A Lace 1.4 program that asks for N workers (lace_start(N, 0)), runs
 * fib(20) by RUN and prints it; tests/oversubscribe/check.sh reads what it
 * prints on stderr under a one-CPU mask.  Usage: lace_workers N */
#include <lace.h>

#include <stdio.h>
#include <stdlib.h>

TASK_1(int, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    int b = CALL(fib, n - 2);
    return SYNC(fib) + b;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: lace_workers N\n");
        return 2;
    }
    lace_start((unsigned)strtoul(argv[1], NULL, 10), 0);
    printf("fib(20) = %d\n", RUN(fib, 20));
    lace_stop();
    return 0;
}
