// SPDX-License-Identifier: Apache-2.0
/* Load for the profiler's tests: one busy-looping child process per CPU
 * this process may use, each ended by SIGALRM after `seconds` whatever
 * happens to the test, and killed by stop_hogs. */
#ifndef WEFT_TESTS_HOGS_H
#define WEFT_TESTS_HOGS_H

#include "check.h"

#include <sched.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_HOGS 64

static int start_hogs(pid_t *pids, unsigned seconds)
{
    cpu_set_t set;
    int n = 2;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
    if (n > MAX_HOGS)
        n = MAX_HOGS;
    fflush(stdout);
    for (int i = 0; i < n; i++) {
        pids[i] = fork();
        CHECK(pids[i] >= 0, "fork");
        if (pids[i] == 0) {
            alarm(seconds);
            for (volatile unsigned long spin = 0;; spin++) {
            }
        }
    }
    return n;
}

static void stop_hogs(const pid_t *pids, int n)
{
    for (int i = 0; i < n; i++) {
        kill(pids[i], SIGKILL);
        waitpid(pids[i], NULL, 0);
    }
}

#endif
