// SPDX-License-Identifier: Apache-2.0
/* Lace 1.4 and 1.6 programs that misuse the API, as a new user or a hostile
 * program would, each run in a child process; the parent checks how the
 * child ended (exit 0, or abort after a message) and the exact messages on
 * its stderr.  Built twice: WEFT_LACE_API 14 and 16.  A case name on the
 * command line runs that case in this process (for debugging).
 *
 * What each case expects, and why (what Lace does), is in
 * docs/results/adversarial.md's table of adversarial programs. */

#include <lace.h>

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "adversarial.h"
#include "check.h"
#include "timing.h"

#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static uint64_t lace_gethrtime_(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

TASK_1(long, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    long b = CALL(fib, n - 2);
    return SYNC(fib) + b;
}

TASK_1(long, other, int, n) { return n + 1; }

/* ---- lifecycle ---- */

static void start_twice(void)
{
    lace_start(2, 0);
    lace_start(2, 0);
}

static void start_workers_minus_one(void) { lace_start((unsigned)-1, 0); }

static void start_workers_4097(void) { lace_start(4097, 0); }

/* Lace accepts any deque size; a program that spawns little runs. */
static void start_dqsize_one(void)
{
    lace_start(2, 1);
    CHECK(RUN(fib, 12) == fib_seq(12), "fib");
    lace_stop();
}

static void start_dqsize_huge(void) { lace_start(2, (size_t)-1); }

/* Lace passes the size to pthread_attr_setstacksize, which ignores one
 * below its minimum: the pool runs. */
static void stacksize_one(void)
{
    lace_set_stacksize(1);
    CHECK(lace_get_stacksize() == 1, "lace_get_stacksize gives what was set");
    lace_start(2, 0);
    CHECK(RUN(fib, 12) == fib_seq(12), "fib");
    lace_stop();
}

static void stacksize_minus_one(void)
{
    lace_set_stacksize((size_t)-1);
    lace_start(2, 0);
}

static void run_before_start(void) { (void)RUN(fib, 10); }

static void run_after_stop(void)
{
    lace_start(2, 0);
    CHECK(RUN(fib, 10) == 55, "fib");
    lace_stop();
    (void)RUN(fib, 10);
}

static void newframe_stopped(void) { (void)NEWFRAME(fib, 10); }

static void together_stopped(void) { (void)TOGETHER(fib, 10); }

VOID_TASK_0(stop_inside) { lace_stop(); }

static void stop_in_task(void)
{
    lace_start(2, 0);
    RUN(stop_inside);
}

static void stop_twice(void)
{
    lace_start(2, 0);
    lace_stop();
    lace_stop();
    CHECK(lace_workers() == 0, "stopped");
}

static void stop_without_start(void) { lace_stop(); }

/* TOGETHER copies that call lace_barrier a different number of times:
 * worker 0's copy twice, the other's once (Lace: waits for ever). */
VOID_TASK_0(uneven_barriers)
{
    lace_barrier();
    if (LACE_WORKER_ID == 0)
        lace_barrier();
}

static void barrier_uneven(void)
{
    lace_start(2, 0);
    TOGETHER(uneven_barriers);
}

/* lace_exit (Lace's first API) is told in its own name. */
static void exit_without_start(void) { lace_exit(); }

VOID_TASK_0(exits_inside) { lace_exit(); }

static void exit_in_task(void)
{
    lace_start(1, 0);
    RUN(exits_inside);
}

VOID_TASK_0(start_inside) { lace_start(1, 0); }

static void start_in_task(void)
{
    lace_start(2, 0);
    RUN(start_inside);
}

/* A RUN in progress on another thread when the main thread stops: the
 * stop waits for it. */
static atomic_int slow_started;
TASK_1(long, slow_fib, int, n)
{
    atomic_store(&slow_started, 1);
    nap_us(50000);
    return CALL(fib, n);
}
static void *slow_runner(void *arg)
{
    *(long *)arg = RUN(slow_fib, 20);
    return NULL;
}
static void stop_during_run(void)
{
    lace_start(2, 0);
    long r = 0;
    pthread_t th;
    pthread_create(&th, NULL, slow_runner, &r);
    while (!atomic_load(&slow_started))
        nap_us(100);
    lace_stop();
    pthread_join(th, NULL);
    CHECK(r == fib_seq(20), "the RUN finished: %ld", r);
    CHECK(lace_workers() == 0, "stopped");
}

