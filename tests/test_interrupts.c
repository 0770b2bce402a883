// SPDX-License-Identifier: Apache-2.0
/* TOGETHER, NEWFRAME and weft_barrier under load.
 *
 * Background threads keep the pool busy with task trees whose leaves check
 * that no interrupt is in progress: while an interrupt runs, every worker
 * is halted between tasks, so old (non-interrupt) code never runs.  Main
 * and extra threads start interrupts concurrently, from outside and from
 * inside tasks, and check what they computed. */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <weft/weft.h>

static atomic_int in_interrupt; /* > 0 while interrupt code runs */
static atomic_long violations;  /* old code seen running during an interrupt */
static atomic_int stop_load;
static atomic_int frames_from_tasks;
static unsigned n_workers;

#include "fib_task.h"
#include "sys/clock.h"
#include "sys/cpu.h"

/* NEWFRAME's task: the whole pool helps with pfib. */
WEFT_TASK_1(long, frame_task, int, n)
{
    atomic_fetch_add(&in_interrupt, 1);
    long r = WEFT_CALL(pfib, n);
    atomic_fetch_sub(&in_interrupt, 1);
    return r;
}

/* A collector's NEWFRAME: a TOGETHER inside it (nested), then work in the
 * frame that the others help with after the nested interrupt is over. */
static atomic_int gc_copies;
WEFT_VOID_TASK_0(gc_copy) { atomic_fetch_add(&gc_copies, 1); }
WEFT_TASK_1(long, collect_task, int, n)
{
    atomic_fetch_add(&in_interrupt, 1);
    WEFT_TOGETHER(gc_copy);
    long r = WEFT_CALL(pfib, n);
    atomic_fetch_add(&in_interrupt, -1);
    return r;
}

/* TOGETHER's task: every worker runs one copy. */
static atomic_uint hits[64];
static atomic_uint phase_count[4];
WEFT_VOID_TASK_1(together_task, unsigned, round)
{
    atomic_fetch_add(&in_interrupt, 1);
    atomic_fetch_add(&hits[weft_worker_id(weft_w) % 64], 1);
    for (unsigned ph = 0; ph < 3; ph++) {
        atomic_fetch_add(&phase_count[ph], 1);
        weft_barrier();
        /* After barrier ph, every worker has counted phase ph of this round. */
        CHECK(atomic_load(&phase_count[ph]) == (round + 1) * n_workers,
              "phase %u of round %u: %u arrivals", ph, round, atomic_load(&phase_count[ph]));
    }
    /* Copies may spawn: the others steal while they wait. */
    CHECK(WEFT_CALL(pfib, 15) == fib_ref(15), "fib inside TOGETHER");
    atomic_fetch_sub(&in_interrupt, 1);
}

/* Background load: leaves check that no interrupt code runs meanwhile. */
WEFT_TASK_2(long, load, int, depth, unsigned, salt)
{
    if (depth == 0) {
        if (atomic_load(&in_interrupt) != 0)
            atomic_fetch_add(&violations, 1);
        volatile unsigned x = salt;
        for (int i = 0; i < 200; i++)
            x = x * 1103515245u + 12345u;
        return 1;
    }
    /* Now and then a task starts a NEWFRAME itself (like a BDD package
     * starting garbage collection in the middle of an operation). */
    if (depth == 9 && salt % 7 == 1) { /* the RUN's salt % 7 == 0 */
        CHECK(WEFT_NEWFRAME(collect_task, 12) == fib_ref(12), "NEWFRAME from a task");
        atomic_fetch_add(&frames_from_tasks, 1);
    }
    WEFT_SPAWN(load, depth - 1, salt * 3 + 1);
    long b = WEFT_CALL(load, depth - 1, salt * 3 + 2);
    return WEFT_SYNC(load) + b;
}

static void *load_thread(void *arg)
{
    unsigned salt = (unsigned)(uintptr_t)arg;
    do { /* at least once: salt 0 makes a task start a NEWFRAME */
        long r = WEFT_RUN(load, 10, salt++);
        CHECK(r == 1024, "load tree: %ld", r);
    } while (!atomic_load(&stop_load));
    return NULL;
}

/* NEWFRAMEs from outside, every other one a collector's. */
static void *together_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++)
        CHECK((i % 2 ? WEFT_NEWFRAME(frame_task, 14) : WEFT_NEWFRAME(collect_task, 14)) ==
                  fib_ref(14),
              "NEWFRAME from another thread");
    return NULL;
}

/* TOGETHER issued from inside a task. */
WEFT_TASK_1(int, together_from_task, unsigned, round)
{
    WEFT_TOGETHER(together_task, round);
    return 1;
}

