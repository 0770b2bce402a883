// SPDX-License-Identifier: Apache-2.0
/* hwloc placement (-DWEFT_USE_HWLOC=ON): workers are spread over distinct
 * cores of the allowed set first (one PU each), and each worker's
 * descriptor, deque and stack are bound to the NUMA node(s) of its core.
 * See topology.h. */
#include "runtime/diagnostics.h"
#include "runtime/topology_hwloc.h"

#include <hwloc.h>
#include <stdlib.h>

static hwloc_topology_t topo;
static hwloc_bitmap_t *pu_sets; /* one PU per slot */
static hwloc_nodeset_t *node_sets;
static unsigned n_slots;

unsigned weft__hwloc_setup(void)
{
    n_slots = 0;
    if (hwloc_topology_init(&topo) != 0)
        return 0;
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        topo = NULL;
        return 0;
    }
    hwloc_bitmap_t allowed = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topo, allowed, HWLOC_CPUBIND_PROCESS) != 0)
        hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(topo));
    /* Slots: first one PU of every allowed core, then the other PUs. */
    unsigned n_pus = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    pu_sets = calloc(n_pus ? n_pus : 1, sizeof *pu_sets);
    node_sets = calloc(n_pus ? n_pus : 1, sizeof *node_sets);
    if (!pu_sets || !node_sets) {
        hwloc_bitmap_free(allowed);
        weft__hwloc_destroy();
        return 0;
    }
    for (int round = 0; round < 2; round++) {
        unsigned n_cores = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        for (unsigned c = 0; c < n_cores; c++) {
            hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, c);
            bool first = true;
            hwloc_obj_t pu = NULL;
            while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU,
                                                                  pu))) {
                if (!hwloc_bitmap_isset(allowed, pu->os_index))
                    continue;
                if ((round == 0) == first) {
                    pu_sets[n_slots] = hwloc_bitmap_dup(pu->cpuset);
                    node_sets[n_slots] = hwloc_bitmap_dup(pu->nodeset);
                    n_slots++;
                }
                first = false;
            }
        }
    }
    hwloc_bitmap_free(allowed);
    return n_slots;
}

int weft__hwloc_pin_self(unsigned slot)
{
    return hwloc_set_cpubind(topo, pu_sets[slot], HWLOC_CPUBIND_THREAD);
}

int weft__hwloc_cpu(unsigned slot) { return hwloc_bitmap_first(pu_sets[slot]); }

void weft__hwloc_bind_area(void *addr, size_t bytes, unsigned slot)
{
    if (!hwloc_bitmap_iszero(node_sets[slot]))
        (void)hwloc_set_area_membind(topo, addr, bytes, node_sets[slot], HWLOC_MEMBIND_BIND,
                                     HWLOC_MEMBIND_BYNODESET);
}

void weft__hwloc_destroy(void)
{
    for (unsigned i = 0; i < n_slots; i++) {
        hwloc_bitmap_free(pu_sets[i]);
        hwloc_bitmap_free(node_sets[i]);
    }
    free(pu_sets);
    free(node_sets);
    pu_sets = NULL;
    node_sets = NULL;
    if (topo)
        hwloc_topology_destroy(topo);
    topo = NULL;
    n_slots = 0;
}
