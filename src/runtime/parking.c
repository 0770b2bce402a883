// SPDX-License-Identifier: Apache-2.0
/* Parking (parking.h): the backoff before a sleep. */
#include "runtime/parking.h"

#include "sys/clock.h"
#include "sys/cpu.h"

#include <sched.h>

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

/* The calling thread's last yield gave its core to a thread that gave it
 * back soon (WEFT_YIELD_HANDOFF_NS to WEFT_YIELD_CONTENDED_NS): a thread
 * that waits and yields as we do, most likely another worker of ours
 * placed on the same core.  What we wait for is then often that thread's
 * next step, which our hold would only delay: the hold is skipped until a
 * yield says otherwise. */
static __thread bool core_shared_with_waiter;

bool weft__park_hold_or_yield(uint64_t *since_ns, unsigned spin_us, unsigned hold_ns)
{
    uint64_t now = weft_now_ns();
    if (*since_ns == 0)
        *since_ns = now;
    if (now - *since_ns >= (uint64_t)spin_us * 1000u)
        return true;
    if (!core_shared_with_waiter && now - *since_ns < hold_ns) {
        for (unsigned i = 0; i < 32; i++)
            weft_cpu_relax();
        return false;
    }
    /* Give the core to a runnable thread while still looking every round.
     * If one took it (more threads than cores: our own workers, or other
     * programs), looking on only takes time slices from threads with
     * work: park now, and be woken when the wait is over. */
    sched_yield();
    uint64_t took = weft_now_ns() - now;
    core_shared_with_waiter = took > WEFT_YIELD_HANDOFF_NS && took <= WEFT_YIELD_CONTENDED_NS;
    return weft__park_on_contended_yield && took > WEFT_YIELD_CONTENDED_NS;
}
