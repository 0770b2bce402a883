// SPDX-License-Identifier: Apache-2.0
// A Lace program's tasks reached through weft's own entries from outside
// the pool (WEFT_RUN, weft::parallel_for from main) keep Lace's rules
// (docs/lace.md, "Entering the pool from weft's APIs"):
//   - they run on the workers' threads, where a TOGETHER set up the
//     per-worker thread-locals Lace programs keep (Sylvan's way), never on
//     the calling thread as a borrowed worker;
//   - after lace_suspend they run, the workers resumed for the call, as
//     Lace's own RUN does, instead of waiting for a weft_resume that a Lace
//     program never calls.
// At 1, 2, 3 and 8 workers (more than the CPUs), in modes 1.4 and 1.6.
#include <lace.h>
#include <weft/weft.hpp>

#include <atomic>
#include <cstdio>

#include "lace_entries.hpp"

// Each worker's mark: its id + 1, set by a TOGETHER on its own thread.
static thread_local int tls_mark;

VOID_TASK_0(mark) { tls_mark = LACE_WORKER_ID + 1; }

// 1 if the task runs on a worker's thread with that worker's mark.
TASK_1(int, marked_here, int, i)
{
    (void)i;
    return tls_mark != 0 && tls_mark == LACE_WORKER_ID + 1;
}

// weft's own task, reaching the Lace task with LACE_ME.
WEFT_TASK_1(int, weft_entry, int, i)
{
    LACE_ME;
    return CALL(marked_here, i);
}

static int through_weft_run()
{
    int ok = 0;
    for (int i = 0; i < CALLS; i++) {
        let_workers_sleep(i);
        ok += WEFT_RUN(weft_entry, i);
    }
    return ok;
}

static int through_parallel_for()
{
    std::atomic<int> ok{0};
    for (int round = 0; round < 4; round++) {
        let_workers_sleep(0);
        weft::parallel_for(0, CALLS / 4, [&](int i) {
            LACE_ME;
            ok += CALL(marked_here, i);
        });
    }
    return ok.load();
}

int main()
{
    watch_for_hangs();
    for (unsigned workers : {1u, 2u, 3u, 8u}) {
        lace_start(workers, 0);
        TOGETHER(mark);
        int ok = through_weft_run();
        CHECK(ok == CALLS,
              "%u workers, WEFT_RUN from main: %d of %d Lace tasks saw their "
              "worker's thread-local",
              workers, ok, CALLS);
        ok = through_parallel_for();
        CHECK(ok == CALLS,
              "%u workers, parallel_for from main: %d of %d Lace tasks saw their "
              "worker's thread-local",
              workers, ok, CALLS);

        // Suspended, as a driver leaves Lace between operations: weft's
        // entries resume the workers for their task, as Lace's RUN does.
        lace_suspend();
        ok = through_weft_run();
        CHECK(ok == CALLS, "%u workers, WEFT_RUN after lace_suspend: %d of %d", workers, ok, CALLS);
        ok = through_parallel_for();
        CHECK(ok == CALLS, "%u workers, parallel_for after lace_suspend: %d of %d", workers, ok,
              CALLS);
        lace_suspend(); // twice: the count is -1
        ok = RUN(marked_here, 0) + through_weft_run();
        CHECK(ok == CALLS + 1, "%u workers, suspended twice: %d of %d", workers, ok, CALLS + 1);
        lace_resume();
        lace_resume();
        ok = through_weft_run();
        CHECK(ok == CALLS, "%u workers, resumed: %d of %d", workers, ok, CALLS);
        lace_stop();
    }
    std::printf("ok: Lace 1.%d tasks through WEFT_RUN and parallel_for from main run on the "
                "workers' threads, suspended or not\n",
                LACE_VERSION_MINOR);

    // Each API stops only the pool it started: a weft::scheduler stopped
    // by hand, then Lace started, leaves Lace's pool to lace_stop (its
    // destructor stopped it, and the next RUN was refused as "after
    // lace_stop"); lace_stop leaves a pool weft_start started, and says so.
    {
        weft::scheduler s(2);
        CHECK(weft::run([] { return 1; }) == 1, "a run on the scheduler");
        CHECK(weft_stop() == 0, "weft_stop before the scheduler's end");
        lace_start(3, 0);
    }
    CHECK(weft_workers() == 3 && RUN(marked_here, 0) >= 0, "Lace's pool stopped by ~scheduler");
    lace_stop();
    CHECK(weft_start(2, 0, 0) == 0, "weft_start");
    lace_stop(); // says the pool is weft_start's, and leaves it
    CHECK(weft_workers() == 2, "lace_stop stopped weft_start's pool");
    CHECK(weft_stop() == 0, "weft_stop");
    std::printf("ok: ~scheduler and lace_stop stop only the pool they started\n");
    return 0;
}
