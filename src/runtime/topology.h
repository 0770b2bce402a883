// SPDX-License-Identifier: Apache-2.0
/* Where workers run and where their memory lives (topology.c): pinning
 * by the affinity mask, or by hwloc's cores and NUMA nodes with
 * -DWEFT_USE_HWLOC=ON (topology_hwloc.c).  Not installed. */
#ifndef WEFT_RUNTIME_TOPOLOGY_H
#define WEFT_RUNTIME_TOPOLOGY_H

#include <weft/bits/lang.h>

#include <stddef.h>

#include "runtime/frontend.h" /* weft__topology_worker_cpu */

/* At start: plans the workers' placement (pin: 1 pins them; 0 and -1, the
 * default, leave them to the kernel).  0, or an errno value with a
 * message. */
int weft__topology_init(int pin);
/* On a worker's own thread: pins it to its planned CPU, if any. */
void weft__topology_pin_self(unsigned worker);
/* The placement (NUMA node) of a worker's memory, or -1 for anywhere. */
int weft__topology_placement(unsigned worker);
/* Binds [addr, addr + bytes) to a placement's memory. */
void weft__topology_bind_area(void *addr, size_t bytes, int placement);
/* At stop. */
void weft__topology_destroy(void);
/* The CPUs the process may use, read once per start (the cgroups' files
 * are several reads each). */
typedef struct weft__cpu_budget {
    unsigned mask;   /* CPUs in the affinity mask */
    unsigned quota;  /* the cgroups' CPU quota rounded up; 0: none */
    unsigned usable; /* the mask's count, at most the quota: the default
                      * worker count (docs/configuration.md, "Worker count") */
} weft__cpu_budget;
weft__cpu_budget weft__cpu_budget_read(void);
/* weft__cpu_budget_read().usable. */
unsigned weft__default_workers(void);
/* One line, once per process, when `workers` (a count the program chose)
 * is more than budget.usable and WEFT_OVERSUBSCRIBE is not 1: the counts
 * and, under mpirun, the option that lifts the rank's binding.  `who`
 * names the caller (weft_start, the work pool). */
void weft__note_oversubscription(const char *who, unsigned workers, weft__cpu_budget budget);

#endif
