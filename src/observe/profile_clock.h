// SPDX-License-Identifier: Apache-2.0
/* The profiler's clocks (profile_clock.c).  Not installed. */
#ifndef WEFT_OBSERVE_PROFILE_CLOCK_H
#define WEFT_OBSERVE_PROFILE_CLOCK_H

#include <stdbool.h>

#include <weft/weft.h>

/* A strand (or a pause) longer than this is checked against the thread's
 * CPU clock: a read costs about 0.7 us on the KVM guests weft is tested
 * on, so at most ~4 % of a strand this long, and a descheduling (a few ms
 * under a loaded CPU's time slices) always makes a strand longer. */
#define LONG_STRAND_NS 20000.0

#if WEFT_PROFILE
/* Cycles per nanosecond from the first calibration (a few milliseconds,
 * once per process): for the burden and the thresholds set at start. */
double weft__profile_calibrated(void);
/* Cycles per nanosecond over the whole time since that calibration: for
 * reports. */
double weft__profile_ticks_per_ns(void);
/* True if p's last CPU clock reading was this thread's (a thread outside
 * the pool may run a RUN as a borrowed worker). */
bool weft__profile_clock_is_this_threads(const weft_profile_worker *p);
#endif

#endif
