// SPDX-License-Identifier: Apache-2.0
/* Parking: how a thread with nothing to do sleeps on a futex word without
 * a lost wake-up, and how another thread ends that sleep.  The one sleep
 * protocol of weft: the fork-join runtime's idle workers and joiners
 * (sleep.c) and the work pool's idle workers (src/workpool/loop.c,
 * termination.c) park through it.  Not installed.  Model:
 * verification/park.pml.
 *
 * Each sleeper has a sleep word (its futex word: `awake`, or an `asleep`
 * value of the caller's choosing) and is counted in a sleeper count
 * between its announcement and the end of its sleep.
 *
 *   sleeper                                  waker
 *   weft__park_announce: word = asleep,      publishes its reason to wake
 *     count + 1, seq_cst fence F_S           (work, done, ...);
 *   the caller's last look: anything         weft__park_publish_fence:
 *     to do?  (after F_S; caller code)         seq_cst fence F_W;
 *   yes: weft__park_withdraw (CAS the        reads the count and, if not 0,
 *     word back; fails if claimed)           the sleep words;
 *   no:  weft__park_wait until the word      weft__park_claim: CAS an asleep
 *     is the claim's value                   word to its woken value, then
 *                                            weft__park_wake (futex_wake)
 *
 * F_S and F_W are ordered in the single total order of seq_cst fences: if
 * F_W comes first, the last look sees what the waker published; if F_S
 * comes first, the waker sees the word and the count.  So either the
 * sleeper does not sleep or it is claimed.  futex_wait compares the word,
 * so a claim that lands before the sleeper blocks makes it return at once,
 * and every claim and withdrawal is a CAS, so each sleep ends exactly once.
 *
 * Who takes a sleeper out of the count (weft__park_uncount) is the caller's
 * rule, one of two, both checked by the model:
 *   - whoever ended the sleep by CAS (a claim, or the withdrawal): the
 *     fork-join runtime, whose count depends on the kind of sleep the word
 *     names, and whose lending of an idle worker takes it out too;
 *   - the sleeper itself when its sleep is over: the work pool, whose
 *     count then never drops below the workers between announce and
 *     uncount (docs/pool-design.md).
 */
#ifndef WEFT_RUNTIME_PARKING_H
#define WEFT_RUNTIME_PARKING_H

#include "sys/futex.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Sleeper, first step: its word says `asleep`, it is counted, and its
 * fence F_S orders both before the caller's last look, whatever orders the
 * last look's reads have. */
static inline void weft__park_announce(_Atomic uint32_t *word, uint32_t asleep,
                                       _Atomic uint32_t *count)
{
    /* seq_cst: the sleeper's "write mine" against a waker's peek at the
     * word (relaxed after F_W, or seq_cst). */
    atomic_store_explicit(word, asleep, memory_order_seq_cst);
    /* seq_cst: as above for the count; release also publishes the word to
     * a waker that reads this increment and then fences with acquire. */
    atomic_fetch_add_explicit(count, 1, memory_order_seq_cst);
    /* seq_cst fence F_S: the sleeper's half of every Dekker pair with a
     * waker's F_W (or its seq_cst write of the reason). */
    atomic_thread_fence(memory_order_seq_cst);
}

/* Sleeper whose last look found something: ends its own sleep, unless a
 * waker claimed it first (then it returns false, and the claimer's
 * futex_wake finds nobody). */
static inline bool weft__park_withdraw(_Atomic uint32_t *word, uint32_t asleep, uint32_t woken)
{
    /* acq_rel: the same claim a waker makes, so exactly one CAS ends the
     * sleep; acquire on failure: the claimer's published work. */
    return atomic_compare_exchange_strong_explicit(word, &asleep, woken, memory_order_acq_rel,
                                                   memory_order_acquire);
}

/* Sleeper whose last look found nothing: waits until the word is `woken`
 * (a claim's value); the word may pass through other values meanwhile. */
static inline void weft__park_wait(_Atomic uint32_t *word, uint32_t woken)
{
    for (;;) {
        /* Acquire: pairs with the claim's release: the waker's work. */
        uint32_t s = atomic_load_explicit(word, memory_order_acquire);
        if (s == woken)
            return;
        weft__futex_wait(word, s);
    }
}

/* Waker, after publishing its reason: F_W, the waker's half of the Dekker
 * pair with weft__park_announce's F_S.  Its reads of counts and words
 * that follow may be relaxed. */
