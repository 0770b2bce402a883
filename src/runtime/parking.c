// SPDX-License-Identifier: Apache-2.0
/* Parking (parking.h): the backoff before a sleep. */
#include "runtime/parking.h"

#include "sys/clock.h"
#include "sys/cpu.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

bool weft__park_on_contended_yield = true;

bool weft__park_backoff(unsigned *rounds, uint64_t *since_ns, unsigned spin_us, unsigned hold_ns)
{
    unsigned r = ++*rounds;
    if (r <= 64) {
        /* Short spin, growing to 16 pauses per round: cheap re-tries for
         * work that appears within a microsecond or two. */
        for (unsigned i = 0, n = 1u << (r / 16); i < n * 2; i++)
            weft_cpu_relax();
        return false;
    }
    return weft__park_hold_or_yield(since_ns, spin_us, hold_ns);
}

/* A yield that took longer than this handed the core over (above
 * WEFT_YIELD_HANDOFF_NS where a yield alone costs more: set at each start
 * of a pool with a hold, weft__park_calibrate_yield). */
static _Atomic uint32_t yield_handoff_ns = WEFT_YIELD_HANDOFF_NS;

static int compare_ns(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void weft__park_calibrate_yield(void)
{
    enum { N = 15 };
    uint64_t took[N];
    for (int i = 0; i < N; i++) {
        uint64_t t0 = weft_now_ns();
        sched_yield();
        took[i] = weft_now_ns() - t0;
    }
    qsort(took, N, sizeof took[0], compare_ns);
    /* Four times a yield's usual cost; where that comes near a time slice
     * (a sandbox whose system calls are slow), never. */
    uint64_t ns = 4 * took[N / 2];
    if (ns < WEFT_YIELD_HANDOFF_NS)
        ns = WEFT_YIELD_HANDOFF_NS;
    if (ns > WEFT_YIELD_CONTENDED_NS / 2)
        ns = WEFT_YIELD_CONTENDED_NS;
    /* Relaxed: a threshold; a thread that reads the old one misjudges a
     * yield or two. */
    atomic_store_explicit(&yield_handoff_ns, (uint32_t)ns, memory_order_relaxed);
}

/* The calling thread's last yield gave its core to a thread that gave it
 * back soon (yield_handoff_ns to WEFT_YIELD_CONTENDED_NS): a thread
 * that waits and yields as we do, most likely another worker of ours
 * placed on the same core.  What we wait for is then often that thread's
 * next step, which our hold would only delay: the hold is skipped until a
 * yield says otherwise. */
static __thread bool core_shared_with_waiter;

/* The next hold starts with a yield (weft__park_probe_core). */
static __thread bool probe_core;

void weft__park_probe_core(void) { probe_core = true; }
bool weft__park_probe_pending(void) { return probe_core; }

bool weft__park_hold_or_yield(uint64_t *since_ns, unsigned spin_us, unsigned hold_ns)
{
    uint64_t now = weft_now_ns();
    if (*since_ns == 0)
        *since_ns = now;
    if (now - *since_ns >= (uint64_t)spin_us * 1000u)
        return true;
    if (!core_shared_with_waiter && !probe_core && now - *since_ns < hold_ns) {
        for (unsigned i = 0; i < 32; i++)
            weft_cpu_relax();
        return false;
    }
    /* Give the core to a runnable thread while still looking every round.
     * If one took it (more threads than cores: our own workers, or other
     * programs), looking on only takes time slices from threads with
     * work: park now, and be woken when the wait is over. */
    probe_core = false;
    sched_yield();
    uint64_t took = weft_now_ns() - now;
    /* Relaxed: as in weft__park_calibrate_yield. */
    uint32_t handoff = atomic_load_explicit(&yield_handoff_ns, memory_order_relaxed);
    core_shared_with_waiter = took > handoff && took <= WEFT_YIELD_CONTENDED_NS;
    return weft__park_on_contended_yield && took > WEFT_YIELD_CONTENDED_NS;
}
