// SPDX-License-Identifier: Apache-2.0
/* Lace 2 programs that misuse the API, as a new user or a hostile program
 * would, each run in a child process; the parent checks how the child
 * ended (exit 0, or abort after a message) and the exact messages on its
 * stderr.  Built once per header: LACE2_TEST_HEADER is 32, 64 or 128
 * (lace32.h, lace.h, lace128.h).  A case name on the command line runs
 * that case in this process (for debugging).
 *
 * What each case expects, and why (what Lace does), is in
 * docs/results/adversarial.md's table of adversarial programs. */
#if LACE2_TEST_HEADER == 32
#include <lace32.h>
#elif LACE2_TEST_HEADER == 128
#include <lace128.h>
#else
#include <lace.h>
#endif

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adversarial.h"
#include "check.h"
#include "timing.h"

static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

TASK(long, fib, int, n)
long fib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return n;
    fib_SPAWN(lw, n - 1);
    long b = fib_CALL(lw, n - 2);
    return fib_SYNC(lw) + b;
}

TASK(long, other, int, n)
long other_CALL(lace_worker *lw, int n)
{
    (void)lw;
    return n + 1;
}

/* ---- lifecycle ---- */

static void start_twice(void)
{
    lace_start(2, 0, 0);
    lace_start(2, 0, 0);
}

/* Two threads start the pool at the same moment: one starts it, the other
 * is told that another thread starts Lace or that Lace runs, in its own
 * call's words (not that the pool could not start). */
static pthread_barrier_t start_together;

static void *start_from_thread(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_together);
    lace_start(2, 0, 0);
    return NULL;
}

static void start_two_threads(void)
{
    pthread_barrier_init(&start_together, NULL, 2);
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, start_from_thread, NULL) == 0, "pthread_create");
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
}

static void start_workers_minus_one(void) { lace_start((unsigned)-1, 0, 0); }

/* Lace accepts any deque and stack size (pthread ignores a stack below
 * its minimum): the pool runs. */
static void start_small_sizes(void)
{
    lace_start(2, 1, 1);
    CHECK(fib(12) == fib_seq(12), "fib");
    lace_stop();
}

static void start_dqsize_huge(void) { lace_start(2, (size_t)-1, 0); }

static void start_stacksize_huge(void) { lace_start(2, 0, (size_t)-1); }

static void call_before_start(void) { (void)fib(10); }

static void call_after_stop(void)
{
    lace_start(2, 0, 0);
    CHECK(fib(10) == 55, "fib");
    lace_stop();
    (void)fib(10);
}

static void newframe_stopped(void) { (void)fib_NEWFRAME(10); }

static void together_stopped(void) { fib_TOGETHER(10); }

TASK(void, stop_inside)
void stop_inside_CALL(lace_worker *lw)
{
    (void)lw;
    lace_stop();
}

static void stop_in_task(void)
{
    lace_start(2, 0, 0);
    stop_inside();
}

static void stop_twice(void)
{
    lace_start(2, 0, 0);
    lace_stop();
    lace_stop();
    CHECK(!lace_is_running(), "stopped");
}

static void stop_without_start(void) { lace_stop(); }

TASK(void, start_inside)
void start_inside_CALL(lace_worker *lw)
{
    (void)lw;
    lace_start(1, 0, 0);
}

static void start_in_task(void)
{
    lace_start(2, 0, 0);
    start_inside();
}

/* A call in progress on another thread when the main thread stops: the
 * stop waits for it. */
static atomic_int slow_started;
TASK(long, slow_fib, int, n)
long slow_fib_CALL(lace_worker *lw, int n)
{
    atomic_store(&slow_started, 1);
    nap_us(50000);
    return fib_CALL(lw, n);
}
static void *slow_runner(void *arg)
{
    *(long *)arg = slow_fib(20);
    return NULL;
}
static void stop_during_call(void)
{
    lace_start(2, 0, 0);
    long r = 0;
    pthread_t th;
    pthread_create(&th, NULL, slow_runner, &r);
    while (!atomic_load(&slow_started))
        nap_us(100);
    lace_stop();
    pthread_join(th, NULL);
    CHECK(r == fib_seq(20), "the call finished: %ld", r);
    CHECK(!lace_is_running(), "stopped");
}

/* ---- inside tasks ---- */

TASK(long, sync_nothing)
long sync_nothing_CALL(lace_worker *lw) { return fib_SYNC(lw); }

static void sync_without_spawn(void)
{
    lace_start(1, 0, 0);
    (void)sync_nothing();
}

TASK(long, sync_swapped)
long sync_swapped_CALL(lace_worker *lw)
{
    fib_SPAWN(lw, 5);
    other_SPAWN(lw, 5);
    long a = fib_SYNC(lw); /* the last SPAWN was other's */
    return a + other_SYNC(lw);
}

static void sync_wrong_order(void)
{
    lace_start(1, 0, 0);
    (void)sync_swapped();
}