/* ---- inside tasks ---- */

TASK_0(long, sync_nothing) { return SYNC(fib); }

static void sync_without_spawn(void)
{
    lace_start(1, 0);
    (void)RUN(sync_nothing);
}

TASK_0(long, sync_swapped)
{
    SPAWN(fib, 5);
    SPAWN(other, 5);
    long a = SYNC(fib); /* the last SPAWN was other's */
    return a + SYNC(other);
}

static void sync_wrong_order(void)
{
    lace_start(1, 0);
    (void)RUN(sync_swapped);
}

VOID_TASK_1(spawn_many, int, n)
{
    for (int i = 0; i < n; i++)
        SPAWN(fib, 1);
    for (int i = 0; i < n; i++)
        SYNC(fib);
}

static void spawn_overflow(void)
{
    lace_start(1, 16);
    RUN(spawn_many, 100);
}

/* 16 SPAWNs fill a deque of 16 slots exactly: they run, as in Lace. */
static void spawn_exactly_full(void)
{
    lace_start(1, 16);
    RUN(spawn_many, 16);
    lace_stop();
}

VOID_TASK_0(drop_nothing) { DROP(); }

static void drop_without_spawn(void)
{
    lace_start(1, 0);
    RUN(drop_nothing);
}

TASK_0(long, drop_then_sync)
{
    SPAWN(fib, 10);
    SPAWN(fib, 11);
    DROP(); /* fib(11) is not run (nobody stole it at one worker) */
    return SYNC(fib);
}

static void drop_keeps_older(void)
{
    lace_start(1, 0);
    CHECK(RUN(drop_then_sync) == 55, "the older SPAWN is still joined");
    lace_stop();
}

TASK_0(long, leaves_spawn)
{
    SPAWN(fib, 3);
    return 1;
}

static void unjoined_spawn(void)
{
    lace_start(1, 0);
    (void)RUN(leaves_spawn);
}

/* The counters' report given no file says so in Lace's words. */
static void count_report_null(void) { lace_count_report_file(NULL); }

static void barrier_from_main(void)
{
    lace_start(2, 0);
    lace_barrier();
}

VOID_TASK_0(barrier_in_run) { lace_barrier(); }

static void barrier_in_task(void)
{
    lace_start(2, 0);
    RUN(barrier_in_run);
}

static void lace_me_outside(void)
{
    lace_start(2, 0);
    LACE_ME;
    (void)CALL(fib, 5);
}

/* Lace's worker functions given lace_get_worker() outside the pool. */
static void yield_outside(void)
{
    lace_start(1, 0);
    lace_yield(lace_get_worker(), NULL);
}

static void drop_outside(void)
{
    lace_start(1, 0);
    lace_drop(lace_get_worker(), NULL);
}

static void steal_random_outside(void)
{
    lace_start(1, 0);
    lace_steal_random_CALL(lace_get_worker(), NULL);
}

static void get_head_outside(void)
{
    lace_start(1, 0);
    (void)lace_get_head(lace_get_worker());
}

/* A task hands its worker and head to a plain thread, which SPAWNs with
 * them onto a slot the task's own SPAWN holds: told that the context is
 * used off its worker's thread (before: that a second ME macro spawned
 * over a pending task, in weft's or Lace's words by the thread). */
typedef struct {
    WorkerP *worker;
    Task *head;
} handed_context;

static void *spawn_with_handed_context(void *arg)
{
    handed_context *c = arg;
    WorkerP *__lace_worker = c->worker;
    Task *__lace_dq_head = c->head;
    SPAWN(fib, 5);
    SYNC(fib);
    return NULL;
}

VOID_TASK_0(hand_context_away)
{
    handed_context c = {__lace_worker, __lace_dq_head};
    SPAWN(fib, 10); /* one worker: it stays in the slot */
    pthread_t th;
    CHECK(pthread_create(&th, NULL, spawn_with_handed_context, &c) == 0, "thread");
    pthread_join(th, NULL);
    SYNC(fib);
}

static void context_on_another_thread(void)
{
    lace_start(1, 0);
    RUN(hand_context_away);
    lace_stop();
}

static void run_task_without_f(void)
{
    lace_start(2, 0);
    Task t;
    memset(&t, 0, sizeof t);
    lace_run_task(&t);
}

