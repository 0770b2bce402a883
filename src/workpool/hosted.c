// SPDX-License-Identifier: Apache-2.0
/* A hosted pool (hosted.h): the work pool driven by a host thread that is
 * not one of its workers.  The pieces of the run are run.c's; this file
 * adds the agent's shares and the quiescence check (the inbox: inbox.c).
 *
 * Why termination detection stays exact (the idle set of termination.c):
 *   - the inbox is one more queue: wp_any_queue_holds counts it, so
 *     neither the quiescence check nor a sleeper's last look misses it,
 *     and a worker leaves the idle set before it takes from it, as before
 *     a steal;
 *   - the host alone injects, and it checks quiescence itself, between
 *     injections, so no check races with an injection;
 *   - the agent takes items out of the queues (never in), so it can only
 *     make a quiescent pool stay quiescent; the items it holds are the
 *     host's to account for (the distributed layer ships them at once and
 *     counts the message).
 */
#include "workpool/hosted.h"

#include "workpool/counters.h"
#include "workpool/run.h"
#include "workpool/termination.h"
#include "workpool/transfer.h"
#include "workpool/types.h"

#include <stdlib.h>
#include <string.h>

int weft__wp_hosted_create(const weft_pool_config *cfg, weft_pool_fn fn, void *arg,
                           const void *initial, size_t n_initial, wp_pool **out)
{
    int err;
    *out = NULL;
    wp_pool *p = weft__wp_pool_create(cfg, fn, arg, true, &err);
    if (p == NULL)
        return err;
    if (pthread_mutex_init(&p->host->lock, NULL) != 0) {
        weft__wp_pool_destroy(p);
        return ENOMEM;
    }
    if (!weft__wp_pool_seed(p, initial, n_initial)) {
        weft__wp_hosted_destroy(p);
        return ENOBUFS;
    }
    p->host->handler = weft__overflow_handler_install() == 0;
    unsigned started = weft__wp_pool_start_threads(p, 0);
    if (started != p->n) {
        weft__wp_pool_open_gate(p, false);
        weft__wp_pool_join_threads(p, 0, started);
        weft__wp_hosted_destroy(p);
        return EAGAIN;
    }
    *out = p;
    return 0;
}

void weft__wp_hosted_start(wp_pool *p, bool go)
{
    weft__wp_pool_open_gate(p, go);
    if (!go) {
        weft__wp_pool_join_threads(p, 0, p->n);
        weft__wp_hosted_destroy(p);
    }
}

/* ---- the agent's shares ---- */

/* Up to `want` items from v into the agent's buffer by single steals. */
static size_t steal_some(wp_pool *p, wp_worker *agent, wp_worker *v, size_t want)
{
    size_t k = 0;
    unsigned aborts = 0;
    while (k < want) {
        wp_steal_result r = p->ops->steal(v->q, agent->xfer + k * p->words, agent);
        if (r == WP_STEAL_OK) {
            k++;
        } else if (r == WP_STEAL_EMPTY || ++aborts == 8) {
            break;
        }
    }
    return k;
}

size_t weft__wp_hosted_take_share(wp_pool *p, void *out)
{
    wp_worker *agent = p->workers[p->n];
    const wp_queue_ops *ops = p->ops;
    size_t max = p->cfg.steal_half_max;
    /* A lone item is shared only if a transfer can split it. */
    size_t min = p->wake_min;
    unsigned nq = ops->shared ? 1 : p->n;
    /* The fullest queue first; the sizes are estimates. */
    unsigned best = 0;
    size_t best_size = 0;
    for (unsigned i = 0; i < nq; i++) {
        size_t s = ops->size(p->workers[i]->q);
        if (s > best_size) {
            best = i;
            best_size = s;
        }
    }
    if (best_size < min)
        return 0;
    wp_worker *v = p->workers[best];
    size_t half = best_size / 2 ? best_size / 2 : 1;
    size_t want = half < max ? half : max;
    size_t k;
    /* An idempotent queue without a steal-half of its own, taken by
     * single steals: one item per share.  Its owner's plain stores may
     * undo steals made between its read and its write of the tail (the
     * relaxation), and a run of steals that falls in one such window --
     * a preempted owner, ranks sharing cores -- would then be re-exposed
     * whole, each item (and, in a tree search, its subtree) run here and
     * on the rank the share went to.  One item per share bounds that to
     * one item per share, as the pool's own steal-one thieves take. */
    if (ops->idempotent && ops->steal_half == NULL && !p->half)
        want = 1;
    if (ops->shared)
        k = steal_some(p, agent, v, want);
    else if (ops->steal_half != NULL)
        k = ops->steal_half(v->q, agent->xfer, want, agent);
    else if (p->half)
        k = weft__wp_request_items(agent, v); /* answered between two items */
    else
        k = steal_some(p, agent, v, want);
    unsigned char *dst = out;
    for (size_t i = 0; i < k; i++)
        memcpy(dst + i * p->item_size, agent->xfer + i * p->words, p->item_size);
    return k;
}

/* ---- quiescence, the bell, the end ---- */

bool weft__wp_hosted_quiescent(wp_pool *p)
{
    /* Acquire: as a member's recheck (termination.c). */
    uint64_t v = atomic_load_explicit(&p->idle, memory_order_acquire);
    return weft__wp_quiescent_at(p, v);
}

uint32_t weft__wp_hosted_bell(wp_pool *p)
{
    /* Acquire: pairs with the ringing worker's release increment. */
    return atomic_load_explicit(&p->host->bell, memory_order_acquire);
}

void weft__wp_hosted_wait(wp_pool *p, uint32_t seen, uint64_t timeout_ns)
{
    weft__futex_wait_for(&p->host->bell, seen, timeout_ns);
}

void weft__wp_hosted_stop(wp_pool *p)
{
    weft__wp_finish(p);
    weft__wp_pool_join_threads(p, 0, p->n);
}

void weft__wp_hosted_stats(wp_pool *p, uint64_t initial, weft_pool_stats *out)
{
    weft__wp_stats_sum(p, initial, out);
}

void weft__wp_hosted_destroy(wp_pool *p)
{
    if (p->host->handler)
        weft__overflow_handler_remove();
    pthread_mutex_destroy(&p->host->lock);
    free(p->host->inbox);
    weft__wp_pool_destroy(p);
}
