/* Where workers run and where their memory lives.
 *
 * Without hwloc: the CPUs of the process's affinity mask (sched_getaffinity)
 * are the default worker count; when there are no more workers than those
 * CPUs (or pinning is forced), worker i is pinned to the i-th of them, so
 * the kernel's first-touch policy puts its deque and stack pages on its
 * NUMA node.
 *
 * With hwloc (-DWEFT_USE_HWLOC=ON): workers are spread over distinct cores
 * of the allowed set first (one PU each), and each worker's descriptor,
 * deque and stack are bound to the NUMA node(s) of its core.
 */
#include "internal.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#if WEFT_USE_HWLOC
#include <hwloc.h>
#endif

static int *cpus;        /* CPU (or PU os_index) per pin slot */
static unsigned n_cpus;
static bool pinning;

#if WEFT_USE_HWLOC
static hwloc_topology_t topo;
static hwloc_bitmap_t *pu_sets;   /* one PU per slot */
static hwloc_nodeset_t *node_sets;
static unsigned n_slots;
#endif

/* The CPUs this process may run on. */
static int affinity_cpus(int **out, unsigned *count)
{
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

unsigned weft_cpus_available(void)
{
    int *list;
    unsigned n;
    if (affinity_cpus(&list, &n) != 0 || n == 0)
        return 1;
    free(list);
    return n;
}

#if WEFT_USE_HWLOC
static int hwloc_setup(unsigned workers)
{
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0)
        return EINVAL;
    hwloc_bitmap_t allowed = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topo, allowed, HWLOC_CPUBIND_PROCESS) != 0)
        hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(topo));
    /* Slots: first one PU of every allowed core, then the other PUs. */
    unsigned n_pus = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    pu_sets = calloc(n_pus ? n_pus : 1, sizeof *pu_sets);
    node_sets = calloc(n_pus ? n_pus : 1, sizeof *node_sets);
    n_slots = 0;
    for (int round = 0; round < 2; round++) {
        unsigned n_cores = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        for (unsigned c = 0; c < n_cores; c++) {
            hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, c);
            bool first = true;
            hwloc_obj_t pu = NULL;
            while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, core->cpuset,
                                                                   HWLOC_OBJ_PU, pu))) {
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
    pinning = pinning && n_slots > 0;
    (void)workers;
    return 0;
}
#endif

int weft_topology_init(unsigned workers, int pin)
{
    int err = affinity_cpus(&cpus, &n_cpus);
    if (err)
        return err;
    pinning = pin == 1 || (pin == -1 && workers <= n_cpus);
#if WEFT_USE_HWLOC
    if (hwloc_setup(workers) != 0) {
        weft_warn("hwloc could not load the topology; pinning without it");
        n_slots = 0;
    }
#endif
    return 0;
}

void weft_topology_pin_self(unsigned worker)
{
    if (!pinning)
        return;
#if WEFT_USE_HWLOC
    if (n_slots) {
        if (hwloc_set_cpubind(topo, pu_sets[worker % n_slots], HWLOC_CPUBIND_THREAD) != 0)
            weft_warn("worker %u: hwloc could not pin the thread", worker);
        return;
    }
#endif
    if (!n_cpus)
        return;
    int cpu = cpus[worker % n_cpus];
    cpu_set_t *set = CPU_ALLOC((unsigned)cpu + 1);
    size_t bytes = CPU_ALLOC_SIZE((unsigned)cpu + 1);
    CPU_ZERO_S(bytes, set);
    CPU_SET_S((unsigned)cpu, bytes, set);
    int err = pthread_setaffinity_np(pthread_self(), bytes, set);
    CPU_FREE(set);
    if (err)
        weft_warn("worker %u: could not pin to CPU %d", worker, cpu);
}

int weft_topology_worker_cpu(unsigned worker)
{
    if (!pinning)
        return -1;
#if WEFT_USE_HWLOC
    if (n_slots)
        return hwloc_bitmap_first(pu_sets[worker % n_slots]);
#endif
    return n_cpus ? cpus[worker % n_cpus] : -1;
}

int weft_topology_placement(unsigned worker)
{
#if WEFT_USE_HWLOC
    if (n_slots)
        return (int)(worker % n_slots);
#endif
    (void)worker;
    return -1;
}

void weft_topology_bind_area(void *addr, size_t bytes, int slot)
{
#if WEFT_USE_HWLOC
    if (slot >= 0 && n_slots && !hwloc_bitmap_iszero(node_sets[slot]))
        (void)hwloc_set_area_membind(topo, addr, bytes, node_sets[slot], HWLOC_MEMBIND_BIND,
                                     HWLOC_MEMBIND_BYNODESET);
#else
    (void)addr;
    (void)bytes;
    (void)slot;
#endif
}

void weft_topology_destroy(void)
{
#if WEFT_USE_HWLOC
    for (unsigned i = 0; i < n_slots; i++) {
        hwloc_bitmap_free(pu_sets[i]);
        hwloc_bitmap_free(node_sets[i]);
    }
    free(pu_sets);
    free(node_sets);
    pu_sets = NULL;
    node_sets = NULL;
    if (n_slots || topo)
        hwloc_topology_destroy(topo);
    topo = NULL;
    n_slots = 0;
#endif
    free(cpus);
    cpus = NULL;
    n_cpus = 0;
}
