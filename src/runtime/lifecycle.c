/* Worker lifecycle: start, the worker loop, suspend/resume and stop.  The
 * configuration (defaults, environment, ranges) is config.c. */
#include "runtime/internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

weft_runtime weft_rt;
__thread weft_worker *weft_tls_worker __attribute__((tls_model("initial-exec")));

/* Serialises start/stop/suspend/resume against each other. */
static pthread_mutex_t lifecycle_lock = PTHREAD_MUTEX_INITIALIZER;
/* Workers that finished initialising (start waits for all). */
static _Atomic uint32_t workers_ready;
/* This pool holds a use of the SIGSEGV handler (report_stack_overflow). */
static bool handler_held;

static void release_handler(void)
{
    if (handler_held)
        weft_overflow_handler_remove();
    handler_held = false;
}

/* This thread's weft_lifecycle_enter()s not yet exited (a RUN, TOGETHER or
 * NEWFRAME from outside, a counter read), and whether it is inside
 * start/stop/suspend/resume: a signal handler that interrupted either and
 * calls stop or suspend would wait for itself. */
static __thread unsigned tls_pool_holds;
static __thread bool tls_in_control;

/* The checks every control call (start, stop, suspend, resume) makes, then
 * the lock.  `waits`: the call waits for RUNs in progress to end.  Returns
 * 0 (locked) or EDEADLK with a message. */
static int control_begin(const char *what, bool waits)
{
    /* A thread running a borrowed RUN is a worker for now, but to its
     * caller it is inside RUN: the check of tls_pool_holds below says so. */
    if (weft_tls_worker && !weft_tls_guest) {
        weft_warn("%s called from inside a worker: it would wait for itself", what);
        return EDEADLK;
    }
    if (tls_in_control) {
        weft_warn("%s called while this thread is inside weft_start, weft_stop, weft_suspend "
                  "or weft_resume (from a signal handler?): it would wait for itself", what);
        return EDEADLK;
    }
    if (waits && tls_pool_holds) {
        weft_warn("%s called on a thread that is inside RUN, TOGETHER or NEWFRAME (from a "
                  "signal handler that interrupted it?): it would wait for itself", what);
        return EDEADLK;
    }
    tls_in_control = true;
    pthread_mutex_lock(&lifecycle_lock);
    return 0;
}

static void control_end(void)
{
    pthread_mutex_unlock(&lifecycle_lock);
    tls_in_control = false;
}

/* Under the lock: is the pool running?  If not, says so for `what`. */
static bool control_running(const char *what)
{
    /* Relaxed: lifecycle transitions happen under lifecycle_lock. */
    if ((atomic_load_explicit(&weft_rt.lifecycle, memory_order_relaxed) >> 32) == WEFT_RT_RUNNING)
        return true;
    weft_warn("%s: the pool is not running", what);
    return false;
}


static inline uint64_t lifecycle_pack(uint32_t state, uint32_t users)
{
    return (uint64_t)state << 32 | users;
}

/* ------------------------------------------------------------------------
 * The worker
 * ------------------------------------------------------------------------ */

weft_worker *weft_self(void)
{
    return weft_tls_worker;
}

weft_worker *weft_self_checked(void)
{
    weft_worker *w = weft_tls_worker;
    if (!w)
        weft_fatal("WEFT_ME used on a thread that is not a weft worker (use WEFT_RUN to "
                   "enter the pool)");
    return w;
}

bool weft_lifecycle_hold(bool *held)
{
    /* On a worker the pool cannot go away: stop waits for every RUN. */
    if (weft_tls_worker) {
        *held = false;
        return true;
    }
    *held = weft_lifecycle_enter();
    return *held;
}

void weft_lifecycle_release(bool held)
{
    if (held)
        weft_lifecycle_exit();
}

unsigned weft_workers(void)
{
    bool held;
    if (!weft_lifecycle_hold(&held))
        return 0;
    unsigned n = weft_rt.n_workers;
    weft_lifecycle_release(held);
    return n;
}

/* The deque keeps every slot below head non-EMPTY and every slot from head
 * on EMPTY (SYNC clears what it pops), so head is found by bisection. */
