/* The worker loop, termination detection, and sleeping.
 *
 * Loop: take an item from the own overflow stack or queue and process it;
 * when both are empty, steal (one item, or half by transfer); when nothing
 * can be found, join the idle set; after searching for idle_spin_us, sleep.
 *
 * Termination (docs/pool.md has the argument in full).  The idle set is one
 * 64-bit word: the number of idle workers (low half) and an epoch counting
 * departures (high half).  A worker is in the set only while it holds no
 * item, its queue and overflow stack are empty, and it is not stealing:
 * it leaves the set (epoch+1, count-1) before every steal attempt or
 * request and joins (count+1) after a failed round.  Only processing
 * creates items and only members of no set process, so when all P workers
 * are members and every queue is empty, the run is over.  The worker whose
 * join (or an idle worker whose read) shows count = P scans every queue;
 * if all are empty it confirms with a CAS of the idle word from the value
 * it read to itself.  The CAS reads the latest value, so it succeeds only
 * if nobody left the set since: no steal ran during the scan, so the scan
 * saw a snapshot.  Acq_rel on every update of the word makes each worker's
 * last queue operations visible to the checker, and the checker's scan
 * happen before any later departure (so a later steal cannot have been
 * seen as "empty" by the scan and still have taken an item).  Cost: one
 * RMW when a worker runs out of work and one per steal attempt of an idle
 * worker; nothing per item.  It does not count items, so it is also exact
 * for the idempotent queues, where an item may be processed twice.
 *
 * Sleeping: after idle_spin_us without work, a worker announces itself
 * (sleep word, then n_sleeping with seq_cst, then a seq_cst fence), looks
 * once more at every queue and the done flag, and waits on its futex.
 * Whoever publishes work checks n_sleeping afterwards and claims a sleeper
 * by CAS of its word: after every take of the queues whose take has a
 * seq_cst fence (ABP, Chase-Lev: a Dekker pair with the sleeper's fence),
 * after every push (a relaxed peek), and after a seq_cst fence every 32
 * items for all queues.  A sleeper therefore misses work for at most 32
 * items of its owner; as a last resort, sleeps time out (1 ms, doubling to
 * 64 ms) and look again.  Termination wakes everyone: it sets done, fences,
 * and claims every sleeper; a sleeper that announces itself later sees done
 * in its last look (the same Dekker pair).
 */
#include "workpool/workpool.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__thread pool_worker *pool_tls __attribute__((tls_model("initial-exec")));

#define IDLE_COUNT(v) ((uint32_t)(v))
#define IDLE_LEAVE (((uint64_t)1 << 32) - 1) /* epoch + 1, count - 1 */
#define FENCE_EVERY 32

unsigned pool_sleep_max_ms = 64;

static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* ---- the overflow stack and the own queue ---- */

static void spill_push(pool_worker *w, const uint64_t *item)
{
    unsigned words = w->pool->words;
    if (w->spill_n == w->spill_cap) {
        size_t cap = w->spill_cap ? w->spill_cap * 2 : 256;
        uint64_t *bigger = realloc(w->spill, cap * words * sizeof(uint64_t));
        if (bigger == NULL)
            weft_fatal("out of memory: overflow stack of worker %u (%zu items)", w->id,
                       w->spill_n);
        w->spill = bigger;
        w->spill_cap = cap;
    }
    memcpy(w->spill + w->spill_n * words, item, words * sizeof(uint64_t));
    w->spill_n++;
}

/* Pushes to the own queue; on "full", spills, or (user pushes with the
 * FAIL policy) refuses. */
bool pool_local_push(pool_worker *w, const uint64_t *item, bool user)
{
    pool *p = w->pool;
    if (WEFT_LIKELY(p->ops->push(w->q, item, w)))
        return true;
    w->ctr.overflows++;
    if (user && p->cfg.overflow == WEFT_POOL_OVERFLOW_FAIL)
        return false;
    spill_push(w, item);
    return true;
}

