// SPDX-License-Identifier: Apache-2.0
/* The split deque's own internals (split_deque.c), shared only with its
 * white-box test (test_split_deque.c).  The rest of the runtime sees the
 * seam of src/runtime/sched.h. */
#ifndef WEFT_SCHED_SPLIT_DEQUE_H
#define WEFT_SCHED_SPLIT_DEQUE_H

#include "runtime/sched.h"          /* what a scheduler implements */
#include "runtime/sched_services.h" /* what it may use of the runtime */

/* (tail, split) packing: tail low, split high. */
#define WEFT_TS(tail, split) (((uint64_t)(uint32_t)(split) << 32) | (uint64_t)(uint32_t)(tail))
#define WEFT_TS_TAIL(ts) ((uint32_t)(ts))
#define WEFT_TS_SPLIT(ts) ((uint32_t)((ts) >> 32))

void weft__split_init(weft_worker *w);
/* Thief side: Figure 4 `steal`.  On success *out is the task, its state
 * still TASK(wrapper) (the caller marks it STOLEN). */
weft_steal_result weft__split_steal(weft_worker *victim, weft_task **out);
bool weft__split_has_shared(weft_worker *victim);
/* A request made for a sleeping worker (seq_cst; see docs/sleep.md). */
void weft__split_ask_for_sleeper(weft_worker *victim);
/* Owner side. */
void weft__split_grow_shared(weft_worker *w, weft_task *head);
bool weft__split_shrink_shared(weft_worker *w, weft_task *head);
void weft__split_pop_stolen(weft_worker *w, weft_task *t);

#endif
