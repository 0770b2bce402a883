// SPDX-License-Identifier: Apache-2.0
/* RUN from threads outside the pool that borrow an idle worker's identity
 * (src/runtime/external.c, docs/sleep.md "RUN on the calling thread"):
 * the task runs on the calling thread as that worker, with its id; many
 * callers at once with fewer workers (some borrow, some hand over);
 * callers while the workers are busy; per-worker state set up by
 * TOGETHER; TOGETHER and NEWFRAME from another thread during a borrowed
 * RUN; suspend/resume and stop racing with borrowed RUNs; repeated
 * start/stop; a caller with a tiny stack; an overflow of the guest stack.
 * Every part runs at each worker count of check.h. */
#include "check.h"
#include "small_altstack.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <weft/weft.h>

#include "fib_task.h"
#include "runtime/perturb.h"
#include "runtime/sleep.h"
#include "runtime/state.h"
#include "sys/clock.h"

static unsigned n_workers;

/* Waits until every worker sleeps lendable (idle long enough), so that
 * the next RUN from outside borrows one. */
static void wait_all_lendable(void)
{
    for (int tries = 0;; tries++) {
        unsigned lendable = 0;
        for (unsigned i = 0; i < n_workers; i++)
            lendable += atomic_load(&weft__rt.workers[i]->sleep_word) == WEFT_SLEEP_IDLE_LENDABLE;
        if (lendable == n_workers)
            return;
        CHECK(tries < 20000, "workers not all asleep after 10 s (%u of %u)", lendable, n_workers);
        weft_sleep_ns(500000);
    }
}

static int start(unsigned workers)
{
    weft_config cfg;
    CHECK(weft_config_init(&cfg) == 0, "config");
    cfg.workers = workers;
    cfg.idle_spin_us = 20; /* asleep soon: most RUNs below borrow */
    cfg.stack_size = 1 << 20;
    int r = weft_start_config(&cfg);
    n_workers = weft_workers();
    return r;
}

/* ---- who runs the task ---- */

static _Thread_local int on_caller; /* set on the calling thread around its RUN */

WEFT_TASK_1(long, where, int, n)
{
    /* 1: on the caller's thread as a borrowed worker, 2: on a worker. */
    CHECK(weft_self() == weft_w, "weft_self inside a task");
    CHECK(weft_worker_id(weft_w) < n_workers, "worker id %u of %u", weft_worker_id(weft_w),
          n_workers);
    long f = WEFT_CALL(pfib, n);
    CHECK(f == fib_ref(n), "fib inside");
    return on_caller ? 1 : 2;
}

static long run_where(int n)
{
    on_caller = 1;
    long r = WEFT_RUN(where, n);
    on_caller = 0;
    return r;
}

static void test_borrows_when_idle(void)
{
    wait_all_lendable();
    CHECK(run_where(10) == 1, "a RUN with every worker asleep runs on the calling thread");
    CHECK(weft_self() == NULL, "the caller is no worker after its RUN");
    /* The borrowed worker is back asleep and lendable again. */
    wait_all_lendable();
    CHECK(run_where(3) == 1, "again");
    /* Parallel work from a borrowed RUN: others are woken to steal. */
    for (int i = 0; i < 20; i++)
        CHECK(WEFT_RUN(pfib, 22) == fib_ref(22), "fib 22 borrowed");
}

/* ---- many callers, fewer workers ---- */

#define CALLERS 8
static atomic_int borrowed, handed, wrong;

static void *caller_thread(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int i = 0; i < 60; i++) {
        int n = 3 + (id + i) % 15;
        long r = run_where(n);
        if (r == 1)
            atomic_fetch_add(&borrowed, 1);
        else if (r == 2)
            atomic_fetch_add(&handed, 1);
        else
            atomic_fetch_add(&wrong, 1);
        if (WEFT_RUN(pfib, n) != fib_ref(n))
            atomic_fetch_add(&wrong, 1);
        if (i % 16 == 0) /* let workers fall asleep now and then */
            weft_sleep_ns(200000);
    }
    return NULL;
}

