// SPDX-License-Identifier: Apache-2.0
/* The worker loop of the work pool.
 *
 * Loop: take an item from the own overflow stack or queue and process it;
 * when both are empty, steal (one item, or half by transfer); when nothing
 * can be found, join the idle set (termination.c); after searching for
 * idle_spin_us, sleep (sleep.h).
 *
 * The owner's wake points (sleep.h) are part of the loop: on ABP and
 * Chase-Lev every take (their take fences), on the other queues a fence
 * every WP_FENCE_EVERY items.  The loop is compiled twice, once per kind,
 * so that neither pays for the other's wake point, and each twice more
 * for worker 0 of a run inside a fork-join task, which serves RUNs from
 * outside between two items (docs/pool.md, "A pool inside a fork-join
 * task"), so that no other run pays for that look.
 */
#include "workpool/loop.h"

#include "workpool/ebr.h"
#include "workpool/hooks.h"
#include "workpool/inbox.h"
#include "workpool/own_queue.h"
#include "workpool/sleep.h"
#include "workpool/termination.h"
#include "workpool/transfer.h"
#include "runtime/diagnostics.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

__thread wp_worker *weft__wp_tls WEFT__TLS_MODEL;

/* fork() in a process function copies only the forking thread: a child
 * that goes on with the item would wait for the pool's other threads
 * (or, in a pool inside a task, for the parent's fork-join pool) for
 * ever.  Set in the child by the fork handler, read where the item's
 * process function returns, which then stops the child with the reason.
 * Written only in a child, by its one thread. */
static bool forked_in_item;
static pthread_once_t fork_handler_once = PTHREAD_ONCE_INIT;

static void note_fork_in_child(void)
{
    if (weft__wp_tls != NULL && weft__wp_tls->in_fn)
        forked_in_item = true;
}

static void install_fork_handler(void) { (void)pthread_atfork(NULL, NULL, note_fork_in_child); }

static void forked_item_stop(void) __attribute__((noreturn, cold));
static void forked_item_stop(void)
{
    weft__fatal("fork() in a work pool's process function: the child process continued the item "
                "into the pool, whose other threads the child does not have (only the forking "
                "thread is copied); in the child, call exec or _exit before the process function "
                "returns");
}

/* ---- the own queue ---- */

/* An item from the overflow stack (first) or the own queue; false when
 * both are empty.  With `fenced` a take is a wake point: the queue's take
 * fences, and so does a take from the stack. */
static inline bool local_take(wp_worker *w, uint64_t *item, const bool fenced)
{
    if (WEFT_UNLIKELY(w->spill_n != 0)) {
        unsigned words = w->pool->words;
        w->spill_n--;
        memcpy(item, w->spill + w->spill_n * words, words * sizeof(uint64_t));
        if (fenced) /* F_W of this wake point, as in the queue's take; rare */
            weft__park_publish_fence();
        return true;
    }
    return w->pool->ops->take(w->q, item, w);
}

/* ---- the public push ---- */

static int push_misuse(const weft_pool_ctx *ctx, const void *item)
{
    if (weft__wp_tls == NULL || !weft__wp_tls->in_fn)
        weft__warn("weft_pool_push: called outside a pool's process function");
    else if (ctx == NULL || ctx != &weft__wp_tls->ctx)
        weft__warn("weft_pool_push: ctx is not the context of the calling process function");
    else if (item == NULL)
        weft__warn("weft_pool_push: item is NULL");
    return EINVAL;
}

int weft_pool_push(weft_pool_ctx *ctx, const void *item)
{
    wp_worker *w = weft__wp_tls;
    if (WEFT_UNLIKELY(w == NULL || ctx != &w->ctx || !w->in_fn || item == NULL))
        return push_misuse(ctx, item);
    wp_pool *p = w->pool;
    uint64_t buf[WP_MAX_WORDS];
    wp_item_from_user(p, buf, item);
    wp_item_set_path(p, buf, WEFT_PROFILE_ITEM_PATH(&w->prof));
    if (WEFT_UNLIKELY(!weft__wp_local_push(w, buf, true)))
        return ENOBUFS;
    w->ctr.pushed++;
    wp_wake_for(w, w->q, p->wake_min); /* a hint (sleep.h) */
    return 0;
}

/* The calling thread's worker if ctx is its context and its process
 * function is running; NULL otherwise (ctx is not dereferenced: a ctx kept
 * past its run points to freed memory). */
