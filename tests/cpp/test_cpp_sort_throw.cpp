// SPDX-License-Identifier: Apache-2.0
// The sorts' exception guarantee (docs/cpp.md, "parallel_sort"): when the
// comparator throws, weft::parallel_sort and weft::parallel_stable_sort
// rethrow the exception and leave the range holding the items it held
// before, as a multiset: none lost, none moved-from, none twice.
//
// The comparator throws at its k-th call, for k sampled across all the
// calls a sort of n items makes (counted by a sort that does not throw):
// every k for small n, and for larger n the first calls, the last, and a
// sample spread evenly between them (each in a random place of its stretch);
// for items tagged with where they were, also every k of the 32 from where
// the top merge starts (its split search at more than one worker).
// At 1, 2, 3 and 8 workers; on long std::strings (a moved-from one is
// empty), on ints (copied as bytes: a lost item shows as another one twice),
// on strings in a std::deque (other iterators than the scratch's), and on
// inputs that send the introsort to its heapsort (killer_input).
// Each failing configuration is reported once, with its count, before the
// exit status says so.
//
//     test_cpp_sort_throw [samples]   k values per sort of a large n (default 150)
#include <weft/weft.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.hpp"

namespace {

struct comparator_error : std::exception {
    const char *what() const noexcept override { return "comparator_error"; }
};

/// a < b, counting its calls; the call numbered throw_at (from 0) throws.
struct counting_less {
    std::atomic<long> *calls;
    long throw_at;

    template <class T>
    bool operator()(const T &a, const T &b) const
    {
        if (calls->fetch_add(1, std::memory_order_relaxed) == throw_at)
            throw comparator_error();
        return a < b;
    }
};

/// n items with some equal ones: n / 2 distinct values, each 24 to 40
/// characters long (past the short-string buffer, so a moved-from string
/// is empty).
std::vector<std::string> strings(std::size_t n, std::mt19937 &rng)
{
    std::vector<std::string> pool(n / 2 + 1);
    for (auto &s : pool) {
        s.resize(24 + rng() % 17);
        for (auto &ch : s)
            ch = static_cast<char>('a' + rng() % 26);
    }
    std::vector<std::string> v(n);
    for (auto &s : v)
        s = pool[rng() % pool.size()];
    return v;
}

std::vector<int> ints(std::size_t n, std::mt19937 &rng)
{
    std::vector<int> v(n);
    for (auto &x : v)
        x = static_cast<int>(rng() % (n / 2 + 1));
    return v;
}

// Items that tell where in the input they were (their origin), so that a
// comparison of an item of the input's first half with one of its second
// half can be told: the first such comparison is where the top merge
// starts (its split search, when it is split in parallel).

/// Strings as strings(), each ending in its origin ("#000123").
std::vector<std::string> tagged_strings(std::size_t n, std::mt19937 &rng)
{
    std::vector<std::string> v = strings(n, rng);
    char tag[32];
    for (std::size_t i = 0; i < n; i++) {
        std::snprintf(tag, sizeof tag, "#%06zu", i);
        v[i] += tag;
    }
    return v;
}

std::size_t string_origin(const std::string &s)
{
    return std::strtoul(s.c_str() + s.size() - 6, nullptr, 10);
}

/// key * n + origin, for keys from 0 to n / 2.
std::vector<int> tagged_ints(std::size_t n, std::mt19937 &rng)
{
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; i++)
        v[i] = static_cast<int>((rng() % (n / 2 + 1)) * n + i);
    return v;
}

/// An input that sends the unstable sort's introsort to its heapsort:
/// McIlroy's adversary ("A killer adversary for quicksort", 1999) run
/// against weft::parallel_sort of n <= 2048 items, which sorts them in
/// place by one introsort at any worker count.  Its comparator fixes the
/// items' values only as it compares them, so that each pivot is among the
/// least; the values it fixed are the input that makes the same sort make
/// the same choices.
std::vector<int> killer_input(std::size_t n)
{
    const int gas = static_cast<int>(n); // not fixed yet: above every fixed value
    std::vector<int> value(n, gas);
    int fixed = 0;
    int candidate = 0;
    std::vector<int> items(n);
    for (std::size_t i = 0; i < n; i++)
        items[i] = static_cast<int>(i);
    weft::parallel_sort(items.begin(), items.end(), [&](int x, int y) {
        if (value[x] == gas && value[y] == gas)
            value[x == candidate ? x : y] = fixed++;
        if (value[x] == gas)
            candidate = x;
        else if (value[y] == gas)
            candidate = y;
        return value[x] < value[y];
    });
    for (int &v : value)
        if (v == gas)
            v = fixed++;
    return value;
}

