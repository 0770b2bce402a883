// SPDX-License-Identifier: Apache-2.0
/* The sleep protocol: idle workers go to sleep; sleeping workers are woken
 * when work appears (an external RUN, or a busy worker's private tasks);
 * a worker blocked on a stolen task sleeps and is woken when it completes.
 * White-box: reads the sleep words and counts in the pool.  Timeouts here
 * only bound how long we wait for an event that must happen; a lost
 * wake-up shows as a failed or hung test, never as a slow pass. */
#include "check.h"
#include "timing.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <weft/weft.h>

#include "runtime/sleep.h"
#include "runtime/state.h"

static bool all_asleep(void) { return atomic_load(&weft__rt.sleeping_idle) == weft__rt.n_workers; }

WEFT_TASK_0(int, nothing) { return 1; }

static atomic_uint ran_on[64];
WEFT_TASK_1(int, leaf, unsigned, us)
{
    atomic_fetch_add(&ran_on[weft_worker_id(weft_w) % 64], 1);
    busy_us(us);
    return 1;
}

/* Sequential work first (nobody can help), then many parallel leaves. */
WEFT_TASK_2(int, late_parallelism, unsigned, leaves, unsigned, us)
{
    busy_us(20000);
    for (unsigned i = 0; i < leaves; i++)
        WEFT_SPAWN(leaf, us);
    int sum = 0;
    for (unsigned i = 0; i < leaves; i++)
        sum += WEFT_SYNC(leaf);
    return sum;
}

/* The joiner/thief pair. */
static atomic_int child_started;
static atomic_int joiner_seen_sleeping;
/* Run by the thief: waits (at most 10 s) until its victim sleeps at the
 * blocked SYNC, and records that it did. */
static void wait_for_joiner_to_sleep(unsigned victim)
{
    atomic_store(&child_started, 1);
    weft_worker *v = weft__rt.workers[victim];
    double end = now_s() + 10.0;
    while (now_s() < end) {
        int s = WEFT_SLEEP_KIND(atomic_load(&v->sleep_word));
        if (s == WEFT_SLEEP_JOIN || s == WEFT_SLEEP_JOIN_LEAP) {
            atomic_store(&joiner_seen_sleeping, 1);
            return;
        }
    }
}
WEFT_TASK_1(int, slow_child, unsigned, victim)
{
    wait_for_joiner_to_sleep(victim);
    return 99;
}
WEFT_TASK_0(int, parent)
{
    atomic_store(&child_started, 0);
    WEFT_SPAWN(slow_child, weft_worker_id(weft_w));
    /* Wait until a thief took it.  The split deque shares it at once; the
     * private-deque schedulers hand work out only when the owner polls,
     * which a waiting task does with WEFT_YIELD. */
    while (!atomic_load(&child_started)) {
        WEFT_YIELD();
        sched_yield();
    }
    return WEFT_SYNC(slow_child);
}

static void nap_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Leaves that nap: they need no CPU, so on 2 cores every worker that is
 * awake can run one at the same time, and which workers ran leaves shows
 * who was woken. */
WEFT_TASK_1(int, nap_leaf, unsigned, ms)
{
    atomic_fetch_add(&ran_on[weft_worker_id(weft_w) % 64], 1);
    nap_ms(ms);
    return 1;
}

/* One long task first (it takes the only shared slot and the one sleeper
 * the push wakes), then short ones: the other sleepers asked the root's
 * worker once, before they slept; the thief that takes the long task must
 * renew that request for them, or they sleep through all of it. */
WEFT_TASK_0(int, long_then_short)
{
    WEFT_SPAWN(nap_leaf, 300);
    for (int i = 0; i < 7; i++)
        WEFT_SPAWN(nap_leaf, 60);
    int sum = 0;
    for (int i = 0; i < 8; i++)
        sum += WEFT_SYNC(nap_leaf);
    return sum;
}

/* Runs on a thief while its victim `joiner` is blocked at SYNC(work_later):
 * waits until the joiner sleeps, then makes work the joiner can take (a
 * leapfrogging joiner only from us). */
WEFT_TASK_1(int, work_later, unsigned, joiner)
{
    wait_for_joiner_to_sleep(joiner);
    for (int i = 0; i < 8; i++)
        WEFT_SPAWN(nap_leaf, 50);
    int sum = 0;
    for (int i = 0; i < 8; i++)
        sum += WEFT_SYNC(nap_leaf);
    return sum;
}
static _Atomic unsigned root_worker;
WEFT_TASK_0(int, join_then_help)
{
    atomic_store(&root_worker, weft_worker_id(weft_w));
    atomic_store(&child_started, 0);
    WEFT_SPAWN(work_later, weft_worker_id(weft_w));
    while (!atomic_load(&child_started)) { /* as in `parent` */
        WEFT_YIELD();
        sched_yield();
    }
    return WEFT_SYNC(work_later);
}

