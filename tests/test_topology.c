// SPDX-License-Identifier: Apache-2.0
/* Pinning: with pinning on, each worker runs on one CPU of the process's
 * affinity mask and no two workers share one (while there are enough
 * CPUs); with pinning off, workers keep the whole mask; auto pins exactly
 * when there are as many workers as CPUs. */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <weft/weft.h>

#include "runtime/state.h"
#include "sys/cpu.h"

static int cpu_of[WEFT_MAX_WORKERS];
static int mask_size[WEFT_MAX_WORKERS];

WEFT_VOID_TASK_0(record_affinity)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CHECK(pthread_getaffinity_np(pthread_self(), sizeof set, &set) == 0, "getaffinity");
    unsigned id = weft_worker_id(weft_w);
    mask_size[id] = CPU_COUNT(&set);
    cpu_of[id] = -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set)) {
            cpu_of[id] = c;
            break;
        }
}

static void run(unsigned workers, int pin)
{
    weft_config cfg;
    CHECK(weft_config_init(&cfg) == 0, "config");
    cfg.workers = workers;
    cfg.pin = pin;
    CHECK(weft_start_config(&cfg) == 0, "start");
    WEFT_TOGETHER(record_affinity);
    CHECK(weft_stop() == 0, "stop");
}

int main(void)
{
    unsigned cpus = weft__cpus_available();
    run(cpus, 1);
    for (unsigned i = 0; i < cpus; i++) {
        CHECK(mask_size[i] == 1, "pinned worker %u may run on %d CPUs", i, mask_size[i]);
        for (unsigned j = 0; j < i; j++)
            CHECK(cpu_of[i] != cpu_of[j], "workers %u and %u share CPU %d", i, j, cpu_of[i]);
    }
    run(cpus, 0);
    for (unsigned i = 0; i < cpus; i++)
        CHECK((unsigned)mask_size[i] == cpus, "unpinned worker %u sees %d CPUs", i, mask_size[i]);
    /* Auto: as many workers as CPUs are pinned, each to its own. */
    run(cpus, -1);
    for (unsigned i = 0; i < cpus; i++) {
        CHECK(mask_size[i] == 1, "auto: worker %u of %u may run on %d CPUs", i, cpus, mask_size[i]);
        for (unsigned j = 0; j < i; j++)
            CHECK(cpu_of[i] != cpu_of[j], "auto: workers %u and %u share CPU %d", i, j, cpu_of[i]);
    }
    /* Auto: more workers than CPUs are not pinned, nor are fewer (the
     * kernel may move them off CPUs that other programs keep busy). */
    run(cpus * 3, -1);
    for (unsigned i = 0; i < cpus * 3; i++)
        CHECK((unsigned)mask_size[i] == cpus, "oversubscribed worker %u pinned", i);
    if (cpus > 1) {
        run(cpus - 1, -1);
        for (unsigned i = 0; i < cpus - 1; i++)
            CHECK((unsigned)mask_size[i] == cpus, "auto: worker %u of %u pinned on %u CPUs", i,
                  cpus - 1, cpus);
    }
    printf("ok: pinning on %u CPUs (hwloc: %s)\n", cpus, WEFT_USE_HWLOC ? "yes" : "no");
    return 0;
}
