// SPDX-License-Identifier: Apache-2.0
/* RUN from many non-worker threads at once, RUN from inside workers (in a
 * plain function without a context), and WEFT_ME. */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <weft/weft.h>

#include "fib_task.h"

WEFT_TASK_0(int, empty) { return 7; }

/* A plain function (no context) that RUNs a task: the library pattern
 * (BDD packages call such functions both from outside and inside tasks). */
static long library_call(int n) { return WEFT_RUN(pfib, n); }

/* A plain function that recovers its context with WEFT_ME and spawns. */
static long spawn_without_context(int n)
{
    WEFT_ME;
    WEFT_SPAWN(pfib, n);
    WEFT_SPAWN(pfib, n + 1);
    long a = WEFT_SYNC(pfib);
    long b = WEFT_SYNC(pfib);
    return a * 1000 + b;
}

WEFT_TASK_2(long, nested_user, int, n, int, depth)
{
    if (depth == 0) {
        /* Spawned siblings are on the deque below us while we RUN. */
        long r = library_call(n) + spawn_without_context(n);
        return r;
    }
    WEFT_SPAWN(nested_user, n, depth - 1);
    WEFT_SPAWN(nested_user, n + 1, depth - 1);
    long a = WEFT_SYNC(nested_user);
    long b = WEFT_SYNC(nested_user);
    return a + b;
}

static long nested_ref(int n, int depth)
{
    if (depth == 0)
        return fib_ref(n) + fib_ref(n + 1) * 1000 +
               fib_ref(n); /* SYNC joins the last SPAWN first */
    return nested_ref(n, depth - 1) + nested_ref(n + 1, depth - 1);
}

WEFT_TASK_1(int, head_probe, int, k)
{
    /* After k spawns, weft_current_head must find exactly our head. */
    for (int i = 0; i < k; i++)
        WEFT_SPAWN(empty);
    CHECK(weft_current_head(weft_w) == weft_head, "head discovery after %d spawns", k);
    int sum = 0;
    for (int i = 0; i < k; i++)
        sum += WEFT_SYNC(empty);
    CHECK(weft_current_head(weft_w) == weft_head, "head discovery after the syncs");
    return sum;
}

/* Moves the head up and down by pseudo-random distances (1 slot to a few
 * hundred) and checks the search after every move: the search starts where
 * the previous one ended, so it must find the head from below, from above
 * and in place. */
WEFT_TASK_2(int, head_walk, int, depth, unsigned, seed)
{
    if (depth == 0) {
        CHECK(weft_current_head(weft_w) == weft_head, "head at the walk's bottom");
        return 1;
    }
    int sum = 0;
    unsigned x = seed;
    for (int round = 0; round < 8; round++) {
        x = x * 1103515245u + 12345u;
        int k = (int)((x >> 16) % (unsigned)depth) + 1;
        for (int i = 0; i < k; i++)
            WEFT_SPAWN(empty);
        CHECK(weft_current_head(weft_w) == weft_head, "head %d up", k);
        if (round % 3 == 0)
            sum += WEFT_CALL(head_walk, depth / 2, x); /* deeper, then back here */
        CHECK(weft_current_head(weft_w) == weft_head, "head %d up, after a call", k);
        for (int i = 0; i < k; i++)
            sum += WEFT_SYNC(empty) == 7;
        CHECK(weft_current_head(weft_w) == weft_head, "head back down by %d", k);
    }
    return sum;
}

static atomic_int failures;

/* The largest tree an outside thread RUNs: fib(22), fib(16) under a
 * sanitizer (the test took 98 s under ThreadSanitizer on 2 CPUs); the
 * RUNs, their number and the threads calling in at once are the same. */
#if WEFT_TEST_SANITIZED
#define EXTERNAL_FIB_SPREAD 12
#else
#define EXTERNAL_FIB_SPREAD 18
#endif

/* The head walks' seeds: 20, 6 under a sanitizer (the walks were a third
 * of the test's time under ThreadSanitizer; each seed moves the head some
 * 130,000 times). */
#if WEFT_TEST_SANITIZED
#define HEAD_WALK_SEEDS 6u
#else
#define HEAD_WALK_SEEDS 20u
#endif

static void *external_thread(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int i = 0; i < 200; i++) {
        int n = 5 + (id * 7 + i) % EXTERNAL_FIB_SPREAD;
        long r = WEFT_RUN(pfib, n);
        if (r != fib_ref(n))
            atomic_fetch_add(&failures, 1);
        if (WEFT_RUN(empty) != 7)
            atomic_fetch_add(&failures, 1);
    }
    long r = WEFT_RUN(nested_user, 10, 3);
    if (r != nested_ref(10, 3))
        atomic_fetch_add(&failures, 1);
    return NULL;
}

int main(void)
{
    for (size_t wi = 0; wi < N_TEST_WORKER_COUNTS; wi++) {
        unsigned workers = test_worker_counts[wi];
        CHECK(weft_start(workers, 0, 0) == 0, "start");
        CHECK(weft_self() == NULL, "main is not a worker");

        pthread_t threads[8];
        for (int i = 0; i < 8; i++)
            CHECK(pthread_create(&threads[i], NULL, external_thread, (void *)(intptr_t)i) == 0,
                  "create");
        for (int i = 0; i < 8; i++)
            pthread_join(threads[i], NULL);
        CHECK(atomic_load(&failures) == 0, "%d wrong results at %u workers", atomic_load(&failures),
              workers);

        CHECK(WEFT_RUN(nested_user, 12, 4) == nested_ref(12, 4), "nested RUN from main");
        for (int k = 0; k < 300; k++)
            CHECK(WEFT_RUN(head_probe, k) == 7 * k, "head probe %d", k);
        for (unsigned seed = 1; seed <= HEAD_WALK_SEEDS; seed++)
            CHECK(WEFT_RUN(head_walk, 300, seed) > 0, "head walk %u", seed);
        CHECK(weft_stop() == 0, "stop");
        printf("ok: external RUNs at %u workers\n", workers);
    }
    /* The head at every depth of a small deque, up to nearly full: the
     * search's bound at the deque's top. */
    CHECK(weft_start(1, 64, 0) == 0, "start with 64 slots");
    for (int k = 0; k < 60; k++)
        CHECK(WEFT_RUN(head_probe, k) == 7 * k, "head probe %d in 64 slots", k);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: the head found at every depth up to 300, and up to 60 in a deque of 64\n");
    return 0;
}