TASK(void, spawn_many, int, n)
void spawn_many_CALL(lace_worker *lw, int n)
{
    for (int i = 0; i < n; i++)
        fib_SPAWN(lw, 1);
    for (int i = 0; i < n; i++)
        fib_SYNC(lw);
}

static void spawn_overflow(void)
{
    lace_start(1, 16, 0);
    spawn_many(100);
}

/* 16 SPAWNs fill a deque of 16 slots exactly: they run, as in Lace. */
static void spawn_exactly_full(void)
{
    lace_start(1, 16, 0);
    spawn_many(16);
    lace_stop();
}

/* A dqsize below 16 is raised to 16 tasks: 16 SPAWNs fit (15 did). */
static void spawn_16_at_dqsize_1(void)
{
    lace_start(1, 1, 0);
    spawn_many(16);
    lace_stop();
}

TASK(void, drop_nothing)
void drop_nothing_CALL(lace_worker *lw) { fib_DROP(lw); }

static void drop_without_spawn(void)
{
    lace_start(1, 0, 0);
    drop_nothing();
}

TASK(long, drop_then_sync)
long drop_then_sync_CALL(lace_worker *lw)
{
    fib_SPAWN(lw, 10);
    fib_SPAWN(lw, 11);
    lace_drop(lw); /* fib(11) is not run (nobody stole it at one worker) */
    return fib_SYNC(lw);
}

static void drop_keeps_older(void)
{
    lace_start(1, 0, 0);
    CHECK(drop_then_sync() == 55, "the older SPAWN is still joined");
    lace_stop();
}

TASK(long, leaves_spawn)
long leaves_spawn_CALL(lace_worker *lw)
{
    fib_SPAWN(lw, 3);
    return 1;
}

static void unjoined_spawn(void)
{
    lace_start(1, 0, 0);
    (void)leaves_spawn();
}

/* leaves_spawn run inline by its SYNC, and by NAME() on a worker: its
 * fib(3) sits where the caller's next SYNC would join it in place of the
 * caller's own fib(10) (a wrong result before the caller's return was
 * checked). */
TASK(long, syncs_leaver)
long syncs_leaver_CALL(lace_worker *lw)
{
    fib_SPAWN(lw, 10);
    leaves_spawn_SPAWN(lw);
    long a = leaves_spawn_SYNC(lw);
    long b = fib_SYNC(lw);
    printf("joined %ld and %ld\n", a, b);
    return a + b;
}

static void unjoined_spawn_synced(void)
{
    lace_start(1, 0, 0);
    (void)syncs_leaver();
}

TASK(long, calls_leaver)
long calls_leaver_CALL(lace_worker *lw)
{
    fib_SPAWN(lw, 10);
    long a = leaves_spawn();
    long b = fib_SYNC(lw);
    printf("joined %ld and %ld\n", a, b);
    return a + b;
}

static void unjoined_spawn_called(void)
{
    lace_start(1, 0, 0);
    (void)calls_leaver();
}

TASK(void, ends_its_thread)
void ends_its_thread_CALL(lace_worker *lw)
{
    (void)lw;
    pthread_exit(NULL);
}

static void pthread_exit_in_task(void)
{
    lace_start(1, 0, 0);
    ends_its_thread();
}

/* NAME_TOGETHER copies that call lace_barrier a different number of
 * times: worker 0's copy twice, the other's once (Lace: waits for ever). */
TASK(void, uneven_barriers)
void uneven_barriers_CALL(lace_worker *lw)
{
    (void)lw;
    lace_barrier();
    if (lace_worker_id() == 0)
        lace_barrier();
}

static void barrier_uneven(void)
{
    lace_start(2, 0, 0);
    uneven_barriers_TOGETHER();
}

/* The counters' report given no file says so in Lace's words. */
static void count_report_null(void) { lace_count_report_file(NULL); }

static void barrier_from_main(void)
{
    lace_start(2, 0, 0);
    lace_barrier();
}

TASK(void, barrier_in_call)
void barrier_in_call_CALL(lace_worker *lw)
{
    (void)lw;
    lace_barrier();
}

static void barrier_in_task(void)
{
    lace_start(2, 0, 0);
    barrier_in_call();
}

static void run_task_without_f(void)
{
    lace_start(2, 0, 0);
    lace_task t;
    memset(&t, 0, sizeof t);
    lace_run_task(&t);
}

/* ---- the API from a thread that is not a worker ---- */

static void queries_outside(void)
{
    CHECK(!lace_is_running() && lace_worker_count() == 0, "no pool");
    CHECK(!lace_is_worker() && lace_get_worker() == NULL && lace_worker_id() == -1, "no worker");
    lace_start(2, 0, 0);
    CHECK(lace_is_running() && lace_worker_count() == 2, "a pool");
    CHECK(!lace_is_worker() && lace_get_worker() == NULL && lace_worker_id() == -1, "main");
    lace_make_all_shared(); /* nothing to share: no effect */
    lace_stop();
}

/* NAME_SPAWN on lace_get_worker() under a weft task with a weft SPAWN
 * pending: the record's head is stale (the pending task sits there), and
 * the push would overwrite it: refused, in every build. */
