// SPDX-License-Identifier: Apache-2.0
// The C++ API (weft/weft.hpp) against sequential answers, at 1, 2, 3, 8
// and 32 workers: join, invoke, task_group and parallel_* over random task
// trees; results that are move-only or have no default constructor;
// callables larger than a descriptor; a million task_group::run calls;
// weft::run from eight threads at once; exceptions (from leaves, from
// stolen tasks, from many tasks at once), each caught once by the joiner
// it belongs to, and the pool still right after a thousand of them.
// Usage: test_cpp [scale]
#include <weft/weft.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"

namespace {

int scale = 1;

// ---- random task trees ----------------------------------------------------

struct tree {
    std::vector<std::vector<int>> children;
    std::vector<long> value;
};

// n nodes, breadth first, each with 0..5 children (fewer near the end).
tree random_tree(unsigned seed, int n)
{
    std::mt19937 rng(seed);
    tree t;
    t.children.resize(n);
    t.value.resize(n);
    int next = 1;
    for (int i = 0; i < n && next < n; i++) {
        int k = static_cast<int>(rng() % 6);
        for (int c = 0; c < k && next < n; c++)
            t.children[i].push_back(next++);
    }
    for (int i = 0; i < n; i++)
        t.value[i] = static_cast<long>(rng() % 1000) - 500;
    return t;
}

long seq_sum(const tree &t, int v)
{
    long s = t.value[v];
    for (int c : t.children[v])
        s += seq_sum(t, c);
    return s;
}

// Children [lo, hi) of v, halved with join.
long join_sum(const tree &t, int v);
long join_children(const tree &t, int v, size_t lo, size_t hi)
{
    if (hi - lo == 0)
        return 0;
    if (hi - lo == 1)
        return join_sum(t, t.children[v][lo]);
    size_t mid = lo + (hi - lo) / 2;
    auto [a, b] = weft::join([&] { return join_children(t, v, lo, mid); },
                             [&] { return join_children(t, v, mid, hi); });
    return a + b;
}
long join_sum(const tree &t, int v)
{
    return t.value[v] + join_children(t, v, 0, t.children[v].size());
}

// A group per node.
long group_sum(const tree &t, int v)
{
    std::vector<long> part(t.children[v].size());
    weft::task_group g;
    for (size_t i = 0; i < part.size(); i++)
        g.run([&t, &part, i, c = t.children[v][i]] { part[i] = group_sum(t, c); });
    g.wait();
    return t.value[v] + std::accumulate(part.begin(), part.end(), 0L);
}

// One group for the whole tree: each task runs its children on it.
void shared_group_visit(const tree &t, int v, weft::task_group &g, std::atomic<long> &sum)
{
    sum.fetch_add(t.value[v], std::memory_order_relaxed);
    for (int c : t.children[v])
        g.run([&t, c, &g, &sum] { shared_group_visit(t, c, g, sum); });
}
long shared_group_sum(const tree &t)
{
    std::atomic<long> sum{0};
    weft::task_group g;
    g.run([&] { shared_group_visit(t, 0, g, sum); });
    g.wait();
    return sum.load();
}

long reduce_sum(const tree &t, int v)
{
    const std::vector<int> &k = t.children[v];
    return t.value[v] + weft::parallel_reduce(
                            k.begin(), k.end(), 0L, [&](int c) { return reduce_sum(t, c); },
                            [](long a, long b) { return a + b; });
}

long for_sum(const tree &t, int v)
{
    const std::vector<int> &k = t.children[v];
    std::vector<long> part(k.size());
    weft::parallel_for(std::size_t{0}, k.size(),
                       [&](std::size_t i) { part[i] = for_sum(t, k[i]); });
    return t.value[v] + std::accumulate(part.begin(), part.end(), 0L);
}

long invoke_sum(const tree &t, int v)
{
    const std::vector<int> &k = t.children[v];
    long s = t.value[v];
    size_t i = 0;
    for (; i + 3 <= k.size(); i += 3) {
        auto [a, b, c] = weft::invoke([&] { return invoke_sum(t, k[i]); },
                                      [&] { return invoke_sum(t, k[i + 1]); },
                                      [&] { return invoke_sum(t, k[i + 2]); });
        s += a + b + c;
    }
    for (; i < k.size(); i++)
        s += invoke_sum(t, k[i]);
    return s;
}

void test_trees()
{
    for (unsigned seed = 1; seed <= 4; seed++) {
        tree t = random_tree(seed, 2000 * scale);
        long want = seq_sum(t, 0);
        CHECK(weft::run([&] { return join_sum(t, 0); }) == want, "join over tree %u", seed);
        CHECK(weft::run([&] { return group_sum(t, 0); }) == want, "task_group over tree %u", seed);
        CHECK(weft::run([&] { return shared_group_sum(t); }) == want, "shared task_group, tree %u",
              seed);
        CHECK(shared_group_sum(t) == want, "shared task_group from outside, tree %u", seed);
        CHECK(weft::run([&] { return reduce_sum(t, 0); }) == want, "parallel_reduce over tree %u",
              seed);
        CHECK(weft::run([&] { return for_sum(t, 0); }) == want, "parallel_for over tree %u", seed);
        CHECK(weft::run([&] { return invoke_sum(t, 0); }) == want, "invoke over tree %u", seed);
        // The algorithms also enter the pool by themselves from outside.
        CHECK(join_sum(t, 0) == want, "join from outside, tree %u", seed);
        CHECK(reduce_sum(t, 0) == want, "parallel_reduce from outside, tree %u", seed);
    }
}

// ---- the algorithms against their sequential versions ----------------------

void test_parallel_for_reduce()
{
    const long n = 100000L * scale;
    std::vector<long> v(n);
    weft::parallel_for(0L, n, [&](long i) { v[i] = i * 3 + 1; });
    for (long i = 0; i < n; i++)
        CHECK(v[i] == i * 3 + 1, "parallel_for item %ld", i);
    // Explicit grains, odd ranges, negative and narrow integers, mixed types.
    for (std::size_t grain : {1, 7, 1000, 1000000}) {
        std::vector<std::atomic<int>> hits(1001);
        weft::parallel_for(-500, 501, grain, [&](int i) { hits[i + 500].fetch_add(1); });
        for (auto &h : hits)
            CHECK(h.load() == 1, "each index once at grain %zu", grain);
    }
    std::atomic<int> small{0};
    weft::parallel_for(static_cast<signed char>(-100), static_cast<signed char>(100),
                       [&](signed char) { small++; });
    CHECK(small.load() == 200, "signed char range: %d", small.load());
    weft::parallel_for(5, 5, [&](int) { CHECK(false, "empty range ran"); });
    weft::parallel_for(7, 3, [&](int) { CHECK(false, "reversed range ran"); });
    weft::parallel_for(0, std::size_t{10}, [&](std::size_t) {}); // int and size_t
    // Iterators: f gets the element.
    weft::parallel_for(v.begin(), v.end(), [](long &x) { x = -x; });
    CHECK(v[12] == -37, "parallel_for over iterators");
    long want = std::accumulate(v.begin(), v.end(), 0L);
    long got = weft::parallel_reduce(
        v.begin(), v.end(), 0L, [](long x) { return x; }, [](long a, long b) { return a + b; });
    CHECK(got == want, "parallel_reduce sum %ld, want %ld", got, want);
    // Order kept (associative, not commutative): concatenation.
    std::string s = weft::parallel_reduce(
        0, 3000, std::size_t{13}, std::string(),
        [](int i) { return std::string(1, char('a' + i % 26)); },
        [](std::string a, const std::string &b) { return a += b; });
    CHECK(s.size() == 3000, "concatenation length %zu", s.size());
    for (int i = 0; i < 3000; i++)
        CHECK(s[i] == char('a' + i % 26), "concatenation in order at %d", i);
    CHECK(weft::parallel_reduce(
              3, 3, 42L, [](int) { return 1L; }, [](long a, long b) { return a + b; }) == 42,
          "empty reduce gives the identity");
}

// Nested parallel_for inside join, and join inside parallel_for.
void test_nesting()
{
    const int n = 300;
    std::vector<long> a(n * n), b(n * n);
    weft::run([&] {
        weft::join([&] { weft::parallel_for(0, n * n, [&](int i) { a[i] = i; }); },
                   [&] {
                       weft::parallel_for(0, n, 3, [&](int r) {
                           weft::parallel_for(0, n, [&](int c) { b[r * n + c] = r * n + c; });
                       });
                   });
    });
    for (int i = 0; i < n * n; i++)
        CHECK(a[i] == i && b[i] == i, "nested loops at %d", i);
    std::vector<long> fibs(25);
    weft::parallel_for(0, 25, [&](int i) {
        std::function<long(int)> fib = [&](int k) -> long {
            if (k < 2)
                return k;
            auto [x, y] = weft::join([&] { return fib(k - 1); }, [&] { return fib(k - 2); });
            return x + y;
        };
        fibs[i] = fib(i);
    });
    for (int i = 2; i < 25; i++)
        CHECK(fibs[i] == fibs[i - 1] + fibs[i - 2], "fib %d inside parallel_for", i);
}

template <class T>
bool same_as_std_sort(std::vector<T> v, bool stable)
{
    std::vector<T> want = v;
    std::stable_sort(want.begin(), want.end());
    if (stable)
        weft::parallel_stable_sort(v.begin(), v.end());
    else
        weft::parallel_sort(v.begin(), v.end());
    return v == want;
}

struct keyed {
    int key;
    int order;
};

void test_sort()
{
    std::mt19937_64 rng(7);
    for (std::size_t n : {0, 1, 2, 100, 2049, 5000, 65537, 300000}) {
        std::vector<int> v(n);
        for (auto &x : v)
            x = static_cast<int>(rng() % 1000); // many ties
        CHECK(same_as_std_sort(v, false), "parallel_sort of %zu ints", n);
        CHECK(same_as_std_sort(v, true), "parallel_stable_sort of %zu ints", n);
        std::vector<std::string> s(n / 10);
        for (auto &x : s)
            x = std::to_string(rng() % 100000) + std::string(rng() % 30, 'x');
        CHECK(same_as_std_sort(s, false), "parallel_sort of %zu strings", s.size());
        CHECK(same_as_std_sort(s, true), "parallel_stable_sort of %zu strings", s.size());
    }
    // Stability: equal keys keep their order; a comparator; raw pointers.
    std::vector<keyed> k(200000);
    for (int i = 0; i < static_cast<int>(k.size()); i++)
        k[i] = {static_cast<int>(rng() % 50), i};
    weft::parallel_stable_sort(k.data(), k.data() + k.size(),
                               [](const keyed &a, const keyed &b) { return a.key > b.key; });
    for (size_t i = 1; i < k.size(); i++)
        CHECK(k[i - 1].key > k[i].key || (k[i - 1].key == k[i].key && k[i - 1].order < k[i].order),
              "stable descending order at %zu", i);
    // Move-only items.
    std::vector<std::unique_ptr<int>> p(50000);
    for (auto &x : p)
        x = std::make_unique<int>(static_cast<int>(rng() % 100000));
    weft::parallel_sort(p.begin(), p.end(), [](const auto &a, const auto &b) { return *a < *b; });
    for (size_t i = 1; i < p.size(); i++)
        CHECK(p[i - 1] && p[i] && *p[i - 1] <= *p[i], "unique_ptr sort at %zu", i);
}

// ---- results and callables ------------------------------------------------

struct no_default {
    explicit no_default(int v) : value(v) {}
    no_default(no_default &&) = default;
    int value;
};

// A callable much larger than a descriptor (and not byte-copyable).
struct big_callable {
    std::array<long, 64> data;
    std::string name;
    long operator()() const { return std::accumulate(data.begin(), data.end(), 0L); }
};

void test_results()
{
    weft::run([] {
        auto [a, b] =
            weft::join([] { return std::make_unique<int>(5); }, [] { return no_default(7); });
        CHECK(*a == 5 && b.value == 7, "move-only and non-default-constructible results");
        auto [c, d] = weft::join([] {}, [] { return std::string(100, 'z'); });
        CHECK(c == weft::none{} && d.size() == 100, "void and string");
        int x = 1;
        auto [r, s] = weft::join([&]() -> int & { return x; }, [] { return 2; });
        r.get() = 9;
        CHECK(x == 9 && s == 2, "a reference result is a reference_wrapper");
        big_callable big;
        big.data.fill(3);
        big.name = "big";
        auto [e, f] = weft::join(big, big_callable(big));
        CHECK(e == 192 && f == 192, "callables larger than a descriptor");
        std::vector<std::unique_ptr<long>> results(1000);
        weft::parallel_for(0, 1000, [&](int i) {
            auto [u, v] = weft::join([i] { return std::make_unique<long>(i); },
                                     [i] { return std::make_unique<long>(2 * i); });
            results[i] = std::make_unique<long>(*u + *v);
        });
        for (int i = 0; i < 1000; i++)
            CHECK(*results[i] == 3 * i, "move-only results of stolen halves at %d", i);
        weft::invoke([] {}, [] {});
        auto one = weft::invoke([] { return 1; });
        CHECK(std::get<0>(one) == 1, "invoke of one");
        weft::task_group g;
        std::atomic<long> sum{0};
        for (int i = 0; i < 100; i++)
            g.run(big_callable(big)), g.run([&sum, big] { sum += big(); });
        g.wait();
        CHECK(sum.load() == 100 * 192, "large callables in a task_group");
        return 0;
    });
    CHECK(weft::run([] { return no_default(3); }).value == 3,
          "run returns a non-default-constructible");
    CHECK(*weft::run([] { return std::make_unique<int>(4); }) == 4, "run returns a move-only");
}

void test_million_runs()
{
#if WEFT_TEST_SANITIZED
    const int n = 100000; /* ThreadSanitizer: 10 s for a million */
#else
    const int n = 1000000;
#endif
    std::atomic<long> count{0};
    weft::run([&] {
        weft::task_group g;
        for (int i = 0; i < n; i++)
            g.run([&count] { count.fetch_add(1, std::memory_order_relaxed); });
        g.wait();
    });
    CHECK(count.load() == n, "%d runs in a task: %ld", n, count.load());
    count = 0;
    weft::task_group outside;
    for (int i = 0; i < n / 10; i++)
        outside.run([&count] { count.fetch_add(1, std::memory_order_relaxed); });
    outside.wait();
    CHECK(count.load() == n / 10, "runs from outside the pool: %ld", count.load());
}

void test_external_threads()
{
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (int t = 0; t < 8; t++)
        threads.emplace_back([&, t] {
            for (int rep = 0; rep < 5; rep++) {
                long n = 20000 + t * 1000 + rep;
                long got = weft::run([n] {
                    return weft::parallel_reduce(
                        0L, n, 0L, [](long i) { return i; }, [](long a, long b) { return a + b; });
                });
                auto [a, b] = weft::join([n] { return n; }, [n] { return -n; });
                if (got == n * (n - 1) / 2 && a + b == 0)
                    ok++;
            }
        });
    for (auto &th : threads)
        th.join();
    CHECK(ok.load() == 40, "weft::run from 8 threads at once: %d of 40 right", ok.load());
}

// ---- exceptions -------------------------------------------------------------

struct tagged_error : std::runtime_error {
    explicit tagged_error(int t) : std::runtime_error("tagged " + std::to_string(t)), tag(t) {}
    int tag;
};

// Waits (bounded) until flag is set: makes a half wait for a thief.  The
// empty joins let the split deque share the waiting task (it shares when
// it spawns); weft::yield lets the polling schedulers hand it out.
bool wait_for(const std::atomic<bool> &flag)
{
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!flag.load()) {
        if (std::chrono::steady_clock::now() > until)
            return false;
        weft::join([] {}, [] {});
        weft::yield();
        std::this_thread::yield();
    }
    return true;
}

