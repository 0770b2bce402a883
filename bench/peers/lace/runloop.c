// SPDX-License-Identifier: Apache-2.0
// A Lace 1.4 program that calls RUN many times in a row from its main
// thread, as a library built on Lace does (Sylvan's operations are RUNs
// from outside the pool): each RUN computes fib(n) with a task per call.
// It prints the total time of the RUNs, their answers, and then the
// process's CPU time over the 10 ms after the last RUN and over the 100 ms
// after that (what idle workers cost: Lace's idle workers steal, weft's
// search briefly and then sleep).
//
//     runloop [-s] [-g <us>] -w <workers> <n> <runs>     (-w 0: Lace's default, one per CPU)
//
// -s: a driver's loop, as programs that use Lace as a library called from
// a sequential main thread run it: the workers suspended between
// operations, each RUN between lace_resume() and lace_suspend().
// -g: a pause of that many microseconds before each RUN (a program that
// calls in now and then: its workers have gone to sleep meanwhile); each
// RUN is timed alone, and the median and 90th percentile are printed too.
//
// It uses Lace 1.4.2's API only, so it builds unchanged against Lace 1.4.2
// and against weft's mode-1.4 package (CMakeLists.txt beside it).
#include "lace.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

TASK_1(long, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    long k = CALL(fib, n - 2);
    long m = SYNC(fib);
    return m + k;
}

static double now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long fib_seq(int n)
{
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        long c = a + b;
        a = b;
        b = c;
    }
    return a;
}

int main(int argc, char **argv)
{
    int workers = 0, c;
    int driver = 0;
    long gap_us = 0;
    while ((c = getopt(argc, argv, "sg:w:")) != -1) {
        if (c == 's') {
            driver = 1;
        } else if (c == 'g') {
            gap_us = atol(optarg);
            if (gap_us < 1 || gap_us > 10 * 1000 * 1000) {
                fprintf(stderr, "runloop: -g takes 1 to 10000000 microseconds\n");
                return 2;
            }
        } else if (c == 'w') {
            workers = atoi(optarg);
        } else {
            fprintf(stderr, "usage: %s [-s] [-g <us>] -w <workers> <n> <runs>\n", argv[0]);
            return 2;
        }
    }
    if (argc - optind != 2 || workers < 0) {
        fprintf(stderr, "usage: %s [-s] [-g <us>] -w <workers> <n> <runs>\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[optind]);
    long runs = atol(argv[optind + 1]);
    if (n < 0 || n > 60 || runs < 1) {
        fprintf(stderr, "runloop: n must be 0..60 and runs >= 1\n");
        return 2;
    }

    double *latency = NULL;
    if (gap_us && !(latency = malloc(sizeof *latency * (size_t)runs))) {
        fprintf(stderr, "runloop: no memory for %ld times\n", runs);
        return 2;
    }

    lace_start(workers, 0);
    long expect = fib_seq(n), wrong = 0, answer = 0;
    if (driver)
        lace_suspend();
    double t0 = now(CLOCK_MONOTONIC);
    double in_runs = 0;
    for (long i = 0; i < runs; i++) {
        double r0 = 0;
        if (gap_us) {
            struct timespec gap = {gap_us / 1000000, gap_us % 1000000 * 1000};
            while (nanosleep(&gap, &gap) != 0) {
            }
            r0 = now(CLOCK_MONOTONIC);
        }
        if (driver)
            lace_resume();
        answer = RUN(fib, n);
        if (driver)
            lace_suspend();
        if (gap_us) {
            latency[i] = now(CLOCK_MONOTONIC) - r0;
            in_runs += latency[i];
        }
        if (answer != expect)
            wrong++;
    }
    double t1 = now(CLOCK_MONOTONIC);
    if (!gap_us)
        in_runs = t1 - t0;

    // The 10 ms after the last RUN: the workers have nothing to do.
    double cpu0 = cpu_seconds(), w0 = now(CLOCK_MONOTONIC);
    struct timespec pause = {0, 10 * 1000 * 1000};
    while (nanosleep(&pause, &pause) != 0) {
    }
    double cpu1 = cpu_seconds(), w1 = now(CLOCK_MONOTONIC);
    // From 10 ms on: what an idle pool costs once it has settled.
    pause = (struct timespec){0, 100 * 1000 * 1000};
    while (nanosleep(&pause, &pause) != 0) {
    }
    double cpu2 = cpu_seconds(), w2 = now(CLOCK_MONOTONIC);

    printf("workers: %u\n", lace_workers());
    printf("runs: %ld of fib(%d) = %ld, wrong answers: %ld\n", runs, n, answer, wrong);
    printf("per RUN: %.3f us\n", in_runs / runs * 1e6);
    if (gap_us) {
        qsort(latency, (size_t)runs, sizeof *latency, compare_doubles);
        printf("RUN after a %ld us pause: median %.3f us, 90th percentile %.3f us\n", gap_us,
               latency[runs / 2] * 1e6, latency[runs * 9 / 10] * 1e6);
        free(latency);
    }
    printf("idle CPU after last RUN: %.3f ms in %.3f ms\n", (cpu1 - cpu0) * 1e3, (w1 - w0) * 1e3);
    printf("idle CPU from 10 ms after last RUN: %.3f ms in %.3f ms\n", (cpu2 - cpu1) * 1e3,
           (w2 - w1) * 1e3);
    printf("Time: %f\n", in_runs);
    if (driver)
        lace_resume();
    lace_stop();
    return wrong ? 1 : 0;
}
