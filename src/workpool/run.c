// SPDX-License-Identifier: Apache-2.0
/* weft_pool_run: set-up, the worker threads, teardown (the configuration
 * and its checks: config.c).
 *
 * Workers are created per run: the calling thread is worker 0, P-1
 * threads are created and wait at a start gate until every queue holds its
 * initial items and all threads exist (so a failed pthread_create can
 * abort the run before anything was processed).  They are joined before
 * weft_pool_run returns; nothing survives a run.
 *
 * The pieces (validate, create, seed, start, join, destroy) are also those
 * of a hosted pool (hosted.c), whose caller is no worker: it creates every
 * worker thread and stays outside the pool as its agent.
 */
#include "workpool/run.h"

#include "workpool/counters.h"
#include "workpool/ebr.h"
#include "workpool/hooks.h"
#include "workpool/config.h"
#include "workpool/loop.h"
#include "workpool/own_queue.h"
#include "workpool/queues/table.h"
#include "runtime/external_queue.h"
#include "runtime/diagnostics.h"
#include "runtime/gate.h"
#include "runtime/topology.h"
#include "sys/stack_call.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_ABP_CAP 65536u
#define DEFAULT_CAP 256u
#define DEFAULT_STACK WEFT_DEFAULT_STACK_SIZE /* runtime/memory.h: as the fork-join pool's */
/* Seed of the workers' victim-choice generators (sys/rng.h). */
#define RNG_SEED 0x9E3779B97F4A7C15ull

/* A pool worker's thread that ends inside its loop (a process function
 * called pthread_exit, or the thread was cancelled) leaves the run
 * waiting for it for ever: its key's destructor, which runs only then,
 * stops the program with the reason instead. */
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;
static bool thread_key_made;

static void thread_ended(void *arg)
{
    const wp_worker *w = arg;
    weft__fatal("work pool worker %u's thread ended inside an item's process function "
                "(pthread_exit, or a cancellation): it must return to the pool, and the run "
                "cannot end without the worker",
                w->id);
}

static void make_thread_key(void)
{
    thread_key_made = pthread_key_create(&thread_key, thread_ended) == 0;
}

/* The worker loop on w's stack, with the overflow report armed: for the
 * created threads (their whole stack is w's) and for the calling thread
 * (switched to w's stack for the run).  The thread's key holds w for as
 * long (the calling thread's own value is put back after). */
static void run_worker(void *arg)
{
    wp_worker *w = arg;
    const weft_thread_stack *outer = weft__tls_stack;
    weft__tls_stack = &w->stack;
    pthread_once(&thread_key_once, make_thread_key);
    void *outer_key = thread_key_made ? pthread_getspecific(thread_key) : NULL;
    if (thread_key_made)
        (void)pthread_setspecific(thread_key, w);
    weft__wp_worker_loop(w);
    if (thread_key_made)
        (void)pthread_setspecific(thread_key, outer_key); /* a return: nothing to report */
    weft__tls_stack = outer;
}

static void *thread_main(void *arg)
{
    wp_worker *w = arg;
    wp_pool *p = w->pool;
    void *altstack = NULL;
    (void)weft__segv_unblock(); /* this thread is weft's: no mask to restore */
    if (weft__altstack_setup(&altstack) != 0)
        altstack = NULL; /* an overflow then dies without the message */
    uint32_t g;
    /* Acquire: pairs with the release that opens the gate: the queues and
     * the initial items. */
    while ((g = atomic_load_explicit(&p->gate, memory_order_acquire)) == 0)
        weft__futex_wait(&p->gate, 0);
    /* A thread of a run inside a task, or inside an item of such a run:
     * the fork-join worker running it waits for this thread
     * (runtime/gate.h refuses what would wait for that worker). */
    if (g == 1 && (p->workers[0]->waiting != NULL || p->caller_waited_on))
        weft__gate_set_waited_on(true);
    if (g == 1)
        run_worker(w);
    weft__altstack_teardown(altstack);
    /* Release: the joiner's acquire load sees this thread done; it then
     * joins it (the join orders the rest). */
    atomic_store_explicit(&w->thread_done, 1, memory_order_release);
    weft__futex_wake(&w->thread_done, 1);
    return NULL;
}

