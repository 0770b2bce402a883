// SPDX-License-Identifier: Apache-2.0
/* The process's CPUs (sched_getaffinity) and pinning a thread to one. */
#include "sys/cpu.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

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
    int *list;
    unsigned n;
    if (weft__affinity_cpus(&list, &n) != 0 || n == 0)
        return 1;
    free(list);
    return n;
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
