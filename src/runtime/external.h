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

/* In a child process after fork(), from the runtime's fork handler: a
 * thread holding an adopted worker (weft__adopt_worker) with nothing
 * spawned is outside any task (the adopted thread's own code: Lace's
 * lace_startup made it worker 0), and is a plain thread in the child,
 * whose pool is gone; false if it has tasks spawned (a fork in a task) or
 * adopted none. */
bool weft__adopted_forget_in_child(void);

#endif