weft_task *weft_current_head(weft_worker *w)
{
    if (!w)
        weft_fatal("weft_current_head needs a worker (called outside the pool?)");
    size_t lo = 0, hi = w->deque_slots;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        /* Relaxed: our own slots; thieves only move them between non-EMPTY
         * values. */
        if (atomic_load_explicit(&w->dq[mid].state, memory_order_relaxed) != WEFT_STATE_EMPTY)
            lo = mid + 1;
        else
            hi = mid;
    }
    return w->dq + lo;
}

/* Suspended: wait for resume or stop.  An interrupt started meanwhile (by
 * a task still running elsewhere) is served, or it could never finish. */
static void park(weft_worker *w, weft_task *head)
{
    weft_runtime *p = &weft_rt;
    /* Acquire: read the word before re-checking the conditions, so a change
     * in between bumps it and the futex wait returns at once. */
    uint32_t word = atomic_load_explicit(&p->suspend_word, memory_order_acquire);
    WEFT_TRACE_PUSH(w, trace_, WEFT_TRACE_PARKED);
    atomic_fetch_add_explicit(&p->parked, 1, memory_order_seq_cst); /* suspend polls it */
    while (atomic_load_explicit(&p->suspended, memory_order_seq_cst) &&
           !atomic_load_explicit(&p->quit, memory_order_seq_cst)) {
        if (weft_interrupt_waiting_for(w)) {
            atomic_fetch_sub_explicit(&p->parked, 1, memory_order_seq_cst); /* see above */
            weft_interrupt_serve(w, head);
            atomic_fetch_add_explicit(&p->parked, 1, memory_order_seq_cst);
        } else {
            weft_futex_wait(&p->suspend_word, word);
        }
        word = atomic_load_explicit(&p->suspend_word, memory_order_acquire); /* as above */
    }
    atomic_fetch_sub_explicit(&p->parked, 1, memory_order_seq_cst);
    WEFT_TRACE_POP(w, trace_);
}

void weft_park_if_suspended(weft_worker *w, weft_task *head)
{
    /* Relaxed: a stale 0 only delays parking to the next check; suspend
     * waits for every worker to park.  Inside an interrupt a worker does
     * not park: suspend waits for the interrupt to end. */
    if (w->in_interrupt == 0 && atomic_load_explicit(&weft_rt.suspended, memory_order_relaxed))
        park(w, head);
}

bool weft_lifecycle_enter_interrupt(void)
{
    weft_runtime *p = &weft_rt;
    pthread_mutex_lock(&lifecycle_lock);
    for (;;) {
        /* Relaxed (both): written under the lock we hold. */
        if ((atomic_load_explicit(&p->lifecycle, memory_order_relaxed) >> 32) != WEFT_RT_RUNNING) {
            pthread_mutex_unlock(&lifecycle_lock);
            return false;
        }
        if (!atomic_load_explicit(&p->suspended, memory_order_relaxed))
            break;
        /* Acquire: read the word before unlocking, so a resume in between
         * bumps it and the wait returns at once. */
        uint32_t word = atomic_load_explicit(&p->suspend_word, memory_order_acquire);
        pthread_mutex_unlock(&lifecycle_lock);
        weft_futex_wait(&p->suspend_word, word);
        pthread_mutex_lock(&lifecycle_lock);
    }
    /* seq_cst: suspend (under the same lock later) waits for it to drop. */
    atomic_fetch_add_explicit(&p->interrupts_from_outside, 1, memory_order_seq_cst);
    bool entered = weft_lifecycle_enter(); /* running, and we hold the lock */
    pthread_mutex_unlock(&lifecycle_lock);
    return entered;
}

void weft_lifecycle_exit_interrupt(void)
{
    /* seq_cst: the interrupt is over before suspend reads 0. */
    atomic_fetch_sub_explicit(&weft_rt.interrupts_from_outside, 1, memory_order_seq_cst);
    weft_lifecycle_exit();
}

