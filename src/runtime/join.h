// SPDX-License-Identifier: Apache-2.0
/* A SYNC whose task was stolen (join.c), and a SYNC or DROP with nothing
 * to join.  Not installed. */
#ifndef WEFT_RUNTIME_JOIN_H
#define WEFT_RUNTIME_JOIN_H

#include <weft/weft.h>

#include "runtime/diagnostics.h"

/* Figure 1 lines 5-8: t, the top of w's deque, was stolen; waits until its
 * thief is done, stealing (by the steal policy), serving interrupts and
 * parking for weft_suspend meanwhile.  On return t's state is DONE and its
 * result visible. */
void weft__join_stolen(weft_worker *w, weft_task *t);

/* Every scheduler's SYNC slow path, and every DROP, start here: a SYNC or DROP with
 * nothing to join below the running frame, or on an EMPTY slot (joined
 * twice), stops with a message instead of joining someone else's task. */
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
