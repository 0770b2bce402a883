// SPDX-License-Identifier: Apache-2.0
/* Stealing (steal.c): victim selection and running a stolen task.  Not
 * installed. */
#ifndef WEFT_RUNTIME_STEAL_H
#define WEFT_RUNTIME_STEAL_H

#include <weft/bits/lang.h>

#include <stdbool.h>

#include <weft/weft.h>

/* Exported from a shared libweft: the Lace and dist libraries call these. */
WEFT_BEGIN_DECLS

/* A random worker other than w, or NULL if w is alone. */
weft_worker *weft__random_victim(weft_worker *w);
/* Tries one steal from victim (leap: from the thief of w's blocked SYNC);
 * if it gets a task, runs it at head and returns true. */
bool weft__steal_and_run(weft_worker *w, weft_task *head, weft_worker *victim, bool leap);
WEFT_END_DECLS

#endif
