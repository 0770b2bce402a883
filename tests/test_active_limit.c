// SPDX-License-Identifier: Apache-2.0
/* The active limit (docs/configuration.md#at-most-as-many-at-work-as-cpus): with
 * more workers than the limit, the surplus waits instead of taking work,
 * at least `limit` workers always stay out of that wait, every worker
 * still takes part in TOGETHER, weft_suspend and weft_stop, and the
 * answers are the sequential ones.  The limit is set explicitly
 * (WEFT_ACTIVE_LIMIT), so the test does not depend on this machine's CPUs;
 * the default (the CPUs the pool may use) is checked against the default
 * worker count.  White-box: reads the pool's counts. */
#include "check.h"
#include "timing.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <weft/weft.h>

#include "fib_task.h"
#include "runtime/sched.h"
#include "runtime/state.h"

static bool none_active(void) { return atomic_load(&weft__rt.active) == 0; }

/* Samples the surplus count while the pool runs: its maximum. */
static atomic_bool sampling;
static atomic_uint most_surplus;
static void *sampler(void *arg)
{
    (void)arg;
    while (atomic_load(&sampling)) {
        unsigned s = atomic_load(&weft__rt.surplus);
        if (s > atomic_load(&most_surplus))
            atomic_store(&most_surplus, s);
    }
    return NULL;
}

/* Many short stolen tasks: every thief comes back to the top level (and
 * the limit) after each. */
WEFT_TASK_1(int, leaf, unsigned, us)
{
    busy_us(us);
    return 1;
}
WEFT_TASK_2(int, leaves, unsigned, count, unsigned, us)
{
    if (count == 1)
        return WEFT_CALL(leaf, us);
    WEFT_SPAWN(leaves, count / 2, us);
    int right = WEFT_CALL(leaves, count - count / 2, us);
    return WEFT_SYNC(leaves) + right;
}

static atomic_uint together_hits;
WEFT_VOID_TASK_0(count_copy) { atomic_fetch_add(&together_hits, 1); }
WEFT_VOID_TASK_0(together_root) { WEFT_TOGETHER(count_copy); }

static void run_with_limit(unsigned n, unsigned limit)
{
    char value[16];
    snprintf(value, sizeof value, "%u", limit);
    setenv("WEFT_ACTIVE_LIMIT", value, 1);
    CHECK(weft_start(n, 0, 0) == 0, "start %u workers, limit %u", n, limit);
    unsigned expected = weft__sched_hands_out_tasks || limit >= n ? 0 : limit;
    CHECK(weft__rt.active_limit == expected, "%u workers, WEFT_ACTIVE_LIMIT=%u: limit %u, not %u",
          n, limit, weft__rt.active_limit, expected);

    atomic_store(&sampling, true);
    atomic_store(&most_surplus, 0);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, sampler, NULL) == 0, "sampler");
    for (int round = 0; round < 10; round++)
        CHECK(WEFT_RUN(pfib, 25) == fib_ref(25), "fib 25, %u workers, limit %u", n, limit);
    for (int round = 0; round < 3; round++)
        CHECK(WEFT_RUN(leaves, 300, 100) == 300, "300 leaves, %u workers, limit %u", n, limit);
    unsigned surplus_after_runs = atomic_load(&weft__rt.surplus);

    /* Every worker runs a TOGETHER copy: the surplus is woken for it. */
    for (int round = 0; round < 5; round++) {
        atomic_store(&together_hits, 0);
        WEFT_RUN(together_root);
        CHECK(atomic_load(&together_hits) == n, "TOGETHER ran on %u of %u workers (limit %u)",
              atomic_load(&together_hits), n, limit);
        CHECK(WEFT_RUN(pfib, 18) == fib_ref(18), "fib 18 after TOGETHER");
    }
    /* And it parks for weft_suspend (which waits for every worker). */
    CHECK(weft_suspend() == 0, "suspend");
    CHECK(weft_resume() == 0, "resume");
    CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "fib 20 after resume");

    atomic_store(&sampling, false);
    pthread_join(t, NULL);
    unsigned most = atomic_load(&most_surplus);
    if (expected) {
        /* At least `limit` workers stay out of the surplus wait. */
        CHECK(most <= n - limit,
              "%u surplus workers at once: only %u may wait (%u workers, limit %u)", most,
              n - limit, n, limit);
        CHECK(surplus_after_runs >= 1,
              "no surplus worker after 13 parallel runs (%u workers, limit %u)", n, limit);
    } else {
        CHECK(most == 0, "%u workers waited as surplus without a limit", most);
    }
    /* Idle workers leave the count: it does not drift. */
    CHECK(eventually(none_active, 10.0), "%u workers still counted active when idle",
          atomic_load(&weft__rt.active));
    CHECK(weft_stop() == 0, "stop");
    printf("ok: %u workers, WEFT_ACTIVE_LIMIT=%u: limit %u, at most %u surplus\n", n, limit,
           expected, most);
}

int main(void)
{
    setenv("WEFT_OVERSUBSCRIBE", "1", 1);
    static const unsigned counts[] = {2, 3, 8, 32};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        run_with_limit(counts[i], 1);
        run_with_limit(counts[i], 2);
        run_with_limit(counts[i], 0);
    }

    /* The default: the CPUs the pool may use, which is the default
     * worker count. */
    unsetenv("WEFT_ACTIVE_LIMIT");
    CHECK(weft_start(0, 0, 0) == 0, "start with the default count");
    unsigned cpus = weft_workers();
    CHECK(weft__rt.active_limit == 0, "limit %u with as many workers as CPUs",
          weft__rt.active_limit);
    CHECK(weft_stop() == 0, "stop");
    CHECK(weft_start(cpus + 2, 0, 0) == 0, "start with 2 more workers than CPUs");
    unsigned expected = weft__sched_hands_out_tasks ? 0 : cpus;
    CHECK(weft__rt.active_limit == expected, "default limit %u with %u workers, not %u",
          weft__rt.active_limit, cpus + 2, expected);
    CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "fib 20");
    CHECK(weft_stop() == 0, "stop");
    printf("ok: default limit %u for %u workers on %u CPUs\n", expected, cpus + 2, cpus);
    return 0;
}