static void test_many_callers(void)
{
    atomic_store(&borrowed, 0);
    atomic_store(&handed, 0);
    atomic_store(&wrong, 0);
    wait_all_lendable();
    pthread_t t[CALLERS];
    for (int i = 0; i < CALLERS; i++)
        CHECK(pthread_create(&t[i], NULL, caller_thread, (void *)(intptr_t)i) == 0, "create");
    for (int i = 0; i < CALLERS; i++)
        pthread_join(t[i], NULL);
    CHECK(atomic_load(&wrong) == 0, "%d wrong results", atomic_load(&wrong));
    CHECK(atomic_load(&borrowed) + atomic_load(&handed) == CALLERS * 60, "every RUN counted");
    CHECK(atomic_load(&borrowed) > 0, "no RUN borrowed a worker");
    printf("  %u workers, %d callers: %d RUNs borrowed, %d handed over\n", n_workers, CALLERS,
           atomic_load(&borrowed), atomic_load(&handed));
}

/* ---- callers while the workers are busy ---- */

static atomic_int release_busy;

WEFT_TASK_0(int, busy_until_released)
{
    /* Relaxed: a flag only (nothing is published with it).  Under
     * ThreadSanitizer an acquire load takes the variable's lock, and up
     * to 32 spinners taking it starve the releaser's store (a 30 ms wait
     * took minutes). */
    while (!atomic_load_explicit(&release_busy, memory_order_relaxed))
        WEFT_YIELD();
    return 5;
}

/* Keeps every worker busy: a TOGETHER copy each is not possible from a
 * task, so spawn one spinner per worker from a RUN on a worker thread. */
WEFT_TASK_1(int, occupy, int, k)
{
    if (k == 0)
        return WEFT_CALL(busy_until_released);
    WEFT_SPAWN(occupy, k - 1);
    int a = WEFT_CALL(busy_until_released);
    return a + WEFT_SYNC(occupy);
}

static void *occupier(void *arg)
{
    (void)arg;
    long r = WEFT_RUN(occupy, (int)n_workers - 1);
    return (void *)(intptr_t)r;
}

static void *releaser(void *arg)
{
    (void)arg;
    weft_sleep_ns(30000000);
    atomic_store(&release_busy, 1);
    return NULL;
}

static void test_callers_while_busy(void)
{
    atomic_store(&release_busy, 0);
    pthread_t o, rel;
    CHECK(pthread_create(&o, NULL, occupier, NULL) == 0, "create");
    CHECK(pthread_create(&rel, NULL, releaser, NULL) == 0, "create");
    /* While the workers spin in tasks (until the releaser lets them go),
     * RUNs from here borrow a worker not yet busy or wait for one. */
    for (int i = 0; i < 50; i++)
        CHECK(WEFT_RUN(pfib, 12) == fib_ref(12), "RUN while busy");
    pthread_join(rel, NULL);
    void *r;
    pthread_join(o, &r);
    CHECK((intptr_t)r == 5 * (intptr_t)n_workers, "occupier result %ld", (long)(intptr_t)r);
}

/* ---- per-worker state ---- */

static int per_worker[64];
static atomic_int together_copies;

WEFT_VOID_TASK_1(init_per_worker, int, base)
{
    per_worker[weft_worker_id(weft_w)] = base + (int)weft_worker_id(weft_w);
    atomic_fetch_add(&together_copies, 1);
}

WEFT_TASK_2(int, use_per_worker, int, base, int, depth)
{
    unsigned id = weft_worker_id(weft_w);
    CHECK(id < n_workers, "id %u out of [0, %u)", id, n_workers);
    CHECK(per_worker[id] == base + (int)id, "per-worker state of worker %u", id);
    if (depth == 0)
        return 1;
    WEFT_SPAWN(use_per_worker, base, depth - 1);
    int a = WEFT_CALL(use_per_worker, base, depth - 1);
    return a + WEFT_SYNC(use_per_worker);
}

