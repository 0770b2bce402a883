// SPDX-License-Identifier: Apache-2.0
/* The direct task stack's own internals (wool_deque.c), shared only with
 * its white-box test (test_wool_deque.c).  The rest of the runtime sees
 * the seam of src/runtime/sched.h. */
#ifndef WEFT_SCHED_WOOL_DEQUE_H
#define WEFT_SCHED_WOOL_DEQUE_H

#include "runtime/sched.h"          /* what a scheduler implements */
#include "runtime/sched_services.h" /* what it may use of the runtime */

void weft__wool_init(weft_worker *w);

/* ---- thief side: Figure 3 `RTS_steal`, in three steps so that the test
 * can interleave the owner between them ---- */
typedef struct weft_wool_attempt {
    weft_task *t; /* the slot at the victim's bot */
    uint32_t b;   /* its index: the value of bot we read */
    uintptr_t s1; /* TASK(wrapper) read there (the paper's s1) */
} weft_wool_attempt;

/* Reads bot, the boundary and the state at bot.  OK_MORE: there is a
 * public task to claim (*a filled in).  NONE: nothing public at bot (if a
 * private task is there, the owner has been asked for more: the trip
 * wire).  BUSY: another thief is taking the task at bot. */
weft_steal_result weft__wool_peek(weft_worker *thief, weft_worker *victim, weft_wool_attempt *a);
/* cas(t->state, s1, STOLEN(thief)); true if it succeeded. */
bool weft__wool_claim(weft_worker *thief, const weft_wool_attempt *a);
/* After a successful claim: the back-off check.  OK / OK_MORE: committed
 * (bot moved past the task; OK_MORE if more public tasks are left).
 * BUSY: backed off (the task was restored, or the owner had taken it). */
weft_steal_result weft__wool_settle(weft_worker *thief, weft_worker *victim,
                                    const weft_wool_attempt *a);

/* ---- owner side ---- */
/* Answers a thief's request: makes about half of the private tasks in
 * [o_public_end, give_end) public and wakes a sleeper. */
void weft__wool_serve(weft_worker *w, weft_task *give_end);

static inline uint32_t weft_wool_index(const weft_worker *w, const weft_task *t)
{
    return (uint32_t)(t - w->dq);
}

#endif
