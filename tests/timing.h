// SPDX-License-Identifier: Apache-2.0
/* Wall-clock helpers of the tests that wait for the pool: the monotonic
 * clock in seconds, a busy wait, and a bounded wait for a condition. */
#ifndef WEFT_TESTS_TIMING_H
#define WEFT_TESTS_TIMING_H

#include <stdbool.h>
#include <time.h>

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