/* Outside the pool: no worker, no id. */
static void queries_outside(void)
{
    CHECK(lace_workers() == 0 && !lace_is_worker() && lace_get_worker() == NULL, "no pool");
#if WEFT_LACE_API >= 16
    CHECK(!lace_is_running(), "not running");
#endif
    lace_start(2, 0);
    CHECK(lace_workers() == 2 && !lace_is_worker() && lace_get_worker() == NULL, "main");
#if WEFT_LACE_API >= 16
    CHECK(lace_is_running(), "running");
#endif
    lace_stop();
}

/* ---- stolen or not ---- */

TASK_0(int, inspect_unstolen)
{
    Task *t = SPAWN(fib, 10);
    Task *u = SPAWN(other, 1);
    int ok = !TASK_IS_STOLEN(t) && !TASK_IS_COMPLETED(t) && !TASK_IS_STOLEN(u) && t->f != u->f &&
             t->f == (lace_task_fn)&fib_WRAP && u + 0 == t + 1;
    ok &= SYNC(other) == 2;
    ok &= SYNC(fib) == 55;
    return ok;
}

/* A slot that held another task's f: a SPAWN whose value is used stamps
 * its own f there, also after a SPAWN into that slot whose value was not
 * (lace.h may leave f unstamped then: nothing reads it). */
TASK_0(int, stamp_reused_slot)
{
    Task *a = SPAWN(fib, 3);
    int ok = a->f == (lace_task_fn)&fib_WRAP;
    ok &= SYNC(fib) == 2;
    SPAWN(other, 1);
    ok &= SYNC(other) == 2;
    Task *b = SPAWN(other, 1);
    ok &= b == a && b->f == (lace_task_fn)&other_WRAP;
    ok &= SYNC(other) == 2;
    SPAWN(fib, 4);
    ok &= SYNC(fib) == 3;
    Task *c = SPAWN(fib, 5);
    ok &= c == a && c->f == (lace_task_fn)&fib_WRAP && !TASK_IS_STOLEN(c);
    ok &= SYNC(fib) == 5;
    return ok;
}

static void stolen_queries_unstolen(void)
{
    lace_start(1, 0);
    CHECK(RUN(inspect_unstolen), "queries on tasks nobody stole");
    CHECK(RUN(stamp_reused_slot), "the f of a slot reused by another task");
    lace_stop();
}

/* A task stolen for sure: the owner waits until a thief has it. */
static atomic_int spin_release;
TASK_1(long, wait_released, int, n)
{
    while (!atomic_load(&spin_release))
        nap_us(100);
    return n * 2;
}
TASK_0(int, inspect_stolen)
{
    Task *t = SPAWN(wait_released, 21);
    /* A thief takes it (the owner answers thieves where the scheduler has
     * it poll, YIELD_NEWFRAME); 10 s without a steal is a failure. */
    uint64_t t0 = lace_gethrtime_();
    while (!TASK_IS_STOLEN(t)) {
        YIELD_NEWFRAME();
        CHECK(lace_gethrtime_() - t0 < 10000000000ULL, "nobody stole the task in 10 s");
    }
    atomic_store(&spin_release, 1);
    while (!TASK_IS_COMPLETED(t))
        nap_us(100);
    long r = *(long *)TASK_RESULT(t);
    int ok = r == 42 && t->f == (lace_task_fn)&wait_released_WRAP;
    return ok && SYNC(wait_released) == 42;
}

static void stolen_queries_stolen(void)
{
    lace_start(2, 0);
    CHECK(RUN(inspect_stolen), "queries on a stolen task");
    lace_stop();
}

/* ---- interrupts ---- */

static atomic_int together_count;
VOID_TASK_0(count_copy)
{
    atomic_fetch_add(&together_count, 1);
    lace_barrier();
}
TASK_1(long, frame_body, int, n)
{
    TOGETHER(count_copy); /* TOGETHER nested in a NEWFRAME */
    return CALL(fib, n);
}
TASK_1(long, frame_outer, int, n)
{
    /* NEWFRAME from inside a task, and one nested in its task. */
    long a = NEWFRAME(frame_body, n);
    return a + CALL(fib, n);
}
TASK_1(long, frame_nest, int, n) { return NEWFRAME(frame_outer, n); }

static void nested_interrupts(void)
{
    lace_start(3, 0);
    CHECK(RUN(frame_nest, 15) == 2 * fib_seq(15), "result");
    CHECK(atomic_load(&together_count) == 3, "one copy per worker: %d", together_count);
    CHECK(NEWFRAME(frame_outer, 10) == 2 * fib_seq(10), "from outside");
    CHECK(atomic_load(&together_count) == 6, "one copy per worker: %d", together_count);
    lace_stop();
}

