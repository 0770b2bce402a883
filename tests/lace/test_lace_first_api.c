// SPDX-License-Identifier: Apache-2.0
/* Lace's first API (before 1.3) on the 1.4 drop-in: programs written the
 * old way, lace_init, lace_startup with and without a callback, LACE_ME
 * in main, lace_exit; and its misuse.  Each case runs in a child process
 * (tests/adversarial.h); the parent checks how it ended and its stderr.
 * The contract: include/weft-lace/lace.h and docs/lace.md, "Lace's first
 * API". */

#include <lace.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adversarial.h"
#include "check.h"

static long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

TASK_1(long, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    long b = CALL(fib, n - 2);
    return SYNC(fib) + b;
}

static const unsigned worker_counts[] = {1, 2, 3, 8};
#define N_COUNTS (sizeof worker_counts / sizeof worker_counts[0])

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the main thread as worker 0 ---- */

/* A spawned task records the thread it ran on; its sibling waits (up to
 * 10 s) for it to be stolen, so that a SYNC on worker 0 meets a thief.
 * The sibling spawns while it waits: a split deque's owner shares its
 * tasks when it spawns (Lace's, and weft's default scheduler). */
static pthread_t stolen_on;
static atomic_bool stolen_ran;

VOID_TASK_0(record_thread)
{
    stolen_on = pthread_self();
    atomic_store(&stolen_ran, true);
}

VOID_TASK_0(wait_for_thief)
{
    uint64_t until = now_ns() + 10000000000ull;
    while (!atomic_load(&stolen_ran) && now_ns() < until) {
        SPAWN(fib, 2);
        SYNC(fib);
        sched_yield();
    }
}

static void main_as_worker_0(void)
{
    for (int round = 0; round < 5; round++)
        for (size_t k = 0; k < N_COUNTS; k++) {
            unsigned n = worker_counts[k];
            lace_init(n, 0);
            lace_startup(0, NULL, NULL);
            LACE_ME;
            CHECK(lace_is_worker(), "the thread that called lace_startup is a worker");
            CHECK(LACE_WORKER_ID == 0, "it is worker 0, not %d", LACE_WORKER_ID);
            CHECK(lace_workers() == n, "%u workers, not %u", n, lace_workers());
            CHECK(CALL(fib, 22) == fib_seq(22), "fib(22) called from main at %u workers", n);
            CHECK(RUN(fib, 18) == fib_seq(18), "RUN from main, a worker: in place");
            if (n > 1) {
                /* The other workers steal what main spawns. */
                atomic_store(&stolen_ran, false);
                SPAWN(record_thread);
                CALL(wait_for_thief);
                SYNC(record_thread);
                CHECK(atomic_load(&stolen_ran) && !pthread_equal(stolen_on, pthread_self()),
                      "a task main spawned was stolen by another worker (%u workers)", n);
            }
            lace_exit();
            CHECK(lace_workers() == 0, "lace_exit stopped Lace");
            CHECK(!lace_is_worker(), "main is no worker after lace_exit");
        }
}

/* A TOGETHER from main reaches every worker, worker 0 on main's thread;
 * thread-locals it sets are those tasks see. */
static __thread int my_id_plus_one;
static pthread_t thread_of[8];

VOID_TASK_0(set_my_id)
{
    my_id_plus_one = LACE_WORKER_ID + 1;
    thread_of[LACE_WORKER_ID] = pthread_self();
}

TASK_1(long, check_ids, int, depth)
{
    long bad = my_id_plus_one != LACE_WORKER_ID + 1;
    if (depth == 0)
        return bad;
    SPAWN(check_ids, depth - 1);
    bad += CALL(check_ids, depth - 1);
    return SYNC(check_ids) + bad;
}

