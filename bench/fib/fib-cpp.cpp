// SPDX-License-Identifier: Apache-2.0
// fib with weft::join: a join per call and no cut-off, the C++ API's
// spawn/sync overhead beside fib-weft's C macros (driver: the peers'
// fib-main.c, bench/cpp.cmake).
#include <weft/weft.hpp>

#include "fib-peer.h"

static long fib(int n)
{
    if (n < 2)
        return n;
    // As fib-weft: fib(n - 1) waits for thieves while fib(n - 2) runs.
    auto [a, b] = weft::join([n] { return fib(n - 2); }, [n] { return fib(n - 1); });
    return a + b;
}

long fib_parallel(int n)
{
    return weft::run([n] { return fib(n); });
}
