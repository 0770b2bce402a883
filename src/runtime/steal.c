/* Stealing: victim selection, running a stolen task, and the wait of a
 * SYNC whose task was stolen (Lace Figure 1 with the random-stealing
 * extension of section 4.3).
 *
 * The descriptor's state word carries the hand-over between owner and thief
 * (Wool's TASK / STOLEN(thief) / DONE):
 *   owner SPAWN   state = wrapper              (published via split, release)
 *   thief         reads wrapper, state = STOLEN(thief), runs it, writes the result,
 *                 state = DONE                 (release: the result)
 *   owner SYNC    waits for DONE               (acquire: reads the result)
 */
#include "runtime/internal.h"

weft_worker *weft_random_victim(weft_worker *w)
{
    unsigned n = weft_rt.n_workers;
    if (n < 2)
        return NULL;
    /* Per worker, cheap, good enough to spread thieves. */
    unsigned r = weft_rng_below(&w->rng, n - 1);
    return weft_rt.workers[r >= w->id ? r + 1 : r];
}

/* Runs the task at t, just stolen from victim, on w at head. */
static void run_stolen(weft_worker *w, weft_task *head, weft_worker *victim, weft_task *t,
                       uintptr_t wrapper, bool leap)
{
    weft_task *floor = w->frame_floor; /* a SYNC below head is misuse */
    unsigned together = w->together_depth; /* a stolen task is not our copy */
    w->frame_floor = head;
    w->together_depth = 0;
    WEFT_RACE_POINT(WEFT_RP_STEAL_TAKEN);
    WEFT_TRACE_TASK(w, trace_, leap ? WEFT_TRACE_BY_LEAP : WEFT_TRACE_BY_STEAL, wrapper, victim,
                    NULL);
    WEFT_PROFILE_ROOT(w, profile_);
    weft_run_wrapper(w, head, t, wrapper, "(stolen)");
    WEFT_PROFILE_STOLEN_DONE(w, profile_, victim, t); /* before DONE publishes them */
    WEFT_TRACE_POP(w, trace_);
    w->frame_floor = floor;
    w->together_depth = together;

    /* Release: the result written by the wrapper is visible to the joiner
     * that reads DONE with acquire.  seq_cst: Dekker with a joiner going to
     * sleep (it stores its sleep state, then reads this); we read its
     * state next. */
    WEFT_RACE_POINT(WEFT_RP_BEFORE_DONE);
    atomic_store_explicit(&t->state, WEFT_STATE_DONE, memory_order_seq_cst);
    WEFT_RACE_POINT(WEFT_RP_AFTER_DONE);
    weft_wake_joiner(victim);
}

bool weft_steal_and_run(weft_worker *w, weft_task *head, weft_worker *victim, bool leap)
{
    weft_task *t;
    uintptr_t wrapper;
    weft_steal_result r = weft_sched_steal(w, victim, leap, &t, &wrapper);
    if (r == WEFT_STEAL_OK || r == WEFT_STEAL_OK_MORE) {
        victim = weft_sched_giver(w, victim); /* the owner of t, whose joiner we wake */
        if (leap)
            WEFT_COUNT(w, leaps, 1);
        else
            WEFT_COUNT(w, steals, 1);
        /* More shared work is left: wake another sleeper to take it (the
         * wake-up cascades as long as work is there).  We took the last
         * shared task: if others sleep, ask the victim on their behalf for
         * more, as an awake thief would (sleepers ask only once). */
        if (r == WEFT_STEAL_OK_MORE)
            weft_wake_for_work_of(victim, w);
        else if (weft_sleepers_want_work_from(victim))
            weft_sched_ask_for_sleeper(victim, w);
        run_stolen(w, head, victim, t, wrapper, leap);
        return true;
    }
    WEFT_TRACE_STEAL_FAILED(w);
    if (leap)
        WEFT_COUNT(w, leap_fails, 1);
    else
        WEFT_COUNT(w, steal_fails, 1);
    return false;
}