static void main_together(void)
{
    lace_init(3, 0);
    lace_startup(0, NULL, NULL);
    LACE_ME;
    TOGETHER(set_my_id);
    CHECK(pthread_equal(thread_of[0], pthread_self()), "worker 0's copy ran on main's thread");
    CHECK(!pthread_equal(thread_of[1], thread_of[2]) &&
              !pthread_equal(thread_of[1], pthread_self()),
          "the other copies on the other workers' threads");
    CHECK(CALL(check_ids, 12) == 0, "every task saw its worker's thread-local");
    lace_exit();
}

/* lace_stop, the later name, ends it too; and a new lace_init starts
 * again. */
static void stop_then_again(void)
{
    lace_init(2, 0);
    lace_startup(0, NULL, NULL);
    {
        LACE_ME;
        CHECK(CALL(fib, 15) == fib_seq(15), "fib");
    }
    lace_stop();
    lace_init(2, 0);
    lace_startup(0, NULL, NULL);
    {
        LACE_ME;
        CHECK(CALL(fib, 16) == fib_seq(16), "fib again");
    }
    lace_exit();
}

/* ---- with a callback ---- */

typedef struct {
    long answer;
    pthread_t ran_on;
    int worker;
    bool exit_inside;
} startup_result;

VOID_TASK_1(startup_main, void *, arg)
{
    startup_result *r = arg;
    r->ran_on = pthread_self();
    r->worker = LACE_WORKER_ID;
    r->answer = CALL(fib, 22);
    if (r->exit_inside)
        lace_exit(); /* old programs end their callback so: Lace stops at its return */
}

static void callback(void)
{
    for (size_t k = 0; k < N_COUNTS; k++) {
        for (int inside = 0; inside < 2; inside++) {
            startup_result r = {.answer = -1, .exit_inside = inside};
            lace_init(worker_counts[k], 0);
            lace_startup(2u << 20, TASK(startup_main), &r); /* 2 MiB stacks */
            CHECK(r.answer == fib_seq(22), "the callback's fib(22): %ld", r.answer);
            CHECK(!pthread_equal(r.ran_on, pthread_self()),
                  "the callback ran on a worker's thread, main waited");
            CHECK(r.worker >= 0 && (unsigned)r.worker < worker_counts[k], "worker %d", r.worker);
            CHECK(lace_workers() == 0, "Lace stopped when the callback returned");
            CHECK(!lace_is_worker(), "main is no worker");
        }
    }
}

/* ---- misuse ---- */

static void startup_without_init(void) { lace_startup(0, NULL, NULL); }

static void startup_twice(void)
{
    lace_init(2, 0);
    lace_startup(0, NULL, NULL);
    lace_startup(0, NULL, NULL);
}

/* Two threads race lace_startup for one lace_init: one starts Lace (its
 * callback waits), and the other is told, in lace_startup's words, that
 * the lace_init was taken or that Lace runs. */
static atomic_int startup_racers;

static void waits_in_callback(WorkerP *__lace_worker, Task *__lace_dq_head, void *arg)
{
    (void)__lace_worker;
    (void)__lace_dq_head;
    (void)arg;
    sleep(30); /* the other racer's message ends the process first */
}

static void *race_for_startup(void *arg)
{
    (void)arg;
    atomic_fetch_add(&startup_racers, 1);
    while (atomic_load(&startup_racers) < 2)
        ; /* both call at once */
    lace_startup(0, waits_in_callback, NULL);
    return NULL;
}

static void startup_racing(void)
{
    lace_init(2, 0);
    pthread_t racers[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&racers[i], NULL, race_for_startup, NULL) == 0, "thread");
    for (int i = 0; i < 2; i++)
        pthread_join(racers[i], NULL);
}

/* Two threads each lace_init and lace_startup at once: the second is
 * told, in its own call's words, that the other's lace_init was taken,
 * that another thread starts Lace or that Lace runs -- not, in
 * lace_start's, that the pool could not start.  The first starts 32
 * workers, which takes a while; the second comes in after it has begun. */
static atomic_int first_init_done;

