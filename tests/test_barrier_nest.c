// SPDX-License-Identifier: Apache-2.0
/* weft_barrier in TOGETHER copies while a copy starts a nested interrupt
 * (docs/interrupts.md, "Barriers and nested interrupts").
 *
 * A copy starts a nested TOGETHER or NEWFRAME and then calls weft_barrier;
 * the other copies are at the barrier already.  They must serve the nested
 * interrupt from there (it needs every worker), and the nested TOGETHER's
 * copies may call weft_barrier themselves: its barrier is its own, so
 * their arrivals do not release the outer one.  Each outer copy writes the
 * round into before[its worker] on its way to the barrier, and checks
 * after it that every copy's is written.  A hang ends the test after 60 s
 * with the case and round it was in. */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <weft/weft.h>

#include "fib_task.h"

#define MAX_WORKERS 64
enum { NEST_TOGETHER, NEST_NEWFRAME, NEST_BARRIERS, NEST_EVERY, N_KINDS };
static const char *const kind_names[N_KINDS] = {"a nested TOGETHER", "a nested NEWFRAME",
                                                "a nested TOGETHER whose copies call weft_barrier",
                                                "a nested TOGETHER with barriers from every copy"};

static unsigned n_workers;

/* ---- a hang fails the test, saying where ---- */

static char running[200];
static void on_alarm(int sig)
{
    (void)sig;
    static const char pre[] = "test_barrier_nest: hung for 60 s: ";
    ssize_t r = write(STDERR_FILENO, pre, sizeof pre - 1);
    r = write(STDERR_FILENO, running, strlen(running));
    r = write(STDERR_FILENO, "\n", 1);
    (void)r;
    _exit(1);
}
__attribute__((format(printf, 1, 2))) static void watch(const char *fmt, ...)
{
    alarm(0);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(running, sizeof running, fmt, ap);
    va_end(ap);
    alarm(60);
}

/* ---- the copies ---- */

static atomic_uint at_door;             /* outer copies on their way to the barrier */
static atomic_uint before[MAX_WORKERS]; /* round + 1, by each outer copy before its barrier */
static atomic_uint inner_copies;        /* copies of the nested TOGETHERs */
static atomic_uint inner_frames;        /* nested NEWFRAME tasks run */
static atomic_uint inner_phase[2];      /* nested copies at their barriers 1 and 2 */

WEFT_VOID_TASK_0(inner_count) { atomic_fetch_add(&inner_copies, 1); }

WEFT_TASK_1(long, inner_frame, int, n)
{
    atomic_fetch_add(&inner_frames, 1);
    return WEFT_CALL(pfib, n);
}

/* A copy of a nested TOGETHER with two barriers of its own.  The nested
 * TOGETHERs of one round run one after the other, so after barrier ph of
 * the j-th, exactly j * n copies have arrived at it. */
WEFT_VOID_TASK_0(inner_barriers)
{
    atomic_fetch_add(&inner_copies, 1);
    for (unsigned ph = 0; ph < 2; ph++) {
        atomic_fetch_add(&inner_phase[ph], 1);
        weft_barrier();
        unsigned c = atomic_load(&inner_phase[ph]);
        CHECK(c != 0 && c % n_workers == 0,
              "a nested copy passed its barrier %u with %u arrivals (%u workers): released by "
              "arrivals at another TOGETHER's barrier",
              ph + 1, c, n_workers);
    }
}

/* The outer TOGETHER's copy: the copy on worker `starter` (every copy,
 * for NEST_EVERY) starts the nested interrupt, after the others are on
 * their way to the barrier if `door` (and, if it is 2, after 2 ms more,
 * when they sleep there: weft's idle search is 0.5 ms); then every copy
 * calls weft_barrier twice.  With `spawned`, each copy has a task spawned and not yet
 * joined while it waits at the barrier (the nested interrupt freezes it
 * out of its frames). */
WEFT_VOID_TASK_5(outer_copy, int, kind, unsigned, round, unsigned, starter, int, door, int, spawned)
{
    unsigned me = weft_worker_id(weft_w), n = n_workers;
    if (spawned)
        WEFT_SPAWN(pfib, 10);
    if (kind == NEST_EVERY || me == starter) {
        if (door && kind != NEST_EVERY) {
            while (atomic_load(&at_door) < n - 1)
                sched_yield();
            if (door == 2)
                usleep(2000);
        }
        switch (kind) {
        case NEST_TOGETHER:
            WEFT_TOGETHER(inner_count);
            CHECK(atomic_load(&inner_copies) == n, "nested TOGETHER: %u copies",
                  atomic_load(&inner_copies));
            break;
        case NEST_NEWFRAME:
            CHECK(WEFT_NEWFRAME(inner_frame, 12) == fib_ref(12), "nested NEWFRAME's result");
            break;
        default: WEFT_TOGETHER(inner_barriers); break;
        }
    }
    atomic_store(&before[me], round + 1);
    atomic_fetch_add(&at_door, 1);
    weft_barrier();
    for (unsigned k = 0; k < n; k++)
        CHECK(atomic_load(&before[k]) == round + 1,
              "round %u: worker %u passed the outer barrier before worker %u's copy arrived "
              "(%s)",
              round, me, k, kind_names[kind]);
    unsigned nested = kind == NEST_EVERY ? n : 1;
    switch (kind) {
    case NEST_NEWFRAME:
        CHECK(atomic_load(&inner_frames) == 1, "nested NEWFRAME ran %u times",
              atomic_load(&inner_frames));
        break;
    case NEST_TOGETHER: CHECK(atomic_load(&inner_copies) == n, "nested copies"); break;
    default:
        CHECK(atomic_load(&inner_copies) == nested * n, "round %u: %u nested copies, not %u", round,
              atomic_load(&inner_copies), nested * n);
        for (unsigned ph = 0; ph < 2; ph++)
            CHECK(atomic_load(&inner_phase[ph]) == nested * n,
                  "round %u: %u arrivals at nested barrier %u, not %u", round,
                  atomic_load(&inner_phase[ph]), ph + 1, nested * n);
    }
    /* A second barrier of the same TOGETHER: the first left it reset. */
    weft_barrier();
    if (spawned)
        CHECK(WEFT_SYNC(pfib) == fib_ref(10), "the task spawned before the barrier");
}