static void test_per_worker_state(void)
{
    atomic_store(&together_copies, 0);
    WEFT_TOGETHER(init_per_worker, 1000);
    CHECK(atomic_load(&together_copies) == (int)n_workers, "one copy per worker");
    for (int i = 0; i < 5; i++) {
        wait_all_lendable();
        on_caller = 1;
        CHECK(WEFT_RUN(use_per_worker, 1000, 8) == 256, "tree");
        on_caller = 0;
    }
}

/* ---- interrupts from another thread during a borrowed RUN ---- */

static atomic_int stop_interrupts, interrupts_done;

WEFT_VOID_TASK_0(count_copy) { atomic_fetch_add(&together_copies, 1); }
WEFT_TASK_1(long, frame_fib, int, n) { return WEFT_CALL(pfib, n); }

static void *interrupter(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_interrupts)) {
        int before = atomic_load(&together_copies);
        WEFT_TOGETHER(count_copy);
        CHECK(atomic_load(&together_copies) - before == (int)n_workers,
              "TOGETHER during borrowed RUNs: %d copies for %u workers",
              atomic_load(&together_copies) - before, n_workers);
        CHECK(WEFT_NEWFRAME(frame_fib, 15) == fib_ref(15), "NEWFRAME during borrowed RUNs");
        atomic_fetch_add(&interrupts_done, 1);
    }
    return NULL;
}

WEFT_TASK_1(long, long_yielding, int, rounds)
{
    long sum = 0;
    for (int i = 0; i < rounds; i++) {
        sum += WEFT_CALL(pfib, 14);
        WEFT_YIELD();
    }
    return sum;
}

static void test_interrupts_during_borrowed(void)
{
    atomic_store(&stop_interrupts, 0);
    atomic_store(&interrupts_done, 0);
    atomic_store(&together_copies, 0);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, interrupter, NULL) == 0, "create");
    for (int i = 0; i < 30 || atomic_load(&interrupts_done) < 3; i++) {
        CHECK(i < 100000, "interrupts made no progress");
        if (i % 3 == 0)
            weft_sleep_ns(100000);
        CHECK(WEFT_RUN(long_yielding, 20) == 20 * fib_ref(14), "long RUN");
        CHECK(WEFT_RUN(pfib, 16) == fib_ref(16), "fib RUN");
    }
    atomic_store(&stop_interrupts, 1);
    pthread_join(t, NULL);
}

/* ---- suspend/resume racing with borrowed RUNs ---- */

static atomic_int stop_callers;
static atomic_long runs_done;

static void *looping_caller(void *arg)
{
    (void)arg;
    long runs = 0;
    while (!atomic_load(&stop_callers)) {
        if (WEFT_RUN(long_yielding, 3) != 3 * fib_ref(14))
            atomic_fetch_add(&wrong, 1);
        atomic_fetch_add(&runs_done, 1);
        if (++runs % 8 == 0)
            weft_sleep_ns(300000);
    }
    return (void *)(intptr_t)runs;
}

static void test_suspend_races(void)
{
    atomic_store(&stop_callers, 0);
    atomic_store(&wrong, 0);
    atomic_store(&runs_done, 0);
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        CHECK(pthread_create(&t[i], NULL, looping_caller, NULL) == 0, "create");
    for (int i = 0; i < 15; i++) {
        weft_sleep_ns(1000000);
        CHECK(weft_suspend() == 0, "suspend");
        /* Suspended: every worker is parked, none of them lent. */
        CHECK(atomic_load(&weft__rt.parked) == n_workers, "all parked");
        weft_sleep_ns(300000);
        CHECK(weft_resume() == 0, "resume");
    }
    /* On a loaded machine the callers may not have finished a RUN within
     * the cycles above: give them until one has (a pool that lost a RUN
     * across the suspensions never gets there). */
    for (int ms = 0; atomic_load(&runs_done) == 0 && ms < 30000; ms++)
        weft_sleep_ns(1000000);
    atomic_store(&stop_callers, 1);
    long total = 0;
    for (int i = 0; i < 3; i++) {
        void *r;
        pthread_join(t[i], &r);
        total += (long)(intptr_t)r;
    }
    CHECK(atomic_load(&wrong) == 0, "wrong results across suspensions");
    CHECK(total > 0, "no RUN completed");
}