WEFT_TASK_1(long, spawn_under_weft_leaf, int, n) { return n; }
WEFT_TASK_0(long, spawn_under_weft)
{
    WEFT_SPAWN(spawn_under_weft_leaf, 10);
    lace_worker *lw = lace_get_worker();
    fib_SPAWN(lw, 10);
    long a = fib_SYNC(lw);
    return a + WEFT_SYNC(spawn_under_weft_leaf);
}

static void spawn_stale_head(void)
{
    lace_start(1, 0, 0);
    (void)fib(5); /* the worker's record is bound, its head at the bottom */
    (void)WEFT_RUN(spawn_under_weft);
    lace_stop();
}

/* lace_steal_random on that stale record: a stolen task would run at its
 * head, over the weft task still pending there: refused, naming the call. */
WEFT_TASK_0(long, steal_under_weft)
{
    WEFT_SPAWN(spawn_under_weft_leaf, 10);
    lace_steal_random(lace_get_worker());
    return WEFT_SYNC(spawn_under_weft_leaf);
}

static void steal_stale_head(void)
{
    lace_start(1, 0, 0);
    (void)fib(5);
    (void)WEFT_RUN(steal_under_weft);
    lace_stop();
}

/* NAME_SPAWN on a record whose head is above the deque's top (a head kept
 * from a body that has returned: the spawn would leave an EMPTY slot below
 * its task, which the runtime's search takes for the top): refused, in
 * every build.  The stale head is made by hand here; real programs got
 * one by calling NAME_CALL(lace_get_worker(), ...) from other APIs' tasks
 * while their tops moved. */
WEFT_TASK_0(long, spawn_above_top)
{
    lace_worker *lw = lace_get_worker();
    lw->head = lace_get_head() + 2;
    return fib_CALL(lw, 10);
}

static void spawn_stale_head_above(void)
{
    lace_start(1, 0, 0);
    (void)fib(5);
    (void)WEFT_RUN(spawn_above_top);
    lace_stop();
}

/* A weft SYNC under a Lace 2 task spawned through lace_get_worker(), with
 * the record's head at the top by chance: the record was bound where the
 * top was two slots up, in an earlier RUN, and the weft body spawns two
 * tasks (the first, shared at once by the split deque, makes the second
 * private, whose join takes the fast path unless something sends it to
 * the slow one).  The join of the weft task below the Lace 2 one is
 * refused, in every build: lace_get_worker() hands out a copy of the top,
 * which the core is told of (weft_fj_copy_head). */
WEFT_TASK_0(long, bind_two_up)
{
    WEFT_SPAWN(spawn_under_weft_leaf, 1);
    WEFT_SPAWN(spawn_under_weft_leaf, 2);
    long bound = lace_get_worker() != NULL; /* the first use: bound here, head at slot 2 */
    long a = WEFT_SYNC(spawn_under_weft_leaf);
    return bound + a + WEFT_SYNC(spawn_under_weft_leaf);
}
WEFT_TASK_0(long, join_under_record)
{
    WEFT_SPAWN(spawn_under_weft_leaf, 1);
    WEFT_SPAWN(spawn_under_weft_leaf, 2);
    lace_worker *lw = lace_get_worker(); /* its head: slot 2, the top */
    fib_SPAWN(lw, 10);
    long a = WEFT_SYNC(spawn_under_weft_leaf); /* refused: fib, above it, is pending */
    a += fib_SYNC(lw);
    return a + WEFT_SYNC(spawn_under_weft_leaf);
}

static void join_under_stale_record(void)
{
    lace_start(1, 0, 0);
    (void)WEFT_RUN(bind_two_up);
    (void)WEFT_RUN(join_under_record);
    lace_stop();
}

static void get_head_outside(void)
{
    lace_start(2, 0, 0);
    (void)lace_get_head();
}

static void drop_outside(void)
{
    lace_start(2, 0, 0);
    lace_drop(lace_get_worker());
}

/* With WEFT_CHECKS (this test's build), a task's SPAWN, SYNC and DROP
 * given no worker. */
static void spawn_outside(void)
{
    lace_start(2, 0, 0);
    (void)fib_SPAWN(lace_get_worker(), 5);
}

/* A lace_worker saved from a task and used elsewhere: on a thread outside
 * the pool, and by a task on another worker (TOGETHER runs one on each). */
static lace_worker *saved_worker;

TASK(void, save_worker)
void save_worker_CALL(lace_worker *lw) { saved_worker = lw; }

static void spawn_with_saved_worker_outside(void)
{
    lace_start(2, 0, 0);
    save_worker();
    (void)fib_SPAWN(saved_worker, 5);
    (void)fib_SYNC(saved_worker);
}

TASK(void, spawn_with_saved_worker)
void spawn_with_saved_worker_CALL(lace_worker *lw)
{
    if (lw != saved_worker) {
        (void)fib_SPAWN(saved_worker, 5);
        (void)fib_SYNC(saved_worker);
    }
}

