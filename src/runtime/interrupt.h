// SPDX-License-Identifier: Apache-2.0
/* Stop-the-world operations (interrupt.c): interrupts (TOGETHER,
 * NEWFRAME) and suspension (weft_suspend/weft_resume).  A worker serves
 * either at its interrupt points: the idle loop, a blocked SYNC, a YIELD.
 * Not installed. */
#ifndef WEFT_RUNTIME_INTERRUPT_H
#define WEFT_RUNTIME_INTERRUPT_H

#include <weft/weft.h>

#include "runtime/frontend.h" /* weft__suspend_lazy */

/* Before the workers start (and in a forked child): no interrupt. */
void weft__interrupt_reset(void);
/* Takes part in the pending interrupt, if w has not yet (state.h's
 * weft_interrupt_waiting_for says so), at head. */
void weft__interrupt_serve(weft_worker *w, weft_task *head);

/* If the pool is being suspended, parks the idle worker w at head until
 * resume; not inside an interrupt. */
void weft__park_if_suspended(weft_worker *w, weft_task *head);
/* The same for w inside a task (at a YIELD or a blocked SYNC), for
 * weft_suspend only: a lazy suspension (a front-end's, as Lace's
 * lace_suspend) parks idle workers, and a task runs on to its end (the
 * thread that resumes may be waiting for it). */
void weft__park_task_if_suspended(weft_worker *w, weft_task *head);
/* Wakes parked workers so they re-check (resume, stop, interrupts). */
void weft__unpark_all(void);
/* weft_resume for stop, which holds the control lock. */
int weft__resume_locked(void);

#endif
