// SPDX-License-Identifier: Apache-2.0
/* Where workers run and where their memory lives.
 *
 * The CPUs of the process's affinity mask, at most its cgroups' CPU quota,
 * are the default worker count.
 * By default the kernel places the workers: on a machine shared with other
 * programs it moves a worker off a CPU another program keeps busy, which a
 * pin to a fixed CPU forbids, and a pinned worker then waits behind that
 * program while the others wait for it at their joins
 * (docs/configuration.md, "Pinning", has the measurements).  Asked to pin
 * (WEFT_PIN=on), worker i is pinned to the i-th of those CPUs, so the
 * kernel's first-touch policy puts its deque and stack pages on its NUMA
 * node; with hwloc (topology.h) the pin slots are one PU per core first,
 * and memory is bound to the slot's NUMA node explicitly.
 */
#include "runtime/topology.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include <weft/config.h>

#include "runtime/diagnostics.h"
#include "runtime/env.h"
#include "sys/cgroup.h"
#include "sys/cpu.h"
#include "runtime/topology_hwloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static int *cpus; /* CPU per pin slot, from the affinity mask */
static unsigned n_cpus;
static unsigned n_hwloc; /* hwloc's pin slots (0: not in use) */
static bool pinning;

int weft__topology_init(int pin)
{
    int err = weft__affinity_cpus(&cpus, &n_cpus);
    if (err)
        return err;
    pinning = pin == 1;
    n_hwloc = weft__hwloc_setup();
    if (WEFT_USE_HWLOC && n_hwloc == 0)
        weft__warn("hwloc could not load the topology; pinning without it");
    return 0;
}

void weft__topology_pin_self(unsigned worker)
{
    if (!pinning)
        return;
    if (n_hwloc) {
        if (weft__hwloc_pin_self(worker % n_hwloc) != 0)
            weft__warn("worker %u: hwloc could not pin the thread", worker);
        return;
    }
    if (!n_cpus)
        return;
    int cpu = cpus[worker % n_cpus];
    if (weft__pin_self_to_cpu(cpu) != 0)
        weft__warn("worker %u: could not pin to CPU %d", worker, cpu);
}

int weft__topology_worker_cpu(unsigned worker)
{
    if (!pinning)
        return -1;
    if (n_hwloc)
        return weft__hwloc_cpu(worker % n_hwloc);
    return n_cpus ? cpus[worker % n_cpus] : -1;
}

int weft__topology_placement(unsigned worker) { return n_hwloc ? (int)(worker % n_hwloc) : -1; }

void weft__topology_bind_area(void *addr, size_t bytes, int slot)
{
    if (slot >= 0 && n_hwloc)
        weft__hwloc_bind_area(addr, bytes, (unsigned)slot);
}

void weft__topology_destroy(void)
{
    weft__hwloc_destroy();
    n_hwloc = 0;
    free(cpus);
    cpus = NULL;
    n_cpus = 0;
}

/* ------------------------------------------------------------------------
 * How many workers the CPUs take, and more workers than that
 * ------------------------------------------------------------------------ */

/* A quota of q CPUs lets the group's threads run q CPUs' worth of time in
 * each period and stops them for the rest of it: more workers than that
 * only take turns, and a worker stopped in the middle of a steal or a
 * join holds up the others until the next period. */
static unsigned workers_for(unsigned mask_cpus, unsigned quota)
{
    return quota && quota < mask_cpus ? quota : mask_cpus;
}

weft__cpu_budget weft__cpu_budget_read(void)
{
    weft__cpu_budget b = {.mask = weft__cpus_available(), .quota = weft__cgroup_cpu_limit("")};
    b.usable = workers_for(b.mask, b.quota);
    return b;
}

unsigned weft__default_workers(void) { return weft__cpu_budget_read().usable; }

void weft__note_oversubscription(const char *who, unsigned workers, weft__cpu_budget budget)
{
    static atomic_bool said;
    unsigned mask = budget.mask, quota = budget.quota, cpus = budget.usable;
    if (workers <= cpus)
        return;
    const char *quiet = weft__env_value("WEFT_OVERSUBSCRIBE");
    if (quiet && strcmp(quiet, "1") == 0)
        return;
    if (!quiet && weft__words()->quiet_oversubscription) /* a Lace program: as Lace, silent */
        return;
    /* weft_start has refused any other value (config.c); a work pool,
     * which reads no other variable, says so and prints the line. */
    if (quiet && strcmp(quiet, "0") != 0)
        weft__warn("WEFT_OVERSUBSCRIBE='%s' is not 0 or 1 (taken as 0)", quiet);
    /* Relaxed: only decides which caller prints the one line; it orders
     * nothing else. */
    if (atomic_exchange_explicit(&said, true, memory_order_relaxed))
        return;
    /* The launchers' own variables say that this process is an MPI rank,
     * whose CPU set the launcher may have narrowed (Open MPI binds each
     * rank to a core or a socket when there are few ranks). */
    const char *lift = NULL;
    if (weft__env_value("OMPI_COMM_WORLD_SIZE"))
        lift = "; this MPI rank is bound to them: mpirun --bind-to none lifts the binding";
    else if (weft__env_value("PMI_SIZE") || weft__env_value("PMIX_RANK") ||
             weft__env_value("MV2_COMM_WORLD_SIZE"))
        lift = "; this MPI rank is bound to them: the launcher's option -bind-to none lifts the "
               "binding";
    char quota_note[64] = "";
    if (cpus < mask)
        snprintf(quota_note, sizeof quota_note, ", the cgroup's CPU quota %u", quota);
    weft__warn("%s: %u workers on %u CPU%s (the affinity mask allows %u%s), so they take turns%s "
               "(WEFT_OVERSUBSCRIBE=1 silences this)",
               who, workers, cpus, cpus == 1 ? "" : "s", mask, quota_note, lift ? lift : "");
}