static void spawn_with_other_workers_worker(void)
{
    lace_start(2, 0, 0);
    save_worker();
    spawn_with_saved_worker_TOGETHER();
}

static void sync_outside(void)
{
    lace_start(2, 0, 0);
    (void)fib_SYNC(lace_get_worker());
}

static void task_drop_outside(void)
{
    lace_start(2, 0, 0);
    fib_DROP(lace_get_worker());
}

static void yield_outside(void)
{
    lace_start(2, 0, 0);
    lace_yield(lace_get_worker());
}

static void check_yield_outside(void)
{
    lace_start(2, 0, 0);
    (void)lace_check_yield(lace_get_worker());
}

static void steal_random_outside(void)
{
    lace_start(2, 0, 0);
    lace_steal_random(lace_get_worker());
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

/* Suspends and resumes, or calls a task, over and over: at a fork the
 * child gets Lace's locks as this thread held them. */
static void *busy_caller(void *arg)
{
    bool calls = arg != NULL;
    atomic_fetch_add(&busy_running, 1);
    while (!atomic_load(&busy_stop)) {
        if (calls)
            CHECK(fib(8) == 21, "fib");
        else {
            lace_suspend();
            lace_resume();
        }
    }
    return NULL;
}

/* Each child starts Lace of its own, calls and stops: the locks the
 * parent's other threads held at the fork are not held in the child
 * (29 of 40 children hung on one). */
static void fork_children(bool calls)
{
    lace_start(2, 0, 0);
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, busy_caller, calls ? (void *)1 : NULL) == 0, "thread");
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
            lace_start(1, 0, 0);
            long a = fib(10);
            lace_stop();
            _exit(a == 55 ? 0 : 1);
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

static void fork_while_calling(void) { fork_children(true); }

/* A task called in a child forked while Lace runs: refused, naming the fork;
 * in one forked after lace_stop (stopped_first): refused, saying that
 * Lace has stopped, as its parent would be. */
static void refused_in_child(bool stopped_first)
{
    lace_start(2, 0, 0);
    if (stopped_first)
        lace_stop();
    fflush(stderr);
    pid_t child = fork();
    CHECK(child >= 0, "fork");
    if (child == 0)
        _exit(fib(5) == 5 ? 0 : 1); /* not reached: refused */
    int st = 0;
    CHECK(waitpid(child, &st, 0) == child, "waitpid");
    if (!stopped_first)
        lace_stop();
    if (WIFSIGNALED(st))
        abort(); /* the child's end, passed on for the table */
}

static void call_in_forked_child(void) { refused_in_child(false); }

static void call_in_child_forked_after_stop(void) { refused_in_child(true); }

#endif

/* lace_stop while suspended, a call from another thread in progress: the
 * stop waits for it, and the call's end settles Lace's count on a pool
 * that is gone: nothing to say (it said "weft_suspend: the pool is not
 * running").  The stop waits until the task has begun, whatever the host's
 * load: the lifecycle word's count of users also counts short reads of
 * the pool's layout (Lace's count settling calls lace_workers) before the
 * call enters, and a stop then comes first and refuses the call. */
static bool slow_fib_started(void) { return atomic_load(&slow_started) != 0; }

static void stop_suspended_during_call(void)
{
    lace_start(2, 0, 0);
    lace_suspend();
    long r = 0;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, slow_runner, &r) == 0, "thread");
    CHECK(eventually(slow_fib_started, 10.0), "the call is in progress");
    lace_stop();
    pthread_join(th, NULL);
    CHECK(r == fib_seq(20), "the call's result");
}

/* lace_suspend and lace_resume in a loop on one thread while another
 * stops Lace, the two let go together, 100 rounds: a resume that comes
 * after the stop has nothing to resume, and nothing to say (it said
 * "weft_resume: the pool is not running", in each of 5 runs). */
static pthread_barrier_t stop_race_start;

static void *suspend_resume_loop(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&stop_race_start);
    for (int k = 0; k < 100; k++) {
        lace_suspend();
        lace_resume();
    }
    return NULL;
}

static void resume_racing_stop(void)
{
    for (int round = 0; round < 100; round++) {
        lace_start(2, 0, 0);
        CHECK(pthread_barrier_init(&stop_race_start, NULL, 2) == 0, "barrier");
        pthread_t th;
        CHECK(pthread_create(&th, NULL, suspend_resume_loop, NULL) == 0, "thread");
        pthread_barrier_wait(&stop_race_start);
        lace_stop();
        pthread_join(th, NULL);
        pthread_barrier_destroy(&stop_race_start);
    }
}

/* ---- stolen or not ---- */

TASK(int, inspect_unstolen)
int inspect_unstolen_CALL(lace_worker *lw)
{
    lace_task *t = fib_SPAWN(lw, 10);
    lace_task *u = other_SPAWN(lw, 1);
    int ok = !lace_is_stolen_task(t) && !lace_is_completed_task(t) && !lace_is_stolen_task(u) &&
             t->f != u->f && u == t + 1 && lace_get_head() == u + 1;
    ok &= other_SYNC(lw) == 2;
    ok &= fib_SYNC(lw) == 55;
    return ok;
}

