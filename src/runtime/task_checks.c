// SPDX-License-Identifier: Apache-2.0
/* The checks of task code that the inline paths call out of line
 * (bits/task_macros.h): a SYNC that joins the wrong slot (WEFT_CHECKS
 * builds), a task that returns with a SPAWN not joined. */
#include <weft/weft.h>

#include "runtime/diagnostics.h"

/* WEFT_CHECKS builds: the SYNC fast path verifies the slot it joins. */
void weft__check_sync(weft_worker *w, weft_task *t, uintptr_t wrapper, const char *name)
{
    if (t < w->frame_floor)
        weft__fatal("SYNC(%s) without a matching SPAWN on worker %u (nothing spawned here)", name,
                    w->id);
    /* Relaxed: our own slot; thieves only change it between non-EMPTY values. */
    uintptr_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
    if (s == WEFT_STATE_EMPTY)
        weft__fatal("SYNC(%s) without a matching SPAWN on worker %u (slot is empty)", name, w->id);
    if (!WEFT_STATE_IS_STOLEN(s) && s != WEFT_STATE_DONE && s != wrapper)
        weft__fatal("SYNC(%s) on worker %u, but the last unmatched SPAWN was of another task", name,
                    w->id);
}

WEFT_NORETURN void weft__unjoined_spawn(weft_worker *w, weft_task *head, const char *name)
{
    weft__fatal("task %s returned on worker %u with a SPAWN not joined (slot %zu): every SPAWN "
                "must be joined with SYNC or DROP before its task returns",
                name, w->id, (size_t)(head - w->dq));
}