static inline void weft__park_publish_fence(void)
{
    /* seq_cst fence F_W: orders the published reason before the reads of
     * the sleeper counts and words. */
    atomic_thread_fence(memory_order_seq_cst);
}

/* Waker: ends the sleep whose word is *seen by a CAS to `woken`; true if
 * this call did.  On failure *seen is the word now (claimed by another,
 * withdrawn, or changed by the caller's own protocol).  The caller then
 * uncounts (by its rule) and wakes. */
static inline bool weft__park_claim(_Atomic uint32_t *word, uint32_t *seen, uint32_t woken)
{
    /* acq_rel: one claimer per sleep; release orders the waker's published
     * work before the sleeper's wake-up, acquire the sleeper's state
     * before ours.  Failure relaxed: a peek, the caller decides again. */
    return atomic_compare_exchange_strong_explicit(word, seen, woken, memory_order_acq_rel,
                                                   memory_order_relaxed);
}

/* Waker, after a successful claim: wakes up to n threads blocked on the
 * word (INT_MAX: all). */
static inline void weft__park_wake(_Atomic uint32_t *word, int n) { weft__futex_wake(word, n); }

/* Takes one sleeper out of a count (by the caller's rule, see above). */
static inline void weft__park_uncount(_Atomic uint32_t *count)
{
    /* Relaxed: a count; the CAS on the word decided who ended the sleep. */
    atomic_fetch_sub_explicit(count, 1, memory_order_relaxed);
}

/* Before parking: spin (pauses, growing), keep spinning until hold_ns
 * have passed (unless this thread's last yield handed the core to another
 * waiter that soon gave it back), then give the core away (sched_yield) until spin_us
 * microseconds have passed since the search began, or until a yield shows
 * the core is wanted (it took longer than WEFT_YIELD_CONTENDED_NS: another
 * thread ran meanwhile); true when the caller should park.  *rounds and
 * *since_ns are the caller's state, both 0 to start over (after it found
 * work or woke). */
bool weft__park_backoff(unsigned *rounds, uint64_t *since_ns, unsigned spin_us, unsigned hold_ns);
/* weft__park_backoff after its short spin, for a caller that spun its own
 * way first: hold, yield, and true when the caller should park. */
bool weft__park_hold_or_yield(uint64_t *since_ns, unsigned spin_us, unsigned hold_ns);
/* The calling thread's next hold begins with a yield, timed like the
 * others: for a thread woken on the CPU of the thread that woke it, which
 * it took over (a thread back from a long sleep preempts) before the
 * waker, runnable beside it, went on with the work it woke us for (a
 * worker finishing the task it spawned; a RUN's caller waiting for its
 * result) or went to sleep itself.  Holding the core would keep the waker
 * from that work for the whole hold; the yield comes back at once if
 * nothing else wants the core, and the hold goes on.  pending: whether
 * the next hold will (a test's question). */
void weft__park_probe_core(void);
bool weft__park_probe_pending(void);
/* An idle worker of a pool no larger than its CPUs keeps its core this
 * long before it yields: work that comes back within it (the next RUN of
 * a program that calls RUN in a loop, the next level of a search) finds
 * the worker running, even on a core that another program shares, where a
 * yield would hand the rest of the time slice away. */
#define WEFT_IDLE_HOLD_NS 50000u
/* A yield that returns after this long gave the core to another runnable
 * thread for a time slice: on a quiet core it returns within about a
 * microsecond, beside a busy thread after milliseconds. */
#define WEFT_YIELD_CONTENDED_NS 100000u
/* A yield that returns after more than this, but no later than the above,
 * gave the core to a thread that soon yielded it back (another waiter on
 * the same core: parking.c skips the hold then).  A yield on a core
 * nothing else wants returned within 3 µs in all but 0.02 % of 400,000
 * on the 2-CPU test host.  The least: where a yield alone costs more,
 * weft__park_calibrate_yield raises it. */
#define WEFT_YIELD_HANDOFF_NS 3000u
/* Times a few yields of the calling thread and sets the hand-off
 * threshold from them (lifecycle.c, at a pool's start). */
void weft__park_calibrate_yield(void);
/* Whether a contended yield ends the search (true).  A test seam: a test
 * whose scenario needs idle workers searching for their whole spin_us on
 * fewer CPUs than workers (test_races's racing thieves) clears it while no
 * pool runs, and sets it again after. */
extern bool weft__park_on_contended_yield;
/* The longest spin_us either pool accepts (10 s). */
#define WEFT_MAX_SPIN_US 10000000u

#endif
