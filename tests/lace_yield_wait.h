// SPDX-License-Identifier: Apache-2.0
/* A collector's "wait for the collection" path, where the collection is
 * surely not published yet when the waiter sees lace_newframe.t, for the
 * tests of both Lace APIs (Lace 1's lace14.h or lace.h, Lace 2's lace.h,
 * included first).
 *
 * An interrupt started through weft's own API (which lace_newframe does
 * not show) is published first and cannot pass its first barrier while
 * both workers run tasks without interrupt points (the holder; the waiter,
 * spinning on lace_newframe.t), so the collection's NEWFRAME, started
 * next, shows in lace_newframe.t and waits.  The waiter's lace_yield
 * serves the first interrupt once the holder is let go; it must not return
 * before the collection has run too.  Needs exactly two workers. */
#ifndef WEFT_TESTS_LACE_YIELD_WAIT_H
#define WEFT_TESTS_LACE_YIELD_WAIT_H

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "check.h"

static _Atomic int yw_holding, yw_waiting, yw_release_holder, yw_newframe_called;

/* The holder task's body: keeps its worker, with no interrupt point, until
 * let go. */
static inline void yw_hold(void)
{
    atomic_store(&yw_holding, 1);
    while (!atomic_load(&yw_release_holder)) {
    }
}

/* The waiter task's body before its yield: spins, with no interrupt point,
 * until lace_newframe shows the collection. */
static inline void yw_wait_until_shown(void)
{
    atomic_store(&yw_waiting, 1);
    while (atomic_load_explicit(&lace_newframe.t, memory_order_relaxed) == NULL) {
    }
}

WEFT_VOID_TASK_0(yw_native_nop) { (void)weft_w, (void)weft_head; }

/* What the test runs from outside the pool: the holder task, the waiter
 * task (its result: the collections done when its yield returned), and
 * the collection's NEWFRAME (its result: whether the collection was
 * right). */
typedef struct {
    int (*hold)(void);
    long (*wait)(void);
    int (*collect)(void);
} yw_tasks;

typedef struct {
    const yw_tasks *tasks;
    int held;
    long done_seen;
} yw_run;

static void *yw_run_hold(void *arg)
{
    yw_run *r = arg;
    r->held = r->tasks->hold();
    return NULL;
}

static void *yw_run_wait(void *arg)
{
    yw_run *r = arg;
    r->done_seen = r->tasks->wait();
    return NULL;
}

static void *yw_run_native_together(void *arg)
{
    (void)arg;
    WEFT_TOGETHER(yw_native_nop);
    return NULL;
}

static void *yw_let_holder_go(void *arg)
{
    (void)arg;
    while (!atomic_load(&yw_newframe_called))
        sched_yield();
    usleep(50000); /* the collection's NEWFRAME now waits, shown in lace_newframe.t */
    atomic_store(&yw_release_holder, 1);
    return NULL;
}

/* Runs the scenario once; `done_before` is the count of collections done
 * so far, which the waiter must see one higher. */
static void yw_check_yield_waits(const yw_tasks *tasks, long done_before, const char *what)
{
    atomic_store(&yw_holding, 0);
    atomic_store(&yw_waiting, 0);
    atomic_store(&yw_release_holder, 0);
    atomic_store(&yw_newframe_called, 0);
    yw_run r = {tasks, 0, -1};
    pthread_t th[4];
    CHECK(pthread_create(&th[0], NULL, yw_run_hold, &r) == 0, "thread");
    CHECK(pthread_create(&th[1], NULL, yw_run_wait, &r) == 0, "thread");
    while (!atomic_load(&yw_holding) || !atomic_load(&yw_waiting))
        sched_yield();
    CHECK(pthread_create(&th[2], NULL, yw_run_native_together, NULL) == 0, "thread");
    usleep(20000); /* the native TOGETHER is published and waits for both */
    CHECK(pthread_create(&th[3], NULL, yw_let_holder_go, NULL) == 0, "thread");
    atomic_store(&yw_newframe_called, 1);
    CHECK(tasks->collect(), "collection");
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    CHECK(r.held == 1, "hold");
    CHECK(r.done_seen == done_before + 1,
          "%s returned before the collection lace_newframe showed had run (%ld of %ld)", what,
          r.done_seen, done_before + 1);
}

#endif
