// SPDX-License-Identifier: Apache-2.0
// The C++ API's tasks in basic blocks (docs/profiling.md, "Counting basic
// blocks"): fib(30) by weft::join at 2 workers, compiled with the counting
// flag (weft::profile_count), reports a parallelism of at least 1,000, as
// the C version does (test_profile_count.c), in three runs.
#include <weft/profile.h>
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>

#include "check.hpp"

namespace {

long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([n] { return fib(n - 2); }, [n] { return fib(n - 1); });
    return a + b;
}

} // namespace

int main()
{
    weft::scheduler pool(2);
    for (int run = 0; run < 3; run++) {
        weft_profile_reset();
        long r = weft::run(weft::named("fib", [] { return fib(30); }));
        CHECK(r == 832040, "fib(30) = %ld", r);
        weft_profile_region regions[8];
        size_t n = weft_profile_regions(regions, 8);
        const weft_profile_region *fib_region = nullptr;
        for (size_t i = 0; i < n && i < 8; i++)
            if (std::strcmp(regions[i].name, "fib") == 0)
                fib_region = &regions[i];
        CHECK(fib_region != nullptr, "no region named fib (%zu regions)", n);
        std::printf("run %d: fib(30) parallelism %.0f (%llu tasks)\n", run, fib_region->parallelism,
                    static_cast<unsigned long long>(fib_region->tasks));
        CHECK(fib_region->parallelism >= 1000.0, "fib(30) parallelism %.0f < 1,000",
              fib_region->parallelism);
    }
    std::printf("ok: the C++ API in basic blocks: fib(30) parallelism >= 1,000\n");
    return 0;
}