static inline bool local_take(pool_worker *w, uint64_t *item)
{
    if (WEFT_UNLIKELY(w->spill_n != 0)) {
        unsigned words = w->pool->words;
        w->spill_n--;
        memcpy(item, w->spill + w->spill_n * words, words * sizeof(uint64_t));
        /* seq_cst fence: as in the fenced queues' take, our pushes before
         * the sleeper count that maybe_wake reads (Dekker with a sleeper's
         * announcement); spilling is the rare overflow path. */
        atomic_thread_fence(memory_order_seq_cst);
        return true;
    }
    return w->pool->ops->take(w->q, item, w);
}

/* ---- waking ---- */

static void claim_and_wake(pool *p, pool_worker *v, pool_worker *self)
{
    uint32_t asleep = SLEEP_ASLEEP;
    /* Acq_rel: the claim; exactly one waker (or the sleeper itself when it
     * withdraws) turns the word back to AWAKE and un-counts the sleeper. */
    if (atomic_compare_exchange_strong_explicit(&v->sleep_word, &asleep, SLEEP_AWAKE,
                                                memory_order_acq_rel, memory_order_relaxed)) {
        /* Relaxed: a count; the claim above decided who decrements. */
        atomic_fetch_sub_explicit(&p->n_sleeping, 1, memory_order_relaxed);
        weft_futex_wake(&v->sleep_word, 1);
        if (self) {
            self->ctr.wakes++;
            POOL_TRACE_WAKE(self, v->id);
        }
    }
}

void pool_wake_one(pool *p, pool_worker *self)
{
    /* Acquire: pairs with the sleeper's seq_cst increment, so its sleep word
     * store (before it) is visible to the peeks below. */
    if (atomic_load_explicit(&p->n_sleeping, memory_order_acquire) == 0)
        return;
    unsigned n = p->n, start = self ? (unsigned)(rng_next(&self->rng) % n) : 0;
    for (unsigned i = 0; i < n; i++) {
        pool_worker *v = p->workers[(start + i) % n];
        /* Relaxed peek: the CAS in claim_and_wake decides. */
        if (v != self &&
            atomic_load_explicit(&v->sleep_word, memory_order_relaxed) == SLEEP_ASLEEP) {
            claim_and_wake(p, v, self);
            return;
        }
    }
}

void pool_wake_all(pool *p)
{
    /* seq_cst fence: done (stored before) vs a sleeper's announcement, see
     * the top of the file. */
    atomic_thread_fence(memory_order_seq_cst);
    for (unsigned i = 0; i < p->n; i++) {
        pool_worker *v = p->workers[i];
        /* Relaxed peek: ordered by the fence above; the CAS decides. */
        if (atomic_load_explicit(&v->sleep_word, memory_order_relaxed) == SLEEP_ASLEEP)
            claim_and_wake(p, v, NULL);
    }
}

/* Wakes a sleeper if someone sleeps and the own queue has at least `min`
 * items to share. */
