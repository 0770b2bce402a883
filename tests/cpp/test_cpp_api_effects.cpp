// SPDX-License-Identifier: Apache-2.0
// The effects of two C++ entries no other test observes
// (include/weft/weft.hpp): scheduler(const weft_config &) starts exactly
// the configuration given, and task_group::is_canceling says whether the
// group was cancelled, until wait() makes it usable again; callables run
// after cancel() are skipped; a group whose callables were left from a
// thread outside the pool runs them when destroyed without wait().
// weft::named gives a copy of the callable, in any build (with the
// profiler or not: tests/cpp/test_profile_cpp.cpp checks the names).
#include <weft/weft.hpp>

#include <atomic>

#include "check.hpp"

// One copy per worker: its id's bit.
WEFT_VOID_TASK_1(mark_worker, std::atomic<unsigned> *, seen)
{
    seen->fetch_or(1u << weft_worker_id(weft_w));
}

static void scheduler_from_config()
{
    weft_config cfg;
    CHECK(weft_config_init(&cfg) == 0, "weft_config_init");
    cfg.workers = 3;
    cfg.steal_policy = WEFT_STEAL_LEAPFROG;
    {
        weft::scheduler s(cfg);
        CHECK(s.workers() == 3 && weft_workers() == 3, "scheduler(cfg) started %u workers, not 3",
              s.workers());
        // Every worker of the configuration runs: a TOGETHER runs one copy
        // on each (a schedule-independent way to see all three).
        std::atomic<unsigned> seen{0};
        WEFT_TOGETHER(mark_worker, &seen);
        CHECK(seen.load() == 7u, "not all three workers ran a TOGETHER copy (mask %u)",
              seen.load());
    }
    CHECK(weft_workers() == 0, "the scheduler's destructor did not stop the pool");
    std::printf("ok: scheduler(const weft_config &): the configuration's 3 workers, all used\n");
}

static void is_canceling()
{
    weft::scheduler s(2);
    std::atomic<int> ran{0};
    bool before = true, after_cancel = false, after_wait = true;
    weft::run([&] {
        weft::task_group g;
        before = g.is_canceling();
        g.cancel();
        after_cancel = g.is_canceling();
        for (int i = 0; i < 8; i++)
            g.run([&] { ran.fetch_add(1); });
        g.wait();
        after_wait = g.is_canceling();
    });
    CHECK(!before, "a new group is canceling");
    CHECK(after_cancel, "is_canceling() is false after cancel()");
    CHECK(ran.load() == 0, "%d callables ran after cancel()", ran.load());
    CHECK(!after_wait, "is_canceling() still true after wait()");
    std::printf("ok: task_group::is_canceling: false, true after cancel() (callables skipped), "
                "false after wait()\n");
}

static void named()
{
    weft::scheduler s(2);
    int calls = 0;
    auto count = [&calls](int k) { return calls += k; };
    auto named_count = weft::named("count", count);
    named_count(2);
    auto [a, b] =
        weft::join(weft::named("a", [] { return 1; }), weft::named("b", [] { return 2; }));
    std::atomic<long> sum{0};
    weft::parallel_for(0, 100, weft::named("sum", [&sum](int i) { sum += i; }));
    CHECK(calls == 2 && a == 1 && b == 2 && sum.load() == 4950 && named_count(3) == 5,
          "weft::named: calls %d, join %d %d, sum %ld", calls, a, b, sum.load());
    std::printf("ok: weft::named: the callable, called (join, parallel_for, directly)\n");
}

// The destructor waits (task_group's comment): also for the callables a
// thread outside the pool left, which only wait() runs.
static void unwaited_outside_group()
{
    weft::scheduler s(2);
    const int n = 10;
    std::atomic<int> ran{0};
    {
        weft::task_group g; // made, and run on, outside the pool
        for (int i = 0; i < n; i++)
            g.run([&] { ran.fetch_add(1); });
        CHECK(ran.load() == 0, "%d callables left from outside ran before wait()", ran.load());
    }
    CHECK(ran.load() == n,
          "a group destroyed without wait() ran %d of the %d callables left "
          "from outside",
          ran.load(), n);
    std::printf("ok: task_group destroyed unwaited runs the %d callables left from outside\n", n);
}

int main()
{
    scheduler_from_config();
    is_canceling();
    named();
    unwaited_outside_group();
    return 0;
}