/// The killer input's comparisons, against a shuffled input's: several
/// times as many (the pivots were bad), and far fewer than the n^2 / 8 of
/// a quicksort that kept on with them (the heapsort took over).
void check_killer(const std::vector<int> &killer, std::mt19937 &rng)
{
    std::size_t n = killer.size();
    std::atomic<long> calls{0};
    counting_less comp{&calls, -1};
    std::vector<int> v = killer;
    weft::parallel_sort(v.begin(), v.end(), comp);
    long bad = calls.exchange(0);
    std::shuffle(v.begin(), v.end(), rng);
    weft::parallel_sort(v.begin(), v.end(), comp);
    long shuffled = calls.load();
    CHECK(bad > 2 * shuffled && bad < static_cast<long>(n * n / 8),
          "the killer input of %zu items: %ld comparisons, %ld for it shuffled", n, bad, shuffled);
}

std::vector<std::string> as_strings(const std::vector<int> &v)
{
    std::vector<std::string> s(v.size());
    char text[64];
    for (std::size_t i = 0; i < v.size(); i++) {
        std::snprintf(text, sizeof text, "item %08d, a string too long to be short", v[i]);
        s[i] = text;
    }
    return s;
}

std::size_t moved_from(const std::vector<std::string> &v)
{
    return static_cast<std::size_t>(
        std::count_if(v.begin(), v.end(), [](const std::string &s) { return s.empty(); }));
}

std::size_t moved_from(const std::vector<int> &) { return 0; }

/// The items of `after` that are not in `before`, as multisets (both
/// sorted).
template <class T>
std::size_t missing(const std::vector<T> &before, const std::vector<T> &after)
{
    std::vector<T> diff;
    std::set_difference(before.begin(), before.end(), after.begin(), after.end(),
                        std::back_inserter(diff));
    return diff.size();
}

long failures = 0;

