// SPDX-License-Identifier: Apache-2.0
/* exit() on the main thread while another thread calls weft_stop():
 * stop_race.py runs it with WEFT_PROFILE, WEFT_PROFILE_JSON or WEFT_TRACE
 * at a spread of offsets, and checks that the report is written once and
 * whole every time.
 * Usage: stop_race <offset_us>
 *   offset >= 0  main calls exit offset us after the other thread is
 *                about to call weft_stop
 *   offset < 0   the other thread calls weft_stop -offset us after main
 *                is about to call exit (whose handler may stop first) */
#include <weft/weft.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fib_task.h"

/* Set by the thread that goes first, just before its call. */
static atomic_bool first_goes;
static long offset_us;

static void spin_us(long us)
{
    if (us <= 0)
        return;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

/* The second of the two waits until the first is about to make its call,
 * and offset us more. */
static void after_the_first(long us)
{
    /* Relaxed: a start signal only; weft_stop and exit order what they
     * touch. */
    while (!atomic_load_explicit(&first_goes, memory_order_relaxed)) {
    }
    spin_us(us);
}

static void *stopper(void *arg)
{
    (void)arg;
    if (offset_us < 0) {
        after_the_first(-offset_us);
    } else {
        /* Relaxed: see after_the_first. */
        atomic_store_explicit(&first_goes, true, memory_order_relaxed);
    }
    (void)weft_stop(); /* the process may end inside it */
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    offset_us = strtol(argv[1], NULL, 10);
    if (weft_start(2, 0, 0) != 0)
        return 1;
    if (WEFT_RUN(pfib, 20) != 6765)
        return 1;
    pthread_t t;
    if (pthread_create(&t, NULL, stopper, NULL) != 0)
        return 1;
    pthread_detach(t); /* the process may end with it inside weft_stop */
    if (offset_us >= 0) {
        after_the_first(offset_us);
    } else {
        /* Relaxed: see after_the_first. */
        atomic_store_explicit(&first_goes, true, memory_order_relaxed);
    }
    exit(0);
}
