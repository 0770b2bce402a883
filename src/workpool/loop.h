// SPDX-License-Identifier: Apache-2.0
/* The worker loop (loop.c) and the calling thread's worker.  Not
 * installed. */
#ifndef WEFT_WORKPOOL_LOOP_H
#define WEFT_WORKPOOL_LOOP_H

#include "workpool/types.h"
#include "sys/tls.h" /* WEFT__TLS_MODEL */

/* Runs worker w until the run is over (or cancelled). */
void weft__wp_worker_loop(wp_worker *w);

/* The calling thread's worker (NULL outside a pool's process function). */
extern __thread wp_worker *weft__wp_tls WEFT__TLS_MODEL;

#endif