/// Sorts copies of `input` in a Container with a comparator that throws at
/// its k-th call, for k sampled as the top of this file says; checks the
/// exception and the multiset after it.  With `origin` (tagged items),
/// also every k of the 32 from the top merge's first comparison.
template <bool Stable, class Container, class T>
void sweep(const char *type, const std::vector<T> &input, std::size_t samples, std::mt19937 &rng,
           std::function<std::size_t(const std::common_type_t<T> &)> origin = nullptr)
{
    const char *sort = Stable ? "parallel_stable_sort" : "parallel_sort";
    std::vector<T> sorted = input;
    std::sort(sorted.begin(), sorted.end());
    std::atomic<long> calls{0};
    auto run = [&](Container &c, long throw_at) {
        calls.store(0, std::memory_order_relaxed);
        counting_less comp{&calls, throw_at};
        if constexpr (Stable)
            weft::parallel_stable_sort(c.begin(), c.end(), comp);
        else
            weft::parallel_sort(c.begin(), c.end(), comp);
    };

    // The calls a sort makes: its shape depends on n and the workers only.
    Container c(input.begin(), input.end());
    run(c, -1);
    long total = calls.load(std::memory_order_relaxed);
    CHECK(std::equal(c.begin(), c.end(), sorted.begin(), sorted.end()),
          "%s of %zu %s at %u workers: not sorted", sort, input.size(), type, weft::workers());

    std::vector<long> ks;
    if (static_cast<std::size_t>(total) <= samples + 8) {
        for (long k = 0; k <= total; k++)
            ks.push_back(k);
    } else {
        for (long k : {0L, 1L, 2L, 3L, total - 2, total - 1, total})
            ks.push_back(k);
        for (std::size_t i = 0; i < samples; i++) {
            long lo = static_cast<long>(static_cast<double>(total) * i / samples);
            long hi = static_cast<long>(static_cast<double>(total) * (i + 1) / samples);
            ks.push_back(lo + static_cast<long>(rng() % static_cast<unsigned long>(hi - lo)));
        }
    }
    if (origin) {
        // Everything before the top merge compares items of one half.
        std::size_t half = input.size() / 2;
        std::atomic<long> first_cross{total};
        auto probe = [&](const T &a, const T &b) {
            long k = calls.fetch_add(1, std::memory_order_relaxed);
            if ((origin(a) < half) != (origin(b) < half)) {
                long seen = first_cross.load(std::memory_order_relaxed);
                while (k < seen && !first_cross.compare_exchange_weak(seen, k))
                    ;
            }
            return a < b;
        };
        c.assign(input.begin(), input.end());
        calls.store(0, std::memory_order_relaxed);
        if constexpr (Stable)
            weft::parallel_stable_sort(c.begin(), c.end(), probe);
        else
            weft::parallel_sort(c.begin(), c.end(), probe);
        for (long k = first_cross.load(); k < total && k < first_cross.load() + 32; k++)
            ks.push_back(k);
    }

    long failed = 0;
    for (long k : ks) {
        c.assign(input.begin(), input.end());
        bool threw = false;
        try {
            run(c, k);
        } catch (const comparator_error &) {
            threw = true;
        }
        CHECK(threw == (k < total), "%s of %zu %s at %u workers: call %ld of %ld %s", sort,
              input.size(), type, weft::workers(), k, total,
              threw ? "threw past the last call" : "did not throw");
        std::vector<T> after(c.begin(), c.end());
        std::size_t empty = moved_from(after);
        std::sort(after.begin(), after.end());
        if (after != sorted) {
            if (failed == 0)
                std::fprintf(stderr,
                             "%s of %zu %s at %u workers, the comparator throwing at call %ld "
                             "of %ld: %zu items lost (%zu moved-from)\n",
                             sort, input.size(), type, weft::workers(), k, total,
                             missing(sorted, after), empty);
            failed++;
        } else if (!threw) {
            CHECK(std::equal(c.begin(), c.end(), sorted.begin(), sorted.end()),
                  "%s of %zu %s at %u workers: not sorted", sort, input.size(), type,
                  weft::workers());
        }
    }
    if (failed != 0) {
        std::fprintf(stderr, "  ... %ld of %zu throwing calls lost items\n", failed, ks.size());
        failures++;
    }
}

template <bool Stable>
void sizes(std::size_t samples, std::size_t largest, std::mt19937 &rng)
{
    static const std::size_t ns[] = {2, 3, 16, 17, 40, 300, 2048, 2049, 6000, 20000};
    const std::size_t big = std::min<std::size_t>(largest, 20000);
    for (std::size_t n : ns) {
        if (n > largest)
            continue;
        sweep<Stable, std::vector<std::string>>("strings", strings(n, rng), samples, rng);
        sweep<Stable, std::vector<int>>("ints", ints(n, rng), samples, rng);
    }
    sweep<Stable, std::deque<std::string>>(
        "strings in a deque", strings(std::min<std::size_t>(big, 9000), rng), samples / 4, rng);
    sweep<Stable, std::vector<std::string>>("tagged strings", tagged_strings(big, rng), samples / 4,
                                            rng, string_origin);
    sweep<Stable, std::vector<int>>(
        "tagged ints", tagged_ints(big, rng), samples / 4, rng,
        [big](const int &v) { return static_cast<std::size_t>(v) % big; });
    for (std::size_t n : {300, 2000}) {
        std::vector<int> killer = killer_input(n);
        if (!Stable)
            check_killer(killer, rng);
        sweep<Stable, std::vector<int>>("ints (killer input)", killer, samples, rng);
        sweep<Stable, std::vector<std::string>>("strings (killer input)", as_strings(killer),
                                                samples, rng);
    }
}

} // namespace

int main(int argc, char **argv)
{
    std::size_t samples = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 150;
    // The largest range sorted: the sizes above it are left out (the first
    // past the parallel sorts' cut-off of 2048 stays).
    std::size_t largest = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 20000;
    if (largest < 2049)
        largest = 2049;
    for (unsigned p : {1u, 2u, 3u, 8u}) {
        weft::scheduler pool(p);
        std::mt19937 rng(p);
        sizes<false>(samples, largest, rng);
        sizes<true>(samples, largest, rng);
    }
    if (failures != 0) {
        std::fprintf(stderr, "%ld configurations lost items after a throw\n", failures);
        return 1;
    }
    std::puts("test_cpp_sort_throw: passed");
    return 0;
}
