// SPDX-License-Identifier: Apache-2.0
/* Epoch-based reclamation of the shrinking Chase-Lev queue's arrays
 * (ebr.c: the argument).  Not installed. */
#ifndef WEFT_WORKPOOL_EBR_H
#define WEFT_WORKPOOL_EBR_H

#include "workpool/types.h"

void weft__wp_ebr_enter(wp_worker *w); /* thief: before loading the array */
void weft__wp_ebr_exit(wp_worker *w);  /* thief: after the last access */
/* Owner, after unlinking ptr (its store of the new array pointer). */
void weft__wp_ebr_retire(wp_worker *owner, void *ptr);
/* Owner: tries to advance the epoch and frees what is safe. */
void weft__wp_ebr_collect(wp_worker *owner);
/* After the run (no thread left): frees everything retired. */
void weft__wp_ebr_drain(wp_worker *w);

#endif
