// SPDX-License-Identifier: Apache-2.0
/* RUN from threads that are not workers (external.c).  Not installed. */
#ifndef WEFT_RUNTIME_EXTERNAL_H
#define WEFT_RUNTIME_EXTERNAL_H

#include <stdbool.h>

#include <weft/weft.h>

#include "runtime/frontend.h" /* weft__run_task_on_worker */

/* Before the workers start (and in a forked child): an empty queue. */
void weft__external_init(void);
/* A worker at top level: takes the oldest queued RUN, if any (state.h's
 * weft_external_pending says whether to look), runs it at head and tells
 * its caller.  False if the queue was empty. */
bool weft__external_take_and_run(weft_worker *w, weft_task *head);

#endif
