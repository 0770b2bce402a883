// SPDX-License-Identifier: Apache-2.0
// weft::pool_run inside a fork-join task, its process function calling
// back into the fork-join pool (docs/pool.md, "A pool inside a fork-join
// task"): weft::parallel_for, weft::run and weft::join from the pool's own
// threads are RUNs from outside, which the fork-join worker waiting in the
// pool serves while every other worker is busy or joined on it.
//
// At 1, 2, 3 and 8 workers (more than the CPUs: no warning), every
// answer against the sequential one:
//   - a pool in a task, its items running parallel_for, weft::run and
//     join; many rounds;
//   - pools nested two and three deep (a pool inside a task inside a pool
//     inside a task);
//   - the chain parallel_reduce -> Lace RUN -> weft::join ->
//     weft::pool_run -> parallel_for, first on a pool weft_start started
//     (a RUN from outside may borrow an idle worker), then on one
//     lace_start started (Lace's rule: every RUN from outside is handed
//     to a worker, so at 2 workers it hung in 6 to 10 rounds of 20).
// A watchdog fails a round that does not return within a minute, naming
// it: at 1 worker the defect this test was written for hung for good.
#include <weft/pool.hpp>
#include <weft/weft.hpp>

#include <lace.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <sched.h>
#include <unistd.h>

#include "check.hpp"

namespace {

long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

long join_fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([n] { return join_fib(n - 1); }, [n] { return join_fib(n - 2); });
    return a + b;
}

// RUNs made by the pools' own threads (RUNs from outside): the test
// checks at the end that there were some.
std::atomic<long> outside_calls{0};

// ---- the watchdog ----

char what[160];
std::size_t what_len;

extern "C" void on_alarm(int)
{
    static const char msg[] = "test_cpp_pool_in_task: no answer within 60 s (a hang) in ";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)!write(STDERR_FILENO, what, what_len);
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(1);
}

void round_begins(const char *kind, unsigned workers, int round)
{
    int len = std::snprintf(what, sizeof what, "%s, %u workers, round %d", kind, workers, round);
    what_len = len < 0 ? 0 : static_cast<std::size_t>(len) < sizeof what ? len : sizeof what - 1;
    alarm(60);
}

// Every worker of a pool runs one of its own items before any goes on
// (for at most 50 ms): a worker 0 fast enough to take every item would
// leave the pool's threads nothing that calls from outside.
struct meeting {
    std::atomic<unsigned> seen{0}; // a bit per worker that arrived
    unsigned workers;
    explicit meeting(unsigned n) : workers(n) {}
    void arrive(weft_pool_ctx *ctx)
    {
        unsigned me = 1u << weft_pool_worker_id(ctx), all = (1u << workers) - 1;
        // Relaxed (both): a rendezvous that orders no data.
        if (seen.fetch_or(me, std::memory_order_relaxed) & me)
            return;
        timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        while (seen.load(std::memory_order_relaxed) != all) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 50000000L)
                return;
            sched_yield();
        }
    }
};

weft_pool_config config(unsigned workers)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = workers;
    cfg.idle_spin_us = 20;
    return cfg;
}

// ---- a pool in a task, nested ----

long pool_in_task(int n, int nest);

// The items of one pool: two per pool worker (every worker starts with
// its own), each running parallel_for, weft::run and join; nested ones
// run a task with a pool of its own.
long pool_of(int n, int nest)
{
    const unsigned workers = 3;
    std::atomic<long> sum{0};
    meeting m(workers);
    int items[2 * workers];
    for (unsigned i = 0; i < 2 * workers; i++)
        items[i] = n + static_cast<int>(i % 2);
    int err = weft::pool_run(config(workers), items, 2 * workers, [&](weft_pool_ctx *ctx, void *p) {
        int k = *static_cast<int *>(p);
        m.arrive(ctx);
        if (weft_pool_worker_id(ctx) != 0)
            outside_calls.fetch_add(1, std::memory_order_relaxed); // a count, read at the end
        // Relaxed (all of s and sum): sums read after the loop or the run
        // (parallel_for's join, weft_pool_run's thread joins order them).
        std::atomic<long> s{0};
        weft::parallel_for(0, 4,
                           [&](int i) { s.fetch_add(join_fib(k - i), std::memory_order_relaxed); });
        long v = s.load(std::memory_order_relaxed) + weft::run([k] { return join_fib(k); });
        if (nest > 0)
            v += weft::run([k, nest] { return pool_in_task(k, nest - 1); });
        sum.fetch_add(v, std::memory_order_relaxed);
    });
    CHECK(err == 0, "weft::pool_run inside a task: %d", err);
    return sum.load(std::memory_order_relaxed);
}

