// SPDX-License-Identifier: Apache-2.0
/* A hosted pool: the work pool as one part of a larger run, driven by a
 * host thread that is not one of its workers (the distributed layer of
 * src/dist, one host per MPI rank).  Not installed.
 *
 * What changes against weft_pool_run (and nothing else does):
 *   - the workers never end the run: when the idle set fills, the worker
 *     that filled it rings the host's bell, and the host asks
 *     weft__wp_hosted_quiescent whether the pool is quiescent (every worker
 *     idle, every queue and the inbox empty: nothing can be created any
 *     more until the host injects items).  The host ends the run with
 *     weft__wp_hosted_stop when its own protocol says that no item exists
 *     anywhere;
 *   - the host injects items (weft__wp_hosted_inject) into an inbox that idle
 *     workers take from like a victim's queue, and wakes a sleeper;
 *   - the host takes a share of the workers' items (weft__wp_hosted_take_share)
 *     through the path the pool's own thieves use: a steal-half request
 *     answered by the victim between two items, the queue's native
 *     steal-half, or single steals; never by stopping a worker.
 * The checks of a configuration (weft__wp_pool_validate) are config.h's
 * and the injection (weft__wp_hosted_inject) is inbox.h's; this header
 * includes both.  Every function here is for the host thread only.  The
 * argument that injection and quiescence keep termination detection exact
 * is in docs/distributed.md ("The local pool").
 */
#ifndef WEFT_WORKPOOL_HOSTED_H
#define WEFT_WORKPOOL_HOSTED_H

#include "workpool/config.h"
#include "workpool/inbox.h"

#include <weft/bits/lang.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <weft/pool.h>

/* Exported from a shared libweft: the Lace and dist libraries call these. */
WEFT_BEGIN_DECLS

typedef struct wp_pool wp_pool;

/* A pool for *cfg (already validated with weft__wp_pool_validate) holding the
 * n_initial items; its worker threads exist and wait at the start gate.
 * Returns 0, or ENOMEM, ENOBUFS (the items do not fit a fixed-size queue
 * with the FAIL policy) or EAGAIN (threads), with nothing left behind. */
int weft__wp_hosted_create(const weft_pool_config *cfg, weft_pool_fn fn, void *arg,
                           const void *initial, size_t n_initial, wp_pool **out);
/* Opens the start gate: go, or tell the threads to exit and free it all
 * (the pool is gone after weft__wp_hosted_start(p, false)). */
void weft__wp_hosted_start(wp_pool *p, bool go);

/* Takes about half of the fullest queue's items (at most steal_half_max)
 * into out, which holds steal_half_max items of item_size bytes; returns
 * how many (0: nothing to share). */
size_t weft__wp_hosted_take_share(wp_pool *p, void *out);
/* True if the pool is quiescent now (see the top); stays true until the
 * next injection. */
bool weft__wp_hosted_quiescent(wp_pool *p);

/* The bell: its value now, and a wait of at most timeout_ns while it
 * still has that value. */
uint32_t weft__wp_hosted_bell(wp_pool *p);
void weft__wp_hosted_wait(wp_pool *p, uint32_t seen, uint64_t timeout_ns);

/* Ends the run: every worker returns and is joined.  Then the counters
 * (initial: the items the run started with here) and the memory. */
void weft__wp_hosted_stop(wp_pool *p);
void weft__wp_hosted_stats(wp_pool *p, uint64_t initial, weft_pool_stats *out);
void weft__wp_hosted_destroy(wp_pool *p);
WEFT_END_DECLS

#endif