/* TOGETHER from a task: one copy per worker; TOGETHER inside every copy
 * of a TOGETHER: each of the 2 copies starts one, 2 x 2 inner copies. */
VOID_TASK_0(together_from_task) { TOGETHER(count_copy); }
VOID_TASK_0(together_in_copy) { TOGETHER(count_copy); }

static void together_nested(void)
{
    lace_start(2, 0);
    RUN(together_from_task);
    CHECK(atomic_load(&together_count) == 2, "TOGETHER from a task: %d copies", together_count);
    TOGETHER(together_in_copy);
    CHECK(atomic_load(&together_count) == 2 + 4, "TOGETHER in copies: %d copies",
          together_count - 2);
    lace_stop();
}

/* More outside threads than Lace 1.6 promises (64), mixing RUN, NEWFRAME
 * and TOGETHER. */
#define N_OUTSIDE 80
static void *outside_thread(void *arg)
{
    int i = (int)(intptr_t)arg;
    long r;
    if (i % 20 == 0)
        r = NEWFRAME(fib, 12);
    else if (i % 20 == 1) {
        TOGETHER(count_copy);
        r = fib_seq(12);
    } else
        r = RUN(fib, 12);
    return (void *)(intptr_t)(r == fib_seq(12));
}

static void outside_threads(void)
{
    lace_start(2, 0);
    pthread_t th[N_OUTSIDE];
    for (int i = 0; i < N_OUTSIDE; i++)
        CHECK(pthread_create(&th[i], NULL, outside_thread, (void *)(intptr_t)i) == 0, "thread");
    for (int i = 0; i < N_OUTSIDE; i++) {
        void *ok;
        pthread_join(th[i], &ok);
        CHECK(ok != NULL, "thread %d's result", i);
    }
    CHECK(atomic_load(&together_count) == 2 * (N_OUTSIDE / 20), "TOGETHER copies: %d",
          together_count);
    lace_stop();
}

/* ---- messages and configuration ---- */

static void verbosity(void)
{
    lace_set_verbosity(1);
    lace_start(2, 100);
    lace_stop();
}

static void env_workers(void)
{
    setenv("WEFT_WORKERS", "two", 1);
    lace_start(0, 0);
}

static void env_stack(void)
{
    setenv("WEFT_STACK_SIZE", "12q", 1);
    lace_start(2, 0);
}

static void env_deque(void)
{
    setenv("WEFT_DEQUE_SIZE", "-5", 1);
    lace_start(2, 0);
}

#if WEFT_LACE_API < 16
/* Suspends nest as Lace counts them, and a RUN from another thread runs
 * even while the pool is suspended (Lace resumes the workers for it). */
static void *late_run(void *arg)
{
    *(long *)arg = RUN(fib, 15);
    return NULL;
}
static void suspend_nested(void)
{
    lace_start(2, 0);
    lace_suspend();
    lace_suspend();
    lace_resume();
    long r = -1;
    pthread_t th;
    pthread_create(&th, NULL, late_run, &r);
    pthread_join(th, NULL);
    CHECK(r == fib_seq(15), "a RUN while suspended: %ld", r);
    lace_resume();
    CHECK(RUN(fib, 12) == fib_seq(12), "a RUN after the last resume");
    lace_stop();
}
#else
/* lace_sleep_us of 0 or less returns at once. */
static void sleep_negative(void)
{
    uint64_t t0 = lace_gethrtime();
    lace_sleep_us(-1);
    lace_sleep_us(INT64_MIN);
    lace_sleep_us(0);
    CHECK(lace_gethrtime() - t0 < 1000000000u, "returned at once");
}
#endif

#if WEFT_LACE_API < 16
static void resume_not_suspended(void)
{
    lace_start(2, 0);
    lace_resume(); /* Lace counts it: the count is 2 */
    lace_suspend();
    CHECK(RUN(fib, 10) == 55, "still runs");
    lace_suspend(); /* the count is 0 */
    CHECK(RUN(fib, 10) == 55, "runs while suspended");
    lace_resume();
    lace_stop();
}