static inline void maybe_wake(pool_worker *w, size_t min)
{
    pool *p = w->pool;
    /* Relaxed: a hint; callers either fenced before it or accept the bounded
     * delay described at the top. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&p->n_sleeping, memory_order_relaxed) != 0) &&
        p->ops->size(w->q) >= min)
        pool_wake_one(p, w);
}

/* ---- the public push ---- */

static int push_misuse(const weft_pool_ctx *ctx, const void *item)
{
    if (pool_tls == NULL || !pool_tls->in_fn)
        weft_warn("weft_pool_push: called outside a pool's process function");
    else if (ctx == NULL || ctx != &pool_tls->ctx)
        weft_warn("weft_pool_push: ctx is not the context of the calling process function");
    else if (item == NULL)
        weft_warn("weft_pool_push: item is NULL");
    return EINVAL;
}

int weft_pool_push(weft_pool_ctx *ctx, const void *item)
{
    pool_worker *w = pool_tls;
    if (WEFT_UNLIKELY(w == NULL || ctx != &w->ctx || !w->in_fn || item == NULL))
        return push_misuse(ctx, item);
    pool *p = w->pool;
    uint64_t buf[POOL_MAX_WORDS];
    if (p->item_size == 8) {
        memcpy(buf, item, 8);
    } else {
        buf[p->words - 1] = 0; /* padding of the last word */
        memcpy(buf, item, p->item_size);
    }
    if (WEFT_UNLIKELY(!pool_local_push(w, buf, true)))
        return ENOBUFS;
    w->ctr.pushed++;
    maybe_wake(w, p->wake_min);
    return 0;
}

/* The calling thread's worker if ctx is its context and its process
 * function is running; NULL otherwise (ctx is not dereferenced: a ctx kept
 * past its run points to freed memory). */
static pool_worker *ctx_worker(const weft_pool_ctx *ctx)
{
    pool_worker *w = pool_tls;
    return w != NULL && ctx == &w->ctx && w->in_fn ? w : NULL;
}

unsigned weft_pool_worker_id(const weft_pool_ctx *ctx)
{
    pool_worker *w = ctx_worker(ctx);
    return w ? w->id : UINT32_MAX;
}

unsigned weft_pool_workers(const weft_pool_ctx *ctx)
{
    pool_worker *w = ctx_worker(ctx);
    return w ? w->pool->n : 0;
}

/* ---- termination ---- */

static bool all_empty(pool *p)
{
    if (p->ops->shared)
        return p->ops->size(p->workers[0]->q) == 0;
    for (unsigned i = 0; i < p->n; i++)
        if (p->ops->size(p->workers[i]->q) != 0)
            return false;
    return true;
}

static void finish(pool *p)
{
    /* Release: everything before the end of the run, for the workers that
     * acquire done and exit. */
    atomic_store_explicit(&p->done, 1, memory_order_release);
    pool_wake_all(p);
}

/* v: a value of the idle word with count == P.  True if the run is over. */
static bool check_termination(pool *p, uint64_t v)
{
    if (!all_empty(p))
        return false;
    uint64_t expected = v;
    /* Acq_rel: succeeds only if nobody left the idle set since v (an RMW
     * reads the latest value); release orders our scan before any later
     * departure, acquire makes the members' last operations visible. */
    if (!atomic_compare_exchange_strong_explicit(&p->idle, &expected, v, memory_order_acq_rel,
                                                 memory_order_relaxed))
        return false;
    finish(p);
    return true;
}

/* Joins the idle set; true if that ended the run. */
static bool join_idle(pool_worker *w)
{
    pool *p = w->pool;
    /* Acq_rel: releases our last queue operations to the termination
     * checker; acquires the other members' when we complete the set. */
    uint64_t v = atomic_fetch_add_explicit(&p->idle, 1, memory_order_acq_rel) + 1;
    return IDLE_COUNT(v) == p->n && check_termination(p, v);
}

static void leave_idle(pool_worker *w)
{
    /* Acq_rel: every departure changes the word (epoch + 1), so a checker's
     * confirming CAS fails; ordered before the steal that follows. */
    atomic_fetch_add_explicit(&w->pool->idle, IDLE_LEAVE, memory_order_acq_rel);
}

/* ---- sleeping ---- */

/* Anything for a sleeper to do?  Read after its seq_cst fence. */
static bool any_work(pool *p)
{
    /* Relaxed: ordered by the caller's seq_cst fence (Dekker with finish). */
    if (atomic_load_explicit(&p->done, memory_order_relaxed))
        return true;
    return !all_empty(p);
}

/* weft_futex_wait with a timeout (0: none); false when it timed out. */
static bool futex_wait_ms(_Atomic uint32_t *word, uint32_t expected, unsigned ms)
{
    if (ms == 0) {
        weft_futex_wait(word, expected);
        return true;
    }
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    long r = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, &ts, NULL, 0);
    return !(r == -1 && errno == ETIMEDOUT);
}