static void stolen_queries_unstolen(void)
{
    lace_start(1, 0, 0);
    CHECK(inspect_unstolen(), "queries on tasks nobody stole");
    lace_stop();
}

/* A task stolen for sure: the owner waits until a thief has it. */
static atomic_int spin_release;
TASK(long, wait_released, int, n)
long wait_released_CALL(lace_worker *lw, int n)
{
    (void)lw;
    while (!atomic_load(&spin_release))
        nap_us(100);
    return n * 2;
}
TASK(int, inspect_stolen)
int inspect_stolen_CALL(lace_worker *lw)
{
    lace_task *t = wait_released_SPAWN(lw, 21);
    lace_task_fn f = t->f;
    /* A thief takes it (the owner answers thieves where the scheduler has
     * it poll, lace_check_yield); 10 s without a steal is a failure. */
    uint64_t t0 = lace_gethrtime();
    while (!lace_is_stolen_task(t)) {
        lace_check_yield(lw);
        CHECK(lace_gethrtime() - t0 < 10000000000ULL, "nobody stole the task in 10 s");
    }
    atomic_store(&spin_release, 1);
    while (!lace_is_completed_task(t))
        nap_us(100);
    int ok = *(long *)lace_task_result(t) == 42 && t->f == f;
    return ok && wait_released_SYNC(lw) == 42;
}

static void stolen_queries_stolen(void)
{
    lace_start(2, 0, 0);
    CHECK(inspect_stolen(), "queries on a stolen task");
    lace_stop();
}

/* The largest argument the header allows (LACE_TASKSIZE - 16 bytes),
 * through a steal: every byte arrives. */
typedef struct {
    unsigned char b[LACE_TASKSIZE - 16];
} blob;
TASK(long, blob_sum, blob, x)
long blob_sum_CALL(lace_worker *lw, blob x)
{
    (void)lw;
    long s = 0;
    for (size_t i = 0; i < sizeof x.b; i++)
        s += (long)(i + 1) * x.b[i];
    return s;
}
TASK(int, blobs)
int blobs_CALL(lace_worker *lw)
{
    blob x;
    long want = 0;
    for (size_t i = 0; i < sizeof x.b; i++) {
        x.b[i] = (unsigned char)(255 - i);
        want += (long)(i + 1) * x.b[i];
    }
    int ok = 1;
    for (int round = 0; round < 50; round++) {
        blob_sum_SPAWN(lw, x);
        blob_sum_SPAWN(lw, x);
        ok &= fib_CALL(lw, 12) == fib_seq(12);
        ok &= blob_sum_SYNC(lw) == want;
        ok &= blob_sum_SYNC(lw) == want;
    }
    return ok;
}

static void largest_arguments(void)
{
    lace_start(2, 0, 0);
    CHECK(blobs(), "arguments of %d bytes intact", (int)sizeof(blob));
    lace_stop();
}

/* ---- interrupts ---- */

static atomic_int together_count;
TASK(void, count_copy)
void count_copy_CALL(lace_worker *lw)
{
    (void)lw;
    atomic_fetch_add(&together_count, 1);
    lace_barrier();
}
TASK(long, frame_body, int, n)
long frame_body_CALL(lace_worker *lw, int n)
{
    count_copy_TOGETHER(); /* TOGETHER nested in a NEWFRAME */
    return fib_CALL(lw, n);
}
TASK(long, frame_outer, int, n)
long frame_outer_CALL(lace_worker *lw, int n)
{
    /* NEWFRAME from inside a task, and one nested in its task. */
    long a = frame_body_NEWFRAME(n);
    return a + fib_CALL(lw, n);
}
TASK(long, frame_nest, int, n)
long frame_nest_CALL(lace_worker *lw, int n)
{
    (void)lw;
    return frame_outer_NEWFRAME(n);
}

static void nested_interrupts(void)
{
    lace_start(3, 0, 0);
    CHECK(frame_nest(15) == 2 * fib_seq(15), "result");
    CHECK(atomic_load(&together_count) == 3, "one copy per worker: %d", together_count);
    CHECK(frame_outer_NEWFRAME(10) == 2 * fib_seq(10), "from outside");
    CHECK(atomic_load(&together_count) == 6, "one copy per worker: %d", together_count);
    lace_stop();
}

/* TOGETHER from a task: one copy per worker; TOGETHER inside every copy
 * of a TOGETHER: each of the 2 copies starts one, 2 x 2 inner copies. */
TASK(void, together_from_task)
void together_from_task_CALL(lace_worker *lw)
{
    (void)lw;
    count_copy_TOGETHER();
}
TASK(void, together_in_copy)
void together_in_copy_CALL(lace_worker *lw)
{
    (void)lw;
    count_copy_TOGETHER();
}

static void together_nested(void)
{
    lace_start(2, 0, 0);
    together_from_task();
    CHECK(atomic_load(&together_count) == 2, "TOGETHER from a task: %d copies", together_count);
    together_in_copy_TOGETHER();
    CHECK(atomic_load(&together_count) == 2 + 4, "TOGETHER in copies: %d copies",
          together_count - 2);
    lace_stop();
}

