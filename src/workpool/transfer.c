// SPDX-License-Identifier: Apache-2.0
/* Steal-half and task coalescing (Acar, Charguéraud, Rainey, "Scheduling
 * parallel programs by work stealing with private deques", PPoPP'13,
 * section 5), on top of the concurrent queues.
 *
 * A concurrent deque cannot hand over half its items in one step without a
 * new algorithm (Hendler and Shavit's needs logarithmically many CASes and a
 * fixed size), so weft uses the private-deque protocol for the transfer
 * (their receiver-initiated algorithm, Figure 2) and lets the victim carve
 * the items out of its own queue, which it may do cheaply because it owns
 * one end:
 *   - every worker has a request cell `req` (WP_REQ_NONE, WP_REQ_BLOCKED
 *     while it is idle, or a thief's id) and an answer cell `resp` with a
 *     buffer;
 *   - a thief that sees a victim with at least two items (or one, when a
 *     split function is set) resets its answer cell, CASes its id into the
 *     victim's request cell (release) and waits;
 *   - the victim polls its request cell after every item (one relaxed load)
 *     and answers: half of its queue (the `carve` operation: one CAS of top
 *     for ABP and Chase-Lev, of the anchor for the idempotent deque, owner
 *     takes for the one-ended idempotent queues), or, with a single item and
 *     a split function, the part the split cuts off it (coalescing), or half
 *     its overflow stack, or nothing; it writes the items into the thief's
 *     buffer and then the answer, with release;
 *   - a worker that runs out of work blocks its cell (exchange) and declines
 *     the request it finds there, so no thief waits on an idle worker;
 *   - a thief that waits too long (the victim is in a long item or
 *     descheduled) withdraws its request by CAS; if the victim claimed it
 *     first, the answer is coming and the thief keeps waiting.
 * The duplicating queue needs none of this: its thieves hold a lock, under
 * which taking half is as easy as taking one (`steal_half`).
 *
 * Thieves stay out of the idle set while a request is pending and items in
 * a transfer buffer belong to a worker outside the set, so transfers never
 * hide work from termination detection.
 */
#include "workpool/transfer.h"

#include "workpool/hooks.h"
#include "workpool/own_queue.h"

#include <sched.h>
#include <string.h>

/* Wait iterations before a thief withdraws its request: 64 pause spins,
 * then sched_yield (lets a descheduled victim run when oversubscribed). */
#define CANCEL_AFTER 256

static void answer(wp_worker *thief, size_t k)
{
    /* Release: the items in the thief's buffer before the answer. */
    atomic_store_explicit(&thief->resp, WP_RESP_READY | (uint32_t)k, memory_order_release);
}

void weft__wp_block_requests(wp_worker *w)
{
    /* Acq_rel: takes the cell; acquire pairs with the thief's release CAS. */
    int32_t old = atomic_exchange_explicit(&w->req, WP_REQ_BLOCKED, memory_order_acq_rel);
    if (old >= 0)
        answer(w->pool->workers[old], 0);
}

void weft__wp_unblock_requests(wp_worker *w)
{
    /* Release: a plain re-opening; thieves CAS from WP_REQ_NONE. */
    atomic_store_explicit(&w->req, WP_REQ_NONE, memory_order_release);
}

/* Victim: fills buf with up to steal_half_max items for a thief. */
static size_t fill(wp_worker *w, uint64_t *buf)
{
    wp_pool *p = w->pool;
    const wp_queue_ops *ops = p->ops;
    unsigned words = p->words;
    size_t max = p->cfg.steal_half_max, n = ops->size(w->q), k = 0;
    if (n >= 2) {
        k = ops->carve(w->q, buf, n / 2 < max ? n / 2 : max, w);
    } else if (n == 1 && p->cfg.split != NULL) {
        uint64_t tmp[WP_MAX_WORDS];
        if (ops->take(w->q, tmp, w)) {
            memset(buf, 0, words * sizeof(uint64_t));
            if (p->cfg.split(tmp, buf, p->arg)) {
                wp_item_copy_path(p, buf, tmp); /* both parts were pushed together */
                k = 1;
                w->ctr.splits++;
            }
            weft__wp_local_push(w, tmp, false); /* the rest goes back */
        }
    }
    if (k == 0 && w->spill_n >= 2) {
        size_t m = w->spill_n / 2 < max ? w->spill_n / 2 : max;
        memcpy(buf, w->spill + (w->spill_n - m) * words, m * words * sizeof(uint64_t));
        w->spill_n -= m;
        k = m;
    }
    return k;
}

void weft__wp_serve_request(wp_worker *w)
{
    /* Relaxed: re-read; the CAS below claims. */
    int32_t r = atomic_load_explicit(&w->req, memory_order_relaxed);
    if (r < 0)
        return;
    /* Acquire: pairs with the thief's release CAS (its reset answer cell);
     * fails if the thief withdrew. */
    if (!atomic_compare_exchange_strong_explicit(&w->req, &r, WP_REQ_NONE, memory_order_acquire,
                                                 memory_order_relaxed))
        return;
    wp_worker *thief = w->pool->workers[r];
    answer(thief, fill(w, thief->xfer));
}

static void receive(wp_worker *w, size_t k)
{
    unsigned words = w->pool->words;
    for (size_t i = 0; i < k; i++)
        weft__wp_local_push(w, w->xfer + i * words, false);
    w->ctr.steals++;
    w->ctr.stolen_items += k;
}

size_t weft__wp_request_items(wp_worker *w, wp_worker *v)
{
    /* Relaxed: only the victim writes it, after claiming the request that
     * our release CAS below publishes. */
    atomic_store_explicit(&w->resp, 0, memory_order_relaxed);
    int32_t none = WP_REQ_NONE;
    /* Release: our reset answer cell before the victim sees the request. */
    if (!atomic_compare_exchange_strong_explicit(&v->req, &none, (int32_t)w->id,
                                                 memory_order_release, memory_order_relaxed)) {
        w->ctr.steal_aborts++; /* another thief asked first, or v is idle */
        return 0;
    }
    w->ctr.requests++;
    for (unsigned spins = 0;; spins++) {
        /* Acquire: pairs with the victim's release answer: the items. */
        uint32_t r = atomic_load_explicit(&w->resp, memory_order_acquire);
        if (r & WP_RESP_READY) {
            size_t k = r & ~WP_RESP_READY;
            if (k == 0)
                w->ctr.steal_empty++;
            return k;
        }
        if (spins == CANCEL_AFTER) {
            int32_t me = (int32_t)w->id;
            /* Relaxed: withdraws the request unless the victim claimed it
             * (then its answer is coming and we keep waiting). */
            if (atomic_compare_exchange_strong_explicit(
                    &v->req, &me, WP_REQ_NONE, memory_order_relaxed, memory_order_relaxed)) {
                w->ctr.steal_aborts++;
                return 0;
            }
        }
        if (spins < 64)
            weft_cpu_relax();
        else
            sched_yield();
    }
}

bool weft__wp_request_half(wp_worker *w, wp_worker *v)
{
    size_t k = weft__wp_request_items(w, v);
    if (k == 0)
        return false;
    receive(w, k);
    return true;
}

bool weft__wp_steal_half_native(wp_worker *w, wp_worker *v)
{
    wp_pool *p = w->pool;
    size_t k = p->ops->steal_half(v->q, w->xfer, p->cfg.steal_half_max, w);
    if (k == 0)
        return false;
    receive(w, k);
    return true;
}