/* Wakes parked workers so they re-check (resume, stop, interrupts). */
void weft_unpark_all(void)
{
    weft_runtime *p = &weft_rt;
    /* seq_cst: after the caller's seq_cst store of its reason. */
    atomic_fetch_add_explicit(&p->suspend_word, 1, memory_order_seq_cst);
    weft_futex_wake(&p->suspend_word, INT_MAX);
}

/* The top-level loop: the deque is empty, so anything found runs at dq. */
static void worker_loop(weft_worker *w)
{
    weft_runtime *p = &weft_rt;
    weft_task *head = w->dq;
    weft_idle idle;
    weft_idle_reset(&idle);
    for (;;) {
        WEFT_TRACE_SET(w, WEFT_TRACE_SEARCH);
        /* Acquire: stop's writes before quit are visible at exit. */
        if (atomic_load_explicit(&p->quit, memory_order_acquire))
            return;
        if (weft_interrupt_waiting_for(w)) {
            weft_interrupt_serve(w, head);
            weft_idle_reset(&idle);
            continue;
        }
        /* Relaxed: checked again under the sleep protocol. */
        if (atomic_load_explicit(&p->suspended, memory_order_relaxed)) {
            park(w, head);
            weft_idle_reset(&idle);
            continue;
        }
        if (weft_external_pending() && weft_external_take_and_run(w, head)) {
            weft_idle_reset(&idle);
            continue;
        }
        weft_worker *victim = weft_random_victim(w);
        if (victim && weft_steal_and_run(w, head, victim, false)) {
            weft_idle_reset(&idle);
            continue;
        }
        if (weft_idle_backoff(&idle)) {
            weft_sleep(w, WEFT_SLEEP_IDLE, NULL, NULL);
            weft_idle_reset(&idle);
        }
    }
}

static void *worker_main(void *arg)
{
    weft_worker *w = arg;
    weft_tls_worker = w;
    weft_topology_pin_self(w->id);
    void *altstack = NULL;
    if (weft_rt.report_stack_overflow && weft_altstack_setup(&altstack) != 0)
        weft_warn("worker %u: no alternate signal stack; stack overflows will not be "
                  "explained", w->id);
    /* Release: pairs with start's acquire wait. */
    atomic_fetch_add_explicit(&workers_ready, 1, memory_order_release);
    weft_futex_wake(&workers_ready, 1);

    worker_loop(w);
    weft_trace_worker_exit(w);

    weft_altstack_teardown(altstack);
    weft_tls_worker = NULL;
    return NULL;
}

/* ------------------------------------------------------------------------
 * Start and stop
 * ------------------------------------------------------------------------ */

/* fork() copies only the calling thread: in the child the workers are
 * gone.  Forget the pool there (its memory is the parent's copy, left
 * alone), so that RUN reports "not running" instead of waiting forever,
 * and weft_start works again.  Locks another thread may have held at the
 * fork are re-initialised. */
static void forget_pool_in_child(void)
{
    weft_runtime *p = &weft_rt;
    pthread_mutex_init(&lifecycle_lock, NULL);
    p->workers = NULL;
    p->seats = NULL;
    p->threads = NULL;
    p->n_workers = 0;
    weft_tls_worker = NULL;
    weft_tls_guest = false; /* forked inside a borrowed RUN */
    tls_pool_holds = 0;
    tls_in_control = false;
    weft_overflow_handler_forget(); /* or a second start would chain to itself */
    handler_held = false;
    /* Relaxed: the child has one thread. */
    atomic_store_explicit(&p->lifecycle, 0, memory_order_relaxed);
    weft_external_init();
    weft_interrupt_reset();
    weft_profile_forget_in_child();
    weft_trace_forget_in_child();
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void)
{
    pthread_atfork(NULL, NULL, forget_pool_in_child);
}

