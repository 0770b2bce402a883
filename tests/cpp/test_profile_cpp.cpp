// SPDX-License-Identifier: Apache-2.0
// The profiler sees the C++ API's tasks (profiling builds only): fib with
// weft::join, a task_group and parallel_for each profile with their tasks,
// SPAWNs and a parallelism like the C API's, and are named by their
// callables' types (demangled: the function they are written in), or by
// the names weft::named gives them.  With profiling off (WEFT_PROFILE_OFF=1,
// in a child: the first start decides), weft::join leaves the workers'
// profiler state as the start left it, at 1, 2, 3 and 8 workers.
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
#include "profile_untouched.h"

#include <sys/wait.h>
#include <unistd.h>

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

static long named_fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join(weft::named("fib", [n] { return named_fib(n - 2); }),
                             weft::named("fib", [n] { return named_fib(n - 1); }));
    return a + b;
}

// fib's graph is wide, but timed, its span is at least its longest strand,
// and on a guest an interruption the kernel charges to the thread (a
// timer tick: 20-80 us here) makes one fib strand that long
// (profiling.md, "What it cannot see"): the check takes that strand out.
static bool wide(const weft_profile_region &r)
{
    double rest = r.span_ns - r.longest_strand_ns;
    return r.work_ns > 0 && r.span_ns > 0 && r.longest_strand_ns <= r.span_ns &&
           (r.parallelism > 10 || r.work_ns > 10 * (rest > 1.0 ? rest : 1.0));
}

// The task type called name, or fails.
static weft_profile_task_type type_named(const char *name)
{
    weft_profile_task_type t[64];
    size_t n = weft_profile_task_types(t, 64);
    for (size_t i = 0; i < n && i < 64; i++)
        if (std::strcmp(t[i].name, name) == 0)
            return t[i];
    CHECK(false, "no task type named '%s' among %zu", name, n);
    return t[0];
}

// Callables whose type names are long and end alike: two task types (the
// names were cut to their last 60 bytes, and the two merged into one).
struct Alpha {};
struct Beta {};
struct a_rather_long_parameter_type_name_that_pushes_the_type_apart {};
template <class T>
static int long_named(int k, a_rather_long_parameter_type_name_that_pushes_the_type_apart)
{
    auto [a, b] = weft::join([k] { return k; }, [k] { return k + 1; });
    return a + b;
}

static void check_long_names()
{
    weft_profile_reset();
    CHECK(weft::run([] { return long_named<Alpha>(1, {}); }) == 3, "Alpha");
    CHECK(weft::run([] { return long_named<Beta>(1, {}); }) == 3, "Beta");
    weft_profile_task_type t[64];
    size_t n = weft_profile_task_types(t, 64);
    int cut = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        if (t[i].count > 0 && std::strncmp(t[i].name, "...", 3) == 0) {
            cut++;
            CHECK(std::strlen(t[i].name) < 64 && std::strstr(t[i].name, " #"),
                  "a cut name without its hash: '%s'", t[i].name);
        }
    CHECK(cut == 4, "%d task types with cut names, expected 4 (two per join, two joins)", cut);
    std::printf("ok: long C++ type names that end alike stay distinct task types\n");
}

