// SPDX-License-Identifier: Apache-2.0
/* Work stealing with private deques (Acar, Charguéraud and Rainey, PPoPP
 * 2013), the part both variants share: the owner's deque bookkeeping on
 * weft's direct task stack, the SYNC slow path and interrupts.  The
 * variants are ../private-ri/private_ri.c (receiver-initiated, Figure 2 /
 * Figure 8) and ../private-si/private_si.c (sender-initiated, Figure 3);
 * docs/sched-private.md is the design note.
 *
 *     dq ........ top ........ head ........ end
 *     | handed out | private     | empty       |
 *
 * The paper's q[i] is [top, head) (top is own.top): tasks spawned and not
 * synced, of which the oldest, at top, is the one a transfer hands out
 * (pop_top).  They are the owner's alone.  A task below top has been
 * handed to another
 * worker, which runs it in place in our deque and stores DONE (steal.c);
 * the owner's SYNC of it joins it like a stolen task of the split deque
 * (weft__join_stolen: leapfrogging to its receiver, or random stealing).
 */
#include "sched/private-common/private_deque.h"

void weft__sched_init(weft_worker *w)
{
    w->own.top = w->dq;     /* nothing spawned: nothing private */
    w->frame_floor = w->dq; /* the root frame may join anything above */
    weft__priv_variant_init(w);
}

/* The SYNC slow path.  t is the new head.  Returns true if t was handed
 * out and is done (its result is in t), false if the caller runs it. */
bool weft__priv_sync_slow(weft_worker *w, weft_task *t)
{
    weft_sync_slot_check(w, t);

    if (t >= w->own.top) {
        /* Private (ri: a request is pending; si never comes here).
         * Relaxed: our slot; EMPTY keeps weft_current_head's invariant. */
        atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
        weft__priv_settle(w, t);
        return false;
    }
    /* Handed out.  Every slot above t is free (t is the head), so own.top
     * was t + 1: nothing private is left, and none is after the pop. */
    if (weft__priv_take_back(w, t)) {
        w->own.top = t;
        /* Relaxed: the deal is ours again; nobody else saw the slot. */
        atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
        return false;
    }
    weft__join_stolen(w, t);
    WEFT_RACE_POINT(WEFT_RP_OWNER_STOLEN_JOINED);
    weft__priv_after_join(w, t);
    /* Relaxed: the receiver is done with the slot (weft__join_stolen read
     * DONE with acquire). */
    atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
    w->own.top = t;
    return true;
}

/* ========================================================================
 * Interrupts (interrupt.c): an empty frame starts at `frame`; the tasks
 * below stay private to the owner (nobody is handed one) until thaw.
 * ======================================================================== */

void weft__sched_freeze(weft_worker *w, weft_task *frame, weft_sched_saved *saved)
{
    /* A TOGETHER copy's slot (frame - 1) is still EMPTY here; it is not a
     * task of ours (slots below the head are never EMPTY). */
    weft_task *head = frame;
    /* Relaxed: our own slot. */
    if (head > w->own.top &&
        atomic_load_explicit(&head[-1].state, memory_order_relaxed) == WEFT_STATE_EMPTY)
        head--;
    saved->top = (uint32_t)(w->own.top - w->dq);
    saved->head = (uint32_t)(head - w->dq);
    /* Interrupts nest: a task held out of the outer interrupt (received
     * before it) must stay held after a nested one ends. */
    saved->hold = w->cold.hold;
    w->own.top = frame;
    weft__priv_freeze_cells(w, frame, saved);
}

void weft__sched_thaw(weft_worker *w, const weft_sched_saved *saved)
{
    w->own.top = w->dq + saved->top;
    w->cold.hold = saved->hold;
    weft__priv_thaw_cells(w, w->dq + saved->head, saved);
}