static void free_workers(void)
{
    weft_runtime *p = &weft_rt;
    size_t page = weft_page_size();
    for (unsigned i = 0; i < p->n_workers; i++) {
        weft_worker *w = p->workers[i];
        if (!w)
            continue;
        weft_sched_destroy(w); /* (the worker was zeroed: safe before init) */
        weft_profile_worker_destroy(w); /* likewise */
        if (w->dq)
            weft_unmap(w->dq, weft_deque_bytes(w->deque_slots), 0, page);
        if (w->stack_lo)
            weft_unmap(w->stack_lo, p->stack_size, weft_stack_guard(p->stack_size), 0);
        weft_unmap(w, sizeof(weft_worker), 0, 0);
        if (p->seats && p->seats[i].stack_lo)
            weft_unmap(p->seats[i].stack_lo, p->stack_size, weft_stack_guard(p->stack_size), 0);
    }
    if (p->seats)
        weft_unmap(p->seats, sizeof(weft_seat) * p->n_workers, 0, 0);
    p->seats = NULL;
    free(p->workers);
    free(p->threads);
    p->workers = NULL;
    p->threads = NULL;
}

static void stop_threads(unsigned created)
{
    weft_runtime *p = &weft_rt;
    /* seq_cst: the waker's "write mine" before wake_all. */
    atomic_store_explicit(&p->quit, 1, memory_order_seq_cst);
    weft_wake_all();
    weft_unpark_all();
    for (unsigned i = 0; i < created; i++)
        pthread_join(p->threads[i], NULL);
}