static void *first_starter(void *arg)
{
    (void)arg;
    lace_init(32, 0);
    atomic_store(&first_init_done, 1);
    lace_startup(0, waits_in_callback, NULL);
    return NULL;
}

static void *second_starter(void *arg)
{
    (void)arg;
    while (atomic_load(&first_init_done) == 0)
        ;
    uint64_t until = now_ns() + 200000;
    while (now_ns() < until)
        ; /* into the first start, most often */
    lace_init(2, 0);
    lace_startup(0, waits_in_callback, NULL);
    return NULL;
}

static void startups_racing(void)
{
    pthread_t first, second;
    CHECK(pthread_create(&first, NULL, first_starter, NULL) == 0, "thread");
    CHECK(pthread_create(&second, NULL, second_starter, NULL) == 0, "thread");
    pthread_join(second, NULL);
    pthread_join(first, NULL);
}

static void init_while_running(void)
{
    lace_start(2, 0);
    lace_init(2, 0);
}

/* The stack size lace_startup is given is named as its own. */
static void startup_stack_too_large(void)
{
    lace_init(2, 0);
    lace_startup((size_t)-1, NULL, NULL);
}

static void exit_with_a_spawn_pending(void)
{
    lace_init(2, 0);
    lace_startup(0, NULL, NULL);
    LACE_ME;
    SPAWN(fib, 10);
    lace_exit();
}

static void init_too_many_workers(void) { lace_init((unsigned)-1, 0); }

/* A callback that leaves a SPAWN unjoined: named as the callback's task
 * (it was named by an internal one).  A plain function of the callback's
 * type, not a task, so that every build names the callback's root (with
 * WEFT_CHECKS a task's own return check would name the task). */
static void leaves_a_spawn(WorkerP *__lace_worker, Task *__lace_dq_head, void *arg)
{
    (void)arg;
    SPAWN(fib, 10);
}

static void callback_leaves_spawn(void)
{
    lace_init(1, 0);
    lace_startup(0, leaves_a_spawn, NULL);
}

#if !WEFT_TEST_TSAN /* ThreadSanitizer cannot fork a process with threads */
/* main, worker 0, forks outside any task: the child is not in a task (it
 * was told "fork() in a task" and could not start Lace again); its
 * lace_exit is told the pool is the parent's, and Lace starts anew. */
static void fork_outside_tasks(void)
{
    lace_init(2, 0);
    lace_startup(0, NULL, NULL);
    fflush(stderr);
    pid_t child = fork();
    CHECK(child >= 0, "fork");
    if (child == 0) {
        alarm(20);
        lace_exit();
        lace_init(1, 0);
        lace_startup(0, NULL, NULL);
        LACE_ME;
        long r = CALL(fib, 15);
        lace_exit();
        _exit(r == 610 ? 0 : 1);
    }
    int st = 0;
    CHECK(waitpid(child, &st, 0) == child, "waitpid");
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child ended with status %d", st);
    LACE_ME;
    CHECK(CALL(fib, 15) == 610, "fib in the parent");
    lace_exit();
}

#endif

/* lace_exit on another thread while main holds worker 0: refused (the
 * stop would wait for worker 0 forever: it hung silently). */
static void *exit_elsewhere(void *arg)
{
    (void)arg;
    lace_exit();
    return NULL;
}

static void exit_on_another_thread(void)
{
    lace_init(2, 0);
    lace_startup(0, NULL, NULL);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, exit_elsewhere, NULL) == 0, "thread");
    pthread_join(th, NULL);
}

#ifndef WEFT_TEST_SANITIZED
/* Worker 0's tasks run on the stack of the thread that called lace_startup
 * without a callback: an overflow of it is explained, as on a worker's
 * own stack (the main thread's limit set to 4 MiB first, whatever ulimit
 * -s the test runs under). */
static volatile long overflow_depth = 1L << 40; /* never reached: the stack ends first */

TASK_1(long, deeper, long, n)
{
    volatile char frame[256];
    frame[0] = (char)n;
    if (n == overflow_depth)
        return frame[0];
    return CALL(deeper, n + 1) + frame[0];
}