/* Lace 2.0's lace_suspend: a NAME(), NEWFRAME and TOGETHER from outside run
 * even while the pool is suspended (Lace resumes the workers for each);
 * suspends and resumes are counted; from a task both say so and are
 * ignored. */
TASK(int, copies_seen)
int copies_seen_CALL(lace_worker *lw)
{
    (void)lw;
    return 1;
}
static _Atomic int outside_copies;
TASK(void, count_outside_copy)
void count_outside_copy_CALL(lace_worker *lw)
{
    (void)lw;
    atomic_fetch_add(&outside_copies, 1);
}
TASK(int, suspend_in_task)
int suspend_in_task_CALL(lace_worker *lw)
{
    (void)lw;
    lace_suspend();
    lace_resume();
    return 1;
}
static _Atomic int outside_done;
static void *outside_calls(void *arg)
{
    (void)arg;
    CHECK(fib(15) == fib_seq(15), "NAME() while suspended");
    CHECK(copies_seen_NEWFRAME() == 1, "NEWFRAME while suspended");
    count_outside_copy_TOGETHER();
    atomic_store(&outside_done, 1);
    return NULL;
}
static void suspend_runs_outside(void)
{
    lace_start(2, 0, 0);
    lace_suspend();
    lace_suspend();
    lace_resume(); /* the count is 0: suspended */
    pthread_t th;
    CHECK(pthread_create(&th, NULL, outside_calls, NULL) == 0, "thread");
    for (int i = 0; i < 1000 && !atomic_load(&outside_done); i++)
        nap_us(10000);
    CHECK(atomic_load(&outside_done), "calls from outside still waiting after 10 s of suspension");
    pthread_join(th, NULL);
    CHECK(atomic_load(&outside_copies) == 2, "TOGETHER copies: %d", atomic_load(&outside_copies));
    lace_resume();
    CHECK(suspend_in_task() == 1, "lace_suspend from a task");
    CHECK(fib(12) == fib_seq(12), "after the last resume");
    lace_stop();
}

/* lace_sleep_us of 0 or less returns at once. */
static void sleep_negative(void)
{
    uint64_t t0 = lace_gethrtime();
    lace_sleep_us(-1);
    lace_sleep_us(INT64_MIN);
    lace_sleep_us(0);
    CHECK(lace_gethrtime() - t0 < 1000000000u, "returned at once");
}

/* More outside threads than Lace promises (64), mixing calls, NEWFRAME
 * and TOGETHER. */
#define N_OUTSIDE 80
static void *outside_thread(void *arg)
{
    int i = (int)(intptr_t)arg;
    long r;
    if (i % 20 == 0)
        r = fib_NEWFRAME(12);
    else if (i % 20 == 1) {
        count_copy_TOGETHER();
        r = fib_seq(12);
    } else
        r = fib(12);
    return (void *)(intptr_t)(r == fib_seq(12));
}

static void outside_threads(void)
{
    lace_start(2, 0, 0);
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
    lace_start(2, 100, 1 << 20);
    lace_stop();
}

static void env_workers(void)
{
    setenv("WEFT_WORKERS", "two", 1);
    lace_start(0, 0, 0);
}

static void env_stack(void)
{
    setenv("WEFT_STACK_SIZE", "12q", 1);
    lace_start(2, 0, 0);
}

static void env_deque(void)
{
    setenv("WEFT_DEQUE_SIZE", "-5", 1);
    lace_start(2, 0, 0);
}

/* ---- the table ---- */

#define STR_(x) #x
#define STR(x) STR_(x)
#define NOT_WORKER(what) \
    "lace: " what " called on a thread that is not a Lace worker (lace_get_worker() is NULL " \
    "there): call it from a task\n"

