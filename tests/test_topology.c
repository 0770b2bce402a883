// SPDX-License-Identifier: Apache-2.0
/* Pinning: with pinning on, each worker runs on one CPU of the process's
 * affinity mask and no two workers share one (while there are enough
 * CPUs); with pinning off, workers keep the whole mask, and so they do by
 * default (-1), whatever the worker count. */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
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

/* pin: the field's value, or 2 to keep what WEFT_PIN (env) gave. */
static void run_env(unsigned workers, int pin, const char *env)
{
    if (env)
        setenv("WEFT_PIN", env, 1);
    weft_config cfg;
    CHECK(weft_config_init(&cfg) == 0, "config");
    unsetenv("WEFT_PIN");
    cfg.workers = workers;
    if (pin != 2)
        cfg.pin = pin;
    CHECK(weft_start_config(&cfg) == 0, "start");
    WEFT_TOGETHER(record_affinity);
    CHECK(weft_stop() == 0, "stop");
}

static void run(unsigned workers, int pin) { run_env(workers, pin, NULL); }

static void check_pinned(unsigned workers, const char *what)
{
    for (unsigned i = 0; i < workers; i++) {
        CHECK(mask_size[i] == 1, "%s: worker %u may run on %d CPUs", what, i, mask_size[i]);
        for (unsigned j = 0; j < i; j++)
            CHECK(cpu_of[i] != cpu_of[j], "%s: workers %u and %u share CPU %d", what, i, j,
                  cpu_of[i]);
    }
}

int main(void)
{
    unsigned cpus = weft__cpus_available();
    run(cpus, 1);
    check_pinned(cpus, "pin on");
    run(cpus, 0);
    for (unsigned i = 0; i < cpus; i++)
        CHECK((unsigned)mask_size[i] == cpus, "unpinned worker %u sees %d CPUs", i, mask_size[i]);
    /* The default leaves every worker to the kernel (it may move them off
     * CPUs that other programs keep busy): as many workers as CPUs, more,
     * and fewer. */
    unsigned counts[] = {cpus, cpus * 3, cpus > 1 ? cpus - 1 : 1};
    for (unsigned c = 0; c < 3; c++) {
        run(counts[c], -1);
        for (unsigned i = 0; i < counts[c]; i++)
            CHECK((unsigned)mask_size[i] == cpus, "default: worker %u of %u pinned on %u CPUs", i,
                  counts[c], cpus);
    }
    /* The environment's words: on pins, auto is the default. */
    run_env(cpus, 2, "on");
    check_pinned(cpus, "WEFT_PIN=on");
    run_env(cpus, 2, "auto");
    for (unsigned i = 0; i < cpus; i++)
        CHECK((unsigned)mask_size[i] == cpus, "WEFT_PIN=auto: worker %u pinned", i);
    printf("ok: pinning on %u CPUs (hwloc: %s)\n", cpus, WEFT_USE_HWLOC ? "yes" : "no");
    return 0;
}
