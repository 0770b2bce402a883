// SPDX-License-Identifier: Apache-2.0
/* A thread descheduled inside the profiler's read of its CPU clock: the
 * wait is not the strand that had just ended, and is not the next one's
 * work either.
 *
 * On a busy machine the kernel often takes a pending preemption at the
 * first system call after a long strand: the profiler's own read of the
 * thread's CPU clock.  How often depends on the kernel and the load, so
 * this test makes it happen every time: it defines clock_gettime, and a
 * read of the thread's CPU clock that a loop leaf has marked sleeps for
 * PAUSE_NS after taking its reading, as a descheduled thread would.
 *
 * Eight leaves each compute for LEAF_NS of CPU time (timed by themselves)
 * on one worker, then mark the next read.  The region's work must be
 * within 10 % of the leaves' CPU time: a profiler that pairs the reading
 * with a cycle count taken after the wait loses about half of it, one
 * that charges the wait to the next strand gains half.
 *
 * Built with the profiler only, without sanitizers (tests/CMakeLists.txt):
 * the definition of clock_gettime stands in for libc's in every part of
 * the test, which passes the other clocks straight to the kernel. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* syscall() */
#endif
#include "check.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <weft/profile.h>
#include <weft/weft.h>

#include "profile_regions.h"
#include "timing.h"

#if !WEFT_PROFILE
#error "test_profile_deschedule is built only with -DWEFT_PROFILE=ON (tests/CMakeLists.txt)"
#endif

#define LEAF_NS 10000000L /* each leaf computes 10 ms of CPU time */
#define PAUSE_NS 5000000L /* and the profiler's next read waits 5 ms */
#define DEPTH 3           /* eight leaves */
#define RUNS 3

/* Set by a leaf: the thread's next read of its CPU clock pauses. */
static __thread bool pause_after_next_cpu_read;
static _Atomic long reads_paused;

int clock_gettime(clockid_t clock, struct timespec *ts)
{
    int rc = (int)syscall(SYS_clock_gettime, clock, ts);
    if (clock == CLOCK_THREAD_CPUTIME_ID && pause_after_next_cpu_read) {
        pause_after_next_cpu_read = false;
        struct timespec pause = {0, PAUSE_NS};
        while (nanosleep(&pause, &pause) != 0) {
        }
        /* Relaxed: a count read after the RUN returns, which orders it. */
        atomic_fetch_add_explicit(&reads_paused, 1, memory_order_relaxed);
    }
    return rc;
}

static _Atomic long long leaves_cpu_ns;

WEFT_TASK_1(long, paused_leaves, int, depth)
{
    if (depth == 0) {
        uint64_t t0 = thread_cpu_ns(), t;
        while ((t = thread_cpu_ns()) - t0 < (uint64_t)LEAF_NS) {
        }
        /* Relaxed: the sum is read after the RUN returns, which orders it. */
        atomic_fetch_add_explicit(&leaves_cpu_ns, (long long)(t - t0), memory_order_relaxed);
        pause_after_next_cpu_read = true;
        return 1;
    }
    WEFT_SPAWN(paused_leaves, depth - 1);
    long right = WEFT_CALL(paused_leaves, depth - 1);
    return WEFT_SYNC(paused_leaves) + right;
}

int main(void)
{
    alarm(60);
    CHECK(weft_start(1, 0, 0) == 0, "start");
    for (int i = 0; i < RUNS; i++) {
        atomic_store(&leaves_cpu_ns, 0);
        atomic_store(&reads_paused, 0);
        weft_profile_reset();
        CHECK(WEFT_RUN(paused_leaves, DEPTH) == 1L << DEPTH, "paused_leaves");
        double cpu = (double)atomic_load(&leaves_cpu_ns);
        double work = region_named("paused_leaves").work_ns;
        long paused = atomic_load(&reads_paused);
        printf("run %d: leaves' CPU time %.1f ms, the region's work %.1f ms (%.3f of it), "
               "%ld reads paused %.0f ms each\n",
               i, cpu / 1e6, work / 1e6, work / cpu, paused, PAUSE_NS / 1e6);
        /* Every leaf's mark met the profiler's read after it: a leaf's
         * strand is long, so its end reads the CPU clock. */
        CHECK(paused == 1L << DEPTH, "%ld of %ld leaves' marks met a read of the CPU clock", paused,
              1L << DEPTH);
        CHECK(work >= 0.9 * cpu,
              "the waits inside the profiler's reads were taken off the "
              "strands that had ended: work %.1f ms, CPU time %.1f ms",
              work / 1e6, cpu / 1e6);
        CHECK(work <= 1.1 * cpu,
              "the waits inside the profiler's reads were counted as work: "
              "work %.1f ms, CPU time %.1f ms",
              work / 1e6, cpu / 1e6);
    }
    CHECK(weft_stop() == 0, "stop");
    printf("ok: a wait inside the profiler's read of the CPU clock is no strand's work\n");
    return 0;
}
