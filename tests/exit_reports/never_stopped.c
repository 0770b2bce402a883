// SPDX-License-Identifier: Apache-2.0
/* A C program that starts the pool and never calls weft_stop; check.sh runs
 * it with WEFT_PROFILE, WEFT_PROFILE_JSON and WEFT_TRACE.
 * Usage: never_stopped return|exit-in-task|exit-beside-run
 *   return           fib(20) by RUN, then main returns
 *   exit-in-task     a task calls exit(0)
 *   exit-beside-run  main calls exit(0) while another thread is inside RUN */
#include <weft/weft.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fib_task.h"

WEFT_VOID_TASK_0(exit_here) { exit(0); }

static atomic_bool inside;

/* Stays in the task until the process ends. */
WEFT_VOID_TASK_0(stay)
{
    /* Relaxed: main only waits to see it; it orders nothing else. */
    atomic_store_explicit(&inside, true, memory_order_relaxed);
    for (;;) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

static void *run_stay(void *arg)
{
    (void)arg;
    WEFT_RUN(stay);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    if (weft_start(2, 0, 0) != 0)
        return 1;
    printf("fib(20) = %ld\n", WEFT_RUN(pfib, 20));
    fflush(stdout);
    if (strcmp(argv[1], "exit-in-task") == 0) {
        WEFT_RUN(exit_here);
    } else if (strcmp(argv[1], "exit-beside-run") == 0) {
        pthread_t t;
        if (pthread_create(&t, NULL, run_stay, NULL) != 0)
            return 1;
        /* Relaxed: see stay. */
        while (!atomic_load_explicit(&inside, memory_order_relaxed)) {
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
        }
        exit(0);
    }
    return 0;
}
