// SPDX-License-Identifier: Apache-2.0
/* Start/stop and suspend/resume, repeated; configuration; and misuse, which
 * must give a clear message (an error code, or a stop with a message when
 * going on would corrupt memory). */
#include "check.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <weft/weft.h>

#include "runtime/state.h"
#include "runtime/topology.h"
#include "sys/cpu.h"
#include "timing.h"

#include "fib_task.h"

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_repeated_start_stop(void)
{
    for (int i = 0; i < 40; i++) {
        unsigned n = test_worker_counts[i % N_TEST_WORKER_COUNTS];
        CHECK(weft_start(n, 0, 0) == 0, "start %d", i);
        CHECK(weft_workers() == n, "workers");
        CHECK(WEFT_RUN(pfib, 18) == fib_ref(18), "run %d", i);
        CHECK(weft_stop() == 0, "stop %d", i);
        CHECK(weft_workers() == 0, "stopped");
    }
    printf("ok: 40 start/stop cycles\n");
}

static void test_error_codes(void)
{
    CHECK(weft_stop() == EINVAL, "stop when stopped");
    CHECK(weft_suspend() == EINVAL, "suspend when stopped");
    CHECK(weft_resume() == EINVAL, "resume when stopped");
    CHECK(weft_start(2, 1, 0) == EINVAL, "deque of 1 task");
    CHECK(weft_start(2, 0, 1024) == EINVAL, "1 KiB stack");
    CHECK(weft_start(100000, 0, 0) == EINVAL, "100000 workers");
    CHECK(weft_start_config(NULL) == EINVAL, "no configuration");
    weft_config bad;
    CHECK(weft_config_init(&bad) == 0, "config");
    bad.pin = 7;
    CHECK(weft_start_config(&bad) == EINVAL, "pin 7");
    bad.pin = -1;
    bad.steal_policy = (weft_steal_policy)9;
    CHECK(weft_start_config(&bad) == EINVAL, "steal policy 9");
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(weft_start(2, 0, 0) == EBUSY, "start twice");
    CHECK(weft_resume() == EINVAL, "resume when not suspended");
    CHECK(weft_stop() == 0, "stop");
    printf("ok: error codes\n");
}

static void test_defaults_and_environment(void)
{
    CHECK(weft_start(0, 0, 0) == 0, "start with defaults");
    CHECK(weft_workers() == weft__default_workers(),
          "default = CPUs in the affinity mask, at most the CPU quota (%u vs %u)", weft_workers(),
          weft__default_workers());
    CHECK(weft_stop() == 0, "stop");

    setenv("WEFT_WORKERS", "3", 1);
    setenv("WEFT_STACK_SIZE", "1M", 1);
    setenv("WEFT_DEQUE_SIZE", "4096", 1);
    setenv("WEFT_STEAL", "leapfrog", 1);
    CHECK(weft_start(0, 0, 0) == 0, "start from environment");
    CHECK(weft_workers() == 3 && weft__rt.stack_size == (1u << 20) &&
              weft__rt.deque_slots == 4096 && weft__rt.policy == WEFT_STEAL_LEAPFROG,
          "environment applied");
    CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "run with leapfrog only");
    CHECK(weft_stop() == 0, "stop");
    /* An explicit argument wins over the environment. */
    CHECK(weft_start(2, 0, 0) == 0 && weft_workers() == 2, "explicit count");
    CHECK(weft_stop() == 0, "stop");

    setenv("WEFT_WORKERS", "three", 1);
    CHECK(weft_start(0, 0, 0) == EINVAL, "malformed WEFT_WORKERS rejected");
    setenv("WEFT_WORKERS", "2", 1);
    setenv("WEFT_STEAL", "sideways", 1);
    CHECK(weft_start(0, 0, 0) == EINVAL, "malformed WEFT_STEAL rejected");
    unsetenv("WEFT_WORKERS");
    unsetenv("WEFT_STACK_SIZE");
    unsetenv("WEFT_DEQUE_SIZE");
    unsetenv("WEFT_STEAL");
    CHECK(weft_workers() == 0, "not started by the rejected calls");
    printf("ok: defaults and environment\n");
}