static const adv_case cases[] = {
    {"start_twice",
     start_twice,
     ABORTED,
     false,
     {"lace: lace_start(2, 0, 0) called while Lace is running: call lace_stop first\n"}},
    {"start_two_threads",
     start_two_threads,
     ABORTED,
     false,
     {"lace: lace_start(2, 0, 0) called while ", "call lace_stop", "!could not start"}},
    {"start_workers_minus_one",
     start_workers_minus_one,
     ABORTED,
     false,
     {"lace: lace_start(4294967295, 0, 0): 4294967295 workers requested; Lace on weft runs 1 to "
      "4096 (0: one per CPU)\n"}},
#if WEFT_TEST_TSAN /* TSan's threads need more than weft's smallest stack, 64 KiB */
    {"start_small_sizes",
     start_small_sizes,
     ABORTED,
     false,
     {"lace: lace_start: cannot create worker thread 0: Invalid argument\n",
      "lace: lace_start(2, 1, 1): Lace could not start (Invalid argument)\n"}},
#else
    {"start_small_sizes", start_small_sizes, 0, true, {NULL}},
#endif
    {"spawn_16_at_dqsize_1", spawn_16_at_dqsize_1, 0, true, {NULL}},
    {"start_dqsize_huge",
     start_dqsize_huge,
     ABORTED,
     false,
     {"lace: lace_start(2, 18446744073709551615, 0): dqsize 18446744073709551615 is too large: "
      "at most " WEFT_TEST_LACE_MAX_DQSIZE " tasks (0: weft's default)\n"}},
    {"start_stacksize_huge",
     start_stacksize_huge,
     ABORTED,
     false,
     {"lace: lace_start(2, 0, 18446744073709551615): stacksize is 18446744073709551615 bytes, "
      "too large: at most 1099511627776 bytes (0: weft's default)\n"}},
    {"call_before_start",
     call_before_start,
     ABORTED,
     false,
     {"lace: fib() called before lace_start: call lace_start(n_workers, dqsize, stacksize) "
      "first\n"}},
    {"call_after_stop",
     call_after_stop,
     ABORTED,
     false,
     {"lace: fib() called after lace_stop: Lace is not running (call lace_start(n_workers, dqsize, "
      "stacksize) "
      "again first)\n"}},
    {"newframe_stopped",
     newframe_stopped,
     ABORTED,
     false,
     {"lace: fib_NEWFRAME() called before lace_start: call lace_start(n_workers, dqsize, "
      "stacksize) first\n"}},
    {"together_stopped",
     together_stopped,
     ABORTED,
     false,
     {"lace: fib_TOGETHER() called before lace_start: call lace_start(n_workers, dqsize, "
      "stacksize) first\n"}},
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
    {"start_in_task",
     start_in_task,
     ABORTED,
     false,
     {"lace: lace_start(1, 0, 0) called from inside a task: Lace is running already (call "
      "lace_start once, outside Lace's tasks, and lace_stop before starting it again)\n"}},
    {"stop_during_call", stop_during_call, 0, true, {NULL}},
    {"sync_without_spawn",
     sync_without_spawn,
     ABORTED,
     false,
     {"lace: fib_SYNC() without a matching NAME_SPAWN() on worker 0 (nothing spawned here)\n"}},
    {"sync_wrong_order",
     sync_wrong_order,
     ABORTED,
     false,
     {"lace: fib_SYNC() on worker 0, but the last unmatched NAME_SPAWN() was of another "
      "task\n"}},
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
     {"lace: NAME_SYNC() or NAME_DROP() without a matching NAME_SPAWN() on worker 0 (nothing is "
      "spawned in this task)\n"}},
    {"drop_keeps_older", drop_keeps_older, 0, true, {NULL}},
    {"unjoined_spawn",
     unjoined_spawn,
     ABORTED,
     false,
     {"lace: task leaves_spawn returned on worker 0 with a NAME_SPAWN() not joined (slot 0): "
      "every NAME_SPAWN() must be joined with NAME_SYNC() or NAME_DROP() before its task "
      "returns\n"}},
    {"unjoined_spawn_synced",
     unjoined_spawn_synced,
     ABORTED,
     false,
     {"lace: task leaves_spawn returned on worker 0 with a NAME_SPAWN() not joined (slot 1): "
      "every NAME_SPAWN() must be joined with NAME_SYNC() or NAME_DROP() before its task "
      "returns\n"}},
    {"unjoined_spawn_called",
     unjoined_spawn_called,
     ABORTED,
     false,
     {"lace: task leaves_spawn returned on worker 0 with a NAME_SPAWN() not joined (slot 1): "
      "every NAME_SPAWN() must be joined with NAME_SYNC() or NAME_DROP() before its task "
      "returns\n"}},
    {"pthread_exit_in_task",
     pthread_exit_in_task,
     ABORTED,
     false,
     {"lace: worker 0's thread ended inside a task (pthread_exit, or a cancellation): a task "
      "must return to its caller, and the pool cannot go on without the worker\n"}},
    {"barrier_uneven",
     barrier_uneven,
     ABORTED,
     false,
     {"lace: lace_barrier on worker 0 waits for a NAME_TOGETHER() copy that returned without "
      "reaching it: every copy must call it the same number of times (it would wait for "
      "ever)\n"}},
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
     {"lace: lace_barrier called outside a NAME_TOGETHER() copy"}},
    {"barrier_in_task",
     barrier_in_task,
     ABORTED,
     false,
     {"lace: lace_barrier called outside a NAME_TOGETHER() copy"}},
    {"run_task_without_f",
     run_task_without_f,
     ABORTED,
     false,
     {"lace: lace_run_task: the task has no f (declare tasks with TASK and run them with "
      "NAME())\n"}},
    {"queries_outside", queries_outside, 0, true, {NULL}},
    {"spawn_stale_head",
     spawn_stale_head,
     ABORTED,
     false,
     {"lace: fib_SPAWN() on worker 0: its slot (0) holds a task still pending, spawned since "
      "this task body read its head: by another API"}},
    {"steal_stale_head",
     steal_stale_head,
     ABORTED,
     false,
     {"lace: lace_steal_random() on worker 0 holds a head (slot 0) below a task still pending"}},
    {"spawn_stale_head_above",
     spawn_stale_head_above,
     ABORTED,
     false,
     {"lace: fib_SPAWN() on worker 0: the head it holds (slot 2) is above the deque's top (slot "
      "0): a stale head"}},
    {"join_under_stale_record",
     join_under_stale_record,
     ABORTED,
     false,
     {"lace: SYNC(spawn_under_weft_leaf) on worker 0 joins the task in slot 1 while the task "
      "above it, spawned later, is still pending: spawns and joins nest"}},
    {"get_head_outside", get_head_outside, ABORTED, false, {NOT_WORKER("lace_get_head()")}},
    {"drop_outside", drop_outside, ABORTED, false, {NOT_WORKER("lace_drop(NULL)")}},
    {"spawn_outside", spawn_outside, ABORTED, false, {NOT_WORKER("fib_SPAWN(NULL, ...)")}},
    {"spawn_with_saved_worker_outside",
     spawn_with_saved_worker_outside,
     ABORTED,
     false,
     {"lace: fib_SPAWN() with worker ",
      "'s context on a thread that is not that worker's (outside the pool): a worker's context "
      "is its own thread's"}},
    {"spawn_with_other_workers_worker",
     spawn_with_other_workers_worker,
     ABORTED,
     false,
     {"lace: fib_SPAWN() with worker ",
      "'s context on a thread that is not that worker's (another worker)"}},
    {"sync_outside", sync_outside, ABORTED, false, {NOT_WORKER("fib_SYNC(NULL)")}},
    {"task_drop_outside", task_drop_outside, ABORTED, false, {NOT_WORKER("fib_DROP(NULL)")}},
    {"yield_outside", yield_outside, ABORTED, false, {NOT_WORKER("lace_yield(NULL)")}},
    {"check_yield_outside",
     check_yield_outside,
     ABORTED,
     false,
     {NOT_WORKER("lace_check_yield(NULL)")}},
    {"steal_random_outside",
     steal_random_outside,
     ABORTED,
     false,
     {NOT_WORKER("lace_steal_random(NULL)")}},
    {"stolen_queries_unstolen", stolen_queries_unstolen, 0, true, {NULL}},
    {"stolen_queries_stolen", stolen_queries_stolen, 0, true, {NULL}},
    {"largest_arguments", largest_arguments, 0, true, {NULL}},
    {"nested_interrupts", nested_interrupts, 0, true, {NULL}},
    {"outside_threads", outside_threads, 0, true, {NULL}},
    {"together_nested", together_nested, 0, true, {NULL}},
    {"sleep_negative", sleep_negative, 0, true, {NULL}},
    {"suspend_runs_outside",
     suspend_runs_outside,
     0,
     false,
     {"lace: lace_suspend called from inside a task: it is for threads outside Lace's tasks; "
      "ignored\n",
      "lace: lace_resume called from inside a task: it is for threads outside Lace's tasks; "
      "ignored\n"}},