/* Lace says not to call these from a task; weft says so and goes on. */
TASK_0(int, suspend_in_task)
{
    lace_suspend();
    lace_resume();
    return 1;
}
static void suspend_from_task(void)
{
    lace_start(2, 0);
    CHECK(RUN(suspend_in_task) == 1, "the task goes on");
    CHECK(RUN(fib, 10) == 55, "still runs");
    lace_stop();
}
#endif

/* A steal or a yield that would run a task at a held head below a task
 * another API spawned in a nested block is refused at once, naming the
 * call (a yield: when an interrupt is pending, as it runs one there). */
WEFT_TASK_1(long, weft_leaf, long, x) { return x + 1; }

TASK_0(long, steal_over_nested)
{
    SPAWN(fib, 10);
    long r;
    {
        WEFT_ME;
        WEFT_SPAWN(weft_leaf, 1);
        STEAL_RANDOM();
        r = WEFT_SYNC(weft_leaf);
    }
    return r + SYNC(fib);
}

static void steal_stale_head(void)
{
    lace_start(2, 0);
    (void)RUN(steal_over_nested);
    lace_stop();
}

static atomic_int yield_ready;

TASK_0(long, yield_over_nested)
{
    long r;
    {
        WEFT_ME;
        WEFT_SPAWN(weft_leaf, 1);
        atomic_store(&yield_ready, 1);
        /* Until the NEWFRAME arrives (the yield then stops the program);
         * for 10 s at most, however late the other thread runs. */
        for (uint64_t t0 = lace_gethrtime_(); lace_gethrtime_() - t0 < 10000000000ULL;)
            YIELD_NEWFRAME();
        r = WEFT_SYNC(weft_leaf);
    }
    return r;
}

static void *newframe_when_ready(void *arg)
{
    (void)arg;
    while (!atomic_load(&yield_ready))
        sched_yield();
    (void)NEWFRAME(fib, 5);
    return NULL;
}

static void yield_stale_head(void)
{
    lace_start(2, 0);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, newframe_when_ready, NULL) == 0, "thread");
    (void)RUN(yield_over_nested);
    pthread_join(th, NULL);
    lace_stop();
}

/* ThreadSanitizer's runtime (GCC 12's) cannot fork a process with threads
 * (the child may hang in it): these cases run in every other build.
 * AddressSanitizer's has no fork handler either, but its locks are taken
 * here only while a thread starts (AsanThread::Init's first allocation
 * takes its size class's region lock), so the busy threads are left to
 * start before the first fork (fork_children). */
#if !WEFT_TEST_TSAN
/* ---- fork() while other threads are inside Lace's calls ---- */

static atomic_bool busy_stop;
static atomic_int busy_running;

/* Suspends and resumes, or RUNs, over and over: at a fork the child gets
 * Lace's locks as this thread held them. */
static void *busy_caller(void *arg)
{
    bool runs = arg != NULL;
    atomic_fetch_add(&busy_running, 1);
    while (!atomic_load(&busy_stop)) {
        if (runs)
            CHECK(RUN(fib, 8) == 21, "RUN");
        else {
            lace_suspend();
            lace_resume();
        }
    }
    return NULL;
}

/* Each child starts Lace of its own, RUNs and RUNEXes, and stops: the
 * locks the parent's other threads held at the fork are not held in the
 * child (a child hung on one within a few forks). */
static void fork_children(bool runs)
{
    lace_start(2, 0);
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, busy_caller, runs ? (void *)1 : NULL) == 0, "thread");
    /* Both threads are in their loops before the first fork: a fork
     * while one is starting may copy an allocator lock of ASan's held
     * (its first malloc or free refills its cache under a size class's
     * region lock; GCC 12's runtime has no fork handler for it), and the
     * child's first worker then waits on it for ever. */
    while (atomic_load(&busy_running) < 2)
        nap_us(100);
    for (int k = 0; k < 20; k++) {
        fflush(stderr);
        pid_t child = fork();
        CHECK(child >= 0, "fork");
        if (child == 0) {
            alarm(20); /* a hang ends as a failure */
            lace_start(1, 0);
            long a = RUN(fib, 10), b = RUNEX(fib, 10);
            lace_stop();
            _exit(a == 55 && b == 55 ? 0 : 1);
        }
        int st = 0;
        CHECK(waitpid(child, &st, 0) == child, "waitpid");
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "fork %d: the child ended with status %d", k,
              st);
        nap_us(500);
    }
    atomic_store(&busy_stop, true);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    lace_stop();
}

static void fork_while_suspending(void) { fork_children(false); }

