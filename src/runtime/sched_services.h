// SPDX-License-Identifier: Apache-2.0
/* What the runtime offers a scheduler, and nothing more: the reverse half
 * of the seam (runtime/sched.h is what a scheduler implements for the
 * runtime, include/weft/bits/sched.h its owner-side fast paths).  A
 * scheduler in src/sched/<name>/ includes these two headers and nothing
 * else of the runtime's, and reaches the runtime's state only through the
 * calls below:
 *
 *   the pool's workers   weft__pool_size, weft__pool_worker,
 *                        weft__pool_steal_policy, weft_stop_if_forked
 *   sleepers             weft__wake_for_work, weft__wake_worker,
 *                        weft__sleepers_want_work_from, weft__sleep_wants
 *   joining              weft_sync_slot_check, weft__join_stolen
 *   stealing             weft__random_victim, weft__steal_and_run
 *                        (stealing.h)
 *   misuse               weft__fatal (diagnostics.h)
 *   racy steps           WEFT_RACE_POINT and the points by role (perturb.h)
 *   the machine          the clock, the CPU, random numbers (sys/)
 *
 * It declares; the runtime's modules define (each declaration names its
 * file), and their own headers include this one, so each service has one
 * declaration.  It includes nothing above the base layer, so that those
 * headers' arrows run down (docs/design.md, "The module map").  Not
 * installed. */
#ifndef WEFT_RUNTIME_SCHED_SERVICES_H
#define WEFT_RUNTIME_SCHED_SERVICES_H

#include <weft/weft.h>

#include <stdbool.h>

#include "runtime/diagnostics.h"
#include "runtime/perturb.h"
#include "runtime/stealing.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/rng.h"

/* ---- the pool's workers (state.c) ---- */

/* The running pool's worker count, and its worker `id` (< the count). */
unsigned weft__pool_size(void);
weft_worker *weft__pool_worker(unsigned id);
/* The steal policy the pool was started with. */
weft_steal_policy weft__pool_steal_policy(void);

/* True in a child process that a worker forked (fork() in a task): the
 * child continues the task, but the pool's other threads are gone (and the
 * child's copy of the pool is forgotten: no worker list).  Read where the
 * child would wait for them or serve them (the worker loop, a join of a
 * stolen task, the end of a task it stole, a sleep, the return of a
 * borrowed RUN, a private deque's answer to a thief); weft_stop_if_forked
 * ends it there with a message.  Set by lifecycle.c's fork handler. */
extern bool weft__forked_in_task;
void weft__forked_task_stop(void) __attribute__((noreturn, cold));
static inline void weft_stop_if_forked(void)
{
    if (__builtin_expect(weft__forked_in_task, 0))
        weft__forked_task_stop();
}

/* ---- sleepers (sleep.c; docs/sleep.md) ---- */

/* After making tasks stealable (published seq_cst): wake one sleeper if
 * there is any. */
void weft__wake_for_work(weft_worker *self);
/* After giving v work directly (published seq_cst): wake v if it sleeps. */
void weft__wake_worker(weft_worker *self, weft_worker *v);
/* Is any worker asleep that could take work from owner?  (seq_cst) */
bool weft__sleepers_want_work_from(weft_worker *owner);

/* What a worker going to sleep will take, read by itself from its own
 * sleep word: nothing (it is awake, or lent to a RUN caller), any work,
 * or work from its joined task's thief only (a leapfrogging joiner). */
typedef enum weft_sleep_wants {
    WEFT_WANTS_NOTHING,
    WEFT_WANTS_ANY_WORK,
    WEFT_WANTS_WORK_FROM_THIEF,
} weft_sleep_wants;
weft_sleep_wants weft__sleep_wants(const weft_worker *self);

/* ---- joining (join.c) ---- */

/* Figure 1 lines 5-8: t, the top of w's deque, was stolen; waits until its
 * thief is done, stealing (by the steal policy), serving interrupts and
 * parking for weft_suspend meanwhile.  On return t's state is DONE and its
 * result visible. */
void weft__join_stolen(weft_worker *w, weft_task *t);

/* Every scheduler's SYNC slow path, and every DROP, start here: a SYNC or
 * DROP with nothing to join below the running frame, or on an EMPTY slot
 * (joined twice), stops with a message instead of joining someone else's
 * task. */
static inline void weft_sync_slot_check(weft_worker *w, weft_task *t)
{
    if (WEFT_UNLIKELY(t < w->frame_floor))
        weft__fatal("%s without a matching %s on worker %u (nothing is spawned in this task)",
                    weft__words()->join, weft__words()->spawn, w->id);
    /* Relaxed: our own slot; thieves only change it between non-EMPTY values. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&t->state, memory_order_relaxed) == WEFT_STATE_EMPTY))
        weft__fatal("%s without a matching %s on worker %u (slot %zu is empty: joined twice?)",
                    weft__words()->join, weft__words()->spawn, w->id, (size_t)(t - w->dq));
}

#endif