/* ---- stop waits for a borrowed RUN ---- */

static atomic_int long_run_started, long_run_finished;

WEFT_TASK_0(long, slow_task)
{
    atomic_store(&long_run_started, 1);
    long s = 0;
    for (int i = 0; i < 40; i++) {
        s += WEFT_CALL(pfib, 15);
        weft_sleep_ns(500000);
    }
    atomic_store(&long_run_finished, 1);
    return s;
}

static void *slow_caller(void *arg)
{
    (void)arg;
    on_caller = 1;
    return (void *)(intptr_t)WEFT_RUN(slow_task);
}

static void test_stop_waits(void)
{
    atomic_store(&long_run_started, 0);
    atomic_store(&long_run_finished, 0);
    wait_all_lendable();
    pthread_t t;
    CHECK(pthread_create(&t, NULL, slow_caller, NULL) == 0, "create");
    while (!atomic_load(&long_run_started))
        weft_sleep_ns(100000);
    CHECK(weft_stop() == 0, "stop");
    CHECK(atomic_load(&long_run_finished) == 1, "stop returned before the borrowed RUN ended");
    void *r;
    pthread_join(t, &r);
    CHECK((long)(intptr_t)r == 40 * fib_ref(15), "the RUN stop waited for");
}

/* ---- a caller with a small stack: the task runs on weft's ---- */

/* 4 KiB of stack per level, kept live across the call (read after it), so
 * no build can turn the recursion into a loop. */
WEFT_TASK_1(long, deep_frames, int, depth)
{
    volatile char pad[4096];
    pad[0] = (char)depth;
    if (depth == 0)
        return 0;
    long below = WEFT_CALL(deep_frames, depth - 1);
    return below + 1 + (pad[0] != (char)depth);
}

static void *small_stack_caller(void *arg)
{
    (void)arg;
    return (void *)(intptr_t)WEFT_RUN(deep_frames, 100); /* ~400 KiB of frames */
}

static void test_small_caller_stack(void)
{
    wait_all_lendable();
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64 << 10);
    pthread_t t;
    CHECK(pthread_create(&t, &attr, small_stack_caller, NULL) == 0, "create");
    pthread_attr_destroy(&attr);
    void *r;
    pthread_join(t, &r);
    CHECK((long)(intptr_t)r == 100, "deep RUN from a 64 KiB thread: %ld", (long)(intptr_t)r);
}

/* ---- a borrower that sleeps in a join while a second caller borrows ----
 *
 * Three workers, all asleep and lendable.  Caller A borrows one and
 * spawns a child that another worker steals and holds for a while, so
 * that A's SYNC sleeps in the join as the borrowed worker; meanwhile
 * caller B makes many short RUNs, borrowing whatever worker is lendable.
 * No two threads may ever act as one worker at once: every task notes
 * the thread running as its worker (a borrower's sleep must end in the
 * loan, not wake the lent worker's own thread). */

static _Atomic(pthread_t *) acting[64]; /* the thread acting as worker i, or NULL */
static atomic_int overlaps, child_started;
static _Thread_local pthread_t self_tid;

static void act_begin(weft_worker *w, pthread_t **prev)
{
    unsigned id = weft_worker_id(w) % 64;
    self_tid = pthread_self();
    *prev = atomic_exchange(&acting[id], &self_tid);
    if (*prev != NULL && *prev != &self_tid)
        atomic_fetch_add(&overlaps, 1);
}

static void act_end(weft_worker *w, pthread_t *prev)
{
    atomic_store(&acting[weft_worker_id(w) % 64], prev == &self_tid ? &self_tid : prev);
    if (prev == NULL)
        atomic_store(&acting[weft_worker_id(w) % 64], NULL);
}

