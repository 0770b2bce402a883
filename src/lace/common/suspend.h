// SPDX-License-Identifier: Apache-2.0
/* lace_suspend and lace_resume as Lace has them, shared by the weft-lace
 * and weft-lace2 libraries.
 *
 * Lace keeps a count of resumes less suspends, 1 from lace_start, and parks
 * its workers while the count is 0 or less; a RUN, NEWFRAME or TOGETHER
 * from outside the pool resumes the workers for its task and suspends them
 * again after, so it runs even while the program holds the pool
 * suspended.  Here the parking is weft_suspend, in force while the count
 * is 0 or less and no such call from outside is in progress. */
#ifndef WEFT_LACE_SUSPEND_H
#define WEFT_LACE_SUSPEND_H

#include "runtime/frontend.h"

#include <stdbool.h>

/* lace_start and lace_stop: the count back to 1, nothing parked.  The
 * first also registers the fork handler that gives a child process this
 * state, and the interrupts', as at load. */
void weft__lace_suspend_reset(void);

/* lace_suspend, lace_resume, speaking as `lace` (the library's words). */
void weft__lace_suspend(const weft__api_words *lace);
void weft__lace_resume(const weft__api_words *lace);

/* Around a RUN, NEWFRAME or TOGETHER: called outside the pool, the
 * workers run from begin to end, whatever the count.  begin says whether
 * the call counted itself (not on a worker); end takes that answer. */
bool weft__lace_outside_begin(void);
void weft__lace_outside_end(bool counted);

#endif
