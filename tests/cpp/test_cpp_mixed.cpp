// The C API and the C++ API in one program, on a pool the C API started:
// C tasks calling C++ code that joins (beneath their own pending SPAWNs),
// C++ tasks calling C tasks, and both nested in each other.
#include <weft/weft.hpp>

#include <cstdio>
#include <cstdlib>

#include "mixed.h"

#include "check.hpp"

extern "C" long cpp_range_sum(long lo, long hi)
{
    return weft::parallel_reduce(lo, hi, std::size_t{16}, 0L, [](long i) { return i; },
                                 [](long a, long b) { return a + b; });
}

extern "C" long cpp_fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([n] { return cpp_fib(n - 1); }, [n] { return cpp_fib(n - 2); });
    return a + b;
}

static long fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

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