// A task with the other half of a join pending beside its pool.
long pool_in_task(int n, int nest)
{
    auto [a, b] = weft::join([n, nest] { return pool_of(n, nest); }, [n] { return join_fib(n); });
    return a + b;
}

long item_ref(int k, int nest);
long pool_ref(int n, int nest) { return 3 * (item_ref(n, nest) + item_ref(n + 1, nest)); }
long task_ref(int n, int nest) { return pool_ref(n, nest) + fib(n); }
long item_ref(int k, int nest)
{
    long v = fib(k) + fib(k - 1) + fib(k - 2) + fib(k - 3) + fib(k);
    return nest > 0 ? v + task_ref(k, nest - 1) : v;
}

// ---- the chain: parallel_reduce -> Lace RUN -> join -> pool_run -> parallel_for ----

long chain_pool(int n)
{
    std::atomic<long> sum{0};
    meeting m(2);
    int items[4] = {n, n + 1, n, n + 1};
    int err = weft::pool_run(config(2), items, 4, [&](weft_pool_ctx *ctx, void *p) {
        int k = *static_cast<int *>(p);
        m.arrive(ctx);
        if (weft_pool_worker_id(ctx) != 0)
            outside_calls.fetch_add(1, std::memory_order_relaxed); // a count, read at the end
        // Relaxed: a sum read after the run (its thread joins order it).
        weft::parallel_for(
            0, 3, [&](int i) { sum.fetch_add(join_fib(k - i), std::memory_order_relaxed); });
    });
    CHECK(err == 0, "weft::pool_run in the chain: %d", err);
    return sum.load(std::memory_order_relaxed); // relaxed: after the run
}

long chain_pool_ref(int n)
{
    long s = 0;
    for (int k : {n, n + 1, n, n + 1})
        s += fib(k) + fib(k - 1) + fib(k - 2);
    return s;
}

} // namespace

TASK_1(long, lace_step, int, n)
{
    auto [a, b] = weft::join([n] { return chain_pool(n); }, [n] { return join_fib(n); });
    return a + b;
}

namespace {

long chain(int n)
{
    return weft::run([n] {
        return weft::parallel_reduce(
            0, 4, std::size_t{1}, 0L, [n](int i) { return RUN(lace_step, n + i % 2); },
            [](long x, long y) { return x + y; });
    });
}

long chain_ref(int n)
{
    return 2 * (chain_pool_ref(n) + fib(n) + chain_pool_ref(n + 1) + fib(n + 1));
}

const unsigned workers_list[] = {1, 2, 3, 8};

void rounds_of_the_chain(unsigned workers, const char *pool, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        round_begins(pool, workers, r);
        int n = 9 + r % 3;
        long got = chain(n);
        CHECK(got == chain_ref(n), "the chain on %s, %u workers: %ld, not %ld", pool, workers, got,
              chain_ref(n));
    }
}

} // namespace

int main(int argc, char **argv)
{
    int scale = argc > 1 ? std::atoi(argv[1]) : 1;
    if (scale < 1)
        scale = 1;
    std::signal(SIGALRM, on_alarm);
    // On pools weft_start starts (weft's own rules for RUNs from outside).
    for (unsigned workers : workers_list) {
        CHECK(weft_start(workers, 0, 0) == 0, "weft_start(%u)", workers);
        for (int r = 0; r < 10 * scale; r++) {
            round_begins("a pool in a task", workers, r);
            int n = 10 + r % 3;
            long got = weft::run([n] { return pool_in_task(n, 0); });
            CHECK(got == task_ref(n, 0), "a pool in a task, %u workers: %ld, not %ld", workers, got,
                  task_ref(n, 0));
        }
        for (int nest = 1; nest <= 2; nest++) {
            round_begins(nest == 1 ? "pools nested 2 deep" : "pools nested 3 deep", workers, 0);
            long got = weft::run([nest] { return pool_in_task(6, nest); });
            CHECK(got == task_ref(6, nest), "pools nested %d deep, %u workers: %ld, not %ld",
                  nest + 1, workers, got, task_ref(6, nest));
        }
        rounds_of_the_chain(workers, "the pool weft_start started", 10 * scale);
        alarm(0);
        weft_stop();
    }
    // On pools lace_start starts: Lace's rules hand every RUN from outside
    // to a worker (they stay in force from the first lace_start on).
    for (unsigned workers : workers_list) {
        lace_start(workers, 0);
        rounds_of_the_chain(workers, "the pool lace_start started", 20 * scale);
        alarm(0);
        lace_stop();
    }
    long outside = outside_calls.load(std::memory_order_relaxed); // relaxed: the pools are over
    CHECK(outside > 0, "no pool thread other than worker 0 ever ran an item: nothing was tested");
    std::printf("test_cpp_pool_in_task: passed (%ld items on the pools' own threads)\n", outside);
    return 0;
}
