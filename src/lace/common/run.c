// SPDX-License-Identifier: Apache-2.0
/* Running a Lace task (run.h).  Built into each Lace library. */
#include "lace/common/run.h"

#include "lace/common/suspend.h"

uintptr_t weft__lace_wrapper_of(uintptr_t f, const weft__api_words *words, const char *what,
                                const char *fix)
{
    if (f == 0) {
        weft__speak(words);
        weft__fatal("%s: the task has no f (%s)", what, fix);
    }
    /* Lace 1's SPAWN records the payload's offset in bit 1 of f (lace.h's
     * LACE_F_); a wrapper is 4-byte aligned (WEFT_WRAPPER_ALIGN), so the
     * bit is never part of its address. */
    return f & ~(uintptr_t)2;
}

void weft__lace_run_outside(weft_task *t, uintptr_t wrapper)
{
    bool outside = weft__lace_outside_begin(); /* runs even while suspended, as in Lace */
    weft__run_task_on_worker(t, wrapper);
    weft__lace_outside_end(outside);
}