static void pool_sleep(pool_worker *w, unsigned *timeout_ms)
{
    pool *p = w->pool;
    /* Relaxed: published by the seq_cst increment below (wakers acquire the
     * count before peeking at sleep words). */
    atomic_store_explicit(&w->sleep_word, SLEEP_ASLEEP, memory_order_relaxed);
    /* seq_cst: the sleeper's announcement, half of the Dekker pair. */
    atomic_fetch_add_explicit(&p->n_sleeping, 1, memory_order_seq_cst);
    /* seq_cst fence: the announcement before the last look. */
    atomic_thread_fence(memory_order_seq_cst);
    bool sleep = !any_work(p);
    if (sleep)
        w->ctr.sleeps++;
    for (;;) {
        /* Acquire: pairs with the waker's claim. */
        if (atomic_load_explicit(&w->sleep_word, memory_order_acquire) == SLEEP_AWAKE)
            break; /* claimed by a waker, who un-counted us */
        unsigned ms = pool_sleep_max_ms == 0 ? 0 : *timeout_ms;
        if (!sleep || !futex_wait_ms(&w->sleep_word, SLEEP_ASLEEP, ms)) {
            /* Withdraw (work in sight, or the timeout) unless a waker
             * claimed us first. */
            uint32_t asleep = SLEEP_ASLEEP;
            /* Acq_rel: the same claim a waker makes, on ourselves. */
            if (atomic_compare_exchange_strong_explicit(&w->sleep_word, &asleep, SLEEP_AWAKE,
                                                        memory_order_acq_rel,
                                                        memory_order_relaxed))
                /* Relaxed: a count; the claim decided. */
                atomic_fetch_sub_explicit(&p->n_sleeping, 1, memory_order_relaxed);
            if (sleep && *timeout_ms < pool_sleep_max_ms)
                *timeout_ms *= 2;
            return;
        }
    }
    *timeout_ms = 1;
}

/* ---- stealing ---- */

enum { FOUND_NOTHING = 0, FOUND_ITEM = 1, FOUND_QUEUED = 2 };

/* One pass over the other workers.  FOUND_ITEM: an item in w->item;
 * FOUND_QUEUED: items in the own queue. */
static int steal_round(pool_worker *w, bool *in_idle)
{
    pool *p = w->pool;
    const pq_ops *ops = p->ops;
    if (ops->shared) {
        if (ops->size(w->q) == 0)
            return FOUND_NOTHING;
        if (*in_idle) {
            leave_idle(w);
            *in_idle = false;
        }
        return ops->take(w->q, w->item, w) ? FOUND_ITEM : FOUND_NOTHING;
    }
    unsigned n = p->n, start = (unsigned)(rng_next(&w->rng) % n);
    for (unsigned i = 0; i < n; i++) {
        pool_worker *v = p->workers[(start + i) % n];
        if (v == w)
            continue;
        size_t sz = ops->size(v->q);
        if (sz == 0 || (p->half && sz < 2 && p->cfg.split == NULL))
            continue;
        if (*in_idle) {
            leave_idle(w);
            *in_idle = false;
        }
        if (p->half) {
            uint64_t before = w->ctr.stolen_items;
            bool got = ops->steal_half ? pool_steal_half_native(w, v) : pool_request_half(w, v);
            if (got) {
                POOL_TRACE_STEAL(w, true, v->id, w->ctr.stolen_items - before);
                /* Relaxed: a hint (see maybe_wake); pass the wake-up on
                 * while the victim has more. */
                if (atomic_load_explicit(&p->n_sleeping, memory_order_relaxed) != 0 &&
                    ops->size(v->q) >= 2)
                    pool_wake_one(p, w);
                return FOUND_QUEUED;
            }
            continue;
        }
        pq_result r = ops->steal(v->q, w->item, w);
        if (r == PQ_OK) {
            w->ctr.steals++;
            w->ctr.stolen_items++;
            POOL_TRACE_STEAL(w, false, v->id, 1);
            /* Relaxed: a hint (see maybe_wake). */
            if (atomic_load_explicit(&p->n_sleeping, memory_order_relaxed) != 0 &&
                ops->size(v->q) >= 1)
                pool_wake_one(p, w);
            return FOUND_ITEM;
        }
        if (r == PQ_EMPTY)
            w->ctr.steal_empty++;
        else
            w->ctr.steal_aborts++;
    }
    return FOUND_NOTHING;
}

