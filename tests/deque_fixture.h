// SPDX-License-Identifier: Apache-2.0
/* A worker built by hand for the white-box deque tests (no pool running):
 * `slots` task slots, zeroed, wired into a zeroed worker.  The caller then
 * runs its scheduler's init.  Also a wrapper that does nothing, for tasks
 * that are pushed and taken but never run; a whole steal by a thief, as
 * the runtime makes it, checked; and the counters' values where they are
 * compiled in. */
#ifndef WEFT_TESTS_DEQUE_FIXTURE_H
#define WEFT_TESTS_DEQUE_FIXTURE_H

#include "check.h"

#include <string.h>

#include "runtime/sched.h"
#include "runtime/sched_services.h"
#include "runtime/state.h"

static inline void deque_fixture(weft_worker *storage, weft_task *slots, size_t n)
{
    memset(storage, 0, sizeof *storage);
    memset(slots, 0, (n + 1) * sizeof *slots); /* + 1: room past `end` */
    storage->dq = slots;
    storage->end = slots + n;
    storage->deque_slots = n;
}

static WEFT_WRAPPER_ALIGN WEFT_UNUSED void noop_wrapper(weft_worker *wk, weft_task *head,
                                                        weft_task *t)
{
    (void)wk, (void)head, (void)t;
}

/* A whole steal from `victim` by `thief` (weft__sched_steal), which must
 * return `expect`; a task it takes must be marked STOLEN(thief) and come
 * with a wrapper wrapper_ok accepts, and is marked DONE at once, as a thief
 * would after running it.  Returns the task, or NULL. */
static inline weft_task *deque_steal(weft_worker *thief, weft_worker *victim,
                                     weft_steal_result expect, bool (*wrapper_ok)(uintptr_t))
{
    weft_task *t = NULL;
    uintptr_t wrapper = 0;
    weft_steal_result r = weft__sched_steal(thief, victim, false, &t, &wrapper);
    CHECK(r == expect, "steal returned %d, expected %d", (int)r, (int)expect);
    if (r == WEFT_STEAL_OK || r == WEFT_STEAL_OK_MORE) {
        CHECK(atomic_load(&t->state) == WEFT_STATE_STOLEN(thief), "stolen task is STOLEN(thief)");
        CHECK(wrapper_ok(wrapper), "wrapper handed over: %#lx", (unsigned long)wrapper);
        atomic_store(&t->state, WEFT_STATE_DONE);
    }
    return t;
}

/* A counter's value, or `expect` when counters are compiled out (so the
 * checks of it hold trivially there). */
#if WEFT_STATS
#define COUNTER(worker, field, expect) ((void)(expect), atomic_load(&(worker)->ctr.field))
#else
#define COUNTER(worker, field, expect) ((uint64_t)(expect))
#endif

#endif
