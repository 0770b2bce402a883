// SPDX-License-Identifier: Apache-2.0
/* NEWFRAME and TOGETHER as Lace's APIs show them, shared by the weft-lace
 * and weft-lace2 libraries: the interrupts started through the API that
 * are pending or running, the newest of which the API's lace_newframe.t
 * shows, and lace_yield's wait for the one a task saw there.
 *
 * Lace sets lace_newframe.t when an interrupt is asked for and clears it
 * when it is over, and its lace_yield returns only after the caller took
 * part.  weft shows the task before the runtime publishes the interrupt
 * (which may first wait for another interrupt to let go), so a task that
 * saw it and yields at once could find nothing to join: the wait below
 * keeps Lace's promise.  Each API's docs page says how its programs see
 * this (docs/lace.md, docs/lace2.md). */
#ifndef WEFT_LACE_INTERRUPTS_H
#define WEFT_LACE_INTERRUPTS_H

#include <weft/weft.h>

#include "runtime/frontend.h"

#include <stdbool.h>
#include <stdint.h>

/* Publishes `top`, the newest interrupt pending (NULL: none), where the
 * API's programs look (its lace_newframe.t); `started` says that `top` was
 * just added.  Called with the list's lock held, so calls are in order. */
typedef void weft_lace_show_fn(void *top, bool started);

/* Runs t, whose wrapper is `wrapper`, as a NEWFRAME (together false) or a
 * TOGETHER, shown through `show` from before the runtime publishes it until
 * it is over; from outside the pool, speaking as `lace` (the library's
 * words). */
void weft__lace_interrupt(weft_task *t, uintptr_t wrapper, bool together, weft_lace_show_fn *show,
                          const weft__api_words *lace);

/* lace_yield on worker w at `head`, after the caller loaded `shown` from
 * the API's lace_newframe.t with an acquire load: joins what is published,
 * and if `shown` is an interrupt still pending, keeps serving interrupts
 * until it is over.  Inside an interrupt it does not wait (the one it
 * would wait for may be its own). */
void weft__lace_yield_until_over(weft_worker *w, weft_task *head, const void *shown);

/* In a child process after fork(): no interrupt pending, the lock free. */
void weft__lace_interrupts_forget_in_child(void);

#endif
