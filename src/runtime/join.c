// SPDX-License-Identifier: Apache-2.0
/* A SYNC whose task was stolen: wait for the thief, stealing meanwhile
 * (Lace Figure 1 lines 5-8, with the random-stealing extension of section
 * 4.3 and Wool's transitive leapfrogging); and DROP.  The schedulers call
 * weft__join_stolen from their SYNC slow paths (sched_services.h). */
#include "runtime/join.h"

#include <sched.h>

#include "observe/hooks.h"
#include "runtime/fork_join.h"
#include "runtime/interrupt.h"
#include "runtime/perturb.h"
#include "runtime/sleep.h"
#include "runtime/state.h"
#include "runtime/steal.h"

/* Transitive leapfrogging (Wool): the thief has nothing to steal, so it is
 * probably blocked on a task of its own that someone else stole; steal
 * from that thief's thief, and so on down the chain (bounded: a chain
 * never repeats a worker, but it changes while we walk it). */
static bool leap_along_chain(weft_worker *w, weft_task *head, weft_worker *thief)
{
    weft_worker *v = thief;
    for (unsigned hops = 0; hops < weft__rt.n_workers; hops++) {
        /* Relaxed (both): the joining pointer and the task's state only
         * pick a victim (the steal's own protocol orders what it takes); a
         * stale value costs a failed steal.  The descriptor stays mapped
         * (deques live until stop), so a stale pointer is safe to read. */
        weft_task *j = atomic_load_explicit(&v->joining, memory_order_relaxed);
        if (j == NULL)
            return false;
        uintptr_t s = atomic_load_explicit(&j->state, memory_order_relaxed);
        if (!WEFT_STATE_IS_STOLEN(s))
            return false;
        v = WEFT_STATE_THIEF(s);
        if (v == w || v == thief)
            return false;
        if (weft__steal_and_run(w, head, v, true))
            return true;
    }
    return false;
}

/* Figure 1, lines 5-8: t (our deque top) was stolen; until its thief is
 * done, steal from the thief (leapfrogging), then, by policy, from a
 * random worker (Lace's default) or along the chain of thieves (Wool's
 * transitive leapfrogging).  Runs what it steals on top of t, so the deque
 * and stack stay a stack. */
void weft__join_stolen(weft_worker *w, weft_task *t)
{
    weft_task *head = t + 1;
    weft_steal_policy policy = weft__rt.policy;
    bool random_too = policy == WEFT_STEAL_LEAPFROG_RANDOM;
    weft_idle idle;
    weft__idle_reset(&idle);
    /* Relaxed (load and store): only a hint for transitive leapfroggers
     * (leap_along_chain), which validate what they find by stealing. */
    weft_task *outer = atomic_load_explicit(&w->joining, memory_order_relaxed);
    atomic_store_explicit(&w->joining, t, memory_order_relaxed);
    WEFT_TRACE_PUSH(w, trace_, WEFT_TRACE_JOIN);

    for (;;) {
        weft_stop_if_forked();
        WEFT_RACE_POINT(WEFT_RP_JOIN_POLL);
        /* Acquire: pairs with the thief's DONE store; the result is then
         * visible to the caller. */
        uintptr_t s = atomic_load_explicit(&t->state, memory_order_acquire);
        if (s == WEFT_STATE_DONE)
            break;
        weft_worker *thief = NULL;
        if (WEFT_STATE_IS_STOLEN(s)) {
            thief = WEFT_STATE_THIEF(s);
            if (weft__steal_and_run(w, head, thief, true)) {
                weft__idle_reset(&idle);
                continue;
            }
            if (random_too) {
                weft_worker *v = weft__random_victim(w);
                if (v && v != thief && weft__steal_and_run(w, head, v, false)) {
                    weft__idle_reset(&idle);
                    continue;
                }
            } else if (policy == WEFT_STEAL_TRANSITIVE && leap_along_chain(w, head, thief)) {
                weft__idle_reset(&idle);
                continue;
            }
        }
        /* else: the thief has won the race but not yet written STOLEN. */

        if (weft_interrupt_waiting_for(w)) {
            weft__interrupt_serve(w, head);
            weft__idle_reset(&idle);
            continue;
        }
        /* A blocked SYNC parks for weft_suspend like a YIELD: the task it
         * waits for may be parked at one. */
        weft__park_task_if_suspended(w, head);
        if (weft__idle_backoff(&idle)) {
            if (!random_too && thief == NULL) {
                /* A leapfrogging joiner sleeps only once it knows its thief
                 * (whose work it may take); that takes a moment. */
                sched_yield();
                continue;
            }
            /* Transitive joiners sleep like pure leapfroggers: woken by
             * their thief's work or by DONE, not by the rest of the chain. */
            weft__sleep(w, random_too ? WEFT_SLEEP_JOIN : WEFT_SLEEP_JOIN_LEAP, t, thief);
            weft__idle_reset(&idle);
        }
    }
    WEFT_TRACE_POP(w, trace_);
    /* Relaxed: as above; back to the SYNC we were nested in, if any. */
    atomic_store_explicit(&w->joining, outer, memory_order_relaxed);
}

bool weft__drop_as(weft_worker *w, weft_task *t, const char *what)
{
    /* Nothing to drop (below the running frame, or an EMPTY slot): stop
     * with a message before any scheduler's fast path reads the slot (a
     * DROP is a call; the checks cost nothing that matters). */
    weft_sync_slot_check(w, t);
    (void)weft_fj_join_slot_exact(w, t, what);
    /* If private now: not run, dropped; if stolen, it ran: the profiler
     * joins its figures. */
    if (weft_sched_sync_fast(w, t))
        return false;
    WEFT_PROFILE_PAUSE(w);
    bool stolen = weft_sched_sync_slow(w, t);
    WEFT_PROFILE_DROPPED(w, t, stolen);
    return stolen;
}