static wp_worker *ctx_worker(const weft_pool_ctx *ctx)
{
    wp_worker *w = weft__wp_tls;
    return w != NULL && ctx == &w->ctx && w->in_fn ? w : NULL;
}

int weft_pool_cancel(weft_pool_ctx *ctx)
{
    wp_worker *w = ctx_worker(ctx);
    if (w == NULL) {
        weft__warn("weft_pool_cancel: ctx is not the context of the calling process function");
        return EINVAL;
    }
    wp_pool *p = w->pool;
    if (p->host != NULL) {
        weft__warn("weft_pool_cancel: not in a pool of the distributed layer (weft/dist.h)");
        return ENOTSUP;
    }
    /* Relaxed: the first caller ends the run; done's release orders it. */
    if (atomic_exchange_explicit(&p->cancelled, 1, memory_order_relaxed) == 0)
        weft__wp_finish(p);
    return 0;
}

unsigned weft_pool_worker_id(const weft_pool_ctx *ctx)
{
    wp_worker *w = ctx_worker(ctx);
    return w ? w->id : UINT32_MAX;
}

unsigned weft_pool_workers(const weft_pool_ctx *ctx)
{
    wp_worker *w = ctx_worker(ctx);
    return w ? w->pool->n : 0;
}

/* ---- stealing ---- */

enum { FOUND_NOTHING = 0, FOUND_ITEM = 1, FOUND_QUEUED = 2 };

static void leave_idle_once(wp_worker *w, bool *in_idle)
{
    if (*in_idle) {
        weft__wp_idle_leave(w);
        *in_idle = false;
    }
}

/* One pass over a hosted pool's inbox and the other workers.  FOUND_ITEM:
 * an item in w->item;
 * FOUND_QUEUED: items in the own queue.  A success passes a wake-up on
 * (a hint) while the victim has more, or a transfer brought the thief
 * enough to share. */
static int steal_round(wp_worker *w, bool *in_idle)
{
    wp_pool *p = w->pool;
    const wp_queue_ops *ops = p->ops;
    /* Relaxed peek: the inbox's lock orders the take. */
    if (WEFT_UNLIKELY(p->host != NULL) &&
        atomic_load_explicit(&p->host->inbox_n, memory_order_relaxed) != 0) {
        leave_idle_once(w, in_idle);
        if (weft__wp_inbox_take(w))
            return FOUND_QUEUED;
    }
    if (ops->shared) {
        if (ops->size(w->q) == 0)
            return FOUND_NOTHING;
        leave_idle_once(w, in_idle);
        if (!ops->take(w->q, w->item, w))
            return FOUND_NOTHING;
        wp_wake_for(w, w->q, 1);
        return FOUND_ITEM;
    }
    unsigned n = p->n, i = weft_rng_below(&w->rng, n);
    for (unsigned k = 0; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
        wp_worker *v = p->workers[i];
        if (v == w || !wp_shareable(p, ops->size(v->q)))
            continue;
        leave_idle_once(w, in_idle);
        if (p->half) {
            uint64_t before = w->ctr.stolen_items;
            if (!(ops->steal_half ? weft__wp_steal_half_native(w, v) : weft__wp_request_half(w, v)))
                continue;
            WEFT_TRACE_STEAL(wp_traced(w), true, v->id, w->ctr.stolen_items - before);
            if (!wp_wake_for(w, v->q, p->share_min))
                wp_wake_for(w, w->q, p->wake_min);
            return FOUND_QUEUED;
        }
        wp_steal_result r = ops->steal(v->q, w->item, w);
        if (r == WP_STEAL_OK) {
            w->ctr.steals++;
            w->ctr.stolen_items++;
            WEFT_TRACE_STEAL(wp_traced(w), false, v->id, 1);
            wp_wake_for(w, v->q, 1);
            return FOUND_ITEM;
        }
        if (r == WP_STEAL_EMPTY)
            w->ctr.steal_empty++;
        else
            w->ctr.steal_aborts++;
    }
    return FOUND_NOTHING;
}

/* Called with the own queue and overflow stack empty and no item in hand.
 * Returns FOUND_*, or -1 when the run is over. */
