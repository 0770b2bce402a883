// SPDX-License-Identifier: Apache-2.0
/* RUNs from outside that wait for each other, in a pool whose active limit
 * keeps one worker at work (docs/configuration.md#at-most-as-many-at-work-as-cpus):
 * the RUN another waits for must still run, taken by a surplus worker over
 * the limit (docs/sleep.md).  Each RUN is handed to a worker, as a Lace
 * program's RUN from outside is (weft__run_task_on_worker), not run by its
 * caller as a borrower.
 *
 *   chain:   A's task waits for X; Y's task, queued before X, waits for X
 *            too; X is queued last, by a thread whose last RUN was long,
 *            so that its caller sleeps at once and asks first.  The
 *            surplus worker woken for X's ask takes Y (the queue's head)
 *            and must pass the wake on: Y's caller, its RUN taken, never
 *            asks.
 *   signals: A's task waits for X, whose caller gets a signal every 50 us
 *            while it sleeps: its wait for a worker must still end. */
#include "check.h"
#include "timing.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <weft/weft.h>

#include "runtime/frontend.h"
#include "runtime/state.h"

/* The Linux name of the thread a SIGEV_THREAD_ID timer signals; glibc's
 * headers here name only the union member behind it. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* Every RUN of this file is handed to a worker. */
#undef WEFT_NATIVE_RUN
#define WEFT_NATIVE_RUN weft__run_task_on_worker

static atomic_int a_running, x_done, go;

/* Keeps its worker until X has run (no interrupt point: a plain spin). */
WEFT_TASK_1(int, wait_for_x, int, tag)
{
    (void)weft_w, (void)weft_head;
    atomic_store(&a_running, 1);
    while (!atomic_load(&x_done)) {
    }
    return tag;
}

WEFT_TASK_1(int, busy, unsigned, us)
{
    (void)weft_w, (void)weft_head;
    busy_us(us);
    return 0;
}

WEFT_TASK_0(int, set_x)
{
    (void)weft_w, (void)weft_head;
    atomic_store(&x_done, 1);
    return 7;
}

static void *run_a(void *arg)
{
    *(int *)arg = WEFT_RUN(wait_for_x, 1);
    return NULL;
}

static void *run_y(void *arg)
{
    while (!atomic_load(&go)) {
    }
    *(int *)arg = WEFT_RUN(wait_for_x, 2);
    return NULL;
}

static void *run_x(void *arg)
{
    /* A long RUN first: this thread's next wait starts asleep. */
    CHECK(WEFT_RUN(busy, 3000) == 0, "the long RUN");
    while (!atomic_load(&go)) {
    }
    busy_us(10); /* queued after Y's */
    *(int *)arg = WEFT_RUN(set_x);
    return NULL;
}

static void on_signal(int sig) { (void)sig; }

/* X's RUN while a timer signals this thread every 50 us. */
static void *run_x_signalled(void *arg)
{
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGUSR1;
    sev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
    timer_t timer;
    CHECK(timer_create(CLOCK_MONOTONIC, &sev, &timer) == 0, "timer_create");
    struct itimerspec every = {{0, 50000}, {0, 50000}};
    CHECK(timer_settime(timer, 0, &every, NULL) == 0, "timer_settime");
    *(int *)arg = WEFT_RUN(set_x);
    timer_delete(timer);
    return NULL;
}

WEFT_TASK_0(int, nop)
{
    (void)weft_w, (void)weft_head;
    return 0;
}

static bool x_ran(void) { return atomic_load(&x_done) != 0; }

/* Until both other workers wait as surplus workers: a worker asleep as
 * idle is woken by each RUN and, at the limit, waits as surplus instead
 * (its RUN is taken over the limit once its caller asks). */
static void settle_surplus(const char *what)
{
    if (weft__rt.active_limit == 0)
        return; /* a scheduler without the limit (private deques) */
    double end = now_s() + 30.0;
    while (atomic_load(&weft__rt.surplus) < 2 && now_s() < end)
        CHECK(WEFT_RUN(nop) == 0, "%s: a RUN beside A's", what);
    CHECK(atomic_load(&weft__rt.surplus) == 2, "%s: %u surplus workers, not 2", what,
          atomic_load(&weft__rt.surplus));
}
static bool a_started(void) { return atomic_load(&a_running) != 0; }

static void one_round(const char *what, bool signals)
{
    atomic_store(&a_running, 0);
    atomic_store(&x_done, 0);
    atomic_store(&go, 0);
    int ra = 0, ry = 0, rx = 0;
    pthread_t a, y, x;
    CHECK(pthread_create(&a, NULL, run_a, &ra) == 0, "thread A");
    CHECK(eventually(a_started, 30.0), "%s: A's RUN never started", what);
    settle_surplus(what);
    if (!signals)
        CHECK(pthread_create(&y, NULL, run_y, &ry) == 0, "thread Y");
    CHECK(pthread_create(&x, NULL, signals ? run_x_signalled : run_x, &rx) == 0, "thread X");
    if (!signals) {
        struct timespec long_run = {0, 10000000};
        nanosleep(&long_run, NULL); /* X's long RUN is over */
        settle_surplus(what);
    }
    atomic_store(&go, 1);
    /* A second is a thousand times what X needs (its caller asks after 1
     * ms asleep); 30 s leaves room for a loaded machine. */
    CHECK(eventually(x_ran, 30.0),
          "%s: X never ran (asks %u, surplus %u, queued %u, active %u): a RUN waited for by "
          "the running tasks was left queued",
          what, atomic_load(&weft__rt.surplus_asks), atomic_load(&weft__rt.surplus),
          atomic_load(&weft__external_queued), atomic_load(&weft__rt.active));
    pthread_join(a, NULL);
    if (!signals)
        pthread_join(y, NULL);
    pthread_join(x, NULL);
    CHECK(ra == 1 && rx == 7 && (signals || ry == 2), "%s: results %d %d %d", what, ra, ry, rx);
}

int main(void)
{
    setenv("WEFT_OVERSUBSCRIBE", "1", 1);
    setenv("WEFT_ACTIVE_LIMIT", "1", 1);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: the sleeps return early */
    CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
    CHECK(weft_start(3, 0, 0) == 0, "start 3 workers with WEFT_ACTIVE_LIMIT=1");
    for (int round = 0; round < 20; round++)
        one_round("chain", false);
    for (int round = 0; round < 5; round++)
        one_round("signals", true);
    /* Every ask was withdrawn, by its RUN's taker or its caller. */
    CHECK(atomic_load(&weft__rt.surplus_asks) == 0, "%u asks left standing",
          atomic_load(&weft__rt.surplus_asks));
    CHECK(weft_stop() == 0, "stop");
    printf("ok: RUNs that wait for each other with %s (20 chains, 5 under signals)\n",
           weft__rt.active_limit ? "one worker at work" : "no limit (this scheduler has none)");
    return 0;
}