void weft__wp_pool_destroy(wp_pool *p)
{
    weft__trace_pool_end(p->trace, NULL); /* a run that failed: not in the trace */
    if (p->workers != NULL) {
        /* A hosted pool's agent is the entry past the workers. */
        for (unsigned i = 0; i < p->n + (p->host != NULL); i++) {
            wp_worker *w = p->workers[i];
            if (w == NULL)
                continue;
            if (w->q != NULL && i < p->n && (!p->ops->shared || i == 0))
                p->ops->destroy(w->q);
            weft__wp_ebr_drain(w);
            if (w->stack_lo)
                weft__unmap(w->stack_lo, w->stack.size, weft__stack_guard(w->stack.size), 0);
            free(w->spill);
            free(w->item);
            free(w->xfer);
            free(w);
        }
        free(p->workers);
    }
    free(p->host);
    free(p);
}

/* One worker structure: its item buffer, transfer buffer and counters; a
 * stack and a queue unless it is a hosted pool's agent (index n). */
static wp_worker *worker_new(wp_pool *p, unsigned i, size_t cap, int *err)
{
    const weft_pool_config *cfg = &p->cfg;
    bool agent = i == p->n;
    *err = ENOMEM;
    wp_worker *w = aligned_alloc(WEFT_CACHE_LINE, sizeof *w);
    if (w == NULL)
        return NULL;
    memset(w, 0, sizeof *w);
    p->workers[i] = w;
    w->id = i;
    w->pool = p;
    w->rng = weft_rng_seed(RNG_SEED, i);
    w->ctx.w = w;
    atomic_init(&w->req, WP_REQ_NONE);
    atomic_init(&w->resp, 0);
    atomic_init(&w->sleep_word, WP_AWAKE);
    atomic_init(&w->ebr_ann, 0);
    w->item = calloc(p->words, sizeof(uint64_t));
    /* The agent takes shares by steal-half requests with any policy. */
    if (p->half || agent)
        w->xfer = calloc((size_t)cfg->steal_half_max * p->words, sizeof(uint64_t));
    if (w->item == NULL || ((p->half || agent) && w->xfer == NULL))
        return NULL;
#if WEFT_PROFILE
    weft__profile_pool_meter_init(&w->prof);
#endif
    if (agent) {
        *err = 0;
        return w;
    }
    size_t stack = cfg->stack_size ? cfg->stack_size : DEFAULT_STACK;
    w->stack_lo = weft__map(stack, weft__stack_guard(stack), 0, -1);
    w->stack = (weft_thread_stack){
        .guard_lo = w->stack_lo ? (char *)w->stack_lo - weft__stack_guard(stack) : NULL,
        .lo = w->stack_lo,
        .size = stack,
        .who = "work pool worker",
        .id = i,
        .raise = "weft_pool_config.stack_size",
    };
    if (w->stack_lo == NULL)
        return NULL;
    if (p->ops->shared && i > 0) {
        w->q = p->workers[0]->q;
    } else {
        int e = p->ops->create(p, w, cap, &w->q);
        if (e != 0) {
            *err = e;
            return NULL;
        }
        w->q->ops = p->ops;
        w->q->pool = p;
        w->q->owner = i;
    }
    *err = 0;
    return w;
}

/* The pool's read-only fields from the configuration (already validated),
 * and its atomics at rest. */