static atomic_int run_done;
static void *run_in_thread(void *arg)
{
    int n = (int)(intptr_t)arg;
    CHECK(WEFT_RUN(pfib, n) == fib_ref(n), "threaded run");
    atomic_store(&run_done, 1);
    return NULL;
}

static void test_suspend_resume(void)
{
    for (size_t wi = 0; wi < N_TEST_WORKER_COUNTS; wi++) {
        unsigned n = test_worker_counts[wi];
        CHECK(weft_start(n, 0, 0) == 0, "start");
        for (int i = 0; i < 10; i++) {
            CHECK(weft_suspend() == 0, "suspend");
            CHECK(atomic_load(&weft__rt.parked) == n, "all %u parked", n);
            CHECK(weft_resume() == 0, "resume");
            CHECK(WEFT_RUN(pfib, 16) == fib_ref(16), "run after resume");
        }
        /* A RUN issued while suspended waits for resume. */
        CHECK(weft_suspend() == 0, "suspend");
        atomic_store(&run_done, 0);
        pthread_t t;
        pthread_create(&t, NULL, run_in_thread, (void *)(intptr_t)20);
        sleep_ms(50);
        CHECK(atomic_load(&run_done) == 0, "a RUN completed while the pool was suspended");
        CHECK(weft_resume() == 0, "resume");
        pthread_join(t, NULL);
        CHECK(atomic_load(&run_done) == 1, "RUN after resume");
        CHECK(weft_stop() == 0, "stop");
    }
    printf("ok: suspend/resume\n");
}

/* A task that signals it has started, then works for a while, and
 * signals as its last step that it has finished. */
static atomic_int long_started, long_finished;
WEFT_TASK_1(long, long_task, int, n)
{
    atomic_store(&long_started, 1);
    long sum = 0;
    for (int i = 0; i < 20; i++)
        sum += WEFT_CALL(pfib, n);
    atomic_store(&long_finished, 1);
    return sum;
}
static void *long_run_thread(void *arg)
{
    (void)arg;
    CHECK(WEFT_RUN(long_task, 22) == 20 * fib_ref(22), "long run");
    atomic_store(&run_done, 1);
    return NULL;
}

/* A thread cancelled while weft_suspend or weft_stop waits (for a RUN's
 * task busy for 300 ms): the call ends as if it had not been cancelled, the
 * cancellation acts after it, and the next lifecycle call on another
 * thread goes through (a cancelled wait left the control lock held, and
 * that call waited for ever). */
static atomic_int cancel_victim_returned, busy_started;
WEFT_TASK_1(int, busy_for_ms, int, ms)
{
    atomic_store(&busy_started, 1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t1);
    while ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < ms);
    return ms;
}
static void *busy_run_thread(void *arg)
{
    (void)arg;
    CHECK(WEFT_RUN(busy_for_ms, 300) == 300, "the busy RUN");
    return NULL;
}
static void *suspend_or_stop_thread(void *stop)
{
    if (stop)
        (void)weft_stop();
    else
        (void)weft_suspend();
    atomic_store(&cancel_victim_returned, 1);
    return NULL;
}

static void test_cancelled_in_control(void)
{
    for (int stop = 0; stop < 2; stop++) {
        CHECK(weft_start(2, 0, 0) == 0, "start");
        atomic_store(&busy_started, 0);
        atomic_store(&cancel_victim_returned, 0);
        pthread_t runner, victim;
        pthread_create(&runner, NULL, busy_run_thread, NULL);
        while (!atomic_load(&busy_started))
            sleep_ms(1);
        pthread_create(&victim, NULL, suspend_or_stop_thread, (void *)(intptr_t)stop);
        sleep_ms(30); /* its wait for the busy task: 270 ms more */
        pthread_cancel(victim);
        void *how = NULL;
        pthread_join(victim, &how);
        CHECK(atomic_load(&cancel_victim_returned) == 1 && how != PTHREAD_CANCELED,
              "%s was cancelled inside its wait", stop ? "weft_stop" : "weft_suspend");
        if (stop) {
            pthread_join(runner, NULL);
            CHECK(weft_workers() == 0, "the stop did not stop the pool");
        } else {
            /* (The suspension holds the long RUN's task until the resume.) */
            CHECK(weft_resume() == 0, "weft_resume after the suspending thread was cancelled");
            pthread_join(runner, NULL);
            CHECK(WEFT_RUN(pfib, 16) == fib_ref(16), "a RUN after the resume");
            CHECK(weft_stop() == 0, "stop");
        }
    }
    CHECK(weft_start(2, 0, 0) == 0 && weft_stop() == 0, "start and stop after the cancellations");
    printf("ok: a thread cancelled inside weft_suspend or weft_stop: the call ends first\n");
}