void test_exceptions()
{
    unsigned workers = weft::workers();
    // From a leaf, f side and g side.
    for (int side = 0; side < 2; side++) {
        int caught = 0;
        try {
            weft::run([side] {
                weft::join(
                    [side] {
                        if (side == 0)
                            throw tagged_error(1);
                        return 1;
                    },
                    [side] {
                        if (side == 1)
                            throw tagged_error(2);
                        return 2;
                    });
            });
        } catch (const tagged_error &e) {
            CHECK(e.tag == side + 1, "the thrower's exception (got %d)", e.tag);
            caught++;
        }
        CHECK(caught == 1, "caught once");
    }
    // From a stolen task: g waits in the deque until a thief has it.
    if (workers >= 2) {
        std::atomic<bool> stolen{false};
        int caught = 0;
        try {
            weft::run([&] {
                std::thread::id here = std::this_thread::get_id();
                weft::join([&] { CHECK(wait_for(stolen), "nobody stole g in 10 s"); },
                           [&] {
                               bool thief = std::this_thread::get_id() != here;
                               stolen = true;
                               if (thief)
                                   throw tagged_error(3);
                           });
            });
        } catch (const tagged_error &e) {
            CHECK(e.tag == 3, "the stolen task's exception");
            caught++;
        }
        CHECK(caught == 1, "a stolen task's exception caught once");
        // f throws while its g runs on a thief: g finishes, f's exception wins.
        std::atomic<bool> started{false}, finished{false};
        caught = 0;
        try {
            weft::run([&] {
                weft::join(
                    [&] {
                        CHECK(wait_for(started), "nobody stole g in 10 s");
                        throw tagged_error(4);
                    },
                    [&] {
                        started = true;
                        std::this_thread::sleep_for(std::chrono::milliseconds(20));
                        finished = true;
                        throw tagged_error(5); // dropped: f's wins
                    });
            });
        } catch (const tagged_error &e) {
            CHECK(e.tag == 4, "f's exception wins over the stolen g's");
            CHECK(finished.load(), "the stolen half finished before the joiner went on");
            caught++;
        }
        CHECK(caught == 1, "caught once");
    }
    // Each joiner catches its own: the inner join's exception is handled
    // inside, the sibling's reaches the outer joiner.
    {
        int caught = 0;
        try {
            weft::run([] {
                weft::join(
                    [] {
                        try {
                            weft::join([] { throw tagged_error(6); }, [] {});
                        } catch (const tagged_error &e) {
                            CHECK(e.tag == 6, "inner joiner gets its own");
                        }
                        return 0;
                    },
                    [] { throw tagged_error(7); });
            });
        } catch (const tagged_error &e) {
            CHECK(e.tag == 7, "outer joiner gets its sibling's (%d)", e.tag);
            caught++;
        }
        CHECK(caught == 1, "caught once");
    }
    // Many at once: every iteration throws, one exception comes out, and
    // the pieces not started are skipped.
    {
        std::atomic<int> ran{0};
        int caught = 0;
        try {
            weft::parallel_for(0, 100000, 10, [&](int i) {
                ran++;
                throw tagged_error(i);
            });
        } catch (const tagged_error &) {
            caught++;
        }
        CHECK(caught == 1, "one exception from a parallel_for that throws everywhere");
        CHECK(ran.load() < 100000, "pieces after the exception skipped (%d ran)", ran.load());
    }
    {
        int caught = 0;
        try {
            (void)weft::parallel_reduce(
                0, 10000, 0L,
                [](int i) -> long {
                    if (i % 100 == 99)
                        throw tagged_error(i);
                    return i;
                },
                [](long a, long b) { return a + b; });
        } catch (const tagged_error &e) {
            CHECK(e.tag % 100 == 99, "parallel_reduce rethrows a thrower's");
            caught++;
        }
        CHECK(caught == 1, "parallel_reduce: caught once");
    }
    {
        std::vector<int> v(100000);
        std::iota(v.rbegin(), v.rend(), 0);
        int caught = 0;
        try {
            weft::parallel_sort(v.begin(), v.end(), [](int a, int b) {
                if (a == 777 || b == 777)
                    throw tagged_error(777);
                return a < b;
            });
        } catch (const tagged_error &e) {
            CHECK(e.tag == 777, "sort's comparator exception");
            caught++;
        }
        CHECK(caught == 1, "parallel_sort: caught once");
    }
    // task_group: several throw, wait() rethrows one, the group is reusable;
    // the destructor during unwinding waits and drops.
    weft::run([] {
        weft::task_group g;
        std::atomic<int> ran{0};
        for (int i = 0; i < 1000; i++)
            g.run([i, &ran] {
                ran++;
                if (i % 10 == 0)
                    throw tagged_error(i);
            });
        int caught = 0;
        try {
            g.wait();
        } catch (const tagged_error &e) {
            CHECK(e.tag % 10 == 0, "a thrower's exception from wait()");
            caught++;
        }
        CHECK(caught == 1, "wait() rethrows once");
        std::atomic<int> after{0};
        for (int i = 0; i < 100; i++)
            g.run([&] { after++; });
        g.wait();
        CHECK(after.load() == 100, "the group runs everything after a caught exception");
        int unwound = 0;
        try {
            weft::task_group h;
            for (int i = 0; i < 100; i++)
                h.run([&] { after++; });
            throw tagged_error(-1);
        } catch (const tagged_error &e) {
            unwound = e.tag;
        }
        CHECK(unwound == -1, "the group's destructor let the exception through");
        weft::task_group c;
        c.cancel();
        c.run([] { CHECK(false, "a cancelled group ran a task"); });
        c.wait();
        c.run([&] { after = -5; });
        c.wait();
        CHECK(after.load() == -5, "cancel lasts until wait()");
        return 0;
    });
    // weft::run from outside rethrows.
    {
        int caught = 0;
        try {
            weft::run([] { throw tagged_error(8); });
        } catch (const tagged_error &e) {
            CHECK(e.tag == 8, "run rethrows");
            caught++;
        }
        CHECK(caught == 1, "run: caught once");
    }
    // A thousand throws from random places of a tree, then the pool works.
    tree t = random_tree(99, 300);
    long want = seq_sum(t, 0);
    int caught = 0;
    for (int i = 0; i < 1000; i++) {
        int victim = i % 300;
        std::function<long(int)> sum = [&](int v) -> long {
            if (v == victim)
                throw tagged_error(v);
            const std::vector<int> &k = t.children[v];
            return t.value[v] + weft::parallel_reduce(k.begin(), k.end(), 0L, sum,
                                                      [](long a, long b) { return a + b; });
        };
        try {
            (void)weft::run([&] { return sum(0); });
        } catch (const tagged_error &e) {
            CHECK(e.tag == victim, "the thrower's exception (%d, not %d)", e.tag, victim);
            caught++;
        }
    }
    CHECK(caught == 1000, "a thousand throws, a thousand catches (%d)", caught);
    CHECK(weft::run([&] { return join_sum(t, 0); }) == want, "the pool is right after them");
    CHECK(weft::run([&] { return group_sum(t, 0); }) == want, "task groups too");
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1)
        scale = std::max(1, std::atoi(argv[1]));
    for (unsigned workers : {1u, 2u, 3u, 8u, 32u}) {
        weft::scheduler pool(workers);
        CHECK(pool.workers() == workers, "%u workers started", workers);
        test_trees();
        test_parallel_for_reduce();
        test_nesting();
        test_sort();
        test_results();
        test_exceptions();
        test_external_threads();
        if (workers == 2)
            test_million_runs();
        std::printf("ok: %u workers\n", workers);
    }
    // A second pool while one runs is refused with the runtime's errno.
    {
        weft::scheduler pool(2);
        bool refused = false;
        try {
            weft::scheduler again(2);
        } catch (const std::system_error &e) {
            refused = e.code().value() == EBUSY;
        }
        CHECK(refused, "a second scheduler throws EBUSY");
    }
    std::printf("test_cpp: all passed\n");
    return 0;
}
