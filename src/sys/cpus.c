// SPDX-License-Identifier: Apache-2.0
/* The process's CPUs (sched_getaffinity) and pinning a thread to one. */
#include "sys/cpu.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

int weft__affinity_cpus(int **out, unsigned *count)
{
    /* The kernel's mask may be larger than glibc's default cpu_set_t:
     * grow the set until sched_getaffinity accepts it. */
    for (int setsize = 1024; setsize <= (1 << 20); setsize *= 2) {
        cpu_set_t *set = CPU_ALLOC(setsize);
        size_t bytes = CPU_ALLOC_SIZE(setsize);
        if (!set)
            return ENOMEM;
        CPU_ZERO_S(bytes, set);
        if (sched_getaffinity(0, bytes, set) == 0) {
            unsigned n = (unsigned)CPU_COUNT_S(bytes, set);
            int *list = malloc((n ? n : 1) * sizeof *list);
            if (!list) {
                CPU_FREE(set);
                return ENOMEM;
            }
            unsigned k = 0;
            for (int c = 0; c < setsize && k < n; c++)
                if (CPU_ISSET_S(c, bytes, set))
                    list[k++] = c;
            CPU_FREE(set);
            *out = list;
            *count = k;
            return 0;
        }
        CPU_FREE(set);
        if (errno != EINVAL)
            return errno;
    }
    return EINVAL;
}

unsigned weft__cpus_available(void)
{
    /* Counted in a set on the stack first (1,024 CPUs): no allocation that
     * could fail and make a count up. */
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    int *list;
    unsigned n;
    if (weft__affinity_cpus(&list, &n) == 0 && n > 0) {
        free(list);
        return n;
    }
    /* No mask could be read: the CPUs online. */
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (unsigned)online : 1;
}

int weft__pin_self_to_cpu(int cpu)
{
    cpu_set_t *set = CPU_ALLOC((unsigned)cpu + 1);
    if (!set)
        return ENOMEM;
    size_t bytes = CPU_ALLOC_SIZE((unsigned)cpu + 1);
    CPU_ZERO_S(bytes, set);
    CPU_SET_S((unsigned)cpu, bytes, set);
    int err = pthread_setaffinity_np(pthread_self(), bytes, set);
    CPU_FREE(set);
    return err;
}