static void test_stop_waits_for_runs(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    atomic_store(&run_done, 0);
    atomic_store(&long_started, 0);
    atomic_store(&long_finished, 0);
    pthread_t t;
    pthread_create(&t, NULL, long_run_thread, NULL);
    while (!atomic_load(&long_started))
        sched_yield();
    CHECK(weft_stop() == 0, "stop");
    /* The task's end, not the caller's next statement: the RUN may have
     * left the pool and its thread not yet have run on. */
    CHECK(atomic_load(&long_finished) == 1, "stop returned before the RUN in progress finished");
    pthread_join(t, NULL);
    CHECK(atomic_load(&run_done) == 1, "the RUN in progress did not return its result");
    printf("ok: stop waits for RUNs in progress\n");
}

/* weft_stop while another thread's TOGETHER or NEWFRAME waits for
 * weft_resume: the call is inside the pool as a waiting RUN is, so the stop
 * lets the pool run it (every copy runs) and then stops; before, the stop
 * went ahead and the waiting call died with "not running". */
static atomic_int copies_ran, frame_ran, interrupt_returned;
WEFT_VOID_TASK_0(count_copy) { atomic_fetch_add(&copies_ran, 1); }
WEFT_TASK_0(int, mark_frame)
{
    atomic_fetch_add(&frame_ran, 1);
    return 7;
}
static int waiting_kind; /* 0: TOGETHER, 1: NEWFRAME */
static void *interrupt_thread(void *arg)
{
    (void)arg;
    if (waiting_kind == 0)
        WEFT_TOGETHER(count_copy);
    else
        CHECK(WEFT_NEWFRAME(mark_frame) == 7, "NEWFRAME's answer");
    atomic_store(&interrupt_returned, 1);
    return NULL;
}

/* White-box: the thread's call is inside the pool and asleep until
 * weft_resume (waited for, whatever the host's load: a fixed sleep let the
 * stop come first on a slow sanitizer run). */
static bool gate_waits(void) { return atomic_load(&weft__rt.gate_waiters) != 0; }

static void test_stop_with_interrupt_waiting_for_resume(void)
{
    static const unsigned counts[] = {1, 2, 3, 8};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        for (waiting_kind = 0; waiting_kind < 2; waiting_kind++) {
            unsigned n = counts[k];
            CHECK(weft_start(n, 0, 0) == 0, "start");
            CHECK(weft_suspend() == 0, "suspend");
            atomic_store(&copies_ran, 0);
            atomic_store(&frame_ran, 0);
            atomic_store(&interrupt_returned, 0);
            pthread_t t;
            pthread_create(&t, NULL, interrupt_thread, NULL);
            (void)eventually(gate_waits, 10.0);
            CHECK(atomic_load(&weft__rt.gate_waiters) == 1, "the call waits for weft_resume");
            CHECK(atomic_load(&interrupt_returned) == 0, "the call waited while suspended");
            CHECK(weft_stop() == 0, "stop");
            /* The call ran before the stop returned; the thread may still
             * be on its way back from the library (past the count the stop
             * waits for), so its return is checked after the join. */
            if (waiting_kind == 0)
                CHECK(atomic_load(&copies_ran) == (int)n,
                      "stop returned after %d copies of TOGETHER at %u workers",
                      atomic_load(&copies_ran), n);
            else
                CHECK(atomic_load(&frame_ran) == 1, "stop returned before the NEWFRAME ran");
            pthread_join(t, NULL);
            CHECK(atomic_load(&interrupt_returned) == 1, "the waiting call returned");
        }
    printf("ok: stop runs a TOGETHER or NEWFRAME waiting for weft_resume, then stops\n");
}