/* YIELD: a task that never returns until an interrupt has run can only
 * let it run through WEFT_YIELD (it is a worker's only interrupt point). */
static atomic_int frame_ran;
WEFT_TASK_1(int, spinner, int, x)
{
    while (!atomic_load(&frame_ran))
        WEFT_YIELD();
    return x;
}
WEFT_TASK_0(int, mark_ran)
{
    atomic_store(&frame_ran, 1);
    return 1;
}
static void *spinner_thread(void *arg)
{
    (void)arg;
    CHECK(WEFT_RUN(spinner, 5) == 5, "spinner");
    return NULL;
}
static void test_yield(unsigned workers)
{
    CHECK(weft_start(workers, 0, 0) == 0, "start");
    atomic_store(&frame_ran, 0);
    pthread_t t[64];
    unsigned n = workers < 64 ? workers : 64;
    for (unsigned i = 0; i < n; i++) /* occupy every worker */
        pthread_create(&t[i], NULL, spinner_thread, NULL);
    CHECK(WEFT_NEWFRAME(mark_ran) == 1, "NEWFRAME while every worker spins in YIELD");
    for (unsigned i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: YIELD lets interrupts in at %u workers\n", workers);
}

/* Interrupts nest: a NEWFRAME task that calls TOGETHER (a collector's
 * pattern), a TOGETHER copy that calls NEWFRAME (each copy starts one, so
 * one per worker), and a TOGETHER copy that calls TOGETHER. */
static atomic_int nested_copies;
static atomic_int nested_frames;
WEFT_VOID_TASK_0(nested_count) { atomic_fetch_add(&nested_copies, 1); }
WEFT_TASK_0(long, nested_frame_gc)
{
    WEFT_TOGETHER(nested_count);
    return WEFT_CALL(pfib, 14);
}
WEFT_TASK_1(long, nested_frame_only, int, n)
{
    atomic_fetch_add(&nested_frames, 1);
    return WEFT_CALL(pfib, n);
}
WEFT_VOID_TASK_0(nested_copy_frame)
{
    CHECK(WEFT_NEWFRAME(nested_frame_only, 12) == fib_ref(12), "NEWFRAME inside TOGETHER");
}
WEFT_VOID_TASK_0(nested_copy_together) { WEFT_TOGETHER(nested_count); }

static void test_nesting(unsigned workers)
{
    CHECK(weft_start(workers, 0, 0) == 0, "start");
    atomic_store(&stop_load, 0);
    pthread_t loader;
    pthread_create(&loader, NULL, load_thread, (void *)(uintptr_t)7000);
    for (int r = 0; r < 20; r++) {
        atomic_store(&nested_copies, 0);
        CHECK(WEFT_NEWFRAME(nested_frame_gc) == fib_ref(14), "NEWFRAME calling TOGETHER");
        CHECK(atomic_load(&nested_copies) == (int)workers, "TOGETHER in NEWFRAME: %d copies",
              atomic_load(&nested_copies));
        atomic_store(&nested_frames, 0);
        WEFT_TOGETHER(nested_copy_frame);
        CHECK(atomic_load(&nested_frames) == (int)workers, "NEWFRAME in TOGETHER: %d frames",
              atomic_load(&nested_frames));
        atomic_store(&nested_copies, 0);
        WEFT_TOGETHER(nested_copy_together);
        CHECK(atomic_load(&nested_copies) == (int)(workers * workers),
              "TOGETHER in TOGETHER: %d copies", atomic_load(&nested_copies));
    }
    atomic_store(&stop_load, 1);
    pthread_join(loader, NULL);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: nested interrupts at %u workers\n", workers);
}

/* A RUN from a task that a worker stole while it helped in a TOGETHER
 * (its own copy done, its copy's slot below the frame it helps in) runs
 * above that task's frame: the RUN finds the worker's head by the slots'
 * states, so the finished copy's slot must not read as free.  Worker 0's
 * copy spawns children that spin a little; the others, their copies done,
 * steal them, and each stolen child RUNs a task that spawns and syncs. */
static atomic_int run_below_frame, runs_in_help;
WEFT_TASK_1(long, help_run_inner, weft_task *, child_head)
{
    if (weft_head < child_head)
        atomic_fetch_add(&run_below_frame, 1);
    WEFT_SPAWN(pfib, 8);
    long a = WEFT_CALL(pfib, 7);
    return a + WEFT_SYNC(pfib);
}
WEFT_TASK_1(long, help_child, int, i)
{
    uint64_t until = weft_now_ns() + 50000;
    while (weft_now_ns() < until)
        weft_cpu_relax();
    if (weft_worker_id(weft_w) != 0) {
        atomic_fetch_add(&runs_in_help, 1);
        CHECK(WEFT_RUN(help_run_inner, weft_head) == fib_ref(9), "RUN in a stolen child");
    }
    return i;
}
WEFT_VOID_TASK_0(help_copy)
{
    if (weft_worker_id(weft_w) != 0)
        return;
    /* One child at a time, then a pause (polling, as the private deques'
     * owners answer requests only then) until a helper has stolen one or
     * 200 us have passed: the split deque shares at the next SPAWN after
     * a request, so all 16 at once would mostly stay private. */
    for (int i = 0; i < 16; i++) {
        int before = atomic_load(&runs_in_help);
        WEFT_SPAWN(help_child, i);
        uint64_t until = weft_now_ns() + 200000;
        while (atomic_load(&runs_in_help) == before && weft_now_ns() < until) {
            WEFT_YIELD();
            weft_cpu_relax();
        }
    }
    long sum = 0;
    for (int i = 0; i < 16; i++)
        sum += WEFT_SYNC(help_child);
    CHECK(sum == 120, "children's sum %ld", sum);
}

static void test_run_while_helping(unsigned workers)
{
    CHECK(weft_start(workers, 0, 0) == 0, "start");
    atomic_store(&run_below_frame, 0);
    atomic_store(&runs_in_help, 0);
    /* 200 TOGETHERs, or up to 20 stolen children; on a machine too busy
     * for any steal in those, more rounds for up to 30 s until one. */
    uint64_t deadline = weft_now_ns() + 30000000000ull;
    int rounds = 0;
    while (atomic_load(&runs_in_help) < 20 &&
           (rounds < 200 || (atomic_load(&runs_in_help) == 0 && weft_now_ns() < deadline))) {
        WEFT_TOGETHER(help_copy);
        rounds++;
    }
    CHECK(atomic_load(&runs_in_help) > 0, "no child was stolen in %d TOGETHERs (30 s)", rounds);
    CHECK(atomic_load(&run_below_frame) == 0,
          "%d of %d RUNs from stolen children ran below the child's frame",
          atomic_load(&run_below_frame), atomic_load(&runs_in_help));
    CHECK(weft_stop() == 0, "stop");
    printf("ok: %d RUNs from tasks stolen while helping in a TOGETHER, above their frames (%u "
           "workers)\n",
           atomic_load(&runs_in_help), workers);
}

static void barrier_outside_child(void)
{
    weft_start(2, 0, 0);
    weft_barrier();
}

int main(void)
{
    for (size_t wi = 0; wi < N_TEST_WORKER_COUNTS; wi++) {
        n_workers = test_worker_counts[wi];
        CHECK(weft_start(n_workers, 0, 0) == 0, "start");
        for (int i = 0; i < 64; i++)
            atomic_store(&hits[i], 0);
        for (int i = 0; i < 4; i++)
            atomic_store(&phase_count[i], 0);
        atomic_store(&stop_load, 0);

        pthread_t loaders[2], other;
        for (int i = 0; i < 2; i++)
            pthread_create(&loaders[i], NULL, load_thread, (void *)(uintptr_t)(i * 1000));
        pthread_create(&other, NULL, together_thread, NULL);

        unsigned rounds = 12;
        for (unsigned r = 0; r < rounds; r++) {
            if (r % 2)
                WEFT_TOGETHER(together_task, r);
            else
                CHECK(WEFT_RUN(together_from_task, r) == 1, "together from task");
            for (unsigned k = 0; k < n_workers && k < 64; k++)
                CHECK(atomic_load(&hits[k]) == r + 1, "worker %u ran %u copies after round %u", k,
                      atomic_load(&hits[k]), r);
            CHECK(WEFT_NEWFRAME(frame_task, 16) == fib_ref(16), "NEWFRAME from main");
        }
        atomic_store(&stop_load, 1);
        for (int i = 0; i < 2; i++)
            pthread_join(loaders[i], NULL);
        pthread_join(other, NULL);
        CHECK(atomic_load(&violations) == 0, "%ld leaves ran during an interrupt",
              atomic_load(&violations));
        CHECK(atomic_load(&frames_from_tasks) > 0, "no task started a NEWFRAME");
        CHECK(weft_stop() == 0, "stop");
        printf("ok: interrupts under load at %u workers\n", n_workers);
    }
    test_yield(1);
    test_yield(3);
    test_nesting(1);
    test_nesting(2);
    test_nesting(3);
    test_run_while_helping(2);
    test_run_while_helping(3);
    expect_death(barrier_outside_child, "weft_barrier called outside a TOGETHER copy",
                 "barrier outside TOGETHER");
    return 0;
}
