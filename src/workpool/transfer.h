// SPDX-License-Identifier: Apache-2.0
/* Steal-half: requests, transfers, coalescing splits (transfer.c: the
 * protocol).  Not installed. */
#ifndef WEFT_WORKPOOL_TRANSFER_H
#define WEFT_WORKPOOL_TRANSFER_H

#include "workpool/types.h"

void weft__wp_block_requests(wp_worker *w);
void weft__wp_unblock_requests(wp_worker *w);
void weft__wp_serve_request(wp_worker *w);
/* Thief: asks victim v for half its items; true if some arrived (pushed
 * to the thief's own queue). */
bool weft__wp_request_half(wp_worker *w, wp_worker *v);
/* Thief: native steal-half (duplicating queue); true if it got items. */
bool weft__wp_steal_half_native(wp_worker *w, wp_worker *v);
/* Thief: posts a steal-half request to v and waits for the answer; the
 * number of items v put in w->xfer (0: declined or withdrawn). */
size_t weft__wp_request_items(wp_worker *w, wp_worker *v);

static inline void wp_poll_requests(wp_worker *w)
{
    /* Relaxed: a peek; serving claims the request with a CAS. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&w->req, memory_order_relaxed) >= 0))
        weft__wp_serve_request(w);
}

#endif
