// SPDX-License-Identifier: Apache-2.0
/* Stealing: victim selection and running a stolen task (the wait of a
 * SYNC whose task was stolen is join.c).
 *
 * The descriptor's state word carries the hand-over between owner and thief
 * (Wool's TASK / STOLEN(thief) / DONE):
 *   owner SPAWN   state = wrapper              (shared by the scheduler, release)
 *   thief         reads wrapper, state = STOLEN(thief), runs it, writes the result,
 *                 state = DONE                 (release: the result)
 *   owner SYNC    waits for DONE               (acquire: reads the result)
 */
#include "runtime/steal.h"

#include "observe/hooks.h"
#include "runtime/perturb.h"
#include "runtime/sched.h"
#include "runtime/sleep.h"
#include "runtime/state.h"
#include "sys/rng.h"

weft_worker *weft__random_victim(weft_worker *w)
{
    unsigned n = weft__rt.n_workers;
    if (n < 2)
        return NULL;
    /* Per worker, cheap, good enough to spread thieves. */
    unsigned r = weft_rng_below(&w->rng, n - 1);
    return weft__rt.workers[r >= w->id ? r + 1 : r];
}

/* Runs the task at t, just stolen from victim, on w at head. */
static void run_stolen(weft_worker *w, weft_task *head, weft_worker *victim, weft_task *t,
                       uintptr_t wrapper, bool leap)
{
    weft_task *floor = w->frame_floor;             /* a SYNC below head is misuse */
    weft_task *guard = w->join_guard;              /* copies made in it end with it */
    struct weft_interrupt *together = w->together; /* a stolen task is not our copy */
    uint64_t root = w->root_serial;
    w->frame_floor = head;
    w->root_serial = ++w->roots_begun;
    w->together = NULL;
    WEFT_RACE_POINT(WEFT_RP_STEAL_TAKEN);
    WEFT_OBSERVE_ROOT(w, stolen, leap ? WEFT_TRACE_BY_LEAP : WEFT_TRACE_BY_STEAL, wrapper, victim,
                      NULL);
    weft_run_wrapper(w, head, t, wrapper, "(stolen)");
    weft_stop_if_forked(); /* a forked child has no joiner: its sleep names a thief not there */
    WEFT_OBSERVE_STOLEN_DONE(w, stolen, victim, t); /* before DONE publishes its figures */
    w->frame_floor = floor;
    w->root_serial = root;
    weft_guard_restore(w, guard);
    w->together = together;

    /* Release: the result written by the wrapper is visible to the joiner
     * that reads DONE with acquire.  seq_cst: Dekker with a joiner going to
     * sleep (it stores its sleep state, then reads this); we read its
     * state next. */
    WEFT_RACE_POINT(WEFT_RP_BEFORE_DONE);
    atomic_store_explicit(&t->state, WEFT_STATE_DONE, memory_order_seq_cst);
    WEFT_RACE_POINT(WEFT_RP_AFTER_DONE);
    weft__wake_joiner(victim);
}

bool weft__steal_and_run(weft_worker *w, weft_task *head, weft_worker *victim, bool leap)
{
    weft_task *t;
    uintptr_t wrapper;
    weft_steal_result r = weft__sched_steal(w, victim, leap, &t, &wrapper);
    if (r == WEFT_STEAL_OK || r == WEFT_STEAL_OK_MORE) {
        victim = weft__sched_giver(w, victim); /* the owner of t, whose joiner we wake */
        if (leap)
            WEFT_COUNT(w, leaps, 1);
        else
            WEFT_COUNT(w, steals, 1);
        /* More shared work is left: wake another sleeper to take it (the
         * wake-up cascades as long as work is there).  We took the last
         * shared task: if others sleep, ask the victim on their behalf for
         * more, as an awake thief would (sleepers ask only once). */
        if (r == WEFT_STEAL_OK_MORE)
            weft__wake_for_work_of(victim, w);
        else if (weft__sleepers_want_work_from(victim))
            weft__sched_ask_for_sleeper(victim, w);
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
