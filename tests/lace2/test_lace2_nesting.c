// SPDX-License-Identifier: Apache-2.0
/* TOGETHER inside a NEWFRAME task, as a garbage collector built on Lace 2
 * does it: the collector runs as a NEWFRAME task and calls a TOGETHER task
 * on every worker, while other threads keep the pool busy.  Lace allows
 * this; the program checks that every collection reached every worker and
 * that the busy work's answers are right.  Before that, thread-locals that
 * a TOGETHER sets up on each worker must be there in every task run from
 * outside, and a task that saw lace_newframe show a collection and called
 * lace_yield or lace_check_yield must get back only after it ran. */
#include <lace.h>

#include <pthread.h>

#include "check.h"
#include "lace_yield_wait.h"

TASK(int, fib, int, n)

int fib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return n;
    fib_SPAWN(lw, n - 1);
    int b = fib_CALL(lw, n - 2);
    return fib_SYNC(lw) + b;
}

static _Atomic int marked;

TASK(void, mark)

void mark_CALL(lace_worker *lw)
{
    (void)lw;
    atomic_fetch_add(&marked, 1);
    lace_barrier();
}

TASK(int, collect, int, round)

int collect_CALL(lace_worker *lw, int round)
{
    (void)lw;
    atomic_store(&marked, 0);
    mark_TOGETHER();
    return atomic_load(&marked) == (int)lace_worker_count() ? round : -1;
}

/* Per-worker state in thread-locals that a TOGETHER sets up on each
 * worker's thread: a task run from outside (NAME(...)) must run on a
 * worker's thread, even when the workers sleep idle, never on the
 * caller's. */
static _Thread_local int *tls_state;
static int state_of[64];
static pthread_t main_thread;

TASK(void, tls_init)

void tls_init_CALL(lace_worker *lw)
{
    (void)lw;
    tls_state = &state_of[lace_worker_id() % 64];
}

TASK(int, tls_use, int, depth)

int tls_use_CALL(lace_worker *lw, int depth)
{
    CHECK(!pthread_equal(pthread_self(), main_thread), "a task ran on the caller's thread");
    CHECK(tls_state != NULL, "a task ran on a thread the TOGETHER did not set up");
    (*tls_state)++;
    if (depth == 0)
        return 1;
    tls_use_SPAWN(lw, depth - 1);
    int a = tls_use_CALL(lw, depth - 1);
    return a + tls_use_SYNC(lw);
}

/* A collector's "wait for the collection" path, where the collection is
 * surely not published yet when the waiter sees lace_newframe.t
 * (lace_yield_wait.h), with lace_yield and with lace_check_yield. */
static _Atomic int collections_done, use_check_yield;

TASK(int, gc_go)

int gc_go_CALL(lace_worker *lw)
{
    (void)lw;
    atomic_fetch_add(&collections_done, 1);
    return 1;
}

TASK(int, hold)

int hold_CALL(lace_worker *lw)
{
    (void)lw;
    yw_hold();
    return 1;
}

TASK(long, wait_for_collection)

long wait_for_collection_CALL(lace_worker *lw)
{
    yw_wait_until_shown();
    if (atomic_load(&use_check_yield))
        CHECK(lace_check_yield(lw) == 1, "lace_check_yield saw no collection");
    else
        lace_yield(lw);
    return atomic_load(&collections_done);
}

static int run_hold(void) { return hold(); }
static long run_wait(void) { return wait_for_collection(); }
static int run_collection(void) { return gc_go_NEWFRAME() == 1; }

static void test_yield_waits_for_unpublished(int check_yield)
{
    static const yw_tasks tasks = {run_hold, run_wait, run_collection};
    atomic_store(&use_check_yield, check_yield);
    yw_check_yield_waits(&tasks, atomic_load(&collections_done),
                         check_yield ? "lace_check_yield" : "lace_yield");
}

static _Atomic int stop;

static void *busy(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop))
        CHECK(fib(22) == 17711, "fib(22) under collections");
    return NULL;
}

int main(void)
{
    lace_start(2, 0, 0);
    main_thread = pthread_self();
    tls_init_TOGETHER();
    for (int r = 0; r < 40; r++) {
        lace_sleep_us(5000); /* long enough for the workers to sleep idle */
        CHECK(tls_use(6) == 64, "tls_use");
    }
    for (int r = 0; r < 3; r++) {
        test_yield_waits_for_unpublished(0);
        test_yield_waits_for_unpublished(1);
    }
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, busy, NULL) == 0, "pthread_create");
    for (int round = 0; round < 50; round++)
        CHECK(collect_NEWFRAME(round) == round, "collection %d reached %d of %u workers", round,
              atomic_load(&marked), lace_worker_count());
    atomic_store(&stop, 1);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    lace_stop();
    printf("lace2 nesting: 6 waits for an unpublished collection, 50 collections, each on "
           "every worker\n");
    return 0;
}
