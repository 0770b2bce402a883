// SPDX-License-Identifier: Apache-2.0
// Lace 2's tasks reached through weft's own entries from outside the pool
// (WEFT_RUN, weft::parallel_for from main) keep Lace's rules
// (docs/lace.md, "Entering the pool from weft's APIs"): they run on the
// workers' threads, where a TOGETHER set up per-worker thread-locals, and
// they run after lace_suspend, the workers resumed for them.  At 1, 2, 3
// and 8 workers (more than the CPUs).
#include <lace.h>
#include <weft/weft.hpp>

#include <atomic>
#include <cstdio>

#include "lace_entries.hpp"

// Each worker's mark: its id + 1, set by a TOGETHER on its own thread.
static thread_local int tls_mark;

TASK(void, mark)
void mark_CALL(lace_worker *) { tls_mark = lace_worker_id() + 1; }

// 1 if the task runs on a worker's thread with that worker's mark.
TASK(int, marked_here, int, i)
int marked_here_CALL(lace_worker *, int i)
{
    (void)i;
    return tls_mark != 0 && tls_mark == lace_worker_id() + 1;
}

// weft's own task, reaching the Lace task from the worker it runs on.
WEFT_TASK_1(int, weft_entry, int, i) { return marked_here_CALL(lace_get_worker(), i); }

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
        weft::parallel_for(0, CALLS / 4,
                           [&](int i) { ok += marked_here_CALL(lace_get_worker(), i); });
    }
    return ok.load();
}

int main()
{
    watch_for_hangs();
    for (unsigned workers : {1u, 2u, 3u, 8u}) {
        lace_start(workers, 0, 0);
        mark_TOGETHER();
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
        lace_suspend();
        ok = through_weft_run() + marked_here(0);
        CHECK(ok == CALLS + 1, "%u workers, WEFT_RUN and NAME() after lace_suspend: %d of %d",
              workers, ok, CALLS + 1);
        ok = through_parallel_for();
        CHECK(ok == CALLS, "%u workers, parallel_for after lace_suspend: %d of %d", workers, ok,
              CALLS);
        lace_resume();
        lace_stop();
    }
    std::printf("ok: Lace 2 tasks through WEFT_RUN and parallel_for from main run on the "
                "workers' threads, suspended or not\n");
    return 0;
}