static void pool_init(wp_pool *p, const weft_pool_config *cfg, weft_pool_fn fn, void *arg)
{
    memset(p, 0, sizeof *p);
    p->cfg = *cfg;
    p->ops = weft__wp_queue_ops_of(cfg->queue);
    weft__cpu_budget budget = weft__cpu_budget_read();
    p->n = cfg->workers ? cfg->workers : budget.usable;
    if (cfg->workers)
        weft__note_oversubscription("the work pool", cfg->workers, budget);
    if (p->n > WEFT_POOL_MAX_WORKERS)
        p->n = WEFT_POOL_MAX_WORKERS;
    p->cfg.workers = p->n;
    p->item_size = cfg->item_size;
    p->user_words = (unsigned)((cfg->item_size + 7) / 8);
    p->words = p->user_words + WP_PROF_WORDS;
    p->half = cfg->steal == WEFT_POOL_STEAL_HALF && !p->ops->shared;
    /* Half of one item is nothing, unless a transfer can split it. */
    p->share_min = p->half && cfg->split == NULL ? 2 : 1;
    /* A push: the newest item is the owner's next, the one below it can be
     * shared; a single item is worth sharing when a transfer can split it. */
    p->wake_min = p->half && cfg->split != NULL ? 1 : 2;
    p->fn = fn;
    p->arg = arg;
    atomic_init(&p->idle, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->cancelled, 0);
    atomic_init(&p->gate, 0);
    atomic_init(&p->n_sleeping, 0);
    atomic_init(&p->epoch, 0);
    if (p->ops->kind == WEFT_QUEUE_ABP)
        p->cfg.capacity = cfg->capacity ? cfg->capacity : DEFAULT_ABP_CAP;
    else
        p->cfg.capacity = weft__wp_pow2(cfg->capacity ? cfg->capacity : DEFAULT_CAP);
}

/* A hosted pool's host part: the inbox and the bell, empty. */
static wp_host *host_new(void)
{
    wp_host *h = aligned_alloc(WEFT_CACHE_LINE, sizeof *h);
    if (h == NULL)
        return NULL;
    memset(h, 0, sizeof *h);
    atomic_init(&h->inbox_n, 0);
    atomic_init(&h->bell, 0);
    return h;
}

wp_pool *weft__wp_pool_create(const weft_pool_config *cfg, weft_pool_fn fn, void *arg, bool hosted,
                              int *err)
{
    *err = ENOMEM;
    wp_pool *p = aligned_alloc(WEFT_CACHE_LINE, sizeof *p);
    if (p == NULL)
        return NULL;
    pool_init(p, cfg, fn, arg);
    size_t cap = p->cfg.capacity;
    if (hosted && (p->host = host_new()) == NULL) {
        weft__wp_pool_destroy(p);
        return NULL;
    }
    /* A hosted pool's agent is one more entry, past the workers. */
    p->workers = calloc(p->n + hosted, sizeof *p->workers);
    if (p->workers == NULL) {
        weft__wp_pool_destroy(p);
        return NULL;
    }
    for (unsigned i = 0; i < p->n + hosted; i++) {
        if (worker_new(p, i, cap, err) == NULL) {
            weft__wp_pool_destroy(p);
            return NULL;
        }
    }
    p->trace = weft__trace_pool_begin(p->n, p->ops->name, p->half);
    for (unsigned i = 0; i < p->n; i++)
        p->workers[i]->trace = weft__trace_pool_track(p->trace, i);
    *err = 0;
    return p;
}

bool weft__wp_pool_seed(wp_pool *p, const void *initial, size_t n_initial)
{
    const unsigned char *src = initial;
    for (size_t j = 0; j < n_initial; j++) {
        wp_worker *w = p->workers[j % p->n];
        uint64_t buf[WP_MAX_WORDS];
        wp_item_from_user(p, buf, src + j * p->item_size);
        wp_item_set_path(p, buf, 0); /* an initial item's path starts at 0 */
        if (!weft__wp_local_push(w, buf, true))
            return false;
    }
    return true;
}

unsigned weft__wp_pool_start_threads(wp_pool *p, unsigned first)
{
    unsigned started = first;
    for (; started < p->n; started++) {
        wp_worker *w = p->workers[started];
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstack(&attr, w->stack_lo, w->stack.size);
        /* Relaxed: the thread is not running yet (creation publishes it). */
        atomic_store_explicit(&w->thread_done, 0, memory_order_relaxed);
        int e = pthread_create(&w->thread, &attr, thread_main, w);
        pthread_attr_destroy(&attr);
        if (e != 0)
            break;
    }
    return started;
}

