// SPDX-License-Identifier: Apache-2.0
// The C++ API and a Lace API (Lace 1's lace.h, or Lace 2's: whichever
// header the build's include path gives) nested in each other on one
// worker, in both orders: Lace tasks called from weft::join,
// parallel_for and task_group bodies with C++ tasks pending beneath, and
// weft::join and parallel_reduce from Lace task bodies with Lace SPAWNs
// pending beneath, alternating several levels deep.
#include <weft/weft.hpp>

#include <lace.h>

#include <atomic>
#include <cstdio>
#include <vector>

#include "mixing/mixing.h"

#define MIX_CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            std::fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            std::fprintf(stderr, __VA_ARGS__); \
            std::fputc('\n', stderr); \
            wrong++; \
        } \
    } while (0)

static long cpp_fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([n] { return cpp_fib(n - 1); }, [n] { return cpp_fib(n - 2); });
    return a + b;
}

static long cpp_chain(int d);

#if LACE_VERSION_MAJOR >= 2
// Lace 2: the body takes the worker; NAME() runs a task from anywhere.
TASK(long, xfib, int, n)
long xfib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return n;
    xfib_SPAWN(lw, n - 1);
    long b = xfib_CALL(lw, n - 2);
    return xfib_SYNC(lw) + b;
}
#define LACE_ENTER(NAME, ...) NAME(__VA_ARGS__)

TASK(long, lace_calls_cpp, int, n)
long lace_calls_cpp_CALL(lace_worker *lw, int n)
{
    long a = cpp_fib(n);
    xfib_SPAWN(lw, n);
    long b = weft::parallel_reduce(
        0, 3, std::size_t{1}, 0L, [n](int) { return cpp_fib(n); },
        [](long x, long y) { return x + y; });
    xfib_SPAWN(lw, n - 1);
    long c = cpp_fib(n);
    long d = xfib_SYNC(lw);
    return a + b + c + d + xfib_SYNC(lw);
}

TASK(long, lace_cpp_chain, int, d)
long lace_cpp_chain_CALL(lace_worker *lw, int d)
{
    if (d == 0)
        return cpp_fib(MIX_N);
    xfib_SPAWN(lw, MIX_N);
    long a = cpp_chain(d - 1);
    xfib_SPAWN(lw, MIX_N - 1);
    long b = cpp_chain(d - 1);
    long c = xfib_SYNC(lw);
    return a + b + c + xfib_SYNC(lw);
}
#else
// Lace 1: SPAWN/CALL/SYNC with the hidden context; RUN from anywhere.
TASK_1(long, xfib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(xfib, n - 1);
    long b = CALL(xfib, n - 2);
    return SYNC(xfib) + b;
}
#define LACE_ENTER(NAME, ...) RUN(NAME, __VA_ARGS__)

TASK_1(long, lace_calls_cpp, int, n)
{
    long a = cpp_fib(n);
    SPAWN(xfib, n);
    long b = weft::parallel_reduce(
        0, 3, std::size_t{1}, 0L, [n](int) { return cpp_fib(n); },
        [](long x, long y) { return x + y; });
    SPAWN(xfib, n - 1);
    long c = cpp_fib(n);
    long d = SYNC(xfib);
    return a + b + c + d + SYNC(xfib);
}

TASK_1(long, lace_cpp_chain, int, d)
{
    if (d == 0)
        return cpp_fib(MIX_N);
    SPAWN(xfib, MIX_N);
    long a = cpp_chain(d - 1);
    SPAWN(xfib, MIX_N - 1);
    long b = cpp_chain(d - 1);
    long c = SYNC(xfib);
    return a + b + c + SYNC(xfib);
}
#endif

// The C++ level of the chain: the Lace level inside a join whose other
// half is pending, then again beside a task_group task.
static long cpp_chain(int d)
{
    if (d == 0)
        return LACE_ENTER(xfib, MIX_N);
    auto [a, c] = weft::join([d] { return LACE_ENTER(lace_cpp_chain, d - 1); },
                             [] { return cpp_fib(MIX_N); });
    long e = 0;
    weft::task_group g;
    g.run([&e] { e = cpp_fib(MIX_N - 1); });
    long b = LACE_ENTER(lace_cpp_chain, d - 1);
    g.wait();
    return a + b + c + e;
}

extern "C" int mixing_cpp_with_lace(void)
{
    int wrong = 0;
    long f = mix_fib(MIX_N), f1 = mix_fib(MIX_N - 1);
    // Lace inside C++: in a join beside a pending half, in parallel_for
    // bodies, beside a task_group's pending task.
    long got = weft::run([] {
        auto [a, b] = weft::join([] { return LACE_ENTER(xfib, MIX_N); },
                                 [] { return LACE_ENTER(xfib, MIX_N - 1); });
        return a + b;
    });
    MIX_CHECK(got == f + f1, "Lace inside weft::join: %ld, want %ld", got, f + f1);
    std::vector<long> v(64);
    weft::parallel_for(0, 64, [&v](int i) { v[i] = LACE_ENTER(xfib, 8 + i % 6); });
    for (int i = 0; i < 64; i++)
        MIX_CHECK(v[i] == mix_fib(8 + i % 6), "Lace inside parallel_for at %d: %ld", i, v[i]);
    got = weft::run([] {
        long e = 0, e1 = 0;
        weft::task_group g;
        g.run([&e] { e = cpp_fib(MIX_N); });
        long a = LACE_ENTER(xfib, MIX_N);
        g.run([&e1] { e1 = cpp_fib(MIX_N - 1); });
        long b = LACE_ENTER(xfib, MIX_N);
        g.wait();
        return a + b + e + e1;
    });
    MIX_CHECK(got == 3 * f + f1, "Lace beside task_group tasks: %ld, want %ld", got, 3 * f + f1);
    // C++ inside Lace, from outside the pool and from a C++ task.
    long want = 6 * f + f1;
    got = LACE_ENTER(lace_calls_cpp, MIX_N);
    MIX_CHECK(got == want, "C++ inside a Lace task: %ld, want %ld", got, want);
    got = weft::run([] { return LACE_ENTER(lace_calls_cpp, MIX_N); });
    MIX_CHECK(got == want, "C++ inside a Lace task inside C++: %ld, want %ld", got, want);
    // Alternating, from either side.
    got = weft::run([] { return cpp_chain(MIX_DEPTH); });
    MIX_CHECK(got == mix_chain(MIX_DEPTH), "C++-Lace chain: %ld, want %ld", got,
              mix_chain(MIX_DEPTH));
    got = LACE_ENTER(lace_cpp_chain, MIX_DEPTH);
    MIX_CHECK(got == mix_chain(MIX_DEPTH), "Lace-C++ chain: %ld, want %ld", got,
              mix_chain(MIX_DEPTH));
    return wrong;
}
