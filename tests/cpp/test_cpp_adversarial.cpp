// SPDX-License-Identifier: Apache-2.0
// Adversarial programs on the C++ API: odd ranges and types, exceptions in
// every position, misuse, many threads outside the pool, nested groups,
// cancellation, the default pool.  Each case is a function; those that
// must end the program, or need no pool or their own environment, run in
// a child process (child.hpp).  docs/results/adversarial.md lists every case.
//
//     test_cpp_adversarial            every case
//     test_cpp_adversarial <case>     one case, in this process
#include <weft/weft.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "check.hpp"
#include "child.hpp"

namespace {

struct payload_error : std::exception {
    explicit payload_error(int v) : value(v) {}
    const char *what() const noexcept override { return "payload_error"; }
    int value;
};

// ---- join and invoke ------------------------------------------------------

void a01_move_only_results()
{
    auto [a, b] = weft::join([] { return std::make_unique<int>(1); },
                             [] { return std::make_unique<int>(2); });
    CHECK(*a + *b == 3, "move-only results");
}

void a02_const_lvalue_functor()
{
    struct adder {
        int k;
        int operator()() const { return k + 1; }
    };
    const adder f{1}, g{2};
    auto [a, b] = weft::join(f, g);
    CHECK(a == 2 && b == 3, "const lvalue functors: %d %d", a, b);
}

void a03_both_halves_throw()
{
    try {
        weft::join([]() -> int { throw payload_error(1); },
                   []() -> int { throw payload_error(2); });
        CHECK(false, "no exception");
    } catch (const payload_error &e) {
        CHECK(e.value == 1, "the first half's exception wins, got %d", e.value);
    }
}

void a04_stolen_half_throws()
{
    std::atomic<bool> started{false};
    try {
        weft::run([&] {
            weft::join([&] { wait_for_thief(started); },
                       [&] {
                           started.store(true, std::memory_order_release); // see wait_for_thief
                           throw payload_error(42);
                       });
        });
        CHECK(false, "no exception");
    } catch (const payload_error &e) {
        CHECK(e.value == 42, "the stolen half's exception arrives intact: %d", e.value);
    }
}

void a05_invoke_none_and_many()
{
    weft::invoke();
    int hits = 0;
    auto t = weft::invoke([] { return 1; }, [&] { hits++; }, [] { return std::string("x"); },
                          [] { return 4L; }, [] { return 5.0; }, [] {}, [] { return 'z'; });
    CHECK(std::get<0>(t) == 1 && hits == 1 && std::get<2>(t) == "x" && std::get<3>(t) == 4L &&
              std::get<4>(t) == 5.0 && std::get<6>(t) == 'z',
          "invoke of seven");
}

void a06_reference_result()
{
    int x = 5;
    auto [r, v] = weft::join([&]() -> int & { return x; }, [] { return 1; });
    r.get() = 7;
    CHECK(x == 7 && v == 1, "a reference result is a reference_wrapper");
}

void a07_large_capture()
{
    std::array<long, 128> big{};
    big[127] = 9;
    auto [a, b] = weft::join([big] { return big[127]; }, [big] { return big[127] + 1; });
    CHECK(a == 9 && b == 10, "a 1 KB capture");
}

long deep(int n)
{
    if (n == 0)
        return 0;
    auto [a, b] = weft::join([n] { return deep(n - 1); }, [] { return 1L; });
    return a + b;
}

void a08_deep_nesting()
{
    long r = weft::run([] { return deep(5000); });
    CHECK(r == 5000, "5000 nested joins: %ld", r);
}

// ---- parallel_for and parallel_reduce ---------------------------------------

void a09_narrow_full_range()
{
    std::atomic<int> n{0};
    weft::parallel_for(static_cast<signed char>(-128), static_cast<signed char>(127),
                       [&](signed char) { n++; });
    CHECK(n.load() == 255, "signed char -128..127: %d", n.load());
}

void a10_extreme_unsigned()
{
    std::atomic<std::uint64_t> sum{0};
    std::uint64_t hi = UINT64_MAX, lo = UINT64_MAX - 10;
    weft::parallel_for(lo, hi, [&](std::uint64_t i) { sum += i - lo; });
    CHECK(sum.load() == 45, "the top of uint64: %llu", static_cast<unsigned long long>(sum.load()));
}

void a11_extreme_signed()
{
    std::atomic<long long> n{0};
    weft::parallel_for(LLONG_MIN, LLONG_MIN + 5, [&](long long i) { n += i - LLONG_MIN; });
    CHECK(n.load() == 10, "the bottom of long long: %lld", n.load());
    n = 0;
    weft::parallel_for(LLONG_MAX - 5, LLONG_MAX, [&](long long) { n++; });
    CHECK(n.load() == 5, "the top of long long: %lld", n.load());
}

void a12_grain_extremes()
{
    std::vector<std::atomic<int>> hits(100000);
    weft::parallel_for(0, 100000, 1, [&](int i) { hits[i]++; });
    weft::parallel_for(0, 100000, SIZE_MAX, [&](int i) { hits[i]++; });
    for (auto &h : hits)
        CHECK(h.load() == 2, "grain 1 and SIZE_MAX: every item twice");
}

void a13_reduce_order()
{
    std::string s = weft::parallel_reduce(
        0, 2000, 7, std::string(), [](int i) { return std::string(1, char('a' + i % 26)); },
        [](std::string a, std::string b) { return a + b; });
    CHECK(s.size() == 2000, "length %zu", s.size());
    for (int i = 0; i < 2000; i++)
        CHECK(s[i] == char('a' + i % 26), "order at %d", i);
}

void a14_reduce_empty_iterators()
{
    std::vector<int> v;
    long r = weft::parallel_reduce(
        v.begin(), v.end(), 17L, [](int x) { return long{x}; }, std::plus<>());
    CHECK(r == 17, "empty: the identity, got %ld", r);
}

void a15_reduce_no_default_ctor()
{
    struct acc {
        explicit acc(long v) : v(v) {}
        long v;
    };
    acc r = weft::parallel_reduce(
        0, 1000, acc(0), [](int i) { return acc(i); }, [](acc a, acc b) { return acc(a.v + b.v); });
    CHECK(r.v == 499500, "no default constructor: %ld", r.v);
}

void a16_for_exception_stops()
{
    std::atomic<long> ran{0};
    try {
        weft::parallel_for(0, 1000000, 100, [&](int i) {
            ran++;
            if (i == 1000)
                throw payload_error(i);
        });
        CHECK(false, "no exception");
    } catch (const payload_error &e) {
        CHECK(e.value == 1000, "value %d", e.value);
    }
    CHECK(ran.load() < 1000000, "the rest was skipped (%ld ran)", ran.load());
}

void a17_for_calls_run()
{
    std::atomic<long> s{0};
    weft::parallel_for(0, 100, [&](int i) { s += weft::run([i] { return i; }); });
    CHECK(s.load() == 4950, "run inside parallel_for: %ld", s.load());
}

void a18_vector_bool()
{
    std::vector<bool> v(10000, false);
    weft::parallel_for(v.begin(), v.end(), 1000000,
                       [](std::vector<bool>::reference b) { b = true; });
    CHECK(std::all_of(v.begin(), v.end(), [](bool b) { return b; }), "vector<bool> (one piece)");
}

// ---- parallel_sort ------------------------------------------------------------

void a19_sort_tiny()
{
    std::vector<int> v;
    weft::parallel_sort(v.begin(), v.end());
    v = {3};
    weft::parallel_sort(v.begin(), v.end());
    CHECK(v[0] == 3, "one item");
}

void a20_stable_equal_keys()
{
    std::vector<std::pair<int, int>> v(100000);
    for (int i = 0; i < 100000; i++)
        v[i] = {i % 3, i};
    weft::parallel_stable_sort(v.begin(), v.end(),
                               [](const auto &a, const auto &b) { return a.first < b.first; });
    for (std::size_t i = 1; i < v.size(); i++)
        CHECK(v[i - 1].first < v[i].first ||
                  (v[i - 1].first == v[i].first && v[i - 1].second < v[i].second),
              "stable at %zu", i);
}

void a21_sort_strings()
{
    std::mt19937 rng(5);
    std::vector<std::string> v(50000);
    for (auto &s : v)
        s = std::to_string(rng());
    auto w = v;
    weft::parallel_sort(v.begin(), v.end());
    std::sort(w.begin(), w.end());
    CHECK(v == w, "strings");
}

void a22_sort_reverse_iterators_and_deque()
{
    std::vector<int> v(30000);
    std::iota(v.begin(), v.end(), 0);
    std::shuffle(v.begin(), v.end(), std::mt19937(1));
    weft::parallel_sort(v.rbegin(), v.rend());
    CHECK(std::is_sorted(v.rbegin(), v.rend()), "reverse iterators");
    std::deque<int> d(v.begin(), v.end());
    weft::parallel_sort(d.begin(), d.end());
    CHECK(std::is_sorted(d.begin(), d.end()), "deque");
}

void a23_sort_comparator_throws()
{
    std::vector<int> v(100000);
    std::iota(v.rbegin(), v.rend(), 0);
    std::atomic<int> calls{0};
    try {
        weft::parallel_sort(v.begin(), v.end(), [&](int a, int b) {
            if (calls.fetch_add(1, std::memory_order_relaxed) == 50000)
                throw payload_error(7);
            return a < b;
        });
        CHECK(false, "no exception");
    } catch (const payload_error &e) {
        CHECK(e.value == 7, "value");
    }
    weft::parallel_sort(v.begin(), v.end());
    CHECK(std::is_sorted(v.begin(), v.end()), "the pool sorts after a throwing comparator");
}

// ---- task_group ----------------------------------------------------------------

void a24_many_runs()
{
    std::atomic<long> s{0};
    weft::run([&] {
        weft::task_group g;
        for (int i = 0; i < 200000; i++)
            g.run([&s, i] { s += i; });
        g.wait();
    });
    CHECK(s.load() == 200000L * 199999 / 2, "200000 runs: %ld", s.load());
}

void a25_outside_threads_one_group()
{
    weft::task_group g;
    std::atomic<long> s{0};
    std::vector<std::thread> th;
    for (int t = 0; t < 16; t++)
        th.emplace_back([&, t] {
            for (int i = 0; i < 100; i++)
                g.run([&s, t, i] { s += t * 100 + i; });
        });
    for (auto &t : th)
        t.join();
    g.wait();
    CHECK(s.load() == 1600L * 1599 / 2, "16 threads x 100 runs: %ld", s.load());
}

void a26_cancel_then_run()
{
    std::atomic<int> ran{0};
    weft::run([&] {
        weft::task_group g;
        g.cancel();
        for (int i = 0; i < 100; i++)
            g.run([&] { ran++; });
        g.wait();
        CHECK(!g.is_canceling(), "wait ends the cancellation");
        g.run([&] { ran += 1000; });
        g.wait();
    });
    CHECK(ran.load() == 1000, "runs after cancel() skipped, after wait() run: %d", ran.load());
}

void a27_group_reuse_after_exception()
{
    weft::run([&] {
        weft::task_group g;
        g.run([] { throw payload_error(3); });
        try {
            g.wait();
            CHECK(false, "no exception");
        } catch (const payload_error &e) {
            CHECK(e.value == 3, "value");
        }
        std::atomic<int> ran{0};
        g.run([&] { ran++; });
        g.wait();
        CHECK(ran.load() == 1, "reused group");
    });
}

void a28_group_unwinding()
{
    std::atomic<int> ran{0};
    try {
        weft::run([&] {
            weft::task_group g;
            for (int i = 0; i < 1000; i++)
                g.run([&] { ran++; });
            throw payload_error(9); // the destructor waits, cancelling
        });
        CHECK(false, "no exception");
    } catch (const payload_error &e) {
        CHECK(e.value == 9, "value");
    }
    CHECK(ran.load() <= 1000, "ran %d", ran.load());
}

void tree_runs(weft::task_group &g, int depth, std::atomic<long> &n)
{
    n++;
    if (depth == 0)
        return;
    for (int k = 0; k < 3; k++)
        g.run([&g, depth, &n] { tree_runs(g, depth - 1, n); });
}

void a29_nested_runs_on_one_group()
{
    std::atomic<long> n{0};
    weft::run([&] {
        weft::task_group g;
        tree_runs(g, 8, n);
        g.wait();
        g.wait(); // a second wait: nothing to do
    });
    CHECK(n.load() == (6561L * 3 - 1) / 2, "a 3-ary tree of runs on one group: %ld", n.load());
}

void a30_groups_nested_in_groups()
{
    std::atomic<long> n{0};
    weft::run([&] {
        weft::task_group outer;
        for (int i = 0; i < 8; i++)
            outer.run([&n] {
                weft::task_group inner;
                for (int j = 0; j < 8; j++)
                    inner.run([&n] {
                        weft::task_group leaf;
                        for (int k = 0; k < 8; k++)
                            leaf.run([&n] { n++; });
                        leaf.wait();
                    });
                inner.wait();
            });
        outer.wait();
    });
    CHECK(n.load() == 512, "groups three deep: %ld", n.load());
}

// ---- run, scheduler, the default pool -----------------------------------------

void a31_many_outside_threads()
{
    std::vector<std::thread> th;
    std::atomic<long> s{0};
    for (int t = 0; t < 32; t++)
        th.emplace_back([&, t] {
            for (int i = 0; i < 20; i++)
                s += weft::run([t, i] { return deep(20) + t + i; });
            s += weft::parallel_reduce(
                0, 1000, 0L, [](int i) { return long{i}; }, std::plus<>());
        });
    for (auto &t : th)
        t.join();
    long want = 32L * 20 * 20 + 20L * (31 * 32 / 2) + 32L * (20 * 19 / 2) + 32L * 499500;
    CHECK(s.load() == want, "32 threads: %ld, want %ld", s.load(), want);
}

void a32_scheduler_twice()
{
    weft::scheduler pool(2);
    try {
        weft::scheduler again(2);
        CHECK(false, "a second scheduler started");
    } catch (const std::system_error &e) {
        CHECK(e.code().value() == EBUSY, "errno %d", e.code().value());
    }
    CHECK(weft::run([] { return 1; }) == 1, "the first pool works");
}

void a33_scheduler_on_worker()
{
    weft::scheduler pool(2);
    int err = weft::run([] {
        try {
            weft::scheduler inner(1);
        } catch (const std::system_error &e) {
            return e.code().value();
        }
        return 0;
    });
    CHECK(err == EBUSY, "a scheduler made on a worker: errno %d", err);
}

void a34_no_pool_queries()
{
    CHECK(weft::workers() == 0, "workers() started a pool");
    weft::yield();
    CHECK(weft::workers() == 0, "yield() started a pool");
    weft::task_group g;
    std::atomic<int> ran{0};
    g.run([&] { ran++; }); // kept until wait
    CHECK(weft::workers() == 0, "task_group::run from outside started a pool");
    g.wait(); // starts the default pool
    CHECK(ran.load() == 1 && weft::workers() >= 1, "wait ran it on a default pool");
}

void a35_default_pool_race()
{
    std::vector<std::thread> th;
    std::atomic<long> s{0};
    for (int t = 0; t < 16; t++)
        th.emplace_back([&] { s += weft::run([] { return 1L; }); });
    for (auto &t : th)
        t.join();
    CHECK(s.load() == 16, "16 threads starting the default pool at once: %ld", s.load());
}

void a36_default_pool_stop_restart()
{
    CHECK(weft::run([] { return 2; }) == 2, "first default pool");
    CHECK(weft_stop() == 0, "stop");
    CHECK(weft::run([] { return 3; }) == 3, "second default pool");
}

void a37_default_pool_in_forked_child()
{
    CHECK(weft::run([] { return 1; }) == 1, "default pool");
    pid_t pid = fork();
    if (pid == 0) {
        // The child has no workers: the pool is forgotten, a new default one
        // starts (TSan cannot start threads after a multi-threaded fork:
        // there the child checks only that the pool is forgotten).
        if (weft::workers() != 0)
            _exit(2);
#if !defined(__SANITIZE_THREAD__)
        long r = weft::run([] { return deep(100); });
        _exit(r == 100 ? 0 : 1);
#else
        _exit(0);
#endif
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's default pool: status %d", st);
}

void a38_scheduler_after_c_start()
{
    CHECK(weft_start(1, 0, 0) == 0, "weft_start");
    try {
        weft::scheduler pool(2);
        CHECK(false, "a scheduler replaced the C API's pool");
    } catch (const std::system_error &e) {
        CHECK(e.code().value() == EBUSY, "errno %d", e.code().value());
    }
    CHECK(weft::workers() == 1, "the C API's pool is kept");
    CHECK(weft_stop() == 0, "stop");
}

void a39_scheduler_on_worker_of_default_pool()
{
    int err = weft::run([] {
        try {
            weft::scheduler inner(1);
        } catch (const std::system_error &e) {
            return e.code().value();
        }
        return 0;
    });
    CHECK(err == EBUSY, "a scheduler made on a worker of the default pool: errno %d", err);
    CHECK(weft::run([] { return 4; }) == 4, "the default pool still runs");
    weft::scheduler pool(1); // from main it replaces the default pool
    CHECK(weft::workers() == 1, "the scheduler's pool has %u workers", weft::workers());
}

// ---- misuse that must stop with a message (children) -----------------------------

void m01_wait_outside_for_worker_group()
{
    weft::scheduler pool(1);
    weft::task_group *g = nullptr;
    std::atomic<bool> made{false};
    // The group is made on a worker, its runs spawned there; the waiter is main.
    weft::task_group *leak = weft::run([&] {
        auto *p = new weft::task_group;
        p->run([] {});
        g = p;
        made = true;
        return p;
    });
    (void)leak;
    g->wait();
}

void m02_wait_for_group_of_other_task()
{
    weft::scheduler pool(workers_from_env(2));
    weft::run([] {
        weft::task_group g;
        g.run([] {});
        weft::join([] {},
                   [&] {
                       weft::task_group later;
                       later.run([] {});
                       g.wait(); // before `later` was waited for
                       later.wait();
                   });
        g.wait();
    });
}

} // namespace

int main(int argc, char **argv)
{
    struct named {
        const char *name;
        void (*fn)();
    };
    // In this process, on a scheduler of workers_from_env(2) workers.
    static const named pooled[] = {
        {"a01_move_only_results", a01_move_only_results},
        {"a02_const_lvalue_functor", a02_const_lvalue_functor},
        {"a03_both_halves_throw", a03_both_halves_throw},
        {"a04_stolen_half_throws", a04_stolen_half_throws},
        {"a05_invoke_none_and_many", a05_invoke_none_and_many},
        {"a06_reference_result", a06_reference_result},
        {"a07_large_capture", a07_large_capture},
        {"a08_deep_nesting", a08_deep_nesting},
        {"a09_narrow_full_range", a09_narrow_full_range},
        {"a10_extreme_unsigned", a10_extreme_unsigned},
        {"a11_extreme_signed", a11_extreme_signed},
        {"a12_grain_extremes", a12_grain_extremes},
        {"a13_reduce_order", a13_reduce_order},
        {"a14_reduce_empty_iterators", a14_reduce_empty_iterators},
        {"a15_reduce_no_default_ctor", a15_reduce_no_default_ctor},
        {"a16_for_exception_stops", a16_for_exception_stops},
        {"a17_for_calls_run", a17_for_calls_run},
        {"a18_vector_bool", a18_vector_bool},
        {"a19_sort_tiny", a19_sort_tiny},
        {"a20_stable_equal_keys", a20_stable_equal_keys},
        {"a21_sort_strings", a21_sort_strings},
        {"a22_sort_reverse_iterators_and_deque", a22_sort_reverse_iterators_and_deque},
        {"a23_sort_comparator_throws", a23_sort_comparator_throws},
        {"a24_many_runs", a24_many_runs},
        {"a25_outside_threads_one_group", a25_outside_threads_one_group},
        {"a26_cancel_then_run", a26_cancel_then_run},
        {"a27_group_reuse_after_exception", a27_group_reuse_after_exception},
        {"a28_group_unwinding", a28_group_unwinding},
        {"a29_nested_runs_on_one_group", a29_nested_runs_on_one_group},
        {"a30_groups_nested_in_groups", a30_groups_nested_in_groups},
        {"a31_many_outside_threads", a31_many_outside_threads},
    };
    // In a child each, with no pool made here (the case makes its own, or none).
    static const named alone[] = {
        {"a32_scheduler_twice", a32_scheduler_twice},
        {"a33_scheduler_on_worker", a33_scheduler_on_worker},
        {"a34_no_pool_queries", a34_no_pool_queries},
        {"a35_default_pool_race", a35_default_pool_race},
        {"a36_default_pool_stop_restart", a36_default_pool_stop_restart},
        {"a37_default_pool_in_forked_child", a37_default_pool_in_forked_child},
        {"a38_scheduler_after_c_start", a38_scheduler_after_c_start},
        {"a39_scheduler_on_worker_of_default_pool", a39_scheduler_on_worker_of_default_pool},
        {"m01_wait_outside_for_worker_group", m01_wait_outside_for_worker_group},
        {"m02_wait_for_group_of_other_task", m02_wait_for_group_of_other_task},
    };
    if (argc > 1) {
        for (const named &c : alone)
            if (std::strcmp(argv[1], c.name) == 0) {
                c.fn();
                return 0;
            }
        if (std::strcmp(argv[1], "pooled") == 0) {
            weft::scheduler pool(workers_from_env(2));
            for (const named &c : pooled) {
                c.fn();
                std::printf("ok: %s\n", c.name);
            }
            return 0;
        }
        std::fprintf(stderr, "no case %s\n", argv[1]);
        return 2;
    }
    std::string self = self_path();
    const char *path = self.c_str();
    for (const char *w : {"CASE_WORKERS=1", "CASE_WORKERS=2"}) {
        expect_ok(path, "pooled", {w});
        const char *wrong_frame = "task_group::wait() (or its destructor) called in another frame";
        expect_stop(path, "m02_wait_for_group_of_other_task", {w}, wrong_frame);
    }
    for (int i = 0; i < 8; i++)
        expect_ok(path, alone[i].name, {"WEFT_WORKERS=2"}, false); // the runtime's refusals print
    // The task that made the group returns with its spawn pending: the
    // runtime stops the program there, before the wait from outside.
    expect_stop(path, "m01_wait_outside_for_worker_group", {}, "with a SPAWN not joined");
    std::printf("test_cpp_adversarial: ok\n");
    return 0;
}
