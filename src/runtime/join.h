// SPDX-License-Identifier: Apache-2.0
/* A SYNC whose task was stolen (join.c).  Not installed. */
#ifndef WEFT_RUNTIME_JOIN_H
#define WEFT_RUNTIME_JOIN_H

#include <weft/weft.h>

/* Figure 1 lines 5-8: t, the top of w's deque, was stolen; waits until its
 * thief is done, stealing (by the steal policy), serving interrupts and
 * parking for weft_suspend meanwhile.  On return t's state is DONE and its
 * result visible. */
void weft__join_stolen(weft_worker *w, weft_task *t);

#endif
