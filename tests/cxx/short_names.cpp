// SPDX-License-Identifier: Apache-2.0
// weft.h and short.h as C++17: weft's own names and the short ones.
#include <weft/short.h>

#include <cstdio>

TASK_1(long, sfib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(sfib, n - 1);
    long b = CALL(sfib, n - 2);
    return SYNC(sfib) + b;
}

WEFT_TASK_2(long, wadd, long, a, long, b) { return a + b; }

int main()
{
    if (weft_start(2, 0, 0) != 0)
        return 1;
    long r = RUN(sfib, 18) + WEFT_RUN(wadd, 1, 2);
    weft_stop();
    if (r != 2584 + 3) {
        std::fprintf(stderr, "short names from C++: %ld\n", r);
        return 1;
    }
    std::printf("short.h from C++: ok\n");
    return 0;
}