/* A task that runs long without spawning, yielding, while its own tasks
 * wait: they are handed out at its WEFT_YIELD (the split deque serves a
 * request there as at a SPAWN; the private deques and Wool's poll).  The
 * first task spawned (which the split deque shares at once, from an empty
 * deque) does not count: only one of the later, private ones run on
 * another worker ends the wait.  Sleepers asked before they slept; the
 * yield that shares wakes them. */
static _Atomic unsigned taken_elsewhere;
WEFT_TASK_1(int, mark_leaf, int, counts)
{
    if (counts && weft_worker_id(weft_w) != atomic_load(&root_worker))
        atomic_store(&taken_elsewhere, 1);
    return 1;
}
WEFT_TASK_0(int, yield_until_taken)
{
    atomic_store(&root_worker, weft_worker_id(weft_w));
    atomic_store(&taken_elsewhere, 0);
    WEFT_SPAWN(mark_leaf, 0);
    for (int i = 0; i < 6; i++)
        WEFT_SPAWN(mark_leaf, 1);
    double give_up = now_s() + 60.0;
    while (!atomic_load(&taken_elsewhere)) {
        WEFT_YIELD();
        CHECK(now_s() < give_up, "60 s of WEFT_YIELD and none of the task's 6 private tasks was "
                                 "taken by another worker");
    }
    int sum = 0;
    for (int i = 0; i < 7; i++)
        sum += WEFT_SYNC(mark_leaf);
    return sum;
}

static unsigned workers_that_ran(unsigned n)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n && i < 64; i++)
        k += atomic_load(&ran_on[i]) > 0;
    return k;
}

static void clear_ran_on(void)
{
    for (int i = 0; i < 64; i++)
        atomic_store(&ran_on[i], 0);
}

int main(void)
{
    /* Every worker takes part here, however many CPUs there are: the
     * active limit (test_active_limit) would keep some out of the sleeps
     * counted below. */
    setenv("WEFT_ACTIVE_LIMIT", "0", 1);
    for (size_t wi = 0; wi < N_TEST_WORKER_COUNTS; wi++) {
        unsigned n = test_worker_counts[wi];
        CHECK(weft_start(n, 0, 0) == 0, "start");
        CHECK(WEFT_RUN(nothing) == 1, "run");
        CHECK(eventually(all_asleep, 10.0), "%u of %u workers asleep",
              atomic_load(&weft__rt.sleeping_idle), n);

        /* An external RUN while all sleep (it borrows a sleeper, which is
         * asleep again afterwards; docs/sleep.md). */
        CHECK(WEFT_RUN(nothing) == 1, "run while all sleep");

        if (n >= 2) {
            /* A busy worker's new tasks wake the sleepers. */
            CHECK(eventually(all_asleep, 10.0), "asleep again");
            for (int i = 0; i < 64; i++)
                atomic_store(&ran_on[i], 0);
            CHECK(WEFT_RUN(late_parallelism, 200, 1000) == 200, "late parallelism");
            unsigned helpers = 0;
            for (unsigned i = 0; i < n && i < 64; i++)
                helpers += atomic_load(&ran_on[i]) > 0;
            CHECK(helpers >= 2, "sleeping workers never woke to help (%u worker ran all leaves)",
                  helpers);

            /* A joiner sleeps on a long stolen task and wakes when it ends. */
            atomic_store(&joiner_seen_sleeping, 0);
            CHECK(WEFT_RUN(parent) == 99, "join result");
            CHECK(atomic_load(&joiner_seen_sleeping), "the blocked joiner never slept");
        }
        if (n >= 3) {
            /* Sleepers beyond the first are woken for the short tasks. */
            CHECK(eventually(all_asleep, 10.0), "asleep again");
            clear_ran_on();
            CHECK(WEFT_RUN(long_then_short) == 8, "long then short");
            CHECK(workers_that_ran(n) >= 3,
                  "only %u workers ran the 8 napping tasks: sleepers were not asked for",
                  workers_that_ran(n));
        }
        if (n == 2) {
            /* A joiner asleep at a blocked SYNC wakes for its thief's new
             * work (leapfrogging or not) instead of sleeping through it. */
            clear_ran_on();
            atomic_store(&joiner_seen_sleeping, 0);
            CHECK(WEFT_RUN(join_then_help) == 8, "join then help");
            CHECK(atomic_load(&joiner_seen_sleeping), "the blocked joiner never slept");
            unsigned j = atomic_load(&root_worker);
            CHECK(atomic_load(&ran_on[j]) >= 1,
                  "the sleeping joiner (worker %u) ran none of its thief's 8 tasks", j);
        }
        if (n >= 2) {
            CHECK(eventually(all_asleep, 10.0), "asleep again");
            CHECK(WEFT_RUN(yield_until_taken) == 7, "yield until taken");
        }
        CHECK(weft_stop() == 0, "stop");
        printf("ok: sleep and wake at %u workers\n", n);
    }
    return 0;
}
