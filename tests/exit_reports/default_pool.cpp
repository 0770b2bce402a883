// SPDX-License-Identifier: Apache-2.0
/* A C++ program on the default pool (no weft::scheduler, no weft_stop),
 * which runs until the process exits; check.sh runs it with WEFT_PROFILE,
 * WEFT_PROFILE_JSON and WEFT_TRACE. */
#include <weft/weft.hpp>

#include <cstdio>

static long fib(long n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}

int main()
{
    std::printf("fib(20) = %ld\n", fib(20));
    return 0;
}
