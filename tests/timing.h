// SPDX-License-Identifier: Apache-2.0
/* Clock helpers of the tests: the monotonic clock in seconds, the calling
 * thread's CPU time in nanoseconds, a busy wait, and a bounded wait for a
 * condition. */
#ifndef WEFT_TESTS_TIMING_H
#define WEFT_TESTS_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The calling thread's CPU time (what the profiler's work is checked
 * against). */
static inline uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spins for `us` microseconds (the core stays busy). */
static inline void busy_us(unsigned us)
{
    double end = now_s() + us * 1e-6;
    while (now_s() < end) {
    }
}

/* Waits up to `seconds` for cond(), looking every millisecond; false if it
 * never held. */
static inline bool eventually(bool (*cond)(void), double seconds)
{
    double end = now_s() + seconds;
    while (now_s() < end) {
        if (cond())
            return true;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return cond();
}

#endif
