// SPDX-License-Identifier: Apache-2.0
/* An idle worker whose core another thread wants parks without waiting for
 * its idle search to run out (runtime/parking.c): a yield that gives the
 * core away for a time slice ends the search.  The process is held to one
 * CPU with a busy thread on it and the search set to 10 s, so only that
 * rule can put the workers to sleep within the 5 s this test waits; after
 * the busy thread stops they still wake for work.  White-box: reads the
 * pool's sleeper count. */
#include "check.h"
#include "timing.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <weft/weft.h>

#include "fib_task.h"
#include "runtime/state.h"

static atomic_bool stop_busy;

static void *busy(void *arg)
{
    (void)arg;
    while (!atomic_load_explicit(&stop_busy, memory_order_relaxed)) {
    }
    return NULL;
}

int main(void)
{
    /* Every worker takes part here, however many CPUs there are: the
     * active limit (test_active_limit) would keep some out of the sleeps
     * counted below. */
    setenv("WEFT_ACTIVE_LIMIT", "0", 1);
    cpu_set_t mask;
    CHECK(sched_getaffinity(0, sizeof mask, &mask) == 0, "getaffinity");
    int cpu = 0;
    while (!CPU_ISSET(cpu, &mask))
        cpu++;
    CPU_ZERO(&mask);
    CPU_SET(cpu, &mask);
    CHECK(sched_setaffinity(0, sizeof mask, &mask) == 0, "hold the process to CPU %d", cpu);
    setenv("WEFT_OVERSUBSCRIBE", "1", 1);

    pthread_t busy_thread;
    CHECK(pthread_create(&busy_thread, NULL, busy, NULL) == 0, "busy thread");

    weft_config cfg;
    CHECK(weft_config_init(&cfg) == 0, "config");
    cfg.workers = 3;
    cfg.idle_spin_us = 10000000; /* the search alone would last 10 s */
    CHECK(weft_start_config(&cfg) == 0, "start");
    CHECK(WEFT_RUN(pfib, 15) == fib_ref(15), "fib 15");

    double start = now_s();
    while (atomic_load(&weft__rt.sleeping_idle) != weft__rt.n_workers && now_s() < start + 5.0) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    unsigned asleep = atomic_load(&weft__rt.sleeping_idle);
    double took = now_s() - start;
    CHECK(asleep == weft__rt.n_workers,
          "%u of %u idle workers asleep after %.1f s beside a busy thread (their search is 10 s)",
          asleep, weft__rt.n_workers, took);

    atomic_store(&stop_busy, true);
    pthread_join(busy_thread, NULL);
    CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "fib 20 after the workers slept");
    CHECK(weft_stop() == 0, "stop");
    printf("ok: 3 idle workers beside a busy thread on one CPU asleep after %.3f s\n", took);
    return 0;
}