WEFT_TASK_1(long, held_child, int, ms)
{
    pthread_t *prev;
    act_begin(weft_w, &prev);
    atomic_store(&child_started, 1);
    weft_sleep_ns((uint64_t)ms * 1000000);
    act_end(weft_w, prev);
    return ms;
}

WEFT_TASK_0(long, sleeping_borrower)
{
    pthread_t *prev;
    act_begin(weft_w, &prev);
    atomic_store(&child_started, 0);
    WEFT_SPAWN(held_child, 20);
    /* Until another worker has taken the child (or 1 s), so that the SYNC
     * joins a stolen task and sleeps. */
    for (int i = 0; i < 10000 && !atomic_load(&child_started); i++) {
        WEFT_YIELD();
        weft_sleep_ns(100000);
    }
    long r = WEFT_SYNC(held_child);
    act_end(weft_w, prev);
    return r;
}

WEFT_TASK_1(long, short_run, int, n)
{
    pthread_t *prev;
    act_begin(weft_w, &prev);
    long f = WEFT_CALL(pfib, n);
    act_end(weft_w, prev);
    return f;
}

static atomic_int b_stop;

static void *second_caller(void *arg)
{
    (void)arg;
    long bad = 0;
    while (!atomic_load(&b_stop))
        bad += WEFT_RUN(short_run, 8) != fib_ref(8);
    return (void *)(intptr_t)bad;
}

static void test_borrower_sleeps_while_another_borrows(void)
{
    if (n_workers < 3)
        return;
    for (int round = 0; round < 10; round++) {
        wait_all_lendable();
        atomic_store(&b_stop, 0);
        pthread_t b;
        CHECK(pthread_create(&b, NULL, second_caller, NULL) == 0, "create");
        long r = WEFT_RUN(sleeping_borrower);
        atomic_store(&b_stop, 1);
        void *bad;
        pthread_join(b, &bad);
        CHECK(r == 20, "the sleeping borrower's RUN returned %ld", r);
        CHECK((intptr_t)bad == 0, "the second caller's RUNs returned wrong results");
        /* A worker's own thread may go on after the RUN: give it time to
         * act as the worker again (an overlap) if the loan was broken. */
        for (int i = 0; i < 20; i++)
            CHECK(WEFT_RUN(short_run, 10) == fib_ref(10), "a RUN after the round");
    }
    CHECK(atomic_load(&overlaps) == 0,
          "%d times two threads acted as one worker at once (a loan broken)",
          atomic_load(&overlaps));
}

/* ---- the worker's own thread waits for the loan to end ---- */

#if WEFT_PERTURB
/* A forced order (perturb builds: the race-point hook).  Worker A runs a
 * RUN borrowed by a helper thread; the main thread borrows B for a RUN
 * that returns at once.  Giving B back, the main thread announces B's IDLE
 * sleep and stalls right after (SLEEP_ANNOUNCED) while A spawns a task:
 * the push wakes B, whose thread must not act as B before the loan ends.
 * The stall lasts until B's thread either waits on the loan count (its
 * WAITER bit: correct) or runs the task (a thread acting as B while the
 * main thread still holds B's loan). */
static atomic_int loan_armed, loan_stalled, loan_go, loan_released, loan_borrowed = -1;
static atomic_int marker_started, marker_during_loan, marker_worker = -1, waiter_seen;
static atomic_int publisher_worker = -1, loan_other = -1;
static _Thread_local int loan_caller;

static void loan_hook(weft_race_point_id id)
{
    if (!atomic_load(&loan_armed) || !loan_caller || id != WEFT_RP_SLEEP_ANNOUNCED ||
        atomic_exchange(&loan_stalled, 1))
        return;
    /* The worker given back: the other one, unless the RUN borrowed
     * another way (checked after the run). */
    unsigned bid = (unsigned)atomic_load(&loan_other);
    atomic_store(&loan_borrowed, (int)bid);
    atomic_store(&loan_go, 1);
    for (int i = 0; i < 100000; i++) { /* 10 s at most */
        if (atomic_load(&marker_started) ||
            (atomic_load(&weft__rt.seats[bid].loans) & WEFT_LOAN_WAITER))
            break;
        weft_sleep_ns(100000);
    }
    atomic_store(&marker_during_loan, atomic_load(&marker_started));
    atomic_store(&waiter_seen, (atomic_load(&weft__rt.seats[bid].loans) & WEFT_LOAN_WAITER) != 0);
    atomic_store(&loan_released, 1);
}

