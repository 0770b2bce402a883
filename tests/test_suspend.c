// SPDX-License-Identifier: Apache-2.0
/* weft_suspend and what may run while the pool is suspended:
 *  - a long task that calls WEFT_YIELD lets suspend complete (it parks at
 *    its YIELD) and makes no progress until weft_resume;
 *  - a task blocked at a SYNC on such a task parks too;
 *  - TOGETHER and NEWFRAME from another thread wait for weft_resume (as RUN
 *    does) and then run;
 *  - a thread that suspends and resumes back to back does not keep them
 *    out: each resume lets in the threads waiting at it before the next
 *    suspend completes.
 * A task never ends on its own here: it loops until the test releases it,
 * so a suspend that waited for it to end would never return; a watchdog
 * turns that into a failure with a message. */
#include "check.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <weft/weft.h>

#include "runtime/state.h"

static atomic_int released, progress, finished, loop_started;
static unsigned n_workers;

/* Fails the test if it does not complete within 30 s. */
static void *watchdog(void *arg)
{
    const char *what = arg;
    for (int i = 0; i < 3000; i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
        if (atomic_load(&finished))
            return NULL;
    }
    fprintf(stderr, "FAILED: %s did not finish in 30 s (suspend waited for a task?)\n", what);
    _exit(1);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Loops, polling, until released. */
WEFT_VOID_TASK_0(yielding_loop)
{
    atomic_store(&loop_started, 1);
    while (!atomic_load(&released)) {
        atomic_fetch_add(&progress, 1);
        WEFT_YIELD();
    }
}

/* With more than one worker, waits (polling) until another worker has
 * stolen the loop and started it. */
WEFT_VOID_TASK_0(wait_until_stolen)
{
    while (n_workers > 1 && !atomic_load(&loop_started))
        WEFT_YIELD();
}

/* Spawns the loop and joins it: with several workers a thief runs the
 * loop and this task is blocked at its SYNC meanwhile; with one it runs
 * the loop itself. */
WEFT_VOID_TASK_0(join_loop)
{
    WEFT_SPAWN(yielding_loop);
    WEFT_CALL(wait_until_stolen);
    WEFT_SYNC(yielding_loop);
}

static void *run_in_thread(void *arg)
{
    (void)arg;
    WEFT_RUN(join_loop);
    return NULL;
}

static void test_yield_and_blocked_sync(unsigned workers)
{
    atomic_store(&released, 0);
    atomic_store(&progress, 0);
    atomic_store(&finished, 0);
    atomic_store(&loop_started, 0);
    n_workers = workers;
    pthread_t dog, runner;
    pthread_create(&dog, NULL, watchdog, "suspend with a task at YIELD");
    CHECK(weft_start(workers, 0, 0) == 0, "start");
    pthread_create(&runner, NULL, run_in_thread, NULL);
    while (atomic_load(&progress) < 1000) /* the loop runs */
        sleep_ms(1);
    CHECK(weft_suspend() == 0, "suspend");
    int at_suspend = atomic_load(&progress);
    sleep_ms(50);
    CHECK(atomic_load(&progress) == at_suspend,
          "%u workers: a task made progress while the pool was suspended (%d -> %d)", workers,
          at_suspend, atomic_load(&progress));
    /* Suspends nest: a second one and its resume leave the pool suspended;
     * the first one's resume resumes it. */
    CHECK(weft_suspend() == 0, "nested suspend");
    CHECK(weft_resume() == 0, "nested resume");
    sleep_ms(20);
    CHECK(atomic_load(&progress) == at_suspend,
          "%u workers: the inner resume of nested suspends resumed the pool (%d -> %d)", workers,
          at_suspend, atomic_load(&progress));
    CHECK(weft_resume() == 0, "resume");
    while (atomic_load(&progress) < at_suspend + 1000) /* it runs again */
        sleep_ms(1);
    CHECK(weft_resume() == EINVAL, "a resume without a suspend was accepted");
    atomic_store(&released, 1);
    pthread_join(runner, NULL);
    weft_stop();
    atomic_store(&finished, 1);
    pthread_join(dog, NULL);
    printf("ok: %u workers: suspend parks tasks at YIELD and blocked SYNCs; suspends nest\n",
           workers);
}

/* ---- interrupts from outside while suspended ---- */

static atomic_int copies, frames;

WEFT_VOID_TASK_0(count_copy) { atomic_fetch_add(&copies, 1); }
WEFT_VOID_TASK_0(count_frame) { atomic_fetch_add(&frames, 1); }

static void *together_thread(void *arg)
{
    (void)arg;
    WEFT_TOGETHER(count_copy);
    return NULL;
}

static void *newframe_thread(void *arg)
{
    (void)arg;
    WEFT_NEWFRAME(count_frame);
    return NULL;
}

static void test_interrupts_wait_for_resume(unsigned workers)
{
    atomic_store(&copies, 0);
    atomic_store(&frames, 0);
    atomic_store(&finished, 0);
    pthread_t dog, t1, t2;
    pthread_create(&dog, NULL, watchdog, "TOGETHER/NEWFRAME after resume");
    CHECK(weft_start(workers, 0, 0) == 0, "start");
    CHECK(weft_suspend() == 0, "suspend");
    pthread_create(&t1, NULL, together_thread, NULL);
    pthread_create(&t2, NULL, newframe_thread, NULL);
    sleep_ms(50);
    CHECK(atomic_load(&copies) == 0 && atomic_load(&frames) == 0,
          "an interrupt ran while the pool was suspended (copies %d, frames %d)",
          atomic_load(&copies), atomic_load(&frames));
    CHECK(weft_resume() == 0, "resume");
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    CHECK(atomic_load(&copies) == (int)workers && atomic_load(&frames) == 1,
          "after resume: %d copies (want %u), %d frames (want 1)", atomic_load(&copies), workers,
          atomic_load(&frames));
    weft_stop();
    atomic_store(&finished, 1);
    pthread_join(dog, NULL);
    printf("ok: %u workers: TOGETHER and NEWFRAME wait for resume\n", workers);
}

/* Threads that make TOGETHER and NEWFRAME from outside, over and over,
 * while this thread does nothing but suspend and resume.  A call that
 * waits at the gate when a resume comes goes in, and its interrupt ends,
 * before the next suspend returns: at each cycle the interrupts that ran
 * are at least the calls counted at the gate (runtime/state.h) just before
 * the resume.  Before, the suspend right after the resume shut the woken
 * calls out again, and a call could wait for thousands of cycles. */
enum { ENTRIES_EACH = 20, CYCLES_AT_MOST = 2000 };
static atomic_int copy_calls_done, frame_calls_done;

static void *together_loop(void *arg)
{
    (void)arg;
    for (int i = 0; i < ENTRIES_EACH; i++) {
        WEFT_TOGETHER(count_copy);
        atomic_fetch_add(&copy_calls_done, 1);
    }
    return NULL;
}

static void *newframe_loop(void *arg)
{
    (void)arg;
    for (int i = 0; i < ENTRIES_EACH; i++) {
        WEFT_NEWFRAME(count_frame);
        atomic_fetch_add(&frame_calls_done, 1);
    }
    return NULL;
}

/* Interrupts from outside that have run to their end, with the pool
 * suspended (none is half done). */
static int interrupts_ended(unsigned workers)
{
    return atomic_load(&copies) / (int)workers + atomic_load(&frames);
}

static void test_back_to_back_suspends_let_interrupts_in(unsigned workers)
{
    atomic_store(&copy_calls_done, 0);
    atomic_store(&frame_calls_done, 0);
    atomic_store(&copies, 0);
    atomic_store(&frames, 0);
    atomic_store(&finished, 0);
    pthread_t dog, t1, t2;
    pthread_create(&dog, NULL, watchdog, "TOGETHER/NEWFRAME beside back-to-back suspends");
    CHECK(weft_start(workers, 0, 0) == 0, "start");
    CHECK(weft_suspend() == 0, "suspend");
    pthread_create(&t1, NULL, together_loop, NULL);
    pthread_create(&t2, NULL, newframe_loop, NULL);
    int cycles = 0, cycles_with_waiters = 0;
    while ((atomic_load(&copy_calls_done) < ENTRIES_EACH ||
            atomic_load(&frame_calls_done) < ENTRIES_EACH) &&
           cycles < CYCLES_AT_MOST) {
        /* A caller waiting at this resume, if one is still to come (on a
         * loaded machine the looping threads may be between two calls
         * just then, cycle after cycle): up to 100 ms. */
        for (int i = 0; i < 1000 && atomic_load(&weft__rt.gate_waiters) == 0 &&
                        (atomic_load(&copy_calls_done) < ENTRIES_EACH ||
                         atomic_load(&frame_calls_done) < ENTRIES_EACH);
             i++)
            usleep(100);
        int ended_before = interrupts_ended(workers);
        int waiting = (int)atomic_load(&weft__rt.gate_waiters);
        CHECK(weft_resume() == 0, "resume");
        CHECK(weft_suspend() == 0, "suspend");
        int ran = interrupts_ended(workers) - ended_before;
        CHECK(ran >= waiting,
              "cycle %d: %d TOGETHER/NEWFRAME from outside waited at the resume, %d went in "
              "before the next suspend returned",
              cycles, waiting, ran);
        cycles_with_waiters += waiting > 0;
        cycles++;
    }
    int copy_calls = atomic_load(&copy_calls_done), frame_calls = atomic_load(&frame_calls_done);
    CHECK(weft_resume() == 0, "resume");
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    CHECK(copy_calls == ENTRIES_EACH && frame_calls == ENTRIES_EACH,
          "%d suspend/resume cycles let in %d TOGETHERs and %d NEWFRAMEs of %d each", cycles,
          copy_calls, frame_calls, ENTRIES_EACH);
    CHECK(cycles_with_waiters > 0, "no call from outside waited at a resume: nothing checked");
    CHECK(atomic_load(&copies) == ENTRIES_EACH * (int)workers &&
              atomic_load(&frames) == ENTRIES_EACH,
          "%d copies (want %d), %d frames (want %d)", atomic_load(&copies),
          ENTRIES_EACH * (int)workers, atomic_load(&frames), ENTRIES_EACH);
    weft_stop();
    atomic_store(&finished, 1);
    pthread_join(dog, NULL);
    printf("ok: %u workers: back-to-back suspends let %d TOGETHERs and NEWFRAMEs in (%d cycles, "
           "%d with calls waiting)\n",
           workers, ENTRIES_EACH, cycles, cycles_with_waiters);
}

int main(void)
{
    for (size_t i = 0; i < N_TEST_WORKER_COUNTS; i++) {
        test_yield_and_blocked_sync(test_worker_counts[i]);
        test_interrupts_wait_for_resume(test_worker_counts[i]);
        test_back_to_back_suspends_let_interrupts_in(test_worker_counts[i]);
    }
    return 0;
}
