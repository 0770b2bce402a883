/* Messages for the user: every one starts with "weft: ". */
#include "runtime/internal.h"

#include <stdlib.h>

static void vreport(const char *fmt, va_list ap)
{
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "weft: %s\n", buf);
    fflush(stderr);
}

void weft_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
}

void weft_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    abort();
}

/* WEFT_CHECKS builds: the SYNC fast path verifies the slot it joins. */
void weft_check_sync(weft_worker *w, weft_task *t, uintptr_t wrapper, const char *name)
{
    if (t < w->frame_floor)
        weft_fatal("SYNC(%s) without a matching SPAWN on worker %u (nothing spawned here)", name,
                   w->id);
    /* Relaxed: our own slot; thieves only change it between non-EMPTY values. */
    uintptr_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
    if (s == WEFT_STATE_EMPTY)
        weft_fatal("SYNC(%s) without a matching SPAWN on worker %u (slot is empty)", name, w->id);
    if (!WEFT_STATE_IS_STOLEN(s) && s != WEFT_STATE_DONE && s != wrapper)
        weft_fatal("SYNC(%s) on worker %u, but the last unmatched SPAWN was of another task", name,
                   w->id);
}

WEFT_NORETURN void weft_deque_overflow(weft_worker *w, weft_task *t)
{
    /* t is where the next task did not fit: the slots below it hold the
     * tasks spawned and not yet synced on this worker (stolen ones too). */
    weft_fatal("task deque overflow on worker %u: %zu tasks spawned and not yet synced fill "
               "its deque of %zu slots, and one more does not fit. Raise the deque size "
               "(weft_start's deque_size or WEFT_DEQUE_SIZE), or sync tasks sooner.",
               w->id, (size_t)(t - w->dq), w->deque_slots);
}

WEFT_NORETURN void weft_unjoined_spawn(weft_worker *w, weft_task *head, const char *name)
{
    weft_fatal("task %s returned on worker %u with a SPAWN not joined (slot %zu): every SPAWN "
               "must be joined with SYNC or DROP before its task returns",
               name, w->id, (size_t)(head - w->dq));
}