int weft_start_config(const weft_config *cfg_in)
{
    weft_runtime *p = &weft_rt;
    if (!cfg_in) {
        weft_warn("weft_start_config: no configuration (use weft_config_init to fill one)");
        return EINVAL;
    }
    if (weft_tls_worker) {
        weft_warn("weft_start called from inside a worker");
        return EBUSY;
    }
    pthread_once(&atfork_once, register_atfork);
    int err = control_begin("weft_start", false);
    if (err)
        return err;
    /* Relaxed: transitions happen under lifecycle_lock. */
    if (atomic_load_explicit(&p->lifecycle, memory_order_relaxed) != 0) {
        control_end();
        weft_warn("weft_start: the pool is already running (call weft_stop first)");
        return EBUSY;
    }

    weft_config cfg = *cfg_in;
    unsigned n;
    size_t slots, stack;
    err = weft_config_validate(&cfg, &n, &slots, &stack);
    if (err) {
        control_end();
        return err;
    }

    memset(p, 0, offsetof(weft_runtime, lifecycle));
    p->n_workers = n;
    p->policy = cfg.steal_policy;
    p->idle_spin_us = cfg.idle_spin_us;
    p->deque_slots = slots;
    p->stack_size = stack;
    p->report_stack_overflow = cfg.report_stack_overflow;
    /* Relaxed (all of these): no worker exists yet; pthread_create
     * publishes them. */
    atomic_store_explicit(&p->quit, 0, memory_order_relaxed);
    atomic_store_explicit(&p->sleeping_idle, 0, memory_order_relaxed);
    atomic_store_explicit(&p->sleeping_join, 0, memory_order_relaxed);
    atomic_store_explicit(&p->suspended, 0, memory_order_relaxed);
    atomic_store_explicit(&p->parked, 0, memory_order_relaxed);
    atomic_store_explicit(&workers_ready, 0, memory_order_relaxed);
    weft_external_init();
    weft_interrupt_reset();

    p->workers = calloc(n, sizeof *p->workers);
    p->threads = calloc(n, sizeof *p->threads);
    if (!p->workers || !p->threads) {
        err = ENOMEM;
        goto fail;
    }
    if ((err = weft_topology_init(n, cfg.pin)) != 0)
        goto fail;
    /* mmap'd: zeroed and page-aligned, so every seat's line is its own. */
    p->seats = weft_map(sizeof(weft_seat) * n, 0, 0, -1);
    if (!p->seats) {
        err = ENOMEM;
        goto fail;
    }

    size_t page = weft_page_size();
    for (unsigned i = 0; i < n; i++) {
        int node = weft_topology_placement(i);
        weft_worker *w = weft_map(sizeof(weft_worker), 0, 0, node);
        if (!w) {
            err = ENOMEM;
            goto fail;
        }
        p->workers[i] = w;
        w->id = i;
        w->deque_slots = slots;
        w->rng = 0x9E3779B97F4A7C15ULL * (i + 1) ^ weft_now_ns();
        w->dq = weft_map(weft_deque_bytes(slots), 0, page, node);
        w->stack_lo = weft_map(stack, weft_stack_guard(stack), 0, node);
        if (!w->dq || !w->stack_lo) {
            err = ENOMEM;
            goto fail;
        }
        w->end = w->dq + slots;
        w->stack_hi = (char *)w->stack_lo + stack;
        w->guard_hi = w->stack_lo;
        w->guard_lo = (char *)w->stack_lo - weft_stack_guard(stack);
        /* The guest stack of RUN callers that borrow this worker (external.c):
         * address space until a borrower touches it. */
        weft_seat *seat = &p->seats[i];
        seat->stack_lo = weft_map(stack, weft_stack_guard(stack), 0, node);
        if (!seat->stack_lo) {
            err = ENOMEM;
            goto fail;
        }
        seat->stack_size = stack;
        seat->guard_lo = (char *)seat->stack_lo - weft_stack_guard(stack);
        atomic_init(&seat->loans, 0);
        weft_sched_init(w);
        if ((err = weft_profile_worker_init(w)) != 0)
            goto fail;
        atomic_init(&w->sleep_word, WEFT_AWAKE);
        atomic_init(&w->leap_sleepers, 0);
        atomic_init(&w->joining, NULL);
    }

    if ((err = weft_trace_at_start(p->workers, n)) != 0)
        goto fail;
    handler_held = false;
    if (cfg.report_stack_overflow) {
        if (weft_overflow_handler_install() == 0)
            handler_held = true;
        else
            weft_warn("could not install the SIGSEGV handler; stack overflows will not be "
                      "explained");
    }

    unsigned created = 0;
    for (; created < n; created++) {
        weft_worker *w = p->workers[created];
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstack(&attr, w->stack_lo, stack);
        err = pthread_create(&p->threads[created], &attr, worker_main, w);
        pthread_attr_destroy(&attr);
        if (err) {
            weft_warn("weft_start: cannot create worker thread %u: %s", created, strerror(err));
            stop_threads(created);
            release_handler();
            goto fail;
        }
    }
    for (;;) {
        /* Acquire: pairs with each worker's release increment. */
        uint32_t ready = atomic_load_explicit(&workers_ready, memory_order_acquire);
        if (ready == n)
            break;
        weft_futex_wait(&workers_ready, ready);
    }
    /* Release: RUNs that see RUNNING see an initialised pool. */
    atomic_store_explicit(&p->lifecycle, lifecycle_pack(WEFT_RT_RUNNING, 0), memory_order_release);
    control_end();
    return 0;

fail:
    weft_trace_at_stop(false, NULL);
    if (err == ENOMEM)
        weft_warn("weft_start: out of memory for %u workers (deque %zu tasks, stack %zu bytes)",
                  n, slots, stack);
    free_workers();
    weft_topology_destroy();
    control_end();
    return err;
}

int weft_start(unsigned workers, size_t deque_size, size_t stack_size)
{
    weft_config cfg;
    int err = weft_config_init(&cfg);
    if (err)
        return err;
    if (workers)
        cfg.workers = workers;
    if (deque_size)
        cfg.deque_size = deque_size;
    if (stack_size)
        cfg.stack_size = stack_size;
    return weft_start_config(&cfg);
}

bool weft_lifecycle_enter(void)
{
    weft_runtime *p = &weft_rt;
    /* Relaxed first read; the CAS decides. */
    uint64_t v = atomic_load_explicit(&p->lifecycle, memory_order_relaxed);
    do {
        if ((v >> 32) != WEFT_RT_RUNNING)
            return false;
        /* Acquire: pairs with start's release; the pool is initialised. */
    } while (!atomic_compare_exchange_weak_explicit(&p->lifecycle, &v, v + 1, memory_order_acquire,
                                                    memory_order_relaxed));
    tls_pool_holds++;
    return true;
}

void weft_lifecycle_exit(void)
{
    tls_pool_holds--;
    /* Release: our use of the pool happens before stop tears it down. */
    atomic_fetch_sub_explicit(&weft_rt.lifecycle, 1, memory_order_release);
}