/* White-box: waits (at most 10 s) until a weft_stop on another thread is
 * waiting for a RUN in progress. */
static void wait_until_stop_waits(void)
{
    for (int i = 0; i < 10000 && (atomic_load(&weft__rt.lifecycle) >> 32) != WEFT_RT_STOPPING;
         i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

/* A TOGETHER from outside that arrives while weft_stop waits for a RUN in
 * progress is refused, and the message says a stop is in progress (not
 * "call weft_start first"). */
static void *together_during_stop_thread(void *arg)
{
    (void)arg;
    wait_until_stop_waits();
    WEFT_TOGETHER(count_copy);
    return NULL;
}

/* A RUN that lasts until the TOGETHER above has been refused (which ends
 * the process), or 10 s: however late that thread runs, the stop is still
 * waiting for this RUN when it calls. */
WEFT_TASK_0(long, held_task)
{
    atomic_store(&long_started, 1);
    for (int i = 0; i < 10000; i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}
static void *held_run_thread(void *arg)
{
    (void)arg;
    (void)WEFT_RUN(held_task);
    return NULL;
}

static void together_during_stop_child(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    atomic_store(&long_started, 0);
    pthread_t run, together;
    pthread_create(&run, NULL, held_run_thread, NULL);
    while (!atomic_load(&long_started))
        sched_yield();
    pthread_create(&together, NULL, together_during_stop_thread, NULL);
    (void)weft_stop();
    pthread_join(together, NULL);
}

/* Readers of the pool (weft_workers, the counters) called from a thread
 * that a running task waits for, while stop waits for that task: they must
 * not wait for stop. */
static atomic_int reader_done;
static void *reader_thread(void *arg)
{
    (void)arg;
    wait_until_stop_waits();
    weft_stats st;
    (void)weft_workers();
    (void)weft_stats_get(&st);
    weft_stats_reset();
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        weft_stats_print(devnull);
        fclose(devnull);
    }
    atomic_store(&reader_done, 1);
    return NULL;
}
WEFT_TASK_0(int, wait_for_reader)
{
    pthread_t t;
    pthread_create(&t, NULL, reader_thread, NULL);
    atomic_store(&long_started, 1);
    for (int i = 0; i < 20000 && !atomic_load(&reader_done); i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    pthread_detach(t);
    return atomic_load(&reader_done);
}
static atomic_int reader_run_result;
static void *reader_run_thread(void *arg)
{
    (void)arg;
    atomic_store(&reader_run_result, WEFT_RUN(wait_for_reader));
    return NULL;
}
static void test_readers_during_stop(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    atomic_store(&long_started, 0);
    atomic_store(&reader_done, 0);
    pthread_t t;
    pthread_create(&t, NULL, reader_run_thread, NULL);
    while (!atomic_load(&long_started))
        sched_yield();
    CHECK(weft_stop() == 0, "stop");
    pthread_join(t, NULL);
    CHECK(atomic_load(&reader_run_result) == 1,
          "weft_workers/weft_stats_* blocked while stop waited for the task waiting for them");
    printf("ok: pool readers do not wait for stop\n");
}

WEFT_TASK_0(int, call_stop_inside) { return weft_stop(); }
WEFT_TASK_0(int, call_start_inside) { return weft_start(1, 0, 0); }

static void test_worker_only_rules(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(WEFT_RUN(call_stop_inside) == EDEADLK, "stop from a worker");
    CHECK(WEFT_RUN(call_start_inside) == EBUSY, "start from a worker");
    CHECK(weft_stop() == 0, "stop");
    printf("ok: lifecycle calls from workers are refused\n");
}

/* Deep recursion on a worker: far deeper than an 8 MB stack allows. */
static long deep(long n, volatile char *pad)
{
    volatile char frame[96];
    frame[0] = (char)n;
    if (n == 0)
        return pad[0];
    return deep(n - 1, frame) + 1;
}
WEFT_TASK_1(long, deep_task, long, n) { return deep(n, (volatile char[1]){0}); }

#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer's shadow call stack holds 64K frames. */
enum { DEEP = 60000 };
#else
enum { DEEP = 200000 };
#endif

static void test_deep_recursion(void)
{
    /* 200000 frames of >= 112 bytes: > 20 MB, beyond the usual
     * `ulimit -s 8192`; the default worker stack is 64 MiB. */
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(WEFT_RUN(deep_task, DEEP) == DEEP + 1, "deep recursion"); /* deep(n) = n + 1 */
    CHECK(weft_stop() == 0, "stop");
    printf("ok: deep recursion on the default worker stack\n");
}

static void run_before_start_child(void) { WEFT_RUN(pfib, 3); }

/* fork() with a running pool: the child has no workers.  RUN there must
 * say so (not hang), and the child can start a pool of its own. */
static void run_in_forked_child(void) { WEFT_RUN(pfib, 3); }
/* fork() in a TOGETHER copy or a NEWFRAME task, the child continuing it
 * (returning, or at the copies' barrier): the child stops with the
 * runtime's message where the pool's other threads would be needed (it
 * hung, or was told its barrier was outside a copy).  The parent waits
 * for the child and exits non-zero if the child aborted. */
static int fork_mode;
static _Atomic int child_aborted;
static void fork_and_continue_in_interrupt(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (fork_mode == 1)
            weft_barrier();
        return; /* the child continues the copy or the task */
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork and wait");
    atomic_store(&child_aborted, WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}
WEFT_VOID_TASK_0(forking_copy)
{
    if (weft_worker_id(weft_w) == 0)
        fork_and_continue_in_interrupt();
    if (fork_mode == 1)
        weft_barrier();
}
WEFT_VOID_TASK_0(forking_frame) { fork_and_continue_in_interrupt(); }
static WEFT_UNUSED void fork_in_interrupt_child(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    if (fork_mode == 2)
        WEFT_NEWFRAME(forking_frame);
    else
        WEFT_TOGETHER(forking_copy);
    weft_stop();
    _exit(atomic_load(&child_aborted) ? 1 : 0);
}

static void test_fork(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(WEFT_RUN(pfib, 15) == fib_ref(15), "run");
    expect_death(run_in_forked_child, "RUN called while the pool is not running",
                 "RUN in a child forked from a running pool");
#if !defined(__SANITIZE_THREAD__) /* TSan cannot start threads after a multi-threaded fork */
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        int ok = weft_start(2, 0, 0) == 0 && WEFT_RUN(pfib, 18) == fib_ref(18) && weft_stop() == 0;
        _exit(ok ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "the forked child could not start its own pool");
    /* Forked while another thread's TOGETHER waits at the gate of the
     * suspended pool: the child's own pool suspends and resumes (its
     * suspend waits for no call at the gate: none is in the child). */
    CHECK(weft_suspend() == 0, "suspend");
    waiting_kind = 0;
    atomic_store(&copies_ran, 0);
    atomic_store(&interrupt_returned, 0);
    pthread_t waiter;
    CHECK(pthread_create(&waiter, NULL, interrupt_thread, NULL) == 0, "thread");
    while (atomic_load(&weft__rt.gate_waiters) == 0)
        sched_yield();
    fflush(stdout);
    pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        alarm(20); /* a hang fails the test */
        int ok = weft_start(2, 0, 0) == 0 && weft_suspend() == 0 && weft_resume() == 0 &&
                 WEFT_RUN(pfib, 18) == fib_ref(18) && weft_stop() == 0;
        _exit(ok ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "a child forked while a TOGETHER waited at the gate could not suspend its own pool "
          "(status %#x)",
          status);
    CHECK(weft_resume() == 0, "resume");
    pthread_join(waiter, NULL);
    CHECK(atomic_load(&copies_ran) == 2, "the waiting TOGETHER ran %d copies of 2",
          atomic_load(&copies_ran));
#endif
    CHECK(WEFT_RUN(pfib, 15) == fib_ref(15), "the parent's pool still works");
    CHECK(weft_stop() == 0, "stop");
#if !defined(__SANITIZE_THREAD__)
    static const char *const where[] = {"a TOGETHER copy that returns",
                                        "a TOGETHER copy at its barrier", "a NEWFRAME task"};
    for (fork_mode = 0; fork_mode < 3; fork_mode++)
        expect_death(fork_in_interrupt_child,
                     "fork() in a task: the child process continued the task into the pool",
                     where[fork_mode]);
#endif
    printf("ok: fork with a running pool\n");
}
static void me_outside_child(void)
{
    WEFT_ME;
    (void)weft_head;
}
static void stack_overflow_child(void)
{
    weft_start(1, 0, 2 << 20); /* sanitizers need ~1 MB of it themselves */
    WEFT_RUN(deep_task, 100000000);
}
/* SPAWNs that completed in the child, in memory the parent reads after
 * the child died (shared, set up before the fork). */
static volatile int *spawns_done;

WEFT_TASK_1(int, spawn_forever, int, k)
{
    for (int i = 0; i < k; i++) {
        WEFT_SPAWN(pfib, 1);
        if (spawns_done)
            *spawns_done = i + 1;
    }
    for (int i = 0; i < k; i++)
        WEFT_SYNC(pfib);
    return k;
}
static void deque_overflow_child(void)
{
    weft_start(2, 64, 0);
    WEFT_RUN(spawn_forever, 65);
}
/* A SYNC in a task entered with RUN on a worker, with nothing spawned in
 * it: the slot below belongs to the caller's frame (a pfib of the same
 * type, so only the frame check can tell). */
WEFT_TASK_0(long, sync_without_spawn) { return WEFT_SYNC(pfib); }
WEFT_TASK_0(long, spawn_then_run_unmatched)
{
    WEFT_SPAWN(pfib, 10);
    long r = WEFT_RUN(sync_without_spawn);
    return r + WEFT_SYNC(pfib);
}
static void sync_below_frame_child(void)
{
    weft_start(1, 0, 0);
    WEFT_RUN(spawn_then_run_unmatched);
}

int main(void)
{
    test_repeated_start_stop();
    test_error_codes();
    test_defaults_and_environment();
    test_suspend_resume();
    test_stop_waits_for_runs();
    test_cancelled_in_control();
    test_stop_with_interrupt_waiting_for_resume();
    test_readers_during_stop();
    test_worker_only_rules();
    test_deep_recursion();
    test_fork();
    expect_death(run_before_start_child, "RUN called while the pool is not running",
                 "RUN before start");
    expect_death(together_during_stop_child,
                 "TOGETHER called while the pool is stopping (weft_stop is in progress",
                 "TOGETHER from outside during weft_stop");
    expect_death(me_outside_child, "not a weft worker", "WEFT_ME outside the pool");
    /* On the worker's stack, or on its guest stack if the RUN borrowed it. */
    expect_death(stack_overflow_child, "weft: stack overflow on worker 0 (", "stack overflow");
    /* The message counts the tasks that fit, which the scheduler decides
     * (the split deque keeps one slot free). */
    spawns_done = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(spawns_done != MAP_FAILED, "mmap");
    *spawns_done = 0;
    expect_death(deque_overflow_child, "fill its deque of 64 slots", "deque overflow");
    char count[64];
    snprintf(count, sizeof count, "overflow on worker 1: %d tasks spawned", *spawns_done);
    char count0[64];
    snprintf(count0, sizeof count0, "overflow on worker 0: %d tasks spawned", *spawns_done);
    CHECK(*spawns_done >= 62 && *spawns_done <= 64, "%d spawns fitted", *spawns_done);
    expect_death_either(deque_overflow_child, count, count0, "the overflow message's count");
    expect_death(sync_below_frame_child, "without a matching SPAWN",
                 "SYNC below the frame of a RUN on a worker");
    return 0;
}
