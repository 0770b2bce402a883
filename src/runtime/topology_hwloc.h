// SPDX-License-Identifier: Apache-2.0
/* The hwloc placement backend for topology.c (topology_hwloc.c).  With -DWEFT_USE_HWLOC=ON,
 * topology_hwloc.c spreads workers over distinct cores first and binds
 * each worker's memory to its NUMA node; without it these are no-ops and
 * topology.c pins by the affinity mask alone.  Not installed. */
#ifndef WEFT_RUNTIME_TOPOLOGY_HWLOC_H
#define WEFT_RUNTIME_TOPOLOGY_HWLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <weft/config.h>

#if WEFT_USE_HWLOC
/* Loads the topology and makes one pin slot per allowed PU (first one PU
 * of every core, then the others).  Returns the number of slots, 0 if
 * hwloc could not load the topology. */
unsigned weft__hwloc_setup(void);
/* Pins the calling thread to slot's PU; 0 or an error. */
int weft__hwloc_pin_self(unsigned slot);
/* The OS index of slot's PU. */
int weft__hwloc_cpu(unsigned slot);
/* Binds [addr, addr + bytes) to slot's NUMA node(s). */
void weft__hwloc_bind_area(void *addr, size_t bytes, unsigned slot);
void weft__hwloc_destroy(void);
#else
static inline unsigned weft__hwloc_setup(void) { return 0; }
static inline int weft__hwloc_pin_self(unsigned slot)
{
    (void)slot;
    return 0;
}
static inline int weft__hwloc_cpu(unsigned slot)
{
    (void)slot;
    return -1;
}
static inline void weft__hwloc_bind_area(void *addr, size_t bytes, unsigned slot)
{
    (void)addr, (void)bytes, (void)slot;
}
static inline void weft__hwloc_destroy(void) {}
#endif

#endif