static void fork_while_running(void) { fork_children(true); }

/* A RUN in a child forked while Lace runs: refused, naming the fork;
 * in one forked after lace_stop (stopped_first): refused, saying that
 * Lace has stopped, as its parent would be. */
static void refused_in_child(bool stopped_first)
{
    lace_start(2, 0);
    if (stopped_first)
        lace_stop();
    fflush(stderr);
    pid_t child = fork();
    CHECK(child >= 0, "fork");
    if (child == 0)
        _exit(RUN(fib, 5) == 5 ? 0 : 1); /* not reached: refused */
    int st = 0;
    CHECK(waitpid(child, &st, 0) == child, "waitpid");
    if (!stopped_first)
        lace_stop();
    if (WIFSIGNALED(st))
        abort(); /* the child's end, passed on for the table */
}

static void run_in_forked_child(void) { refused_in_child(false); }

static void run_in_child_forked_after_stop(void) { refused_in_child(true); }

#endif

/* lace_stop while suspended, a RUN from another thread in progress: the
 * stop waits for it, and the RUN's end settles Lace's count on a pool
 * that is gone: nothing to say (it said "weft_suspend: the pool is not
 * running").  The stop waits until the task has begun, whatever the host's
 * load: the lifecycle word's count of users also counts short reads of
 * the pool's layout (Lace's count settling calls lace_workers) before the
 * RUN enters, and a stop then comes first and refuses the RUN. */
static bool slow_fib_started(void) { return atomic_load(&slow_started) != 0; }

static void stop_suspended_during_run(void)
{
    lace_start(2, 0);
    lace_suspend();
    long r = 0;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, slow_runner, &r) == 0, "thread");
    CHECK(eventually(slow_fib_started, 10.0), "the RUN is in progress");
    lace_stop();
    pthread_join(th, NULL);
    CHECK(r == fib_seq(20), "the RUN's result: %ld", r);
}

/* ---- the table ---- */

