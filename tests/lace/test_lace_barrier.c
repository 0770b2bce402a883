// SPDX-License-Identifier: Apache-2.0
/* lace_barrier after a nested TOGETHER or NEWFRAME, as a Lace 1.6 program
 * writes it (tests/test_barrier_nest.c is the weft version): a collector's
 * TOGETHER whose copy on worker 0 starts a nested TOGETHER (whose copies
 * call lace_barrier too) or NEWFRAME, then every copy calls lace_barrier.
 * At 1, 2, 3 and 8 workers; a hang fails after 60 s. */
#include <lace.h>

#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include "check.h"

WEFT_STATIC_ASSERT(LACE_VERSION_MAJOR == 1 && LACE_VERSION_MINOR == 6, "Lace 1.6");

static unsigned n_workers;
static unsigned cur_round;
static char running[120]; /* what a hang was in */
static void on_alarm(int sig)
{
    (void)sig;
    ssize_t r = write(STDERR_FILENO, running, strlen(running));
    (void)r;
    _exit(1);
}

TASK(long, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    long b = CALL(fib, n - 2);
    return SYNC(fib) + b;
}

static _Atomic unsigned at_door, inner_copies, inner_frames, inner_arrived;
static _Atomic unsigned before[64];

TASK(void, inner_copy)
{
    inner_copies += 1;
    inner_arrived += 1;
    lace_barrier();
    CHECK(inner_arrived == n_workers, "nested barrier passed with %u of %u copies",
          (unsigned)inner_arrived, n_workers);
}
TASK(long, inner_frame, int, n)
{
    inner_frames += 1;
    return CALL(fib, n);
}

TASK(void, outer_copy, int, newframe)
{
    unsigned me = (unsigned)LACE_WORKER_ID;
    if (me == 0) {
        while (at_door < n_workers - 1)
            sched_yield();
        if (newframe)
            CHECK(NEWFRAME(inner_frame, 12) == 144, "nested NEWFRAME's result");
        else
            TOGETHER(inner_copy);
    }
    before[me] = cur_round;
    at_door += 1;
    lace_barrier();
    for (unsigned k = 0; k < n_workers; k++)
        CHECK(before[k] == cur_round, "worker %u passed lace_barrier before worker %u arrived", me,
              k);
    CHECK(newframe ? inner_frames == 1 : inner_copies == n_workers, "nested %s incomplete",
          newframe ? "NEWFRAME" : "TOGETHER");
    lace_barrier();
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    static const unsigned counts[] = {1, 2, 3, 8};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        n_workers = counts[i];
        lace_start(n_workers, 0);
        for (unsigned r = 1; r <= 40; r++) {
            snprintf(running, sizeof running,
                     "test_lace_barrier: hung for 60 s at %u workers, round %u (nested %s)\n",
                     n_workers, r, r % 2 ? "NEWFRAME" : "TOGETHER");
            alarm(60);
            cur_round = r;
            at_door = inner_copies = inner_frames = inner_arrived = 0;
            TOGETHER(outer_copy, (int)(r % 2));
        }
        alarm(0);
        lace_stop();
        printf("ok: lace_barrier after nested TOGETHER and NEWFRAME at %u workers\n", n_workers);
    }
    return 0;
}
