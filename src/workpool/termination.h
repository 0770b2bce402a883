// SPDX-License-Identifier: Apache-2.0
/* Termination detection: the idle set (termination.c: the argument).
 * Not installed. */
#ifndef WEFT_WORKPOOL_TERMINATION_H
#define WEFT_WORKPOOL_TERMINATION_H

#include "workpool/types.h"

/* Joins the idle set (no work left, queue empty); true if that ended the run. */
bool weft__wp_idle_join(wp_worker *w);
/* A member's look at the set while it searches; true if the run is over. */
bool weft__wp_idle_recheck(wp_worker *w);
/* Leaves the idle set, before a steal attempt. */
void weft__wp_idle_leave(wp_worker *w);
/* The run is over: sets done and wakes every sleeper. */
void weft__wp_finish(wp_pool *p);
/* The idle set is full (value v) and every queue and the inbox are empty,
 * confirmed by a CAS of the idle word: nothing can be created any more
 * until items are injected.  Ends nothing by itself. */
bool weft__wp_quiescent_at(wp_pool *p, uint64_t v);
/* Pushes to the own queue, or on "full" to the overflow stack; a user push
 * with the FAIL policy is refused instead (false). */
bool weft__wp_local_push(wp_worker *w, const uint64_t *item, bool user);

#endif