static void main_stack_overflows(void)
{
    struct rlimit lim;
    CHECK(getrlimit(RLIMIT_STACK, &lim) == 0, "getrlimit");
    if (lim.rlim_max == RLIM_INFINITY || lim.rlim_max > (4u << 20))
        lim.rlim_cur = 4u << 20;
    else
        lim.rlim_cur = lim.rlim_max;
    CHECK(setrlimit(RLIMIT_STACK, &lim) == 0, "setrlimit");
    lace_init(2, 0);
    lace_startup(0, NULL, NULL);
    LACE_ME;
    (void)CALL(deeper, 0);
}
#endif

static const adv_case cases[] = {
    {"main_as_worker_0", main_as_worker_0, 0, true, {NULL}},
    {"main_together", main_together, 0, true, {NULL}},
    {"stop_then_again", stop_then_again, 0, true, {NULL}},
    {"callback", callback, 0, true, {NULL}},
    {"startup_without_init",
     startup_without_init,
     ABORTED,
     false,
     {"lace: lace_startup(0, NULL, ...) called before lace_init: call lace_init(n_workers, "
      "dqsize) first"}},
    {"startup_twice",
     startup_twice,
     ABORTED,
     false,
     {"lace: lace_startup(0, NULL, ...) called while Lace is running: call lace_init"}},
    {"startup_racing",
     startup_racing,
     ABORTED,
     false,
     {"lace: lace_startup(0, cb, ...) called while ",
      ": call lace_init(n_workers, dqsize) first, once before each lace_startup\n"}},
    {"startups_racing",
     startups_racing,
     ABORTED,
     false,
     {" called while ", "!lace_start:", "!could not start"}},
    {"init_while_running",
     init_while_running,
     ABORTED,
     false,
     {"lace: lace_init(2, 0) called while Lace is running: call lace_stop first"}},
    {"startup_stack_too_large",
     startup_stack_too_large,
     ABORTED,
     false,
     {"lace: lace_startup(18446744073709551615, NULL, ...): lace_startup's stacksize is "
      "18446744073709551615 bytes, too large: at most 1099511627776 bytes (0: weft's "
      "default)\n"}},
    {"exit_with_a_spawn_pending",
     exit_with_a_spawn_pending,
     ABORTED,
     false,
     {"lace: lace_exit on worker 0 with tasks spawned and not synced: SYNC or DROP each SPAWN "
      "first"}},
#if !WEFT_TEST_TSAN /* ThreadSanitizer cannot fork a process with threads */
    {"fork_outside_tasks",
     fork_outside_tasks,
     0,
     false,
     {"lace: lace_exit called in a child process after fork(): Lace's pool is the parent's "
      "(nothing to stop here)\n"}},
#endif
    {"exit_on_another_thread",
     exit_on_another_thread,
     ABORTED,
     false,
     {"lace: lace_exit called on a thread other than the one lace_startup made worker 0: that "
      "thread holds worker 0 and the stop would wait for it forever (call lace_exit on that "
      "thread)\n"}},
    {"callback_leaves_spawn",
     callback_leaves_spawn,
     ABORTED,
     false,
     {"lace: task lace_startup_callback returned on worker 0 with a SPAWN not joined"}},
    {"init_too_many_workers",
     init_too_many_workers,
     ABORTED,
     false,
     {"lace: lace_init(4294967295, 0): 4294967295 workers requested"}},
#ifndef WEFT_TEST_SANITIZED
    {"main_stack_overflows",
     main_stack_overflows,
     ABORTED,
     false,
     {"lace: stack overflow on worker 0 (its stack is ", "Raise it with ulimit -s"}},
#endif
};

int main(int argc, char **argv)
{
    return adv_main(cases, sizeof cases / sizeof cases[0], argc, argv,
                    "Lace's first API on the 1.4 drop-in");
}
