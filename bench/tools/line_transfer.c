// SPDX-License-Identifier: Apache-2.0
/* line_transfer: how long one cache line takes to move between the first
 * two CPUs of the affinity mask, in ns per transfer (two threads, one
 * pinned to each, take turns on one word).
 *
 * The clients command runs it before and after each pair of runs: on a
 * virtual machine the host may move the two CPUs apart and back while a
 * benchmark runs, and a client whose workers share data (Sylvan's tables)
 * then takes several times as long on any runtime.  Prints the ns, or a
 * message and exit 1 when the mask has fewer than two CPUs. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { TRANSFERS = 200000 };

/* The word the two threads hand back and forth: even values are the main
 * thread's turn, odd the other's.  Alone on its line. */
static _Alignas(64) _Atomic long turn;

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* Takes the turns of one parity: waits for `mine`, hands over mine + 1. */
static void take_turns(long first)
{
    for (long mine = first; mine < TRANSFERS; mine += 2) {
        /* Acquire/release: each hand-over is one transfer of the line;
         * the orders make the loop a real alternation, not a race. */
        while (atomic_load_explicit(&turn, memory_order_acquire) != mine)
            ;
        atomic_store_explicit(&turn, mine + 1, memory_order_release);
    }
}

static int other_cpu;

static void *other_side(void *unused)
{
    (void)unused;
    /* Unpinned, it still takes its turns, so the main thread never waits
     * for turns nobody takes; the run is reported as failed. */
    int unpinned = pin(other_cpu) != 0;
    take_turns(1);
    return unpinned ? (void *)1 : NULL;
}

int main(void)
{
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) {
        perror("line_transfer: sched_getaffinity");
        return 1;
    }
    int cpus[2], found = 0;
    for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
        if (CPU_ISSET(c, &mask))
            cpus[found++] = c;
    if (found < 2) {
        fprintf(stderr, "line_transfer: the affinity mask has fewer than two CPUs\n");
        return 1;
    }
    other_cpu = cpus[1];
    if (pin(cpus[0]) != 0) {
        fprintf(stderr, "line_transfer: cannot pin to CPU %d\n", cpus[0]);
        return 1;
    }
    pthread_t thread;
    if (pthread_create(&thread, NULL, other_side, NULL) != 0) {
        fprintf(stderr, "line_transfer: cannot start a thread\n");
        return 1;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    take_turns(0);
    /* Acquire: the other side's last hand-over ends the timed part. */
    while (atomic_load_explicit(&turn, memory_order_acquire) != TRANSFERS)
        ;
    clock_gettime(CLOCK_MONOTONIC, &end);
    void *failed;
    pthread_join(thread, &failed);
    if (failed) {
        fprintf(stderr, "line_transfer: cannot pin to CPU %d\n", other_cpu);
        return 1;
    }
    double ns = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
    printf("%.1f\n", ns / TRANSFERS);
    return 0;
}
