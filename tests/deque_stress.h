// SPDX-License-Identifier: Apache-2.0
/* The stress run of the white-box deque tests: the calling thread is the
 * owner of a deque built by hand (deque_fixture.h), spawning and joining
 * random trees of tasks, while thief threads steal from it; every task
 * must run exactly once, its result visible to the joiner, and the owner
 * must find stolen exactly the tasks the thieves ran.  What differs
 * between schedulers comes in as hooks (deque_stress): how the owner
 * pushes and joins, how a thief steals, the wrappers a stolen task may
 * carry, a YIELD, and the length of the occasional wide runs.
 *
 * The run goes on, in whole trees, until at least `scale` * 20000 tasks
 * have run, thieves have stolen 100 of them and the caller's `done` holds,
 * for at most 30 s: on a loaded machine the thieves may get no CPU for a
 * while (CI runs this beside tests with 32 workers).  Task ids are
 * recycled between trees (every task of a finished tree has run, stolen
 * ones included: a join waits for the thief), and while fewer than 100
 * have been stolen the owner now and then pauses in the middle of a tree
 * until a thief takes something, so that thieves that do get a core find
 * work. */
#ifndef WEFT_TESTS_DEQUE_STRESS_H
#define WEFT_TESTS_DEQUE_STRESS_H

#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "runtime/parking.h"
#include "runtime/sched.h"
#include "runtime/sched_services.h"
#include "runtime/state.h"

typedef struct {
    weft_task *dq; /* the deque's first slot: the head of an empty deque */
    size_t slots;  /* how many slots it has */
    /* SPAWN at h (its payload is set); returns h + 1. */
    weft_task *(*push)(weft_task *h);
    /* SYNC of t, the new head: 'P' the owner is to run t, 'S' it was
     * stolen and is done. */
    char (*pop)(weft_task *t);
    /* One steal by `thief`: WEFT_STEAL_OK or _OK_MORE with the task (marked
     * STOLEN(thief)) and its wrapper; anything else when it took nothing. */
    weft_steal_result (*steal)(weft_worker *thief, weft_task **t, uintptr_t *wrapper);
    /* Whether `wrapper` is one that push hands out. */
    bool (*wrapper_ok)(uintptr_t wrapper);
    /* NULL, or a YIELD at head h: now and then between steps, and at
     * every step of a pause (where thieves may wait to be served). */
    void (*poll)(weft_task *h);
    /* 0, or the length of the wide runs (as many pushes before any pop)
     * that the first tree and now and then another one start with. */
    size_t wide;
    /* NULL, or what else the run is to have done before it stops (it
     * stops at 30 s anyway, and the caller then checks it). */
    bool (*done)(void);
} deque_stress;

typedef struct {
    uint64_t tasks, stolen;
} deque_stress_result;

enum { STRESS_THIEVES = 3, STRESS_MAX_TASKS = 1 << 22 };
static atomic_uchar stress_runs[STRESS_MAX_TASKS];
static atomic_int stress_stop;
static atomic_ulong stress_steals; /* tasks the thieves ran */
static weft_worker stress_thieves[STRESS_THIEVES];
static const deque_stress *stress_hooks;

typedef struct {
    uint64_t id;
    uint64_t result;
} stress_payload;

static void stress_run_task(weft_task *t)
{
    stress_payload *p = (stress_payload *)t->payload;
    /* Relaxed: counted only; read after the threads are joined or after
     * the joins that waited for DONE. */
    atomic_fetch_add_explicit(&stress_runs[p->id], 1, memory_order_relaxed);
    p->result = p->id * 3 + 1;
}

/* Checks that ids 0 .. n-1 (tasks first_task .. first_task+n-1 of the run)
 * each ran once, and clears them for reuse.  Called when no tree is live,
 * so every task, stolen ones included, has finished. */
static void stress_check_each_ran_once(uint64_t n, uint64_t first_task)
{
    for (uint64_t i = 0; i < n; i++) {
        CHECK(atomic_load(&stress_runs[i]) == 1, "task %llu ran %u times",
              (unsigned long long)(first_task + i), (unsigned)atomic_load(&stress_runs[i]));
        atomic_store(&stress_runs[i], 0);
    }
}

static void *stress_thief_main(void *arg)
{
    weft_worker *me = arg;
    unsigned fails = 0;
    /* Relaxed: a flag polled until set; the join orders what follows. */
    while (!atomic_load_explicit(&stress_stop, memory_order_relaxed)) {
        weft_task *t = NULL;
        uintptr_t wrapper = 0;
        weft_steal_result r = stress_hooks->steal(me, &t, &wrapper);
        if (r == WEFT_STEAL_OK || r == WEFT_STEAL_OK_MORE) {
            CHECK(stress_hooks->wrapper_ok(wrapper), "wrapper %#lx", (unsigned long)wrapper);
            CHECK(atomic_load(&t->state) == WEFT_STATE_STOLEN(me), "marked STOLEN(thief)");
            stress_run_task(t);
            /* Relaxed: a count, read by the owner's pauses (only as a hint)
             * and after the threads are joined. */
            atomic_fetch_add_explicit(&stress_steals, 1, memory_order_relaxed);
            /* Release: the result, as run_stolen. */
            atomic_store_explicit(&t->state, WEFT_STATE_DONE, memory_order_release);
        } else if (++fails % 16 == 0) {
            sched_yield(); /* more threads than cores: let the owner run */
        } else {
            weft_cpu_relax();
        }
    }
    return NULL;
}