/* Transitive leapfrogging (Wool): the thief has nothing to steal, so it is
 * probably blocked on a task of its own that someone else stole; steal
 * from that thief's thief, and so on down the chain (bounded: a chain
 * never repeats a worker, but it changes while we walk it). */
static bool leap_along_chain(weft_worker *w, weft_task *head, weft_worker *thief)
{
    weft_worker *v = thief;
    for (unsigned hops = 0; hops < weft_rt.n_workers; hops++) {
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
        if (weft_steal_and_run(w, head, v, true))
            return true;
    }
    return false;
}

/* Figure 1, lines 5-8: t (our deque top) was stolen; until its thief is
 * done, steal from the thief (leapfrogging), then, by policy, from a
 * random worker (Lace's default) or along the chain of thieves (Wool's
 * transitive leapfrogging).  Runs what it steals on top of t, so the deque
 * and stack stay a stack. */
void weft_join_stolen(weft_worker *w, weft_task *t)
{
    weft_task *head = t + 1;
    weft_steal_policy policy = weft_rt.policy;
    bool random_too = policy == WEFT_STEAL_LEAPFROG_RANDOM;
    weft_idle idle;
    weft_idle_reset(&idle);
    /* Relaxed (load and store): only a hint for transitive leapfroggers
     * (leap_along_chain), which validate what they find by stealing. */
    weft_task *outer = atomic_load_explicit(&w->joining, memory_order_relaxed);
    atomic_store_explicit(&w->joining, t, memory_order_relaxed);
    WEFT_TRACE_PUSH(w, trace_, WEFT_TRACE_JOIN);

    for (;;) {
        WEFT_RACE_POINT(WEFT_RP_JOIN_POLL);
        /* Acquire: pairs with the thief's DONE store; the result is then
         * visible to the caller. */
        uintptr_t s = atomic_load_explicit(&t->state, memory_order_acquire);
        if (s == WEFT_STATE_DONE)
            break;
        weft_worker *thief = NULL;
        if (WEFT_STATE_IS_STOLEN(s)) {
            thief = WEFT_STATE_THIEF(s);
            if (weft_steal_and_run(w, head, thief, true)) {
                weft_idle_reset(&idle);
                continue;
            }
            if (random_too) {
                weft_worker *v = weft_random_victim(w);
                if (v && v != thief && weft_steal_and_run(w, head, v, false)) {
                    weft_idle_reset(&idle);
                    continue;
                }
            } else if (policy == WEFT_STEAL_TRANSITIVE && leap_along_chain(w, head, thief)) {
                weft_idle_reset(&idle);
                continue;
            }
        }
        /* else: the thief has won the race but not yet written STOLEN. */

        if (weft_interrupt_waiting_for(w)) {
            weft_interrupt_serve(w, head);
            weft_idle_reset(&idle);
            continue;
        }
        /* A blocked SYNC parks for weft_suspend like a YIELD: the task it
         * waits for may be parked at one. */
        weft_park_if_suspended(w, head);
        if (weft_idle_backoff(&idle)) {
            if (!random_too && thief == NULL) {
                /* A leapfrogging joiner sleeps only once it knows its thief
                 * (whose work it may take); that takes a moment. */
                sched_yield();
                continue;
            }
            /* Transitive joiners sleep like pure leapfroggers: woken by
             * their thief's work or by DONE, not by the rest of the chain. */
            weft_sleep(w, random_too ? WEFT_SLEEP_JOIN : WEFT_SLEEP_JOIN_LEAP, t, thief);
            weft_idle_reset(&idle);
        }
    }
    WEFT_TRACE_POP(w, trace_);
    /* Relaxed: as above; back to the SYNC we were nested in, if any. */
    atomic_store_explicit(&w->joining, outer, memory_order_relaxed);
}

void weft_drop(weft_worker *w, weft_task *t)
{
    /* If private now: not run, dropped; if stolen, it ran: the profiler
     * joins its figures. */
    if (!weft_sched_pop_private(w, t)) {
        WEFT_PROFILE_PAUSE(w);
        bool stolen = weft_sched_sync_slow(w, t);
        WEFT_PROFILE_DROPPED(w, t, stolen);
    }
}
