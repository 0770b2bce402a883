// SPDX-License-Identifier: Apache-2.0
// The C++ API in a translation unit built with -fno-exceptions: join,
// task_group and the algorithms work, and a callable that throws anyway
// (from code built with exceptions) ends the program with a message.
#include <weft/weft.hpp>

#include <algorithm>
#include <vector>

#include "check.h"

void throw_from_elsewhere(int code);

static long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}

static void throw_in_a_task(void)
{
    weft::scheduler pool(2);
    weft::parallel_for(0, 1000, [](int i) { throw_from_elsewhere(i == 500); });
}

int main()
{
    static_assert(!WEFT_CPP_EXCEPTIONS, "this test is built with -fno-exceptions");
    {
        weft::scheduler pool(3);
        CHECK(weft::run([] { return fib(25); }) == 75025, "fib");
        std::vector<int> v(100000);
        for (int i = 0; i < 100000; i++)
            v[i] = (i * 7919) % 100003;
        weft::parallel_sort(v.begin(), v.end());
        CHECK(std::is_sorted(v.begin(), v.end()), "sorted");
        long s = weft::parallel_reduce(
            0L, 100000L, 0L, [](long i) { return i; }, [](long a, long b) { return a + b; });
        CHECK(s == 4999950000L, "reduce");
        std::atomic<int> n{0};
        weft::task_group g;
        for (int i = 0; i < 1000; i++)
            g.run([&n] { n++; });
        g.wait();
        CHECK(n.load() == 1000, "task_group");
    }
    expect_death(throw_in_a_task, "thrown past -fno-exceptions code",
                 "a throw in a -fno-exceptions program");
    printf("test_cpp_noexcept: all passed\n");
    return 0;
}