static uint64_t stress_rng_state = 88172645463325252ULL;
static uint64_t stress_rnd(void)
{
    stress_rng_state ^= stress_rng_state << 13;
    stress_rng_state ^= stress_rng_state >> 7;
    stress_rng_state ^= stress_rng_state << 17;
    return stress_rng_state;
}

/* The run on an empty deque (see the top of this file); fails the test on
 * a task run other than once, a result the joiner does not see, a count
 * of stolen tasks the owner and the thieves disagree on, or fewer than
 * 100 steals. */
static deque_stress_result deque_stress_run(const deque_stress *hooks, unsigned scale)
{
    stress_hooks = hooks;
    /* Keep weft__join_stolen from sleeping (there is no pool to wake it):
     * a long search, which no contended yield cuts short (perturbation, or
     * the machine's other work, can make a yield take a time slice). */
    weft__rt.idle_spin_us = 60u * 1000 * 1000;
    weft__park_on_contended_yield = false;
    atomic_store(&stress_stop, 0);
    atomic_store(&stress_steals, 0);
    pthread_t th[STRESS_THIEVES];
    for (int i = 0; i < STRESS_THIEVES; i++) {
        memset(&stress_thieves[i], 0, sizeof stress_thieves[i]);
        CHECK(pthread_create(&th[i], NULL, stress_thief_main, &stress_thieves[i]) == 0, "thread");
    }
    uint64_t next_id = 0, stolen = 0, tasks = 0;
    uint64_t want = (uint64_t)scale * 20000;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    weft_task *const dq = hooks->dq;
    weft_task *h = dq;
    weft_task *wide_to = dq; /* a wide run: push up to here first */
    for (bool more = true; more || h > dq;) {
        if (hooks->wide && h == dq && more && (stress_rnd() % 16 == 0 || tasks + next_id == 0))
            wide_to = dq + hooks->wide;
        /* Mostly deep up-and-down runs (fib-like), sometimes wide ones. */
        bool grow = more && h < dq + hooks->slots - 1 &&
                    (h < wide_to || h == dq || stress_rnd() % 100 < (h - dq < 8 ? 60 : 45));
        if (h >= wide_to)
            wide_to = dq;
        if (grow) {
            stress_payload *p = (stress_payload *)h->payload;
            p->id = next_id++;
            h = hooks->push(h);
        } else {
            weft_task *t = --h;
            stress_payload *p = (stress_payload *)t->payload;
            uint64_t id = p->id;
            if (hooks->pop(t) == 'P')
                stress_run_task(t);
            else
                stolen++;
            CHECK(p->result == id * 3 + 1, "task %llu: result %llu", (unsigned long long)id,
                  (unsigned long long)p->result);
        }
        if (hooks->poll && stress_rnd() % 64 == 0)
            hooks->poll(h);
        if (stolen < 100 && h - dq >= 4 && stress_rnd() % 4096 == 0) {
            /* Pause until a thief takes something (serving its requests);
             * the count is a hint here, any order does. */
            unsigned long s = atomic_load(&stress_steals);
            for (int i = 0; i < 200 && atomic_load(&stress_steals) == s; i++) {
                if (hooks->poll)
                    hooks->poll(h);
                sched_yield();
            }
        }
        if (h == dq) {
            if (next_id > STRESS_MAX_TASKS - 4096) { /* recycle the ids of finished trees */
                stress_check_each_ran_once(next_id, tasks);
                tasks += next_id;
                next_id = 0;
            }
            clock_gettime(CLOCK_MONOTONIC, &now);
            more = now.tv_sec - start.tv_sec < 30 &&
                   (tasks + next_id < want || stolen < 100 || (hooks->done && !hooks->done()));
            sched_yield(); /* let thieves that got no CPU run */
        }
    }
    atomic_store(&stress_stop, 1);
    for (int i = 0; i < STRESS_THIEVES; i++)
        pthread_join(th[i], NULL);
    stress_check_each_ran_once(next_id, tasks);
    tasks += next_id;
    CHECK(stolen == atomic_load(&stress_steals),
          "the owner joined %llu stolen tasks, thieves took %lu", (unsigned long long)stolen,
          atomic_load(&stress_steals));
    CHECK(stolen >= 100, "thieves stole %llu of %llu tasks in 30 s, fewer than 100",
          (unsigned long long)stolen, (unsigned long long)tasks);
    return (deque_stress_result){tasks, stolen};
}

#endif