WEFT_TASK_0(long, loan_marker)
{
    atomic_store(&marker_worker, (int)weft_worker_id(weft_w));
    atomic_store(&marker_started, 1);
    return 7;
}

WEFT_TASK_0(long, loan_publisher)
{
    atomic_store(&publisher_worker, (int)weft_worker_id(weft_w));
    for (int i = 0; i < 100000 && !atomic_load(&loan_go); i++)
        weft_sleep_ns(100000);
    if (!atomic_load(&loan_go))
        return -1;
    WEFT_SPAWN(loan_marker); /* the push after allstolen: shares it, wakes B */
    for (int i = 0; i < 100000 && !atomic_load(&loan_released); i++)
        weft_sleep_ns(100000);
    return WEFT_SYNC(loan_marker);
}

WEFT_TASK_0(long, loan_returns_at_once) { return 1; }

static void *publisher_thread(void *arg)
{
    (void)arg;
    return (void *)(intptr_t)WEFT_RUN(loan_publisher);
}

static void test_loan_ends_before_worker_runs(void)
{
    weft__race_set_hook(loan_hook);
    CHECK(start(2) == 0, "start");
    wait_all_lendable();
    pthread_t th;
    CHECK(pthread_create(&th, NULL, publisher_thread, NULL) == 0, "create");
    for (int i = 0; i < 100000 && atomic_load(&publisher_worker) < 0; i++)
        weft_sleep_ns(100000);
    CHECK(atomic_load(&publisher_worker) >= 0, "the publisher's RUN never started");
    /* The other worker sleeps lendable again (the helper's RUN borrowed
     * one of the two, or handed its task to it). */
    unsigned other = 1u - (unsigned)atomic_load(&publisher_worker);
    atomic_store(&loan_other, (int)other);
    for (int i = 0; i < 100000 &&
                    atomic_load(&weft__rt.workers[other]->sleep_word) != WEFT_SLEEP_IDLE_LENDABLE;
         i++)
        weft_sleep_ns(100000);
    loan_caller = 1;
    atomic_store(&loan_armed, 1);
    long r = WEFT_RUN(loan_returns_at_once);
    atomic_store(&loan_armed, 0);
    loan_caller = 0;
    atomic_store(&loan_go, 1); /* in case the RUN was not borrowed */
    void *pr;
    pthread_join(th, &pr);
    CHECK(weft_stop() == 0, "stop");
    weft__race_set_hook(NULL);
    CHECK(r == 1 && (intptr_t)pr == 7, "results %ld and %ld", r, (long)(intptr_t)pr);
    CHECK(atomic_load(&loan_stalled), "the main thread's RUN did not borrow worker %u", other);
    CHECK(atomic_load(&marker_during_loan) || atomic_load(&waiter_seen),
          "worker %u's thread, woken by the push, never waited for the loan", other);
    CHECK(!atomic_load(&marker_during_loan),
          "worker %d's own thread ran a task while the main thread still held its loan "
          "(woken, it did not wait for the loan to end)",
          atomic_load(&marker_worker));
    printf("ok: a worker woken while lent waits for its loan to end before it runs a task\n");
}

/* A borrower asleep in the join of a stolen child is woken by the thief
 * (the main thread borrows worker B, the other worker steals the child
 * and returns it only once the main thread sleeps).  That wake-up is the
 * borrower's: B's own thread must sleep on until the loan is over and a
 * claim wakes it.  Checked where a worker's own thread starts going to
 * sleep (SLEEP_BEFORE_ANNOUNCE): it is awake, so its word must be AWAKE;
 * a thread that took the borrower's wake-up for its own runs with the
 * word lendable or lent (and a second borrower could run as B beside it). */
