// SPDX-License-Identifier: Apache-2.0
/* Running a Lace task, shared by the weft-lace and weft-lace2 libraries:
 * the wrapper a task descriptor names, checked, and RUN from outside the
 * pool. */
#ifndef WEFT_LACE_RUN_H
#define WEFT_LACE_RUN_H

#include "runtime/frontend.h"

#include <stdint.h>

/* The wrapper of a task about to run: `f` is its descriptor's f (0 when
 * the task or its f is NULL), `what` the call that runs it, `fix` how the
 * API's programs build tasks that have one.  A task without one stops the
 * program with a message in the API's `words`. */
uintptr_t weft__lace_wrapper_of(uintptr_t f, const weft__api_words *words, const char *what,
                                const char *fix);

/* Lace's RUN from outside the pool: t runs on one of the workers' threads,
 * never on the caller's (Lace's RUN hands it to the workers), even while
 * the pool is suspended.  Lace programs keep per-worker state in
 * thread-locals that a TOGETHER sets up on each worker thread, and read
 * them in every task (Sylvan's reference stacks). */
void weft__lace_run_outside(weft_task *t, uintptr_t wrapper);

#endif
