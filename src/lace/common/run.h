// SPDX-License-Identifier: Apache-2.0
/* Running a Lace task, shared by the weft-lace and weft-lace2 libraries:
 * the wrapper a task descriptor names, checked, and RUN from outside the
 * pool. */
#ifndef WEFT_LACE_RUN_H
#define WEFT_LACE_RUN_H

#include "runtime/frontend.h"

#include <stdint.h>

/* Stops the program: `what` (the call that runs a task) was given a task
 * without f; `fix` says how the API's programs build tasks that have one,
 * in the API's `words`. */
void weft__lace_no_wrapper(const weft__api_words *words, const char *what, const char *fix)
    __attribute__((noreturn, cold));

/* The wrapper of a task about to run: `f` is its descriptor's f (0 when
 * the task or its f is NULL).  Inline: Lace clients RUN from inside tasks
 * by the tens of thousands (Sylvan), and the check is two instructions. */
static inline uintptr_t weft__lace_wrapper_of(uintptr_t f, const weft__api_words *words,
                                              const char *what, const char *fix)
{
    if (f == 0)
        weft__lace_no_wrapper(words, what, fix);
    /* Lace 1's SPAWN records the payload's offset in bit 1 of f (lace.h's
     * LACE_F_); a wrapper is 4-byte aligned (WEFT_WRAPPER_ALIGN), so the
     * bit is never part of its address. */
    return f & ~(uintptr_t)2;
}

/* Lace's RUN from outside the pool: t runs on one of the workers' threads,
 * never on the caller's (Lace's RUN hands it to the workers), even while
 * the pool is suspended.  Lace programs keep per-worker state in
 * thread-locals that a TOGETHER sets up on each worker thread, and read
 * them in every task (Sylvan's reference stacks).  The runtime's messages
 * about the call speak as `lace` (the library's words). */
void weft__lace_run_outside(weft_task *t, uintptr_t wrapper, const weft__api_words *lace);

#endif