static atomic_int guest_armed, guest_asleep, own_bad_word = -1, own_bad_worker = -1;
static atomic_int child_started;

static void guest_hook(weft_race_point_id id)
{
    weft_worker *me = weft_self();
    if (!atomic_load(&guest_armed) || !me)
        return;
    if (loan_caller) {
        if (id == WEFT_RP_SLEEP_WILL_WAIT)
            atomic_store(&guest_asleep, 1);
        return;
    }
    uint32_t word = atomic_load(&me->sleep_word);
    if (id == WEFT_RP_SLEEP_BEFORE_ANNOUNCE && word != WEFT_AWAKE) {
        int none = -1;
        if (atomic_compare_exchange_strong(&own_bad_worker, &none, (int)weft_worker_id(me)))
            atomic_store(&own_bad_word, (int)word);
    }
}

WEFT_TASK_0(long, held_until_guest_sleeps)
{
    atomic_store(&child_started, 1);
    for (int i = 0; i < 100000 && !atomic_load(&guest_asleep); i++)
        weft_sleep_ns(100000);
    return atomic_load(&guest_asleep) ? 20 : -1;
}

WEFT_TASK_0(long, guest_joins_stolen)
{
    WEFT_SPAWN(held_until_guest_sleeps);
    for (int i = 0; i < 100000 && !atomic_load(&child_started); i++) {
        WEFT_YIELD();
        weft_sleep_ns(100000);
    }
    return WEFT_SYNC(held_until_guest_sleeps);
}

static void test_guest_wakeup_is_not_the_workers(void)
{
    weft__race_set_hook(guest_hook);
    CHECK(start(2) == 0, "start");
    for (int round = 0; round < 3; round++) {
        wait_all_lendable();
        atomic_store(&guest_asleep, 0);
        atomic_store(&child_started, 0);
        loan_caller = 1;
        atomic_store(&guest_armed, 1);
        long r = WEFT_RUN(guest_joins_stolen);
        loan_caller = 0;
        CHECK(r == 20, "the RUN returned %ld (the child never saw the borrower asleep)", r);
        /* Both workers asleep again: B's own thread went through its
         * sleep's start if it was woken. */
        wait_all_lendable();
        atomic_store(&guest_armed, 0);
        CHECK(atomic_load(&own_bad_worker) < 0,
              "worker %d's own thread ran with its word %#x, not AWAKE (it took a borrower's "
              "wake-up for its own)",
              atomic_load(&own_bad_worker), (unsigned)atomic_load(&own_bad_word));
    }
    CHECK(weft_stop() == 0, "stop");
    weft__race_set_hook(NULL);
    printf("ok: a borrower's wake-up in a join is not taken by the worker's own thread\n");
}
#endif

/* ---- an overflow of the guest stack is explained ---- */

static WEFT_UNUSED void guest_overflow_child(void)
{
    CHECK(start(2) == 0, "start");
    wait_all_lendable();
    (void)WEFT_RUN(deep_frames, 100000); /* 400 MB of frames on a 1 MiB stack */
}

/* The same, the caller blocking every signal before it started weft:
 * the guest stack is weft's, and SIGSEGV is unblocked while the borrowed
 * task runs on it (a fault with it blocked kills without a handler).  On
 * a new thread, which inherits the mask: weft looks at a thread's mask
 * at its first borrowed RUN, and this process's main thread, forked, has
 * had its first. */
static void *guest_overflow_thread(void *arg)
{
    (void)arg;
    guest_overflow_child();
    return NULL;
}

/* The same, the caller having an alternate signal stack of its own too
 * small for the report (small_altstack.h): weft's is installed while the
 * borrowed task runs (test_small_altstack_kept: the caller's is its own
 * again after). */

static void *guest_overflow_small_altstack_thread(void *arg)
{
    (void)arg;
    set_small_altstack();
    guest_overflow_child();
    return NULL;
}