WEFT_TASK_5(int, outer_from_task, int, kind, unsigned, round, unsigned, starter, int, door, int,
            spawned)
{
    WEFT_TOGETHER(outer_copy, kind, round, starter, door, spawned);
    return 1;
}

static void reset_round(void)
{
    atomic_store(&at_door, 0);
    atomic_store(&inner_copies, 0);
    atomic_store(&inner_frames, 0);
    atomic_store(&inner_phase[0], 0);
    atomic_store(&inner_phase[1], 0);
}

/* ---- cases ---- */

/* Cases (a) to (c): `rounds` outer TOGETHERs from main, the copy on
 * worker 0 starting the nested interrupt once the others are at the
 * barrier, in every other round once they sleep there. */
static void run_case(int kind, unsigned workers, unsigned rounds)
{
    n_workers = workers;
    CHECK(weft_start(workers, 0, 0) == 0, "start");
    for (unsigned r = 0; r < rounds; r++) {
        watch("%s at %u workers, round %u", kind_names[kind], workers, r);
        reset_round();
        WEFT_TOGETHER(outer_copy, kind, r, 0, 1 + (int)(r % 2), 0);
    }
    alarm(0);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: weft_barrier after %s, %u rounds at %u workers\n", kind_names[kind], rounds,
           workers);
}

/* Case (d): many rounds, each kind, the nested interrupt started by each
 * worker's copy in turn, with and without waiting for the others to be at
 * the barrier, with and without a task spawned across it, the outer
 * TOGETHER from main and from a task, while a thread keeps the pool busy
 * with RUNs. */
static atomic_int stop_load;
static void *load_thread(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_load))
        CHECK(WEFT_RUN(pfib, 16) == fib_ref(16), "load");
    return NULL;
}

static void stress(unsigned workers, unsigned rounds)
{
    n_workers = workers;
    CHECK(weft_start(workers, 0, 0) == 0, "start");
    atomic_store(&stop_load, 0);
    pthread_t loader;
    CHECK(pthread_create(&loader, NULL, load_thread, NULL) == 0, "thread");
    for (unsigned r = 0; r < rounds; r++) {
        int kind = (int)(r % N_KINDS);
        unsigned starter = (r / N_KINDS) % workers;
        int door = (int)((r / 2) % 3), spawned = (r / 3) % 2;
        watch("stress at %u workers, round %u (%s, started by worker %u's copy%s%s)", workers, r,
              kind_names[kind], starter,
              door == 2   ? ", the others asleep at the barrier"
              : door == 1 ? ", the others at the barrier"
                          : "",
              spawned ? ", a task spawned across the barrier" : "");
        reset_round();
        if (r % 5 == 2)
            CHECK(WEFT_RUN(outer_from_task, kind, r, starter, door, spawned) == 1,
                  "outer from a task");
        else
            WEFT_TOGETHER(outer_copy, kind, r, starter, door, spawned);
    }
    atomic_store(&stop_load, 1);
    pthread_join(loader, NULL);
    alarm(0);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: stress, %u rounds at %u workers\n", rounds, workers);
}

/* A NEWFRAME's task is no TOGETHER copy, even when a copy started it. */
WEFT_TASK_0(int, frame_barrier)
{
    weft_barrier();
    return 1;
}
WEFT_VOID_TASK_0(copy_starts_frame)
{
    if (weft_worker_id(weft_w) == 0)
        (void)WEFT_NEWFRAME(frame_barrier);
}
static void barrier_in_nested_newframe(void)
{
    watch("weft_barrier in a NEWFRAME's task (a death test's child)");
    weft_start(2, 0, 0);
    WEFT_TOGETHER(copy_starts_frame);
}

/* Arguments: the scale of the stress rounds (WEFT_TEST_SCALE), and
 * optionally the cases to run: letters a-e (a, b, c: a nested TOGETHER,
 * NEWFRAME, TOGETHER with barriers; d: the stress; e: the NEWFRAME
 * task's barrier); all by default. */
int main(int argc, char **argv)
{
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    if (scale == 0)
        scale = 1;
    /* At most 10: 1,000 stress rounds at each worker count reach every
     * combination of kind, starter, door, spawned task and caller that
     * 3,000 reach, each at least 5 times (at 8 workers; 20-41 times
     * below); release's 30 took 30 s a run, three runs a CI. */
    if (scale > 10)
        scale = 10;
    const char *cases = argc > 2 ? argv[2] : "abcde";
    signal(SIGALRM, on_alarm);
    static const unsigned counts[] = {1, 2, 3, 8};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        for (int kind = NEST_TOGETHER; kind <= NEST_BARRIERS; kind++)
            if (strchr(cases, 'a' + kind))
                run_case(kind, counts[i], 20);
        if (strchr(cases, 'd'))
            stress(counts[i], 100 * scale);
    }
    if (strchr(cases, 'e'))
        expect_death(barrier_in_nested_newframe, "weft_barrier called outside a TOGETHER copy",
                     "weft_barrier in a NEWFRAME's task that a copy started");
    return 0;
}
