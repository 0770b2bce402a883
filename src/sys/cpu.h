// SPDX-License-Identifier: Apache-2.0
/* The CPUs: which ones the process may use, and spin-wait hints.  Not
 * installed. */
#ifndef WEFT_SYS_CPU_H
#define WEFT_SYS_CPU_H

/* A spin-wait hint: lets the sibling hyperthread run, saves power. */
static inline void weft_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Asks for the cache line at p, to be written soon, ahead of the store:
 * a buffer written once in a long while (a trace's ring) is not in this
 * CPU's cache when its owner comes round to it again.  Never faults. */
static inline void weft_prefetch_for_write(const void *p)
{
#if defined(__x86_64__)
    /* PREFETCHW: a no-op on the x86-64 CPUs that lack it. */
    __asm__ __volatile__("prefetchw %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p, 1, 3);
#endif
}

/* The CPUs of the process's affinity mask, in increasing order: *out is a
 * malloc'ed array of *count CPU numbers.  Returns 0 or an errno value. */
int weft__affinity_cpus(int **out, unsigned *count);

/* The number of CPUs in the affinity mask (at least 1; the CPUs online
 * if no mask can be read). */
unsigned weft__cpus_available(void);

/* Pins the calling thread to one CPU; returns 0 or an errno value. */
int weft__pin_self_to_cpu(int cpu);

#endif
