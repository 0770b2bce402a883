// SPDX-License-Identifier: Apache-2.0
/* A program that uses weft's C API as README.md and weft.h document it,
 * compiled by tests/package/check.sh against the installed package with
 * -Wall -Wextra -Wpedantic -Werror by gcc and clang, as C11 and as C++17:
 * the headers must add no warning of their own.  A task of no arguments
 * is called with no arguments after its name (WEFT_RUN(answer)), which
 * C before C23 and C++ before C++20 do not allow for a variadic macro:
 * clang's -Wpedantic reports it at the call (docs/configuration.md,
 * "Warnings"), so those calls are compiled only where the language allows
 * them or the compiler does not complain. */
#include <weft/weft.h>

#include <stdio.h>

WEFT_TASK_1(long, fib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(fib, n - 1);
    long b = WEFT_CALL(fib, n - 2);
    long a = WEFT_SYNC(fib);
    return a + b;
}

WEFT_VOID_TASK_2(fill, long *, out, int, n) { *out = WEFT_CALL(fib, n); }

WEFT_TASK_DECL_2(long, sum, int, int)
WEFT_TASK_IMPL_2(long, sum, int, a, int, b) { return a + b; }

WEFT_TASK_0(long, answer) { return 42; }
WEFT_VOID_TASK_0(nothing) { WEFT_YIELD(); }

#if !defined(__clang__) || (defined(__cplusplus) && __cplusplus >= 202002L)
#define ZERO_ARGUMENT_CALLS 1
#else
#define ZERO_ARGUMENT_CALLS 0
#endif

int main(void)
{
    if (weft_start(2, 0, 0) != 0)
        return 1;
    long f = WEFT_RUN(fib, 20);
    long g = 0;
    WEFT_RUN(fill, &g, 15);
    long s = WEFT_RUN(sum, 1, 2);
    long z = 42;
#if ZERO_ARGUMENT_CALLS
    z = WEFT_RUN(answer);
    WEFT_RUN(nothing);
#endif
    weft_stop();
    printf("%ld %ld %ld %ld\n", f, g, s, z);
    return f == 6765 && g == 610 && s == 3 && z == 42 ? 0 : 1;
}
