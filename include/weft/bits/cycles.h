// SPDX-License-Identifier: Apache-2.0
/* The cycle counter the profiler times strands with (weft/profile.h).  In
 * an installed header because the profiler's hooks are inlined into every
 * task (bits/observe.h); the runtime calibrates it to nanoseconds once
 * (src/observe/profile_clock.c).  Not part of the API.
 *
 *   x86-64   rdtsc: the invariant time-stamp counter, the same rate on
 *            every core (constant_tsc); ~20-40 cycles a read
 *   aarch64  cntvct_el0: the generic timer's virtual count
 *   else     clock_gettime(CLOCK_MONOTONIC) in nanoseconds
 *
 * The profiler only ever subtracts two readings taken on one thread, so a
 * counter that differs between cores would still time strands right. */
#ifndef WEFT_BITS_CYCLES_H
#define WEFT_BITS_CYCLES_H

#include <stdint.h>

#if defined(__x86_64__)
#define WEFT_CYCLES_SOURCE "tsc"
static inline uint64_t weft_cycles(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}
#elif defined(__aarch64__)
#define WEFT_CYCLES_SOURCE "cntvct"
static inline uint64_t weft_cycles(void)
{
    uint64_t v;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v));
    return v;
}
#else
#include <time.h>
#define WEFT_CYCLES_SOURCE "clock_gettime"
static inline uint64_t weft_cycles(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

#endif