void weft__wp_pool_open_gate(wp_pool *p, bool go)
{
    /* Release: the queues and items before the threads start (gate 1), or
     * the abort (gate 2). */
    atomic_store_explicit(&p->gate, go ? 1 : 2, memory_order_release);
    weft__futex_wake(&p->gate, INT32_MAX);
}

void weft__wp_pool_join_threads(wp_pool *p, unsigned first, unsigned end)
{
    for (unsigned i = first; i < end; i++)
        pthread_join(p->workers[i]->thread, NULL);
}

/* How often worker 0, joining the threads of a pool inside a fork-join
 * task, looks for RUNs from outside to serve. */
#define JOIN_SERVE_NS 1000000

/* Whether t's thread has done its last work.  Acquire: pairs with its
 * last store (thread_main). */
static bool thread_done(const wp_worker *t)
{
    return atomic_load_explicit(&t->thread_done, memory_order_acquire) != 0;
}

/* Joins the threads of workers 1..started-1.  Worker 0 of a pool inside a
 * fork-join task (w0->waiting) serves RUNs from outside meanwhile: the run
 * may end (cancelled, or an item threw) while another thread's item is
 * inside a RUN that only this fork-join worker can take. */
static void join_threads_serving(wp_pool *p, unsigned started)
{
    wp_worker *w0 = p->workers[0];
    if (w0->waiting == NULL) {
        weft__wp_pool_join_threads(p, 1, started);
        return;
    }
    for (unsigned i = 1; i < started; i++) {
        wp_worker *t = p->workers[i];
        for (;;) {
            /* A RUN taken: look at the thread's end without waiting, and
             * serve again (RUNs of threads outside the pool may come one
             * after another for ever).  None: the thread's end, awaited on
             * the monotonic clock (a step of the wall clock must not hold
             * the join for the step's size). */
            if (!weft__waiting_serve(w0->waiting) && !thread_done(t))
                (void)weft__futex_wait_for(&t->thread_done, 0, JOIN_SERVE_NS);
            if (thread_done(t)) {
                pthread_join(t->thread, NULL); /* past its last work: at once */
                break;
            }
        }
    }
}

/* The run on its threads, the calling thread as worker 0; returns how
 * many workers had a thread (p->n: all, and the run happened). */
static unsigned run_threads(wp_pool *p)
{
    /* Every traced worker is looking for work from here on (its track
     * starts before any thief can take its initial items). */
    for (unsigned i = 0; i < p->n; i++)
        WEFT_TRACE_SET(wp_traced(p->workers[i]), WEFT_TRACE_SEARCH);
    /* The SIGSEGV handler explains an overflow of the workers' stacks. */
    bool handler = weft__overflow_handler_install() == 0;
    unsigned started = weft__wp_pool_start_threads(p, 1);
    weft__wp_pool_open_gate(p, started == p->n);
    if (started == p->n) {
        /* The calling thread works as worker 0, on worker 0's stack (and
         * with an alternate signal stack for the report, unless its own
         * is large enough: then its own is put back after). */
        void *altstack = NULL;
        stack_t own;
        if (!weft__altstack_own_fits(&own))
            (void)weft__altstack_setup(&altstack);
        bool segv_was_blocked = weft__segv_unblock();
        wp_worker *w0 = p->workers[0];
        weft__call_on_stack(run_worker, w0, w0->stack_lo, w0->stack.size);
        weft__segv_reblock(segv_was_blocked);
        weft__altstack_teardown(altstack);
        if (altstack && !(own.ss_flags & SS_DISABLE))
            (void)sigaltstack(&own, NULL);
    }
    join_threads_serving(p, started);
    if (handler)
        weft__overflow_handler_remove();
    return started;
}

/* A finished run (threads joined) for the profiler and the tracer: a run
 * of the region of its queue kind, and its counters in the trace. */
