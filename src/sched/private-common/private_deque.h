// SPDX-License-Identifier: Apache-2.0
/* The base both private-deque schedulers build on: the common part
 * (private_deque.c) and what each variant (../private-ri/private_ri.c,
 * ../private-si/private_si.c) provides to it.  Shared only with their
 * white-box test (test_private_deque.c); the rest of the runtime sees the
 * seam of src/runtime/sched.h.  Each variant's state.h gives own.top. */
#ifndef WEFT_SCHED_PRIVATE_DEQUE_H
#define WEFT_SCHED_PRIVATE_DEQUE_H

#include "runtime/sched.h"          /* what a scheduler implements */
#include "runtime/sched_services.h" /* what it may use of the runtime */

/* ---- each variant provides (owner side unless said otherwise) ---- */

void weft__priv_variant_init(weft_worker *w);
/* The private tasks are now [own.top, head): bring the thief-visible state
 * in line (ri: answer a pending request, block or unblock the request
 * cell; si: nothing, deals happen at polls). */
void weft__priv_settle(weft_worker *w, weft_task *head);
/* At the SYNC of t, which was handed out: take it back if its receiver
 * has not started it (si: a deal still in a busy or parked worker's cell;
 * ri: never, a thief waits for its answer). */
bool weft__priv_take_back(weft_worker *w, weft_task *t);
/* Back from waiting for the handed-out task t (DONE, its slot not yet
 * popped): the owner is busy again; work that reached it while it waited
 * runs now, on top of t. */
void weft__priv_after_join(weft_worker *w, weft_task *t);
/* Interrupts: from freeze until thaw no task below `frame` may leave; at
 * thaw the private tasks are [own.top, head) again.  `saved` keeps what
 * the variant needs back at thaw. */
void weft__priv_freeze_cells(weft_worker *w, weft_task *frame, weft_sched_saved *saved);
void weft__priv_thaw_cells(weft_worker *w, weft_task *head, const weft_sched_saved *saved);


#endif