static int resume_locked(void)
{
    weft_runtime *p = &weft_rt;
    /* seq_cst: parked workers re-check it after the word changes. */
    atomic_store_explicit(&p->suspended, 0, memory_order_seq_cst);
    /* Relaxed: YIELD's hint only; the flag above decides. */
    atomic_fetch_and_explicit(&weft_attention_g, ~(uint32_t)WEFT_ATTN_SUSPEND,
                              memory_order_relaxed);
    weft_unpark_all();
    return 0;
}

int weft_stop(void)
{
    weft_runtime *p = &weft_rt;
    int err = control_begin("weft_stop", true);
    if (err)
        return err;
    if (!control_running("weft_stop")) {
        control_end();
        return EINVAL;
    }
    /* Relaxed: under the lock; the CAS below decides. */
    uint64_t v = atomic_load_explicit(&p->lifecycle, memory_order_relaxed);
    /* No new RUN may enter; wait for those inside.  acq_rel: the CAS keeps
     * the user count; acquire pairs with their exits. */
    while (!atomic_compare_exchange_weak_explicit(
        &p->lifecycle, &v, lifecycle_pack(WEFT_RT_STOPPING, (uint32_t)v), memory_order_acq_rel,
        memory_order_relaxed)) {
    }
    if (atomic_load_explicit(&p->suspended, memory_order_relaxed)) /* written under our lock */
        resume_locked();
    /* Acquire: pairs with weft_lifecycle_exit. */
    while ((uint32_t)atomic_load_explicit(&p->lifecycle, memory_order_acquire) != 0)
        weft_sleep_ns(100000);

    stop_threads(p->n_workers);
    if (weft_stats_print_at_stop())
        weft_stats_print_locked(stderr);
    weft_profile_at_stop();
    weft_stats counters;
    weft_stats_get_locked(&counters);
    weft_trace_at_stop(true, WEFT_STATS ? &counters : NULL);
    release_handler();
    free_workers();
    weft_topology_destroy();
    p->n_workers = 0;
    atomic_store_explicit(&p->lifecycle, 0, memory_order_release); /* stopped */
    control_end();
    return 0;
}

int weft_suspend(void)
{
    weft_runtime *p = &weft_rt;
    int err = control_begin("weft_suspend", true);
    if (err)
        return err;
    if (!control_running("weft_suspend")) {
        control_end();
        return EINVAL;
    }
    if (atomic_load_explicit(&p->suspended, memory_order_relaxed)) { /* written under the lock */
        control_end();
        return 0; /* already suspended */
    }
    /* seq_cst: the waker's "write mine" before wake_all. */
    atomic_store_explicit(&p->suspended, 1, memory_order_seq_cst);
    /* Relaxed: YIELD's hint; the flag above is what parking checks. */
    atomic_fetch_or_explicit(&weft_attention_g, WEFT_ATTN_SUSPEND, memory_order_relaxed);
    weft_wake_all();
    /* Wait until every worker is parked: tasks reach a YIELD, a blocked
     * SYNC or their end first, and interrupts in progress (also those that
     * threads outside the pool started before this) finish.  seq_cst: the
     * counts of parked workers and of outside interrupts are updated
     * seq_cst. */
    while (atomic_load_explicit(&p->parked, memory_order_seq_cst) != p->n_workers ||
           atomic_load_explicit(&p->interrupts_from_outside, memory_order_seq_cst) != 0)
        weft_sleep_ns(50000);
    control_end();
    return 0;
}

int weft_resume(void)
{
    weft_runtime *p = &weft_rt;
    int err = control_begin("weft_resume", false);
    if (err)
        return err;
    if (!control_running("weft_resume")) {
        control_end();
        return EINVAL;
    }
    if (!atomic_load_explicit(&p->suspended, memory_order_relaxed)) { /* written under the lock */
        control_end();
        weft_warn("weft_resume: the pool is not suspended");
        return EINVAL;
    }
    int r = resume_locked();
    control_end();
    return r;
}
