// SPDX-License-Identifier: Apache-2.0
/* Stealing from another worker and running what was taken (steal.c), for
 * the runtime and for the two seams that may do it too: the front-ends'
 * (frontend.h) and the schedulers' (sched_services.h).  Base layer, so
 * that both seams can include it.  Not installed. */
#ifndef WEFT_RUNTIME_STEALING_H
#define WEFT_RUNTIME_STEALING_H

#include <weft/weft.h>

#include <stdbool.h>

WEFT_BEGIN_DECLS

/* A random worker other than w, or NULL if w is alone (steal.c). */
weft_worker *weft__random_victim(weft_worker *w);
/* Tries one steal from victim (leap: from the thief of w's blocked SYNC);
 * if it gets a task, runs it at head and returns true (steal.c). */
bool weft__steal_and_run(weft_worker *w, weft_task *head, weft_worker *victim, bool leap);

WEFT_END_DECLS

#endif