// weft::named: the names given, for join, run, task_group and parallel_for.
static void check_named(unsigned long f1, int n)
{
    weft_profile_reset();
    std::string root = "fib root ";
    root += std::to_string(n); // not a literal: the name is copied
    CHECK(weft::run(weft::named(root.c_str(), [n] { return named_fib(n); })) == fib_ref(n), "fib");
    weft_profile_region r = only_region();
    CHECK(root == r.name, "the region is named by weft::named: '%s'", r.name);
    CHECK(r.tasks == 2 * f1 - 1 && r.spawns == f1 - 1, "named fib(%d): %llu tasks, %llu spawns", n,
          (unsigned long long)r.tasks, (unsigned long long)r.spawns);
    CHECK(wide(r),
          "named fib(%d): parallelism %.1f (work %.0f ns, span %.0f ns, longest strand %.0f ns)", n,
          r.parallelism, r.work_ns, r.span_ns, r.longest_strand_ns);
    weft_profile_task_type fib = type_named("fib");
    CHECK(fib.count == 2 * f1 - 2 && fib.work_ns > 0, "'fib': %llu bodies, %.0f ns",
          (unsigned long long)fib.count, fib.work_ns);
    CHECK(type_named(root.c_str()).count == 1, "the root's type");
    std::printf("ok: weft::named fib(%d): region '%s', type 'fib' %llu bodies, parallelism %.0f\n",
                n, r.name, (unsigned long long)fib.count, r.parallelism);

    weft_profile_reset();
    std::atomic<long> sum{0};
    weft::run([&] {
        weft::task_group g;
        for (int i = 0; i < 100; i++)
            g.run(weft::named("group leaf", [&sum, i] { sum += i; }));
        g.wait();
        return 0;
    });
    CHECK(sum == 4950, "named task_group sum %ld", sum.load());
    CHECK(type_named("group leaf").count == 100, "'group leaf': %llu bodies",
          (unsigned long long)type_named("group leaf").count);
    std::printf("ok: weft::named task_group: 'group leaf' 100 bodies\n");

    weft_profile_reset();
    std::vector<long> v(1 << 20, 1);
    auto twice = [&](std::size_t i) { v[i] *= 2; };
    weft::run([&] {
        weft::parallel_for(std::size_t{0}, v.size(), std::size_t{4096},
                           weft::named("twice", twice));
        return 0;
    });
    CHECK(v[0] == 2 && v[v.size() - 1] == 2, "named parallel_for's items");
    r = only_region();
    weft_profile_task_type tw = type_named("twice");
    // One body per piece of 4096 items; the pieces hold nearly all the work.
    CHECK(tw.count == v.size() / 4096 && tw.work_ns > 0.5 * r.work_ns,
          "'twice': %llu bodies, %.0f of %.0f ns", (unsigned long long)tw.count, tw.work_ns,
          r.work_ns);
    long total =
        weft::parallel_reduce(std::size_t{0}, v.size(), std::size_t{4096}, 0L,
                              weft::named("reduce map", [&](std::size_t i) { return v[i]; }),
                              [](long a, long b) { return a + b; });
    CHECK(total == 2L * (1 << 20), "named parallel_reduce: %ld", total);
    CHECK(type_named("reduce map").count == v.size() / 4096, "'reduce map': %llu bodies",
          (unsigned long long)type_named("reduce map").count);
    std::printf("ok: weft::named parallel_for and parallel_reduce: one body per piece\n");

    // A null name leaves the callable unnamed; the copy still runs.
    CHECK(weft::run(weft::named(nullptr, [] { return 5; })) == 5, "unnamed");
}

static long probed_fib(int n)
{
    if (n < 2) {
        check_profile_untouched("a leaf");
        return n;
    }
    auto [a, b] = weft::join([n] { return probed_fib(n - 2); }, [n] { return probed_fib(n - 1); });
    check_profile_untouched("after a join");
    return a + b;
}

static void check_profiling_off()
{
    std::fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        setenv("WEFT_PROFILE_OFF", "1", 1);
        setenv("WEFT_OVERSUBSCRIBE", "1", 1); /* 3 and 8 workers on 2 CPUs: said once, not here */
        for (unsigned workers : {1u, 2u, 3u, 8u}) {
            weft::scheduler pool(workers);
            long got = weft::run([] { return probed_fib(20); });
            CHECK(got == fib_ref(20), "profiling off, %u workers: fib(20) = %ld", workers, got);
        }
        std::fflush(stdout);
        _exit(0);
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "weft::join with profiling off: the child's status %d", status);
    std::printf("ok: weft::join with profiling off: the workers' profiler state untouched at 1, "
                "2, 3 and 8 workers\n");
}

int main()
{
    check_profiling_off();
    weft::scheduler pool(2);
    int n = 25; // not const: clang calls a constant's capture unneeded
    const unsigned long f1 = (unsigned long)fib_ref(n + 1);

    weft_profile_reset();
    CHECK(weft::run([n] { return fib(n); }) == fib_ref(n), "fib");
    weft_profile_region r = only_region();
    // As pfib in C: 2 fib(n+1) - 1 bodies (each join runs two callables
    // where C runs one task per call: the root and 2 per inner node), and
    // fib(n+1) - 1 SPAWNs.
    CHECK(r.spawns == f1 - 1, "fib(%d): %llu spawns, expected %lu", n, (unsigned long long)r.spawns,
          f1 - 1);
    CHECK(r.tasks == 2 * f1 - 1, "fib(%d): %llu tasks, expected %lu", n,
          (unsigned long long)r.tasks, 2 * f1 - 1);
    CHECK(wide(r), "fib(%d): work %.0f span %.0f parallelism %.1f, longest strand %.0f", n,
          r.work_ns, r.span_ns, r.parallelism, r.longest_strand_ns);
    // GCC names a lambda "main::{lambda()#1}", clang "main::$_0".
    CHECK((std::strstr(r.name, "lambda") || std::strstr(r.name, "$_")) &&
              std::strstr(r.name, "main"),
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
    std::printf("ok: parallel_for: %llu spawns, parallelism %.1f\n", (unsigned long long)r.spawns,
                r.parallelism);

    check_named(f1, n);
    check_long_names();
    return 0;
}
