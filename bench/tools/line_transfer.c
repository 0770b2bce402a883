// SPDX-License-Identifier: Apache-2.0
/* line_transfer: how long one cache line takes to move between the first
 * two CPUs of the affinity mask, in ns per transfer (two threads, one
 * pinned to each, take turns on one word).
 *
 * The clients command runs it around each pair of runs: on a virtual
 * machine the host may move the two CPUs apart and back while a benchmark
 * runs, and a client whose workers share data (Sylvan's tables) then takes
 * several times as long on any runtime.  Prints the ns, or a message and
 * exit 1 when the mask has fewer than two CPUs or a thread cannot be
 * pinned. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { TRANSFERS = 200000 };

/* The word the two threads hand back and forth (even values: the main
 * thread's turn, odd: the other's), padded so that nothing else shares
 * its line. */
static struct {
    _Alignas(64) _Atomic long turn;
    char pad[64 - sizeof(long)];
} line;

/* The other thread's answer before any turn is taken: 1 pinned, 2 not. */
static _Atomic int other_ready;
static int other_cpu;

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int pin(int cpu)
{
    cpu_set_t *set = CPU_ALLOC((size_t)cpu + 1);
    if (!set)
        return ENOMEM;
    size_t bytes = CPU_ALLOC_SIZE((size_t)cpu + 1);
    CPU_ZERO_S(bytes, set);
    CPU_SET_S((size_t)cpu, bytes, set);
    int err = pthread_setaffinity_np(pthread_self(), bytes, set);
    CPU_FREE(set);
    return err;
}

/* Takes the turns of one parity: waits for `mine`, hands over mine + 1. */
static void take_turns(long first)
{
    for (long mine = first; mine < TRANSFERS; mine += 2) {
        /* Acquire/release: order nothing else; the hand-over itself is
         * what is timed (each is one transfer of the line). */
        while (atomic_load_explicit(&line.turn, memory_order_acquire) != mine)
            relax();
        atomic_store_explicit(&line.turn, mine + 1, memory_order_release);
    }
}

static void *other_side(void *unused)
{
    (void)unused;
    int ok = pin(other_cpu) == 0;
    /* Release: publishes the answer; the main thread starts the clock or
     * gives up on it, so a thread left on the main thread's CPU never
     * takes turns. */
    atomic_store_explicit(&other_ready, ok ? 1 : 2, memory_order_release);
    if (ok)
        take_turns(1);
    return NULL;
}

/* The first two CPUs of the affinity mask, sized for any CPU count. */
static int first_two_cpus(int cpus[2])
{
    for (size_t setsize = 1024; setsize <= ((size_t)1 << 20); setsize *= 2) {
        cpu_set_t *mask = CPU_ALLOC(setsize);
        size_t bytes = CPU_ALLOC_SIZE(setsize);
        if (!mask)
            return -1;
        CPU_ZERO_S(bytes, mask);
        if (sched_getaffinity(0, bytes, mask) == 0) {
            int found = 0;
            for (size_t c = 0; c < setsize && found < 2; c++)
                if (CPU_ISSET_S(c, bytes, mask))
                    cpus[found++] = (int)c;
            CPU_FREE(mask);
            return found;
        }
        CPU_FREE(mask);
        if (errno != EINVAL)
            return -1;
    }
    return -1;
}

int main(void)
{
    int cpus[2];
    int found = first_two_cpus(cpus);
    if (found < 0) {
        perror("line_transfer: sched_getaffinity");
        return 1;
    }
    if (found < 2) {
        fprintf(stderr, "line_transfer: the affinity mask has fewer than two CPUs\n");
        return 1;
    }
    if (pin(cpus[0]) != 0) {
        fprintf(stderr, "line_transfer: cannot pin to CPU %d\n", cpus[0]);
        return 1;
    }
    other_cpu = cpus[1];
    pthread_t thread;
    if (pthread_create(&thread, NULL, other_side, NULL) != 0) {
        fprintf(stderr, "line_transfer: cannot start a thread\n");
        return 1;
    }
    int ready;
    /* Acquire: pairs with other_side's answer.  Yields: the new thread
     * starts on this CPU, the only one in its inherited mask. */
    while ((ready = atomic_load_explicit(&other_ready, memory_order_acquire)) == 0)
        sched_yield();
    if (ready != 1) {
        pthread_join(thread, NULL);
        fprintf(stderr, "line_transfer: cannot pin to CPU %d\n", cpus[1]);
        return 1;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    take_turns(0);
    /* Acquire: the other side's last hand-over ends the timed part. */
    while (atomic_load_explicit(&line.turn, memory_order_acquire) != TRANSFERS)
        relax();
    clock_gettime(CLOCK_MONOTONIC, &end);
    pthread_join(thread, NULL);
    double ns = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
    printf("%.1f\n", ns / TRANSFERS);
    return 0;
}
