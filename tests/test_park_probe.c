// SPDX-License-Identifier: Apache-2.0
/* A worker woken on the CPU of the thread that woke it begins its next
 * idle hold with a yield (runtime/parking.h, weft__park_probe_core): it
 * took that CPU over, and holding it would keep the waker from the work it
 * woke the worker for.  A worker woken elsewhere holds as before, and so
 * does a probed thread once its probing yield came back at once.
 *
 * White-box: the parking steps are called directly, with a hold and a
 * search of a second each, and the process's sched_yield calls, which
 * this file defines, are counted (they return at once: no core is ever
 * shared with them).  Then a pool of one worker is handed a RUN while its
 * worker sleeps, with the caller on the worker's CPU and on another, and
 * the task asks its worker whether its next hold will yield. */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <weft/weft.h>

#include "runtime/frontend.h"
#include "runtime/parking.h"
#include "runtime/sleep.h"
#include "runtime/state.h"

/* Every RUN of this file is handed to a worker, as a Lace front-end's. */
#undef WEFT_NATIVE_RUN
#define WEFT_NATIVE_RUN weft__run_task_on_worker

static atomic_int yields;

int sched_yield(void)
{
    atomic_fetch_add(&yields, 1);
    return 0;
}

#define SPIN_US 1000000u
#define HOLD_NS 1000000000u

/* One step of an idle search begun at *since (0: begins now): whether it
 * yielded.  The search is a second long, so it never says "park". */
static bool step_yields(uint64_t *since)
{
    int before = atomic_load(&yields);
    CHECK(!weft__park_hold_or_yield(since, SPIN_US, HOLD_NS), "a step of a 1 s search said park");
    return atomic_load(&yields) != before;
}

/* Each case on a thread of its own: the parking state is per thread. */
static void on_fresh_thread(void *(*fn)(void *), void *arg)
{
    pthread_t t;
    CHECK(pthread_create(&t, NULL, fn, arg) == 0, "pthread_create");
    CHECK(pthread_join(t, NULL) == 0, "pthread_join");
}

typedef struct steps {
    bool first, second;
} steps;

/* A thread that has not slept holds its core: no yield in a hold. */
static void *never_slept(void *arg)
{
    steps *st = arg;
    uint64_t since = 0;
    st->first = step_yields(&since);
    st->second = step_yields(&since);
    return NULL;
}

/* Asked to probe: the next step yields. */
static void *probed(void *arg)
{
    steps *st = arg;
    uint64_t since = 0;
    /* A fresh thread's first calls are slow under the sanitizers: not
     * the timed yield's. */
    (void)step_yields(&since);
    (void)sched_yield();
    weft__park_probe_core();
    st->first = step_yields(&since);
    st->second = step_yields(&since);
    return NULL;
}

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

WEFT_TASK_0(int, probe_pending_here)
{
    (void)weft_w, (void)weft_head;
    return weft__park_probe_pending();
}

static void pin_self(int cpu)
{
    cpu_set_t m;
    CPU_ZERO(&m);
    CPU_SET(cpu, &m);
    CHECK(sched_setaffinity(0, sizeof m, &m) == 0, "hold the thread to CPU %d", cpu);
}

/* A pool of one worker on worker_cpu, the caller on caller_cpu: hands the
 * sleeping worker a RUN, and returns whether its next hold will yield. */
static bool woken_worker_probes(int worker_cpu, int caller_cpu)
{
    pin_self(worker_cpu); /* the worker's thread inherits it */
    weft_config cfg;
    CHECK(weft_config_init(&cfg) == 0, "config");
    cfg.workers = 1;
    cfg.idle_spin_us = 1000;
    CHECK(weft_start_config(&cfg) == 0, "start");
    pin_self(caller_cpu);
    /* Past its last look (lendable): only a claim ends this sleep. */
    int waited_ms = 0;
    while (atomic_load(&weft__rt.workers[0]->sleep_word) != WEFT_SLEEP_IDLE_LENDABLE) {
        CHECK(waited_ms < 60000, "the idle worker never went to sleep");
        pause_ms(1);
        waited_ms++;
    }
    int probes = WEFT_RUN(probe_pending_here);
    CHECK(weft_stop() == 0, "stop");
    return probes != 0;
}

int main(void)
{
    /* A slow yield (a loaded machine) must not end the search: the
     * parking rule that would is test_sleep_contended's. */
    weft__park_on_contended_yield = false;
    (void)sched_yield(); /* the counter's first use, before any timed one */

    steps st;
    on_fresh_thread(never_slept, &st);
    CHECK(!st.first && !st.second, "a thread that never slept yielded during its hold");

    /* The probing yield comes first, every time.  After it the hold goes
     * on, unless the yield itself took long (the thread preempted in it,
     * on a loaded machine: then the core counts as shared and the thread
     * yields on, by the existing rule), so that is asked of some round. */
    bool resumed_after_probe = false;
    for (int round = 0; round < 10; round++) {
        on_fresh_thread(probed, &st);
        CHECK(st.first, "round %d: a probed hold did not begin with a yield", round);
        resumed_after_probe |= !st.second;
    }
    CHECK(resumed_after_probe, "the hold never resumed after a quick probing yield");

    /* The pool: a worker woken on its waker's CPU probes, one woken on
     * another CPU does not. */
    cpu_set_t mask;
    CHECK(sched_getaffinity(0, sizeof mask, &mask) == 0, "getaffinity");
    int cpus[2], found = 0;
    for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
        if (CPU_ISSET(c, &mask))
            cpus[found++] = c;
    for (int round = 0; round < 3; round++)
        CHECK(woken_worker_probes(cpus[0], cpus[0]),
              "round %d: a worker woken on its waker's CPU held it", round);
    if (found == 2) {
        for (int round = 0; round < 3; round++)
            CHECK(!woken_worker_probes(cpus[0], cpus[1]),
                  "round %d: a worker woken on a CPU of its own yielded first", round);
    } else {
        printf("note: one CPU: a worker woken on another CPU than its waker's is not tried\n");
    }
    CHECK(sched_setaffinity(0, sizeof mask, &mask) == 0, "restore the affinity");
    printf("ok: a worker woken on its waker's CPU yields first, then holds\n");
    return 0;
}
