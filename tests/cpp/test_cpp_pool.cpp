// SPDX-License-Identifier: Apache-2.0
// weft::pool_run (weft/pool.hpp): an exception thrown by the process
// function ends the run, every worker thread is joined, and the caller
// gets the exception.  At 1, 2 and 3 workers, thrown on the calling
// thread's worker (0) and on another, 20 times each; the process's thread
// count (/proc/self/task) is back to its value before after every run, and
// under ASan nothing leaks.  Also: several workers throwing at once,
// weft_pool_cancel without an exception, and a normal run after each.
#include <weft/pool.hpp>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <dirent.h>
#include <sched.h>
#include <time.h>

#include "check.hpp"

namespace {

unsigned live_threads()
{
    DIR *d = opendir("/proc/self/task");
    CHECK(d != nullptr, "/proc/self/task: %s", std::strerror(errno));
    unsigned n = 0;
    while (dirent *e = readdir(d))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

// The thread count once it is back to `want`, or after 10 s: a joined
// thread may be listed a moment longer; one left running stays.
unsigned threads_settled(unsigned want)
{
    unsigned n = live_threads();
    for (int i = 0; i < 10000 && n != want; i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, nullptr);
        n = live_threads();
    }
    return n;
}

struct boom : std::runtime_error {
    unsigned worker;
    explicit boom(unsigned w)
        : std::runtime_error("boom from worker " + std::to_string(w)), worker(w)
    {}
};

// Items are depths: an item of depth d > 0 pushes two of depth d - 1.
constexpr std::uint64_t depth = 8;

std::uint64_t tree_items(std::uint64_t d) { return (std::uint64_t{2} << d) - 1; }

weft_pool_config config(unsigned workers)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(std::uint64_t));
    cfg.workers = workers;
    cfg.idle_spin_us = 50;
    return cfg;
}

void push_children(weft_pool_ctx *ctx, void *item)
{
    std::uint64_t d = *static_cast<std::uint64_t *>(item);
    if (d == 0)
        return;
    std::uint64_t child = d - 1;
    CHECK(weft_pool_push(ctx, &child) == 0 && weft_pool_push(ctx, &child) == 0, "push");
}

// One run where worker `thrower` throws at its third item.  The other
// workers wait in their first item until the thrower has started, so that
// it has items of its own (the initial ones are dealt round-robin) and
// cannot be starved by thieves.
void throw_once(unsigned workers, unsigned thrower, int round)
{
    weft_pool_config cfg = config(workers);
    std::vector<std::uint64_t> initial(16 * workers, depth);
    std::atomic<bool> thrower_started{false};
    std::atomic<unsigned> thrower_items{0};
    std::atomic<std::uint64_t> processed{0};
    unsigned before = live_threads();
    bool caught = false;
    try {
        int err = weft::pool_run(cfg, initial.data(), initial.size(),
                                 [&](weft_pool_ctx *ctx, void *item) {
                                     processed++;
                                     unsigned id = weft_pool_worker_id(ctx);
                                     if (id == thrower) {
                                         thrower_started = true;
                                         if (++thrower_items == 3)
                                             throw boom(id);
                                     } else {
                                         while (!thrower_started)
                                             sched_yield();
                                     }
                                     push_children(ctx, item);
                                 });
        CHECK(false, "%u workers, thrower %u, round %d: no exception (returned %d)", workers,
              thrower, round, err);
    } catch (const boom &e) {
        CHECK(e.worker == thrower, "the exception came from worker %u, not %u", e.worker, thrower);
        caught = true;
    }
    CHECK(caught, "not caught");
    unsigned after = threads_settled(before);
    CHECK(after == before, "%u workers, thrower %u, round %d: %u threads before the run, %u after",
          workers, thrower, round, before, after);
    std::uint64_t total = initial.size() * tree_items(depth);
    CHECK(processed.load() < total, "the run went on after the exception: %llu of %llu items",
          static_cast<unsigned long long>(processed.load()),
          static_cast<unsigned long long>(total));
}

// Every worker throws at its first item: one exception arrives.
void all_throw(unsigned workers)
{
    weft_pool_config cfg = config(workers);
    std::vector<std::uint64_t> initial(4 * workers, depth);
    unsigned before = live_threads();
    int caught = 0;
    for (int round = 0; round < 20; round++) {
        try {
            (void)weft::pool_run(
                cfg, initial.data(), initial.size(),
                [](weft_pool_ctx *ctx, void *) { throw boom(weft_pool_worker_id(ctx)); });
        } catch (const boom &e) {
            CHECK(e.worker < workers, "worker %u", e.worker);
            caught++;
        }
    }
    CHECK(caught == 20, "%d of 20 runs rethrew", caught);
    CHECK(threads_settled(before) == before, "threads left behind");
}

// weft_pool_cancel without an exception: ECANCELED, threads joined.
void cancel(unsigned workers)
{
    weft_pool_config cfg = config(workers);
    std::vector<std::uint64_t> initial(16 * workers, depth);
    std::atomic<std::uint64_t> processed{0};
    unsigned before = live_threads();
    weft_pool_stats st;
    int err = weft::pool_run(
        cfg, initial.data(), initial.size(),
        [&](weft_pool_ctx *ctx, void *item) {
            if (++processed == 100)
                CHECK(weft_pool_cancel(ctx) == 0, "cancel");
            push_children(ctx, item);
        },
        &st);
    CHECK(err == ECANCELED, "%u workers: weft_pool_cancel gave %d, not ECANCELED", workers, err);
    CHECK(st.processed == processed.load() && st.processed < initial.size() * tree_items(depth),
          "stats: %llu processed", static_cast<unsigned long long>(st.processed));
    CHECK(threads_settled(before) == before, "threads left behind");
}

// The pool works after all that: every item once.
void normal_run(unsigned workers)
{
    weft_pool_config cfg = config(workers);
    std::uint64_t root = depth;
    std::atomic<std::uint64_t> processed{0};
    int err = weft::pool_run(cfg, &root, 1, [&](weft_pool_ctx *ctx, void *item) {
        processed++;
        push_children(ctx, item);
    });
    CHECK(err == 0 && processed.load() == tree_items(depth), "%u workers: %d, %llu items", workers,
          err, static_cast<unsigned long long>(processed.load()));
}

} // namespace

int main()
{
    // A sanitizer's own thread starts with the first thread the process
    // creates: before any count is taken.
    normal_run(2);
    for (unsigned workers = 1; workers <= 3; workers++) {
        for (unsigned thrower : {0u, workers - 1}) {
            for (int round = 0; round < 20; round++)
                throw_once(workers, thrower, round);
            std::printf("ok: %u worker%s, thrown on worker %u%s: rethrown 20 times, threads "
                        "joined\n",
                        workers, workers == 1 ? "" : "s", thrower,
                        thrower == 0 ? " (the caller's)" : "");
            if (workers == 1)
                break; // worker 0 is the only one
        }
        all_throw(workers);
        cancel(workers);
        normal_run(workers);
        std::printf("ok: %u worker%s: every worker throws (one rethrown), weft_pool_cancel "
                    "(ECANCELED), then a normal run\n",
                    workers, workers == 1 ? "" : "s");
    }
    // A failed start is a return value, as with weft_pool_run.
    weft_pool_config cfg = config(1);
    cfg.item_size = 0;
    std::uint64_t root = 1;
    std::fprintf(stderr, "(a message about item_size is expected next)\n");
    CHECK(weft::pool_run(cfg, &root, 1, [](weft_pool_ctx *, void *) {}) == EINVAL, "item_size 0");
    std::printf("ok: a bad configuration returns EINVAL\n");
    return 0;
}
