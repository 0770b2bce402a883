// SPDX-License-Identifier: Apache-2.0
/* The C++ API as README.md documents it, compiled by
 * tests/package/check.sh against the installed package with -Wall -Wextra
 * -Wpedantic -Werror by g++ and clang++ as C++17: the headers must add no
 * warning of their own. */
#include <weft/weft.hpp>

#include <cstdio>
#include <functional>
#include <vector>

static long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([=] { return fib(n - 2); }, [=] { return fib(n - 1); });
    return a + b;
}

int main()
{
    weft::scheduler pool(2);
    long f = weft::run([] { return fib(20); });
    std::vector<double> v(1 << 12);
    weft::parallel_for(std::size_t{0}, v.size(), [&](std::size_t i) { v[i] = double(i) * 0.5; });
    double sum = weft::parallel_reduce(
        v.begin(), v.end(), 0.0, [](double x) { return x; },
        [](double a, double b) { return a + b; });
    weft::parallel_sort(v.begin(), v.end(), std::greater<>());
    weft::task_group g;
    long h = 0;
    g.run([&] { h = fib(10); });
    g.wait();
    std::printf("%ld %.1f %ld\n", f, sum, h);
    return f == 6765 && h == 55 && v.front() >= v.back() ? 0 : 1;
}