/* Called with the own queue and overflow stack empty and no item in hand.
 * Returns FOUND_*, or -1 when the run is over. */
static int find_work(pool_worker *w)
{
    pool *p = w->pool;
    POOL_TRACE_SET(w, WEFT_TRACE_SEARCH);
    if (p->half)
        pool_block_requests(w);
    pool_ebr_collect(w);
    bool in_idle = false;
    unsigned rounds = 0, timeout_ms = 1;
    uint64_t since = 0;
    for (;;) {
        /* Acquire: pairs with finish's release. */
        if (atomic_load_explicit(&p->done, memory_order_acquire))
            return -1;
        int found = steal_round(w, &in_idle);
        if (found != FOUND_NOTHING) {
            if (p->half)
                pool_unblock_requests(w);
            POOL_TRACE_SET(w, WEFT_TRACE_BATCH);
            return found;
        }
        if (!in_idle) {
            in_idle = true;
            if (join_idle(w))
                return -1;
        } else {
            /* Acquire: as in join_idle, for a set completed by a departure
             * and a re-join we did not make. */
            uint64_t v = atomic_load_explicit(&p->idle, memory_order_acquire);
            if (IDLE_COUNT(v) == p->n && check_termination(p, v))
                return -1;
        }
        /* Back off: spin, then yield the core, then sleep. */
        rounds++;
        if (rounds <= 64) {
            for (unsigned i = 0; i < (1u << (rounds / 16)); i++)
                weft_cpu_relax();
            continue;
        }
        uint64_t now = weft_now_ns();
        if (since == 0)
            since = now;
        if (now - since < (uint64_t)p->cfg.idle_spin_us * 1000u) {
            sched_yield();
            continue;
        }
        POOL_TRACE_PUSH(w, trace_, WEFT_TRACE_SLEEP);
        pool_sleep(w, &timeout_ms);
        POOL_TRACE_POP(w, trace_);
        rounds = 0;
        since = 0;
    }
}

/* ---- the loop ---- */

void pool_worker_loop(pool_worker *w)
{
    pool *p = w->pool;
    const pq_ops *ops = p->ops;
    const bool fenced = ops->take_fences, half = p->half;
    uint64_t *item = w->item;
    pool_worker *saved = pool_tls;
    pool_tls = w;
    POOL_TRACE_SET(w, WEFT_TRACE_BATCH);
    for (;;) {
        if (local_take(w, item)) {
            if (fenced)
                maybe_wake(w, 1); /* after take's seq_cst fence */
        } else {
            int found = find_work(w);
            if (found < 0)
                break;
            if (found == FOUND_QUEUED)
                continue;
        }
        w->ctr.processed++;
        w->in_fn = true;
        p->fn(&w->ctx, item, p->arg);
        w->in_fn = false;
        if (half)
            pool_poll_requests(w);
        if (WEFT_UNLIKELY(++w->since_fence == FENCE_EVERY)) {
            w->since_fence = 0;
            /* seq_cst fence: our pushes before the sleeper count (Dekker with
             * pool_sleep), for the queues whose take has no fence. */
            atomic_thread_fence(memory_order_seq_cst);
            maybe_wake(w, 1);
        }
    }
    if (half)
        pool_block_requests(w);
    POOL_TRACE_SET(w, WEFT_TRACE_NONE); /* the end of its track */
    pool_tls = saved;
}