static void observe_run_end(wp_pool *p, size_t n_initial, weft_worker *profiled_caller)
{
#if WEFT_PROFILE
    weft_profile_figures f;
    memset(&f, 0, sizeof f);
    for (unsigned i = 0; i < p->n; i++)
        weft__profile_pool_collect(&p->workers[i]->prof, &f);
    char name[64];
    snprintf(name, sizeof name, "work pool (%s%s)", p->ops->name, p->half ? ", steal-half" : "");
    weft__profile_pool_record(name, &f, profiled_caller);
#else
    (void)profiled_caller;
#endif
    if (p->trace) {
        weft_pool_stats t;
        weft__wp_stats_sum(p, n_initial, &t);
        weft__trace_pool_end(p->trace,
                             &(weft_trace_pool_counts){t.processed, t.duplicates, t.steals,
                                                       t.stolen_items, t.requests, t.sleeps});
        p->trace = NULL;
    }
}

static int run_pool(const weft_pool_config *cfg, const void *initial, size_t n_initial,
                    weft_pool_fn fn, void *arg, weft_pool_stats *stats)
{
    int err = weft__wp_pool_validate(cfg, initial, n_initial, fn);
    if (err != 0)
        return err;
    if (n_initial == 0) {
        if (stats != NULL) {
            memset(stats, 0, sizeof *stats);
            stats->workers = cfg->workers ? cfg->workers : weft__default_workers();
        }
        return 0;
    }
    wp_pool *p = weft__wp_pool_create(cfg, fn, arg, false, &err);
    if (p == NULL) {
        weft__warn("weft_pool_run: cannot allocate the pool (%s)", strerror(err));
        return err;
    }
    p->caller_waited_on = weft__gate_waited_on();

    /* The initial items, round-robin; the threads do not exist yet. */
    if (!weft__wp_pool_seed(p, initial, n_initial)) {
        weft__warn("weft_pool_run: %zu initial items do not fit queue '%s' of %zu items per "
                   "worker (overflow policy FAIL)",
                   n_initial, p->ops->name, p->cfg.capacity);
        weft__wp_pool_destroy(p);
        return ENOBUFS;
    }

    /* Inside a fork-join task the calling thread is a fork-join worker,
     * which every other one may wait for (joined on this task) or be busy
     * beside, while our workers' fork-join calls are RUNs from outside:
     * worker 0 serves them while it waits (docs/pool.md, "A pool inside a
     * fork-join task"). */
    weft_waiting_worker waiting;
    wp_worker *w0 = p->workers[0];
    if (weft__waiting_begin(&waiting, &w0->sleep_word, WP_ASLEEP, WP_AWAKE))
        w0->waiting = &waiting;
    /* The profiler: a run inside a task is a call of that task, whose
     * strand stops meanwhile (worker 0's items are the pool's work). */
    WEFT_PROFILE_OUTSIDE_STRAND(in_task_);
    unsigned started = run_threads(p);
    if (w0->waiting != NULL)
        weft__waiting_end(&waiting);
    if (started != p->n) {
        WEFT_PROFILE_BACK_IN_STRAND(in_task_);
        weft__warn("weft_pool_run: cannot create worker thread %u of %u", started, p->n);
        weft__wp_pool_destroy(p);
        return EAGAIN;
    }
    /* Relaxed: the threads have been joined. */
    bool cancelled = atomic_load_explicit(&p->cancelled, memory_order_relaxed) != 0;
    if (stats != NULL)
        weft__wp_stats_sum(p, n_initial, stats);
    observe_run_end(p, n_initial, WEFT_PROFILE_CALLER(in_task_));
    WEFT_PROFILE_BACK_IN_STRAND(in_task_);
    weft__wp_pool_destroy(p);
    return cancelled ? ECANCELED : 0;
}

int weft_pool_run(const weft_pool_config *cfg, const void *initial, size_t n_initial,
                  weft_pool_fn fn, void *arg, weft_pool_stats *stats)
{
    /* Not a cancellation point: a cancellation in the caller's items or
     * in its wait for the other workers would leave them and the queues
     * behind, so one requested meanwhile acts at the thread's next
     * cancellation point after the run (docs/pool.md, "Cancellation"). */
    int cancel_state;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
    int err = run_pool(cfg, initial, n_initial, fn, arg, stats);
    pthread_setcancelstate(cancel_state, NULL);
    return err;
}
