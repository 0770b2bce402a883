/* Internals of the private-deque schedulers: the common part
 * (src/private_deque.c) and what each variant provides to it
 * (src/private_ri.c, src/private_si.c).  Shared only with their white-box
 * test (tests/test_private_deque.c); the rest of the runtime sees the
 * generic thief side in internal.h. */
#ifndef WEFT_PRIVATE_DEQUE_INTERNAL_H
#define WEFT_PRIVATE_DEQUE_INTERNAL_H

#include "internal.h"

#if !(WEFT_SCHED_PRIVATE_RI || WEFT_SCHED_PRIVATE_SI)
#error "private_deque_internal.h: built for another scheduler"
#endif

/* ---- each variant provides (owner side unless said otherwise) ---- */

void weft_priv_variant_init(weft_worker *w);
/* The private tasks are now [o_top, head): bring the thief-visible state
 * in line (ri: answer a pending request, block or unblock the request
 * cell; si: nothing, deals happen at polls). */
void weft_priv_settle(weft_worker *w, weft_task *head);
/* At the SYNC of t, which was handed out: take it back if its receiver
 * has not started it (si: a deal still in a busy or parked worker's cell;
 * ri: never, a thief waits for its answer). */
bool weft_priv_take_back(weft_worker *w, weft_task *t);
/* Back from waiting for the handed-out task t (DONE, its slot not yet
 * popped): the owner is busy again; work that reached it while it waited
 * runs now, on top of t. */
void weft_priv_after_join(weft_worker *w, weft_task *t);
/* Interrupts: from freeze until thaw no task below `frame` may leave; at
 * thaw the private tasks are [o_top, head) again. */
void weft_priv_freeze_cells(weft_worker *w, weft_task *frame);
void weft_priv_thaw_cells(weft_worker *w, weft_task *head);

#if WEFT_SCHED_PRIVATE_SI
/* Parses WEFT_SI_DELTA_US; false (and *us untouched) if malformed. */
bool weft_si_parse_delta_us(const char *s, uint64_t *us);
#define WEFT_SI_DEFAULT_DELTA_US 30u
#define WEFT_SI_MAX_DELTA_US 1000000u
/* Most polls between two clock reads. */
#define WEFT_SI_MAX_BUDGET 1024u
#endif

#endif