static WEFT_UNUSED void guest_overflow_small_altstack_child(void)
{
    pthread_t th;
    CHECK(pthread_create(&th, NULL, guest_overflow_small_altstack_thread, NULL) == 0, "thread");
    pthread_join(th, NULL);
}

static void *small_altstack_kept_thread(void *arg)
{
    (void)arg;
    set_small_altstack();
    for (int i = 0; i < 3; i++) {
        CHECK(run_where(12) == 1, "borrowed with a small alternate signal stack");
        check_small_altstack_kept("a borrowed RUN");
    }
    return NULL;
}

static void test_small_altstack_kept(void)
{
    CHECK(start(2) == 0, "start");
    wait_all_lendable();
    pthread_t th;
    CHECK(pthread_create(&th, NULL, small_altstack_kept_thread, NULL) == 0, "thread");
    pthread_join(th, NULL);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: a borrowed RUN keeps its caller's alternate signal stack\n");
}

static WEFT_UNUSED void guest_overflow_signals_blocked_child(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, guest_overflow_thread, NULL) == 0, "thread");
    pthread_join(th, NULL);
}

/* SIGSEGV is blocked again after a borrowed RUN, as the caller had it. */
static void test_mask_kept(void)
{
    sigset_t segv, old, now;
    sigemptyset(&segv);
    sigaddset(&segv, SIGSEGV);
    CHECK(pthread_sigmask(SIG_BLOCK, &segv, &old) == 0, "sigmask");
    CHECK(start(2) == 0, "start");
    wait_all_lendable();
    CHECK(run_where(12) == 1, "borrowed with SIGSEGV blocked");
    CHECK(pthread_sigmask(SIG_BLOCK, NULL, &now) == 0 && sigismember(&now, SIGSEGV) == 1,
          "a borrowed RUN left SIGSEGV unblocked on its caller");
    CHECK(weft_stop() == 0, "stop");
    CHECK(pthread_sigmask(SIG_SETMASK, &old, NULL) == 0, "sigmask");
    printf("ok: a borrowed RUN keeps its caller's signal mask\n");
}

int main(void)
{
    /* Every worker takes part here, however many CPUs there are: the
     * active limit (test_active_limit) would keep some out of the sleeps
     * counted below. */
    setenv("WEFT_ACTIVE_LIMIT", "0", 1);
#if WEFT_PERTURB
    test_loan_ends_before_worker_runs();
    test_guest_wakeup_is_not_the_workers();
#endif
    for (size_t wi = 0; wi < N_TEST_WORKER_COUNTS; wi++) {
        unsigned workers = test_worker_counts[wi];
        CHECK(start(workers) == 0, "start");
        test_borrows_when_idle();
        test_many_callers();
        test_callers_while_busy();
        test_per_worker_state();
        test_interrupts_during_borrowed();
        test_suspend_races();
        test_small_caller_stack();
        test_borrower_sleeps_while_another_borrows();
        test_stop_waits(); /* stops the pool */
        /* Repeated start/stop with a borrowed RUN in each. */
        for (int i = 0; i < 3; i++) {
            CHECK(start(workers) == 0, "restart");
            wait_all_lendable();
            CHECK(run_where(12) == 1, "borrowed after restart");
            CHECK(weft_stop() == 0, "stop");
        }
        printf("ok: borrowed RUNs at %u workers\n", workers);
    }
    test_mask_kept();
    test_small_altstack_kept();
#ifndef WEFT_TEST_SANITIZED
    expect_death(guest_overflow_child, "stack overflow on worker",
                 "a RUN from outside overflowing the guest stack");
    expect_death(guest_overflow_signals_blocked_child, "on the worker's guest stack",
                 "a RUN from outside overflowing the guest stack, every signal blocked");
    expect_death(guest_overflow_small_altstack_child, "on the worker's guest stack",
                 "a RUN from outside overflowing the guest stack, the caller's alternate signal "
                 "stack 2 KiB");
#endif
    return 0;
}
