// SPDX-License-Identifier: Apache-2.0
// A parallel quicksort with weft::join: partition, then sort the two sides
// possibly in parallel; small ranges are left to std::sort.
//
//     example-quicksort [n]
#include <weft/weft.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

template <class It>
void quicksort(It first, It last)
{
    if (last - first <= 4096) { // below this a join costs more than it gains
        std::sort(first, last);
        return;
    }
    // Median of three as the pivot; three-way partition, so that runs of
    // equal keys cannot make the recursion deep.
    auto mid = first + (last - first) / 2;
    auto pivot = std::max(std::min(*first, *mid), std::min(std::max(*first, *mid), *(last - 1)));
    It lt = std::partition(first, last, [&](const auto &x) { return x < pivot; });
    It gt = std::partition(lt, last, [&](const auto &x) { return !(pivot < x); });
    weft::join([=] { quicksort(first, lt); }, [=] { quicksort(gt, last); });
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? std::atol(argv[1]) : 10000000;
    if (n < 0) {
        std::fprintf(stderr, "usage: %s [n >= 0]\n", argv[0]);
        return 2;
    }
    std::vector<int> v(static_cast<size_t>(n));
    std::mt19937 rng(42);
    for (int &x : v)
        x = static_cast<int>(rng());

    weft::scheduler pool; // WEFT_WORKERS or one worker per CPU
    weft::run([&] { quicksort(v.begin(), v.end()); });

    bool sorted = std::is_sorted(v.begin(), v.end());
    std::printf("quicksort of %ld ints on %u workers: %s\n", n, pool.workers(),
                sorted ? "sorted" : "NOT SORTED");
    return sorted ? 0 : 1;
}
