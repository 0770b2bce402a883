// SPDX-License-Identifier: Apache-2.0
/* A step of the wall clock does not hold a work pool's run.
 *
 * A pool runs inside a task at one fork-join worker.  Item 0 cancels the
 * run at once; item 1, on the pool's thread 1, sleeps a little and then
 * RUNs a task, which only the fork-join worker can take: that worker
 * serves RUNs while it joins the pool's threads, waking now and then.
 * This program reads CLOCK_REALTIME a day ahead (its own clock_gettime,
 * which the library's calls reach too), as a deadline computed just
 * before the wall clock is stepped back a day would be.  A wait timed on
 * the wall clock then lasts a day; the alarm says so.
 *
 * Usage: test_pool_clock_step
 */
#include "../check.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <weft/pool.h>
#include <weft/weft.h>

#include "fib_task.h"

#define DAY_S 86400

int clock_gettime(clockid_t id, struct timespec *ts)
{
    long r = syscall(SYS_clock_gettime, id, ts);
    if (r != 0)
        return -1;
    if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)
        ts->tv_sec += DAY_S;
    return 0;
}

static _Atomic long item1_result = -1;
static _Atomic int item1_worker = -1;

static void process(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    if (*(int *)item == 0) {
        weft_pool_cancel(ctx);
        return;
    }
    atomic_store(&item1_worker, (int)weft_pool_worker_id(ctx));
    usleep(50000); /* the fork-join worker is joining by now */
    atomic_store(&item1_result, WEFT_RUN(pfib, 15));
}

WEFT_TASK_0(int, pool_task)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = 2;
    int items[2] = {0, 1};
    return weft_pool_run(&cfg, items, 2, process, NULL, NULL);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: a work pool's run did not end in 60 s with the wall clock "
                              "a day ahead: its join waits on the wall clock\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    _exit(1);
}

int main(void)
{
    struct timespec real, mono;
    CHECK(clock_gettime(CLOCK_REALTIME, &real) == 0 &&
              syscall(SYS_clock_gettime, CLOCK_REALTIME, &mono) == 0,
          "clock_gettime");
    CHECK(real.tv_sec - mono.tv_sec >= DAY_S - 1,
          "this program's clock_gettime is not the one called (%lld s ahead)",
          (long long)(real.tv_sec - mono.tv_sec));
    signal(SIGALRM, on_alarm);
    alarm(60);
    CHECK(weft_start(1, 0, 0) == 0, "weft_start(1)");
    for (int round = 0; round < 3; round++) {
        atomic_store(&item1_result, -1);
        atomic_store(&item1_worker, -1);
        int e = WEFT_RUN(pool_task);
        CHECK(e == ECANCELED, "round %d: weft_pool_run returned %d, not ECANCELED", round, e);
        /* Item 1 on the pool's own thread is the case: on worker 0 its
         * RUN would run in place, with no join to wait in. */
        CHECK(atomic_load(&item1_worker) == 1, "round %d: item 1 ran on pool worker %d, not 1",
              round, atomic_load(&item1_worker));
        CHECK(atomic_load(&item1_result) == fib_ref(15), "round %d: item 1's RUN gave %ld, not %ld",
              round, atomic_load(&item1_result), (long)fib_ref(15));
    }
    weft_stop();
    alarm(0);
    printf("test_pool_clock_step: passed\n");
    return 0;
}
