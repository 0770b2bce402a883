// SPDX-License-Identifier: Apache-2.0
// The profiler sees the C++ API's tasks (profiling builds only): fib with
// weft::join, a task_group and parallel_for each profile with their tasks,
// SPAWNs and a parallelism like the C API's, and are named by their
// callables' types (demangled: the function they are written in).
#include <weft/profile.h>
#include <weft/weft.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if !WEFT_PROFILE
#error "test_profile_cpp is built only with -DWEFT_PROFILE=ON (tests/cpp/CMakeLists.txt)"
#endif

#include "check.hpp"

static long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([n] { return fib(n - 2); }, [n] { return fib(n - 1); });
    return a + b;
}

static long fib_ref(int n)
{
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

// The one region of this run (after a reset).
static weft_profile_region only_region()
{
    weft_profile_region r[4];
    size_t n = weft_profile_regions(r, 4);
    CHECK(n == 1, "%zu regions", n);
    return r[0];
}

int main()
{
    weft::scheduler pool(2);
    const int n = 25;
    const unsigned long f1 = (unsigned long)fib_ref(n + 1);

    weft_profile_reset();
    CHECK(weft::run([n] { return fib(n); }) == fib_ref(n), "fib");
    weft_profile_region r = only_region();
    // As pfib in C: 2 fib(n+1) - 1 bodies (each join runs two callables
    // where C runs one task per call: the root and 2 per inner node), and
    // fib(n+1) - 1 SPAWNs.
    CHECK(r.spawns == f1 - 1, "fib(%d): %llu spawns, expected %lu", n,
          (unsigned long long)r.spawns, f1 - 1);
    CHECK(r.tasks == 2 * f1 - 1, "fib(%d): %llu tasks, expected %lu", n,
          (unsigned long long)r.tasks, 2 * f1 - 1);
    CHECK(r.work_ns > 0 && r.span_ns > 0 && r.parallelism > 10,
          "fib(%d): work %.0f span %.0f parallelism %.1f", n, r.work_ns, r.span_ns,
          r.parallelism);
    CHECK(std::strstr(r.name, "lambda") && std::strstr(r.name, "main"),
          "the region is named by its callable: '%s'", r.name);
    std::printf("ok: weft::join fib(%d): %llu tasks, %llu spawns, parallelism %.0f, region '%s'\n",
                n, (unsigned long long)r.tasks, (unsigned long long)r.spawns, r.parallelism,
                r.name);

    weft_profile_reset();
    std::atomic<long> sum{0};
    weft::run([&] {
        weft::task_group g;
        for (int i = 0; i < 100; i++)
            g.run([&sum, i] { sum += i; });
        g.wait();
        return 0;
    });
    CHECK(sum == 4950, "task_group sum %ld", sum.load());
    r = only_region();
    CHECK(r.spawns == 100 && r.tasks >= 101, "task_group: %llu spawns, %llu tasks",
          (unsigned long long)r.spawns, (unsigned long long)r.tasks);
    std::printf("ok: task_group: %llu spawns, %llu tasks\n", (unsigned long long)r.spawns,
                (unsigned long long)r.tasks);

    weft_profile_reset();
    std::vector<long> v(1 << 20, 1);
    weft::run([&] {
        weft::parallel_for(std::size_t{0}, v.size(), std::size_t{4096},
                           [&](std::size_t i) { v[i] *= 2; });
        return 0;
    });
    r = only_region();
    CHECK(r.spawns > 0 && r.parallelism > 1.5, "parallel_for: %llu spawns, parallelism %.2f",
          (unsigned long long)r.spawns, r.parallelism);
    std::printf("ok: parallel_for: %llu spawns, parallelism %.1f\n",
                (unsigned long long)r.spawns, r.parallelism);
    return 0;
}
