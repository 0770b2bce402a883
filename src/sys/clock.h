// SPDX-License-Identifier: Apache-2.0
/* The monotonic clock in nanoseconds.  Not installed. */
#ifndef WEFT_SYS_CLOCK_H
#define WEFT_SYS_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t weft_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleeps for about ns nanoseconds (polling waits off the hot paths). */
static inline void weft_sleep_ns(uint64_t ns)
{
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u),
                          .tv_nsec = (long)(ns % 1000000000u)};
    nanosleep(&ts, NULL);
}

#endif
