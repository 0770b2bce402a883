// SPDX-License-Identifier: Apache-2.0
/* A worker built by hand for the white-box deque tests (no pool running):
 * `slots` task slots, zeroed, wired into a zeroed worker.  The caller then
 * runs its scheduler's init.  Also a wrapper that does nothing, for tasks
 * that are pushed and taken but never run. */
#ifndef WEFT_TESTS_DEQUE_FIXTURE_H
#define WEFT_TESTS_DEQUE_FIXTURE_H

#include <string.h>

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

#endif
