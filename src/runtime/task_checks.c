// SPDX-License-Identifier: Apache-2.0
/* The checks of task code that the inline paths call out of line
 * (bits/task_macros.h): a SYNC that joins the wrong slot (WEFT_CHECKS
 * builds), a task that returns with a SPAWN not joined. */
#include <weft/weft.h>

#include "runtime/diagnostics.h"

/* WEFT_CHECKS builds: the SYNC fast path verifies the slot it joins. */
void weft__check_sync(weft_worker *w, weft_task *t, uintptr_t wrapper, const char *name)
{
    const weft__api_words *a = weft__words();
    if (t < w->frame_floor)
        weft__fatal("%s%s%s without a matching %s on worker %u (nothing spawned here)", a->sync_pre,
                    name, a->sync_post, a->spawn, w->id);
    /* Relaxed: our own slot; thieves only change it between non-EMPTY values. */
    uintptr_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
    if (s == WEFT_STATE_EMPTY)
        weft__fatal("%s%s%s without a matching %s on worker %u (slot is empty)", a->sync_pre, name,
                    a->sync_post, a->spawn, w->id);
    if (!WEFT_STATE_IS_STOLEN(s) && s != WEFT_STATE_DONE && s != wrapper)
        weft__fatal("%s%s%s on worker %u, but the last unmatched %s was of another task",
                    a->sync_pre, name, a->sync_post, w->id, a->spawn);
}

WEFT_NORETURN void weft__unjoined_spawn(weft_worker *w, weft_task *head, const char *name)
{
    const weft__api_words *a = weft__words();
    weft__fatal("task %s returned on worker %u with a %s not joined (slot %zu): every %s "
                "must be joined with %s before its task returns",
                name, w->id, a->spawn, (size_t)(head - w->dq), a->spawn, a->join);
}
