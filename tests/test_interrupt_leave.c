// SPDX-License-Identifier: Apache-2.0
/* When an interrupt's initiator returns, forced at the race point where a
 * worker that passed barrier 2 leaves the interrupt (INTERRUPT_LEAVE,
 * src/runtime/perturb.h; perturb builds only).
 *
 *   worker_initiator   a task calls NEWFRAME (or TOGETHER); every other
 *                      worker is held at INTERRUPT_LEAVE until the call
 *                      has returned.  The initiator must return once it
 *                      has left itself, as every worker goes back to its
 *                      work after barrier 2: a program that retries an
 *                      allocation after its collection (Sylvan) must not
 *                      wait while the others run on.  An initiator that
 *                      waits for the last leaver waits here in vain.
 *   outside_initiator  a thread outside the pool calls NEWFRAME (or
 *                      TOGETHER); every worker is held at INTERRUPT_LEAVE
 *                      for a while.  The call must return only after every
 *                      worker has left: a weft_stop after it finds them
 *                      back in their loops.
 *
 * Each at 2, 3 and 8 workers, NEWFRAME and TOGETHER, several rounds; the
 * interrupts of one scenario reuse the runtime's record of outermost
 * interrupts back to back.  Every hold is bounded: a hold that runs out
 * fails the test with the reason.
 *
 * Usage: test_interrupt_leave [rounds]  (default 20)
 */
#include "check.h"

#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <weft/weft.h>

#include "runtime/perturb.h"

#if !WEFT_PERTURB
#error "test_interrupt_leave needs a WEFT_PERTURB=ON build"
#endif

enum { HOLD_S = 5, OUTSIDE_HOLD_MS = 20, MAX_WORKERS = 8 };

/* The test's own atomics are seq_cst; they order nothing of the runtime's. */
static atomic_int scenario; /* 0: the hook does nothing */
enum { WORKER_INITIATOR = 1, OUTSIDE_INITIATOR = 2 };
static _Atomic(weft_worker *) initiator;
static atomic_int call_returned; /* the initiator's call returned */
static atomic_int left;          /* workers past their hold (this round) */
static atomic_int task_ran;
static atomic_int copies;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void hook(weft_race_point_id id)
{
    int mode = atomic_load(&scenario);
    if (mode == 0 || id != WEFT_RP_INTERRUPT_LEAVE)
        return;
    weft_worker *self = weft_self();
    if (mode == WORKER_INITIATOR) {
        if (self == atomic_load(&initiator))
            return;
        double until = now_s() + HOLD_S;
        while (!atomic_load(&call_returned)) {
            CHECK(now_s() < until,
                  "worker %u held before leaving the interrupt for %d s: the initiator's call "
                  "did not return while a worker had not left (it waits for the last leaver)",
                  weft_worker_id(self), HOLD_S);
            sched_yield();
        }
    } else {
        struct timespec pause = {0, OUTSIDE_HOLD_MS * 1000000L};
        nanosleep(&pause, NULL);
    }
    atomic_fetch_add(&left, 1);
}

WEFT_TASK_1(int, frame_task, int, x)
{
    atomic_fetch_add(&task_ran, 1);
    return x + 1;
}

WEFT_VOID_TASK_0(copy_task) { atomic_fetch_add(&copies, 1); }

static void reset_round(int mode)
{
    atomic_store(&call_returned, 0);
    atomic_store(&left, 0);
    atomic_store(&task_ran, 0);
    atomic_store(&copies, 0);
    atomic_store(&scenario, mode);
}

/* The interrupt of a round: TOGETHER (every worker a copy), or NEWFRAME
 * of frame_task(x); returns NEWFRAME's result (0 for TOGETHER). */
static int call_interrupt(int together, int x)
{
    if (!together)
        return WEFT_NEWFRAME(frame_task, x);
    WEFT_TOGETHER(copy_task);
    return 0;
}

/* What the round's interrupt did: a copy on every worker, or the task run
 * once with its result x + 1.  `where`: "from a task", "from outside". */
static void check_interrupt_ran(int together, const char *where, int r, int x, unsigned workers)
{
    if (together)
        CHECK(atomic_load(&copies) == (int)workers, "TOGETHER %s: %d copies ran of %u", where,
              atomic_load(&copies), workers);
    else
        CHECK(r == x + 1 && atomic_load(&task_ran) == 1, "NEWFRAME %s: result %d, task ran %d",
              where, r, atomic_load(&task_ran));
}

/* From a task on a worker: the call, then the word that lets the held
 * workers go. */
WEFT_TASK_1(int, initiate, int, together)
{
    atomic_store(&initiator, weft_self());
    int r = call_interrupt(together, 41);
    atomic_store(&call_returned, 1);
    return r;
}

static void worker_initiator(unsigned workers, int together)
{
    reset_round(WORKER_INITIATOR);
    int r = WEFT_RUN(initiate, together);
    check_interrupt_ran(together, "from a task", r, 41, workers);
    /* The held workers go on once the call returned; the next round
     * starts when every one has passed its hold (it resets the word that
     * lets them go). */
    double until = now_s() + HOLD_S;
    while (atomic_load(&left) != (int)workers - 1) {
        CHECK(now_s() < until, "%s from a task: %d of %u other workers left in %d s",
              together ? "TOGETHER" : "NEWFRAME", atomic_load(&left), workers - 1, HOLD_S);
        sched_yield();
    }
    atomic_store(&scenario, 0);
}

static void outside_initiator(unsigned workers, int together)
{
    reset_round(OUTSIDE_INITIATOR);
    int r = call_interrupt(together, 1);
    int left_at_return = atomic_load(&left);
    atomic_store(&scenario, 0);
    CHECK(left_at_return == (int)workers,
          "%s from outside returned when %d of %u workers had left the interrupt",
          together ? "TOGETHER" : "NEWFRAME", left_at_return, workers);
    check_interrupt_ran(together, "from outside", r, 1, workers);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    CHECK(rounds > 0, "usage: test_interrupt_leave [rounds > 0]");
    weft__race_set_hook(hook);
    static const unsigned counts[] = {2, 3, MAX_WORKERS};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        unsigned workers = counts[c];
        CHECK(weft_start(workers, 0, 0) == 0, "start %u workers", workers);
        for (int i = 0; i < rounds; i++)
            worker_initiator(workers, i % 2);
        /* Fewer rounds: each holds every worker for OUTSIDE_HOLD_MS. */
        for (int i = 0; i < 4; i++)
            outside_initiator(workers, i % 2);
        CHECK(weft_stop() == 0, "stop");
        printf("%u workers: %d rounds from a task, 4 from outside: ok\n", workers, rounds);
    }
    weft__race_set_hook(NULL);
    printf("test_interrupt_leave: ok\n");
    return 0;
}
