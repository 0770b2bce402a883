/* Where workers run and where their memory lives.
 *
 * The CPUs of the process's affinity mask are the default worker count;
 * when there are no more workers than those CPUs (or pinning is forced),
 * worker i is pinned to the i-th of them, so the kernel's first-touch
 * policy puts its deque and stack pages on its NUMA node.  With hwloc
 * (topology.h) the pin slots are one PU per core first, and memory is
 * bound to the slot's NUMA node explicitly.
 */
#include "runtime/internal.h"
#include "runtime/topology.h"

#include <errno.h>
#include <stdlib.h>

static int *cpus;         /* CPU per pin slot, from the affinity mask */
static unsigned n_cpus;
static unsigned n_hwloc;  /* hwloc's pin slots (0: not in use) */
static bool pinning;

int weft_topology_init(unsigned workers, int pin)
{
    int err = weft_affinity_cpus(&cpus, &n_cpus);
    if (err)
        return err;
    pinning = pin == 1 || (pin == -1 && workers <= n_cpus);
    n_hwloc = weft_hwloc_setup();
    if (WEFT_USE_HWLOC && n_hwloc == 0)
        weft_warn("hwloc could not load the topology; pinning without it");
    return 0;
}

void weft_topology_pin_self(unsigned worker)
{
    if (!pinning)
        return;
    if (n_hwloc) {
        if (weft_hwloc_pin_self(worker % n_hwloc) != 0)
            weft_warn("worker %u: hwloc could not pin the thread", worker);
        return;
    }
    if (!n_cpus)
        return;
    int cpu = cpus[worker % n_cpus];
    if (weft_pin_self_to_cpu(cpu) != 0)
        weft_warn("worker %u: could not pin to CPU %d", worker, cpu);
}

int weft_topology_worker_cpu(unsigned worker)
{
    if (!pinning)
        return -1;
    if (n_hwloc)
        return weft_hwloc_cpu(worker % n_hwloc);
    return n_cpus ? cpus[worker % n_cpus] : -1;
}

int weft_topology_placement(unsigned worker)
{
    return n_hwloc ? (int)(worker % n_hwloc) : -1;
}

void weft_topology_bind_area(void *addr, size_t bytes, int slot)
{
    if (slot >= 0 && n_hwloc)
        weft_hwloc_bind_area(addr, bytes, (unsigned)slot);
}

void weft_topology_destroy(void)
{
    weft_hwloc_destroy();
    n_hwloc = 0;
    free(cpus);
    cpus = NULL;
    n_cpus = 0;
}
