// SPDX-License-Identifier: Apache-2.0
/* Running a Lace task (run.h).  Built into each Lace library. */
#include "lace/common/run.h"

#include "lace/common/suspend.h"

void weft__lace_no_wrapper(const weft__api_words *words, const char *what, const char *fix)
{
    (void)weft__speak_as(words);
    weft__fatal("%s: the task has no f (%s)", what, fix);
}

void weft__lace_run_outside(weft_task *t, uintptr_t wrapper, const weft__api_words *lace)
{
    /* On a worker's thread, even while suspended, as in Lace: the rules
     * lace_start set (suspend.c) bracket it.  This thread waits. */
    const weft__api_words *was = weft__speak_as(lace);
    weft__run_task_on_worker(t, wrapper);
    (void)weft__speak_as(was);
}