#if !WEFT_TEST_TSAN /* (above) */
    {"fork_while_suspending", fork_while_suspending, 0, true, {NULL}},
    {"fork_while_calling", fork_while_calling, 0, true, {NULL}},
    {"call_in_forked_child",
     call_in_forked_child,
     ABORTED,
     false,
     {"lace: fib() called in a child process after fork(): Lace's pool is the parent's, and this "
      "process has none (call lace_start"}},
    {"call_in_child_forked_after_stop",
     call_in_child_forked_after_stop,
     ABORTED,
     false,
     {"lace: fib() called after lace_stop: Lace is not running (call lace_start"}},
#endif
    {"stop_suspended_during_call", stop_suspended_during_call, 0, true, {NULL}},
    {"resume_racing_stop", resume_racing_stop, 0, true, {NULL}},
    {"verbosity",
     verbosity,
     0,
     false,
     {"(" WEFT_SCHEDULER_NAME
      " scheduler, " STR(WEFT_TASK_SIZE) "-byte tasks): 2 workers, 100 "
                                         "task slots per worker, stacks of 1048576 bytes\n",
      "lace: stopped\n"}},
    {"env_workers",
     env_workers,
     ABORTED,
     false,
     {"lace: WEFT_WORKERS='two'",
      "lace: lace_start(0, 0, 0): Lace could not start (Invalid argument)\n"}},
    {"env_stack",
     env_stack,
     ABORTED,
     false,
     {"lace: WEFT_STACK_SIZE='12q'",
      "lace: lace_start(2, 0, 0): Lace could not start (Invalid argument)\n"}},
    {"env_deque",
     env_deque,
     ABORTED,
     false,
     {"lace: WEFT_DEQUE_SIZE='-5'",
      "lace: lace_start(2, 0, 0): Lace could not start (Invalid argument)\n"}},
};
#define N_CASES (sizeof cases / sizeof cases[0])

int main(int argc, char **argv)
{
    char what[32];
    snprintf(what, sizeof what, "lace%d.h", LACE_TASKSIZE);
    return adv_main(cases, N_CASES, argc, argv, what);
}
