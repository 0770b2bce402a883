/* Messages for the user: every one is a line on stderr that starts with
 * "weft: ". */
#include "runtime/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

/* One write(2) per message: the line is not interleaved with other
 * threads' output, and no stdio lock is taken (a message may come from a
 * signal handler that interrupted stdio, e.g. weft_stop's EDEADLK). */
static void vreport(const char *fmt, va_list ap)
{
    char buf[768];
    int n = snprintf(buf, sizeof buf, "weft: ");
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof buf - 2)
        len = sizeof buf - 2; /* truncated */
    buf[len++] = '\n';
    for (size_t at = 0; at < len;) {
        ssize_t w = write(STDERR_FILENO, buf + at, len - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        at += (size_t)w;
    }
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
