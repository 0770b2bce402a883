// SPDX-License-Identifier: Apache-2.0
/* Starting and stopping the pool as Lace does, shared by the weft-lace
 * and weft-lace2 libraries: the sizes lace_start takes, as weft_start
 * wants them, and lace_stop.  Lace accepts any deque size and any stack
 * size (pthread_attr_setstacksize ignores one below the system's minimum),
 * so neither is refused for being small. */
#ifndef WEFT_LACE_LIFECYCLE_H
#define WEFT_LACE_LIFECYCLE_H

#include <weft/weft.h>

#include "runtime/diagnostics.h"
#include "runtime/memory.h"
#include "runtime/state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Lace's deque of dqsize slots holds dqsize tasks; the split deque keeps
 * its last slot free (src/sched/split/owner.h), so it gets one more. */
#if defined(WEFT_SCHED_SPLIT)
#define WEFT_LACE_DEQUE_SLACK 1
#else
#define WEFT_LACE_DEQUE_SLACK 0
#endif

/* The deque size for weft_start: dqsize tasks fit, and a size below
 * weft's minimum is raised to it.  0 (weft's default) and a size weft
 * refuses anyway (with a message naming it) pass unchanged. */
static inline size_t weft__lace_deque_slots(size_t dqsize)
{
    if (dqsize == 0 || dqsize > WEFT_MAX_DEQUE_SLOTS - WEFT_LACE_DEQUE_SLACK)
        return dqsize;
    dqsize += WEFT_LACE_DEQUE_SLACK;
    return dqsize < WEFT_MIN_DEQUE_SLOTS ? WEFT_MIN_DEQUE_SLOTS : dqsize;
}

/* The stack size for weft_start: one below weft's minimum is raised to it;
 * 0 (weft's default) and one above weft's maximum (refused with a
 * message) pass unchanged. */
static inline size_t weft__lace_stack_size(size_t stacksize)
{
    return stacksize != 0 && stacksize < WEFT_MIN_STACK_SIZE ? WEFT_MIN_STACK_SIZE : stacksize;
}

/* The C library's rand() after lace_start, as on Lace: each Lace worker
 * seeds its generator with two rand() draws as its thread starts (Lace
 * 1.4.2, 1.6 and 2.0.3's lace_init_worker), so that srand(s) and then
 * lace_start(n, ...) leave rand() 2n numbers further on.  weft's workers
 * seed their own generators; the draws are made here, for the `workers`
 * lace_start started, on the caller's thread before lace_start returns
 * (Lace's, on the workers' threads, may come after; the caller's own next
 * rand() then races with them).  docs/lace.md, "lace_start and rand()". */
static inline void weft__lace_skip_seed_draws(unsigned workers)
{
    for (unsigned i = 0; i < 2 * workers; i++)
        (void)rand();
}

/* lace_stop: Lace's has no way to fail, so where it would wait for itself
 * (from a task) it stops the program; a pool that is not running is only
 * reported (weft_stop explains each).  Says so when `verbose`. */
static inline void weft__lace_stop(int verbose)
{
    if (weft_self() != NULL)
        weft__fatal("lace_stop called from inside a task: it would wait for itself (call it "
                    "where lace_start was called)");
    int err = weft_stop();
    if (err == EDEADLK)
        weft__fatal("lace_stop: the pool cannot stop from here (the message above says why)");
    if (err == 0 && verbose)
        fprintf(stderr, "lace: stopped\n");
}

#endif
