// SPDX-License-Identifier: Apache-2.0
/* RUN from threads that are not workers (external.c).  Not installed. */
#ifndef WEFT_RUNTIME_EXTERNAL_H
#define WEFT_RUNTIME_EXTERNAL_H

#include <stdbool.h>

#include <weft/weft.h>

#include "runtime/frontend.h" /* weft__run_task_on_worker */

/* Before the workers start (and in a forked child): an empty queue
 * (external_queue.h, where the workers take from it). */
void weft__external_init(void);

#endif
