// SPDX-License-Identifier: Apache-2.0
/* A worker's own queue and overflow stack, as its owner pushes to them
 * (own_queue.c).  Not installed. */
#ifndef WEFT_WORKPOOL_OWN_QUEUE_H
#define WEFT_WORKPOOL_OWN_QUEUE_H

#include "workpool/types.h"

/* Pushes to the own queue, or on "full" to the overflow stack; a user push
 * with the FAIL policy is refused instead (false). */
bool weft__wp_local_push(wp_worker *w, const uint64_t *item, bool user);

#endif