static int find_work(wp_worker *w)
{
    wp_pool *p = w->pool;
    WEFT_TRACE_SET(wp_traced(w), WEFT_TRACE_SEARCH);
    if (p->half)
        weft__wp_block_requests(w);
    weft__wp_ebr_collect(w);
    bool in_idle = false;
    unsigned rounds = 0;
    uint64_t since = 0;
    for (;;) {
        /* Acquire: pairs with weft__wp_finish's release. */
        if (atomic_load_explicit(&p->done, memory_order_acquire))
            return -1;
        /* A fork-join worker waiting in the run takes RUNs from outside
         * first: their callers may be this pool's workers, holding items.
         * It creates no item (a push outside a process call is refused),
         * so it may do so in the idle set; and it goes on to the search
         * and the idle set's checks, not back to RUNs, which other threads
         * may queue one after another for ever: the run must be able to
         * end meanwhile. */
        if (WEFT_UNLIKELY(w->waiting != NULL) && weft__waiting_serve(w->waiting)) {
            rounds = 0;
            since = 0;
        }
        int found = steal_round(w, &in_idle);
        if (found != FOUND_NOTHING) {
            if (p->half)
                weft__wp_unblock_requests(w);
            WEFT_TRACE_SET(wp_traced(w), WEFT_TRACE_BATCH);
            return found;
        }
        if (!in_idle) {
            in_idle = true;
            if (weft__wp_idle_join(w))
                return -1;
        } else if (weft__wp_idle_recheck(w)) {
            return -1;
        }
        /* Back off: spin, then yield the core, then sleep. */
        if (!weft__park_backoff(&rounds, &since, p->cfg.idle_spin_us, 0))
            continue;
        WEFT_TRACE_PUSH(wp_traced(w), trace_, WEFT_TRACE_SLEEP);
        wp_sleep(w);
        WEFT_TRACE_POP(wp_traced(w), trace_);
        rounds = 0;
        since = 0;
    }
}

/* ---- the loop ---- */

/* The periodic wake point of the queues whose take has no fence. */
static void periodic_wake_point(wp_worker *w)
{
    w->since_fence = 0;
    weft__park_publish_fence(); /* F_W of this wake point */
    wp_wake_for(w, w->q, w->pool->share_min);
}

/* `fenced`: the queue's take fences, so every take is a wake point;
 * otherwise every WP_FENCE_EVERY-th item is.  `waiting`: w is a waiting
 * fork-join worker (w->waiting).  Inlined four times. */
static inline __attribute__((always_inline)) void run_items(wp_worker *w, const bool fenced,
                                                            const bool waiting)
{
    wp_pool *p = w->pool;
    const bool half = p->half;
    uint64_t *item = w->item;
    for (;;) {
        if (local_take(w, item, fenced)) {
            if (fenced)
                wp_wake_for(w, w->q, p->share_min); /* W3 after the take's fence */
        } else {
            int found = find_work(w);
            if (found < 0)
                break;
            if (found == FOUND_QUEUED)
                continue;
        }
        w->ctr.processed++;
        WEFT_PROFILE_ITEM_BEGIN(&w->prof, wp_item_path(p, item));
        w->in_fn = true;
        p->fn(&w->ctx, item, p->arg);
        if (WEFT_UNLIKELY(forked_in_item))
            forked_item_stop();
        w->in_fn = false;
        WEFT_PROFILE_ITEM_END(&w->prof);
        /* Relaxed: the flag only ends this loop early; weft__wp_finish
         * (release of done) orders the end of the run. */
        if (WEFT_UNLIKELY(atomic_load_explicit(&p->cancelled, memory_order_relaxed)))
            break;
        if (half)
            wp_poll_requests(w);
        if (!fenced && WEFT_UNLIKELY(++w->since_fence == WP_FENCE_EVERY))
            periodic_wake_point(w);
        /* Between two items too: a RUN from outside may hold up another
         * worker's item (one look at the count when there is none). */
        if (waiting)
            (void)weft__waiting_serve(w->waiting);
    }
}

void weft__wp_worker_loop(wp_worker *w)
{
    pthread_once(&fork_handler_once, install_fork_handler);
    wp_worker *saved = weft__wp_tls;
    weft__wp_tls = w;
    WEFT_TRACE_SET(wp_traced(w), WEFT_TRACE_BATCH);
    bool fenced = w->pool->ops->take_fences;
    if (WEFT_UNLIKELY(w->waiting != NULL)) {
        if (fenced)
            run_items(w, true, true);
        else
            run_items(w, false, true);
    } else if (fenced) {
        run_items(w, true, false);
    } else {
        run_items(w, false, false);
    }
    if (w->pool->half)
        weft__wp_block_requests(w);
    WEFT_TRACE_SET(wp_traced(w), WEFT_TRACE_NONE); /* the end of its track */
    weft__wp_tls = saved;
}