static const adv_case cases[] = {
    {"start_twice",
     start_twice,
     ABORTED,
     false,
     {"lace: lace_start(2, 0) called while Lace is running: call lace_stop first\n"}},
    {"start_workers_minus_one",
     start_workers_minus_one,
     ABORTED,
     false,
     {"lace: lace_start(4294967295, 0): 4294967295 workers requested; Lace on weft runs 1 to "
      "4096 (0: one per CPU)\n"}},
    {"start_workers_4097",
     start_workers_4097,
     ABORTED,
     false,
     {"lace: lace_start(4097, 0): 4097 workers requested; Lace on weft runs 1 to 4096 (0: one "
      "per CPU)\n"}},
    {"start_dqsize_one", start_dqsize_one, 0, true, {NULL}},
    {"start_dqsize_huge",
     start_dqsize_huge,
     ABORTED,
     false,
     {"lace: lace_start(2, 18446744073709551615): dqsize 18446744073709551615 is too large: at "
      "most " WEFT_TEST_LACE_MAX_DQSIZE " tasks (0: weft's default)\n"}},
#if WEFT_TEST_TSAN /* TSan's threads need more than weft's smallest stack, 64 KiB */
    {"stacksize_one",
     stacksize_one,
     ABORTED,
     false,
     {"lace: lace_start: cannot create worker thread 0: Invalid argument\n",
      "lace: lace_start(2, 0): Lace could not start (Invalid argument)\n"}},
#else
    {"stacksize_one", stacksize_one, 0, true, {NULL}},
#endif
    {"stacksize_minus_one",
     stacksize_minus_one,
     ABORTED,
     false,
     {"lace: lace_start(2, 0): the stack size set with lace_set_stacksize is "
      "18446744073709551615 bytes, too large: at most 1099511627776 bytes (0: weft's default)\n"}},
    {"run_before_start",
     run_before_start,
     ABORTED,
     false,
     {"lace: RUN called before lace_start: call lace_start(n_workers, dqsize) first\n"}},
    {"run_after_stop",
     run_after_stop,
     ABORTED,
     false,
     {"lace: RUN called after lace_stop: Lace is not running (call lace_start(n_workers, dqsize) "
      "again first)\n"}},
    {"newframe_stopped",
     newframe_stopped,
     ABORTED,
     false,
     {"lace: NEWFRAME called before lace_start: call lace_start(n_workers, dqsize) first\n"}},
    {"together_stopped",
     together_stopped,
     ABORTED,
     false,
     {"lace: TOGETHER called before lace_start: call lace_start(n_workers, dqsize) first\n"}},
    {"stop_in_task",
     stop_in_task,
     ABORTED,
     false,
     {"lace: lace_stop called from inside a task: it would wait for itself (call it where "
      "lace_start was called)\n"}},
    {"stop_twice",
     stop_twice,
     0,
     false,
     {"lace: lace_stop called after lace_stop: Lace is not running (nothing to stop)\n"}},
    {"stop_without_start",
     stop_without_start,
     0,
     false,
     {"lace: lace_stop called before lace_start: Lace is not running (nothing to stop)\n"}},
    {"barrier_uneven",
     barrier_uneven,
     ABORTED,
     false,
     {"lace: lace_barrier on worker 0 waits for a TOGETHER copy that returned without reaching "
      "it: every copy must call it the same number of times (it would wait for ever)\n"}},
    {"exit_without_start",
     exit_without_start,
     0,
     false,
     {"lace: lace_exit called before lace_start: Lace is not running (nothing to stop)\n"}},
    {"exit_in_task",
     exit_in_task,
     ABORTED,
     false,
     {"lace: lace_exit called from inside a task: it would wait for itself (call it where "
      "lace_start was called)\n"}},
    {"start_in_task",
     start_in_task,
     ABORTED,
     false,
     {"lace: lace_start(1, 0) called from inside a task: Lace is running already (call "
      "lace_start once, outside Lace's tasks, and lace_stop before starting it again)\n"}},
    {"stop_during_run", stop_during_run, 0, true, {NULL}},
    {"sync_without_spawn",
     sync_without_spawn,
     ABORTED,
     false,
     {"lace: SYNC(fib) without a matching SPAWN on worker 0 (nothing spawned here)\n"}},
    {"sync_wrong_order",
     sync_wrong_order,
     ABORTED,
     false,
     {"lace: SYNC(fib) on worker 0, but the last unmatched SPAWN was of another task\n"}},
    {"spawn_overflow",
     spawn_overflow,
     ABORTED,
     false,
     {"lace: task deque overflow on worker 0: 16 tasks spawned and not yet synced fill its "
      "deque of " WEFT_TEST_DEQUE_OF_16 " slots, and one more does not fit. Raise the deque size "
      "(lace_start's dqsize, or WEFT_DEQUE_SIZE), or sync tasks sooner.\n"}},
    {"spawn_exactly_full", spawn_exactly_full, 0, true, {NULL}},
    {"drop_without_spawn",
     drop_without_spawn,
     ABORTED,
     false,
     {"lace: SYNC or DROP without a matching SPAWN on worker 0 (nothing is spawned in this "
      "task)\n"}},
    {"drop_keeps_older", drop_keeps_older, 0, true, {NULL}},
    {"unjoined_spawn",
     unjoined_spawn,
     ABORTED,
     false,
     {"lace: task leaves_spawn returned on worker 0 with a SPAWN not joined (slot 0): every "
      "SPAWN must be joined with SYNC or DROP before its task returns\n"}},
    {"count_report_null",
     count_report_null,
     0,
     false,
     {"lace: lace_count_report_file(NULL): no file to write the counters to (nothing "
      "written)\n"}},
    {"barrier_from_main",
     barrier_from_main,
     ABORTED,
     false,
     {"lace: lace_barrier called outside a TOGETHER copy"}},
    {"barrier_in_task",
     barrier_in_task,
     ABORTED,
     false,
     {"lace: lace_barrier called outside a TOGETHER copy"}},
    {"lace_me_outside",
     lace_me_outside,
     ABORTED,
     false,
     {"lace: LACE_ME used on a thread that is not a Lace worker (it is for code that tasks run; "
      "from outside Lace, call tasks with RUN)\n"}},
    {"context_on_another_thread",
     context_on_another_thread,
     ABORTED,
     false,
     {"lace: SPAWN(fib) with worker 0's context on a thread that is not that worker's (outside the "
      "pool): a worker's context is its own thread's"}},
    {"yield_outside",
     yield_outside,
     ABORTED,
     false,
     {"lace: lace_yield(NULL, ...) called on a thread that is not a Lace worker (lace_get_worker() "
      "is NULL "
      "there): call it from a task\n"}},
    {"drop_outside",
     drop_outside,
     ABORTED,
     false,
     {"lace: lace_drop(NULL, ...) called on a thread that is not a Lace worker (lace_get_worker() "
      "is NULL "
      "there): call it from a task\n"}},
    {"steal_random_outside",
     steal_random_outside,
     ABORTED,
     false,
     {"lace: lace_steal_random_CALL(NULL, ...) called on a thread that is not a Lace worker "
      "(lace_get_worker() is NULL "
      "there): call it from a task\n"}},
    {"get_head_outside",
     get_head_outside,
     ABORTED,
     false,
     {"lace: lace_get_head(NULL) called on a thread that is not a Lace worker (lace_get_worker() "
      "is NULL "
      "there): call it from a task\n"}},
    {"run_task_without_f",
     run_task_without_f,
     ABORTED,
     false,
     {"lace: lace_run_task: the task has no f (build tasks with TASK_n and run them with RUN)\n"}},
    {"queries_outside", queries_outside, 0, true, {NULL}},
    {"stolen_queries_unstolen", stolen_queries_unstolen, 0, true, {NULL}},
    {"stolen_queries_stolen", stolen_queries_stolen, 0, true, {NULL}},
    {"nested_interrupts", nested_interrupts, 0, true, {NULL}},
    {"outside_threads", outside_threads, 0, true, {NULL}},
    {"together_nested", together_nested, 0, true, {NULL}},
#if WEFT_LACE_API < 16
    {"suspend_nested", suspend_nested, 0, true, {NULL}},
#else
    {"sleep_negative", sleep_negative, 0, true, {NULL}},
#endif

    {"steal_stale_head",
     steal_stale_head,
     ABORTED,
     false,
     {"lace: STEAL_RANDOM() on worker ", "holds a head (slot 1) below a task still pending"}},
    {"yield_stale_head",
     yield_stale_head,
     ABORTED,
     false,
     {"lace: a yield (YIELD_NEWFRAME, lace_yield, WEFT_YIELD) on worker ",
      "holds a head (slot 0) below a task still pending"}},
#if !WEFT_TEST_TSAN /* (above) */
    {"fork_while_suspending", fork_while_suspending, 0, true, {NULL}},
    {"fork_while_running", fork_while_running, 0, true, {NULL}},
    {"run_in_forked_child",
     run_in_forked_child,
     ABORTED,
     false,
     {"lace: RUN called in a child process after fork(): Lace's pool is the parent's, and this "
      "process has none (call lace_start(n_workers, dqsize) in the child first)\n"}},
    {"run_in_child_forked_after_stop",
     run_in_child_forked_after_stop,
     ABORTED,
     false,
     {"lace: RUN called after lace_stop: Lace is not running (call lace_start(n_workers, "
      "dqsize) again first)\n"}},
#endif
    {"stop_suspended_during_run", stop_suspended_during_run, 0, true, {NULL}},
    {"verbosity",
     verbosity,
     0,
     false,
     {"(" WEFT_SCHEDULER_NAME " scheduler): 2 workers, 100 task slots per worker, stacks of "
      "67108864 bytes (weft's default)\n",
      "lace: stopped\n"}},
    {"env_workers",
     env_workers,
     ABORTED,
     false,
     {"lace: WEFT_WORKERS='two'", "lace: lace_start(0, 0): Lace could not start (Invalid "
                                  "argument)\n"}},
    {"env_stack",
     env_stack,
     ABORTED,
     false,
     {"lace: WEFT_STACK_SIZE='12q'", "lace: lace_start(2, 0): Lace could not start (Invalid "
                                     "argument)\n"}},
    {"env_deque",
     env_deque,
     ABORTED,
     false,
     {"lace: WEFT_DEQUE_SIZE='-5'", "lace: lace_start(2, 0): Lace could not start (Invalid "
                                    "argument)\n"}},
#if WEFT_LACE_API < 16
    {"resume_not_suspended", resume_not_suspended, 0, true, {NULL}},
    {"suspend_from_task",
     suspend_from_task,
     0,
     false,
     {"lace: lace_suspend called from inside a task: it is for threads outside Lace's tasks; "
      "ignored\n",
      "lace: lace_resume called from inside a task: it is for threads outside Lace's tasks; "
      "ignored\n"}},
#endif
};
#define N_CASES (sizeof cases / sizeof cases[0])

int main(int argc, char **argv)
{
    char what[32];
    snprintf(what, sizeof what, "Lace API %d", WEFT_LACE_API);
    return adv_main(cases, N_CASES, argc, argv, what);
}
