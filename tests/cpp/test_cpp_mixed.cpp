// SPDX-License-Identifier: Apache-2.0
// The C API and the C++ API in one program, on a pool the C API started:
// C tasks calling C++ code that joins (beneath their own pending SPAWNs),
// C++ tasks calling C tasks, and both nested in each other.
#include <weft/weft.hpp>

#include <cstdio>
#include <cstdlib>

#include "mixed.h"

#include "check.hpp"

// Called by C tasks beneath their pending SPAWNs: every other range with
// parallel_reduce, the others with a task_group of four quarters.
extern "C" long cpp_range_sum(long lo, long hi)
{
    if ((lo / MIXED_LEAF) % 2 == 0)
        return weft::parallel_reduce(
            lo, hi, std::size_t{16}, 0L, [](long i) { return i; },
            [](long a, long b) { return a + b; });
    long part[4] = {0, 0, 0, 0};
    long q = (hi - lo) / 4;
    weft::task_group g;
    for (int k = 0; k < 4; k++)
        g.run([&part, k, lo, hi, q] {
            long end = k == 3 ? hi : lo + (k + 1) * q;
            for (long i = lo + k * q; i < end; i++)
                part[k] += i;
        });
    g.wait();
    return part[0] + part[1] + part[2] + part[3];
}

extern "C" long cpp_fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([n] { return cpp_fib(n - 1); }, [n] { return cpp_fib(n - 2); });
    return a + b;
}

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main()
{
    for (unsigned workers : {1u, 2u, 3u, 8u}) {
        CHECK(weft_start(workers, 0, 0) == 0, "weft_start(%u)", workers);
        for (int depth = 0; depth <= 8; depth++) {
            long n = static_cast<long>(MIXED_LEAF) << depth;
            CHECK(c_tree_run(depth) == n * (n - 1) / 2, "C tree of C++ leaves, depth %d", depth);
        }
        long got = weft::run([] {
            auto [a, b] = weft::join([] { return c_fib_here(20); }, [] { return cpp_fib(18); });
            return a + b;
        });
        CHECK(got == fib(20) + fib(18), "C++ join of a C task and a C++ one: %ld", got);
        std::vector<long> v(200);
        weft::parallel_for(0, 200, [&](int i) { v[i] = c_fib_here(10 + i % 8); });
        for (int i = 0; i < 200; i++)
            CHECK(v[i] == fib(10 + i % 8), "C tasks in parallel_for at %d", i);
        weft::task_group g;
        std::atomic<long> sum{0};
        for (int i = 0; i < 50; i++)
            g.run([&sum] { sum += c_tree_run(2); });
        g.wait();
        long n = MIXED_LEAF * 4;
        CHECK(sum.load() == 50 * (n * (n - 1) / 2), "C tasks from a task_group");
        CHECK(weft_stop() == 0, "weft_stop");
        std::printf("ok: %u workers\n", workers);
    }
    std::printf("test_cpp_mixed: all passed\n");
    return 0;
}
