// SPDX-License-Identifier: Apache-2.0
/* Worker lifecycle: start, the worker loop and stop: the top of the
 * runtime's layers (docs/design.md).  The configuration (defaults,
 * environment, ranges) is config.c; suspend and resume are interrupt.c's. */
#include <weft/weft.h>

#include "observe/hooks.h"
#include "runtime/config.h"
#include "runtime/diagnostics.h"
#include "runtime/env.h"
#include "runtime/external.h"
#include "runtime/external_queue.h"
#include "runtime/gate.h"
#include "runtime/interrupt.h"
#include "runtime/memory.h"
#include "runtime/overflow.h"
#include "runtime/parking.h"
#include "runtime/sched.h"
#include "runtime/sleep.h"
#include "runtime/state.h"
#include "runtime/stats.h"
#include "runtime/steal.h"
#include "runtime/topology.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/futex.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Workers that finished initialising (start waits for all). */
static _Atomic uint32_t workers_ready;
/* This pool holds a use of the SIGSEGV handler (report_stack_overflow). */
static bool handler_held;
/* The exit handler stopped the pool (under the control lock; a start
 * clears it): a weft_stop that was waiting for the lock meanwhile returns
 * EINVAL without a message, the reports written once, at exit. */
static bool stopped_at_exit;

static void release_handler(void)
{
    if (handler_held)
        weft__overflow_handler_remove();
    handler_held = false;
}

/* ------------------------------------------------------------------------
 * The worker
 * ------------------------------------------------------------------------ */

/* The top-level loop: the deque is empty, so anything found runs at dq. */
static void worker_loop(weft_worker *w)
{
    weft_runtime *p = &weft__rt;
    weft_task *head = w->dq;
    weft_idle idle;
    weft__idle_reset(&idle);
    for (;;) {
        weft_stop_if_forked();
        WEFT_TRACE_SET(w, WEFT_TRACE_SEARCH);
        /* Acquire: stop's writes before quit are visible at exit. */
        if (atomic_load_explicit(&p->quit, memory_order_acquire))
            return;
        if (weft_interrupt_waiting_for(w)) {
            weft__interrupt_serve(w, head);
            weft__idle_reset(&idle);
            continue;
        }
        /* Relaxed: checked again under the sleep protocol. */
        if (atomic_load_explicit(&p->suspended, memory_order_relaxed)) {
            weft__park_if_suspended(w, head);
            weft__idle_reset(&idle);
            continue;
        }
        /* With an active limit, a worker counts itself in while it looks
         * for work and runs what it found, or waits as a surplus worker. */
        if (p->active_limit && !weft__active_enter(w)) {
            /* A RUN from outside whose caller asked is taken over the
             * limit: the workers counted in may all run tasks that wait
             * for it. */
            if (weft__surplus_asked() && weft_external_pending()) {
                weft__surplus_pass_on();
                weft__active_enter_over_limit();
                (void)weft__external_take_and_run(w, head);
                weft__active_leave();
            }
            weft__idle_reset(&idle);
            continue;
        }
        weft_worker *victim;
        bool ran =
            (weft_external_pending() && weft__external_take_and_run(w, head)) ||
            ((victim = weft__random_victim(w)) && weft__steal_and_run(w, head, victim, false));
        if (p->active_limit)
            weft__active_leave();
        if (ran) {
            weft__idle_reset(&idle);
            continue;
        }
        if (weft__idle_backoff(&idle)) {
            weft__sleep(w, WEFT_SLEEP_IDLE, NULL, NULL);
            weft__idle_reset(&idle);
        }
    }
}

/* A worker's thread that ends before its loop returns (a task called
 * pthread_exit, or the thread was cancelled) leaves the pool waiting for
 * it forever: its key's destructor, which runs only then, stops the
 * program with the reason instead. */
static pthread_key_t worker_thread_key;
static pthread_once_t worker_thread_key_once = PTHREAD_ONCE_INIT;
static bool worker_thread_key_made;

static void worker_thread_ended(void *arg)
{
    const weft_worker *w = arg;
    weft__fatal("worker %u's thread ended inside a task (pthread_exit, or a cancellation): a "
                "task must return to its caller, and the pool cannot go on without the worker",
                w->id);
}

static void make_worker_thread_key(void)
{
    worker_thread_key_made = pthread_key_create(&worker_thread_key, worker_thread_ended) == 0;
}

static void *worker_main(void *arg)
{
    weft_worker *w = arg;
    weft__tls_worker = w;
    if (worker_thread_key_made)
        (void)pthread_setspecific(worker_thread_key, w);
    weft__worker_speaks(weft__pool_starter()); /* set before this thread was created */
    weft__topology_pin_self(w->id);
    void *altstack = NULL;
    if (weft__rt.report_stack_overflow) {
        (void)weft__segv_unblock(); /* this thread is weft's: no mask to restore */
        if (weft__altstack_setup(&altstack) != 0)
            weft__warn("worker %u: no alternate signal stack; stack overflows will not be "
                       "explained",
                       w->id);
    }
    /* Release: pairs with start's acquire wait. */
    atomic_fetch_add_explicit(&workers_ready, 1, memory_order_release);
    weft__futex_wake(&workers_ready, 1);

    worker_loop(w);
    weft__trace_worker_exit(w);

    weft__altstack_teardown(altstack);
    weft__tls_worker = NULL;
    if (worker_thread_key_made)
        (void)pthread_setspecific(worker_thread_key, NULL); /* a return: nothing to report */
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
    if (weft__tls_worker && !weft__adopted_forget_in_child())
        weft__forked_in_task = true; /* a task forked: the child would go on with it */
    weft__state_forget_in_child();
    weft__pool_started_by(NULL);
    weft__gate_forget_in_child();
    weft__overflow_handler_forget(); /* or a second start would chain to itself */
    handler_held = false;
    weft__external_init();
    weft__interrupt_reset();
    weft__profile_forget_in_child();
    weft__trace_forget_in_child();
    stopped_at_exit = false;
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* The workers run this library's code until weft_stop, so the object that
 * holds it must not be unmapped before: a plugin that links libweft.a and
 * is dlclose()d with its pool running would pull the code from under
 * them (libweft.so is linked -z nodelete for the same reason).  On the
 * first start the object holding the runtime is marked RTLD_NODELETE,
 * which a dlclose then leaves loaded until exit; for the main program the
 * lookup finds nothing to mark, harmlessly. */
static pthread_once_t pin_once = PTHREAD_ONCE_INIT;

static void pin_own_object(void)
{
    Dl_info info;
    if (dladdr((void *)(uintptr_t)&weft_start_config, &info) == 0 || info.dli_fname == NULL)
        return;
    /* A handle never closed: the object stays for the process's life. */
    (void)dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}
/* weft__pool_starter_at_fork's record, noted by the forking thread. */
static _Atomic(const weft__api_words *) starter_at_fork;
static void note_starter_at_fork(void)
{
    /* Relaxed (both): written by the forking thread before the fork, read
     * by it and by the child's one thread after. */
    atomic_store_explicit(&starter_at_fork, weft__pool_starter(), memory_order_relaxed);
}

const weft__api_words *weft__pool_starter_at_fork(void)
{
    return atomic_load_explicit(&starter_at_fork, memory_order_relaxed);
}

static void register_atfork(void)
{
    pthread_atfork(note_starter_at_fork, NULL, forget_pool_in_child);
}

/* ---- Reports at exit ---- */

/* How long the exit handler waits for the control lock while another
 * thread holds it (a weft_stop writing the reports; a start, suspend or
 * resume): EXIT_WAIT_RUNS_NS while that stop, or the handler's own, waits
 * for threads inside the pool (RUN, TOGETHER, NEWFRAME), EXIT_WAIT_NS in
 * all (the stop's own work: joining the workers, writing the files). */
#define EXIT_WAIT_RUNS_NS 1000000000ull
#define EXIT_WAIT_NS 30000000000ull
#define EXIT_POLL_NS 100000ull

/* What weft_stop writes that the program asked for: the profile
 * (WEFT_PROFILE, WEFT_PROFILE_JSON), a timeline being recorded (WEFT_TRACE
 * or weft_trace_start), the counters (WEFT_STATS).  NULL if none. */
static const char *report_due(void)
{
#if WEFT_TRACE
    if (weft__trace_session_on()) {
        /* A streamed file holds what was written until now: only its end
         * is lost. */
        static char streamed[640];
        char path[400];
        if (weft__trace_streaming_to(path, sizeof path)) {
            snprintf(streamed, sizeof streamed,
                     "the end of the timeline (%s keeps what was streamed until now: the "
                     "slices that ended; each worker's slice under way is missing)",
                     path);
            return streamed;
        }
        return "the timeline";
    }
#endif
    if (WEFT_PROFILE && weft__env_value("WEFT_PROFILE_JSON"))
        return "the profile";
    bool print = false;
    if (WEFT_PROFILE && weft__env_flag("WEFT_PROFILE", &print) == 0 && print)
        return "the profile";
    if (weft__stats_print_at_stop())
        return "the counters";
    return NULL;
}

static bool stop_locked(uint64_t runs_wait_ns);

static void say_runs_inside(uint32_t inside, const char *report)
{
    /* About the pool: in the words of the API that started it. */
    const weft__api_words *was = weft__speak_as(weft__pool_words());
    weft__warn("the process exits with %u thread%s inside the pool (RUN, TOGETHER or "
               "NEWFRAME): %s is not written (let them return and call %s before exit)",
               inside, inside == 1 ? "" : "s", report, weft__words()->stop);
    (void)weft__speak_as(was);
}

/* The control lock for the exit handler (weft__control_end releases it):
 * a stop in progress on another thread has written its reports when the
 * lock is free again.  Waits as long as EXIT_WAIT_RUNS_NS and
 * EXIT_WAIT_NS allow; false: not taken, and a line said what `report`
 * loses. */
static bool exit_lock(const char *report)
{
    const char *why = NULL;
    uint64_t start = weft_now_ns(), runs_since = 0;
    for (;;) {
        int err = weft__control_try_begin(true, &why);
        if (err == 0)
            return true;
        if (err == EDEADLK) {
            weft__warn("exit called %s: %s is not written, as the pool cannot stop under this "
                       "thread's own call",
                       why, report);
            return false;
        }
        /* Relaxed: only chooses the bound of the wait; the state is read
         * again under the lock. */
        uint64_t v = atomic_load_explicit(&weft__rt.lifecycle, memory_order_relaxed);
        uint64_t now = weft_now_ns();
        bool runs = (v >> 32) == WEFT_RT_STOPPING && (uint32_t)v != 0;
        if (!runs)
            runs_since = 0;
        else if (!runs_since)
            runs_since = now;
        if (runs && now - runs_since >= EXIT_WAIT_RUNS_NS) {
            weft__warn("the process exits while %s on another thread waits for %u thread%s "
                       "inside the pool (RUN, TOGETHER or NEWFRAME): %s is not written (let "
                       "them return before exit)",
                       weft__words()->stop, (uint32_t)v, (uint32_t)v == 1 ? "" : "s", report);
            return false;
        }
        if (now - start >= EXIT_WAIT_NS) {
            weft__warn("the process exits while another thread has been inside %s, %s, "
                       "weft_suspend or weft_resume for %llu s: %s is not written",
                       weft__words()->start, weft__words()->stop,
                       (unsigned long long)(EXIT_WAIT_NS / 1000000000ull), report);
            return false;
        }
        weft_sleep_ns(EXIT_POLL_NS);
    }
}

/* A program that exits with the pool running (the C++ default pool, which
 * nothing stops; a C program without weft_stop) would lose the reports
 * weft_stop writes: when one is due, the pool is stopped here, or a line
 * says why it cannot be.  A stop in progress on another thread is waited
 * for (exit_lock): its reports are written whole, once, before the
 * process ends (verification/exit_stop.pml). */
static void stop_at_exit(void)
{
    /* Acquire: pairs with the release of STOPPED at the end of weft_stop,
     * whose reports are then written.  Only a first look: the state is
     * decided under the control lock. */
    uint64_t v = atomic_load_explicit(&weft__rt.lifecycle, memory_order_acquire);
    if ((v >> 32) == WEFT_RT_STOPPED)
        return;
    const char *report = report_due();
    if (!report)
        return;
    if (weft__tls_worker) {
        weft__warn("exit called from a task: %s is not written, as the pool cannot stop under "
                   "its own task (return from the tasks, then exit)",
                   report);
        return;
    }
    if (!exit_lock(report))
        return;
    /* Relaxed: transitions happen under the control lock, which we hold. */
    v = atomic_load_explicit(&weft__rt.lifecycle, memory_order_relaxed);
    if ((v >> 32) != WEFT_RT_RUNNING) { /* another thread's weft_stop wrote the reports */
        weft__control_end();
        return;
    }
    if ((uint32_t)v != 0) {
        weft__control_end();
        say_runs_inside((uint32_t)v, report);
        return;
    }
    stopped_at_exit = true;
    if (!stop_locked(EXIT_WAIT_RUNS_NS)) {
        /* A RUN came in and stays: the pool is left STOPPING (no RUN
         * enters any more), and the process ends. */
        /* Relaxed: under the lock; only the count is used. */
        v = atomic_load_explicit(&weft__rt.lifecycle, memory_order_relaxed);
        weft__control_end();
        say_runs_inside((uint32_t)v, report);
        return;
    }
    weft__control_end();
}

static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT;
static void register_at_exit(void)
{
    if (atexit(stop_at_exit) != 0)
        weft__warn("cannot register the exit handler: a pool running at exit will not write "
                   "its profile, timeline or counters (call weft_stop before exit)");
}

/* ---- One worker: its struct, deque, stack and guest seat ---- */

/* Maps worker i's memory on its placement and initialises it (the
 * scheduler's part too).  ENOMEM, or an error of the profiler's. */
static int worker_create(unsigned i, size_t slots, size_t stack)
{
    weft_runtime *p = &weft__rt;
    int node = weft__topology_placement(i);
    weft_worker *w = weft__map(sizeof(weft_worker), 0, 0, node);
    if (!w)
        return ENOMEM;
    p->workers[i] = w;
    w->id = i;
    w->deque_slots = slots;
    w->shared_part = &w->shared;
    w->cpu = (int16_t)weft__topology_worker_cpu(i);
    w->rng = 0x9E3779B97F4A7C15ULL * (i + 1) ^ weft_now_ns();
    weft_task *floor = weft__map(weft__deque_bytes(slots), 0, weft__page_size(), node);
    if (floor) {
        /* The floor slot below the deque is never a task's: not EMPTY, so
         * the slot below every head reads as below the top.  Relaxed:
         * before the worker's thread exists (its start publishes it). */
        atomic_store_explicit(&floor->state, WEFT_STATE_END, memory_order_relaxed);
        w->dq = floor + 1;
    }
    w->stack_lo = weft__map(stack, weft__stack_guard(stack), 0, node);
    if (!w->dq || !w->stack_lo)
        return ENOMEM;
    w->end = w->dq + slots;
    w->stack_hi = (char *)w->stack_lo + stack;
    w->guard_hi = w->stack_lo;
    w->guard_lo = (char *)w->stack_lo - weft__stack_guard(stack);
    /* The guest stack of RUN callers that borrow this worker (external.c):
     * address space until a borrower touches it. */
    weft_seat *seat = &p->seats[i];
    seat->stack_lo = weft__map(stack, weft__stack_guard(stack), 0, node);
    if (!seat->stack_lo)
        return ENOMEM;
    seat->stack_size = stack;
    seat->guard_lo = (char *)seat->stack_lo - weft__stack_guard(stack);
    atomic_init(&seat->loans, 0);
    weft__sched_init(w);
    /* Relaxed: before the worker's thread exists (its start publishes it). */
    atomic_store_explicit(&weft_sched_sentinel(w)->state, WEFT_STATE_END, memory_order_relaxed);
    int err = weft__profile_worker_init(w);
    if (err)
        return err;
    atomic_init(&w->sleep_word, WEFT_AWAKE);
    atomic_init(&w->waker_cpu, -1);
    atomic_init(&w->leap_sleepers, 0);
    atomic_init(&w->joining, NULL);
    return 0;
}

/* Undoes worker_create, also a partial one (the worker was zeroed). */
static void worker_destroy(unsigned i)
{
    weft_runtime *p = &weft__rt;
    weft_worker *w = p->workers[i];
    if (w) {
        weft__sched_destroy(w);
        weft__profile_worker_destroy(w);
        if (w->dq)
            weft__unmap(w->dq - 1, weft__deque_bytes(w->deque_slots), 0, weft__page_size());
        if (w->stack_lo)
            weft__unmap(w->stack_lo, p->stack_size, weft__stack_guard(p->stack_size), 0);
        weft__unmap(w, sizeof(weft_worker), 0, 0);
    }
    if (p->seats && p->seats[i].stack_lo)
        weft__unmap(p->seats[i].stack_lo, p->stack_size, weft__stack_guard(p->stack_size), 0);
}

/* ---- The pool: every worker, then the threads ---- */

/* The pool's shared state for a start with this configuration. */
static void pool_reset(const weft_config *cfg, unsigned n, size_t slots, size_t stack,
                       unsigned cpus)
{
    weft_runtime *p = &weft__rt;
    memset(p, 0, offsetof(weft_runtime, lifecycle));
    p->n_workers = n;
    p->policy = cfg->steal_policy;
    p->idle_spin_us = cfg->idle_spin_us;
    p->idle_hold_ns = n <= cpus ? WEFT_IDLE_HOLD_NS : 0;
    if (p->idle_hold_ns != 0)
        weft__park_calibrate_yield();
    p->active_limit = weft__sched_hands_out_tasks ? 0 : weft__config_active_limit(n, cpus);
    p->deque_slots = slots;
    p->stack_size = stack;
    p->report_stack_overflow = cfg->report_stack_overflow;
    /* Relaxed (all of these): no worker exists yet; pthread_create
     * publishes them. */
    atomic_store_explicit(&p->quit, 0, memory_order_relaxed);
    atomic_store_explicit(&p->sleeping_idle, 0, memory_order_relaxed);
    atomic_store_explicit(&p->sleeping_join, 0, memory_order_relaxed);
    atomic_store_explicit(&p->active, 0, memory_order_relaxed);
    atomic_store_explicit(&p->surplus_word, 0, memory_order_relaxed);
    atomic_store_explicit(&p->surplus, 0, memory_order_relaxed);
    atomic_store_explicit(&p->surplus_asks, 0, memory_order_relaxed);
    atomic_store_explicit(&p->suspended, 0, memory_order_relaxed);
    atomic_store_explicit(&p->parked, 0, memory_order_relaxed);
    atomic_store_explicit(&p->suspend_lazy, false, memory_order_relaxed);
    p->suspend_lazy_holds = 0;
    atomic_store_explicit(&p->suspend_sync_holds, 0, memory_order_relaxed);
    atomic_store_explicit(&workers_ready, 0, memory_order_relaxed);
    weft__external_init();
    weft__interrupt_reset();
}

static void pool_free(void)
{
    weft_runtime *p = &weft__rt;
    for (unsigned i = 0; p->workers && i < p->n_workers; i++)
        worker_destroy(i);
    if (p->seats)
        weft__unmap(p->seats, sizeof(weft_seat) * p->n_workers, 0, 0);
    p->seats = NULL;
    free(p->workers);
    free(p->threads);
    p->workers = NULL;
    p->threads = NULL;
    weft__topology_destroy();
}

/* Everything but the threads: the workers, the tracer's buffers and the
 * SIGSEGV handler.  On failure, frees what it made. */
static int pool_create(const weft_config *cfg, unsigned n, size_t slots, size_t stack,
                       unsigned cpus)
{
    weft_runtime *p = &weft__rt;
    pool_reset(cfg, n, slots, stack, cpus);
    int err = 0;
    p->workers = calloc(n, sizeof *p->workers);
    p->threads = calloc(n, sizeof *p->threads);
    if (!p->workers || !p->threads)
        err = ENOMEM;
    if (!err)
        err = weft__topology_init(cfg->pin);
    /* mmap'd: zeroed and page-aligned, so every seat's line is its own. */
    if (!err && !(p->seats = weft__map(sizeof(weft_seat) * n, 0, 0, -1)))
        err = ENOMEM;
    for (unsigned i = 0; !err && i < n; i++)
        err = worker_create(i, slots, stack);
    if (!err)
        weft__trace_at_start(p->workers, n);
    if (err) {
        weft__trace_at_stop(false, NULL);
        if (err == ENOMEM)
            weft__warn("%s: out of memory for %u workers (deque %zu tasks, stack %zu "
                       "bytes)",
                       weft__words()->start, n, slots, stack);
        pool_free();
        return err;
    }
    handler_held = false;
    if (cfg->report_stack_overflow)
        handler_held = weft__overflow_handler_install() == 0; /* says why if not */
    return 0;
}

/* Asks the first `created` workers to quit, and joins them. */
static void threads_stop(unsigned created)
{
    weft_runtime *p = &weft__rt;
    /* seq_cst: the waker's "write mine" before wake_all. */
    atomic_store_explicit(&p->quit, 1, memory_order_seq_cst);
    weft__wake_all();
    weft__unpark_all();
    for (unsigned i = 0; i < created; i++)
        pthread_join(p->threads[i], NULL);
}

/* Creates the worker threads on their stacks and waits until each has
 * started.  On failure, stops those it made. */
static int threads_start(unsigned n, size_t stack)
{
    weft_runtime *p = &weft__rt;
    for (unsigned created = 0; created < n; created++) {
        weft_worker *w = p->workers[created];
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstack(&attr, w->stack_lo, stack);
        int err = pthread_create(&p->threads[created], &attr, worker_main, w);
        pthread_attr_destroy(&attr);
        if (err) {
            weft__warn("%s: cannot create worker thread %u: %s", weft__words()->start, created,
                       strerror(err));
            threads_stop(created);
            return err;
        }
    }
    for (;;) {
        /* Acquire: pairs with each worker's release increment. */
        uint32_t ready = atomic_load_explicit(&workers_ready, memory_order_acquire);
        if (ready == n)
            return 0;
        weft__futex_wait(&workers_ready, ready);
    }
}

/* A second pool is refused: the message names the API of the start that
 * is refused and the one that started the running pool. */
static void warn_running(void)
{
    const weft__api_words *me = weft__words();
    const weft__api_words *owner = weft__pool_starter();
    if (me->quiet_if_running)
        return;
    if (owner == NULL || owner == me)
        weft__warn("%s: the pool is already running (%s)", me->start, me->stop_first);
    else
        weft__warn("%s: %s is running, and only one pool runs at a time (%s)", me->start,
                   owner->pool, owner->stop_first);
}

/* weft_start_config.  The start and the stop speak as their caller: the
 * API a front-end or the C++ API speaks as around the call
 * (weft__speak_as), else weft's C API; on a worker too, whose own
 * messages are its pool's. */
static int start(const weft_config *cfg_in)
{
    weft_runtime *p = &weft__rt;
    const weft__api_words *me = weft__words();
    if (!cfg_in) {
        weft__warn("weft_start_config: no configuration (use weft_config_init to fill one)");
        return EINVAL;
    }
    if (weft__tls_worker) {
        weft__warn("%s called from inside a worker", me->start);
        return EBUSY;
    }
    pthread_once(&atfork_once, register_atfork);
    pthread_once(&pin_once, pin_own_object);
    pthread_once(&worker_thread_key_once, make_worker_thread_key);
    int err = weft__control_begin(me->start, false);
    if (err)
        return err;
    /* Relaxed: transitions happen under the control lock. */
    if (atomic_load_explicit(&p->lifecycle, memory_order_relaxed) != 0) {
        warn_running();
        weft__control_end();
        return EBUSY;
    }
    weft_config cfg = *cfg_in;
    unsigned n, cpus;
    size_t slots, stack;
    /* The pool's messages speak the API that starts it, its workers' too
     * (worker_main): set before any exists. */
    weft__pool_started_by(me);
    err = weft__config_validate(&cfg, &n, &slots, &stack, &cpus);
    if (!err)
        err = pool_create(&cfg, n, slots, stack, cpus);
    if (!err && (err = threads_start(n, stack)) != 0) {
        weft__trace_at_stop(false, NULL);
        release_handler();
        pool_free();
    }
    if (!err) { /* Release: RUNs that see RUNNING see an initialised pool. */
        atomic_store_explicit(&p->lifecycle, weft_lifecycle_word(WEFT_RT_RUNNING, 0),
                              memory_order_release);
        stopped_at_exit = false;
    } else {
        weft__pool_started_by(NULL);
    }
    weft__control_end();
    if (!err)
        pthread_once(&at_exit_once, register_at_exit);
    return err;
}

int weft_start_config(const weft_config *cfg_in)
{
    const weft__api_words *was = weft__speak_as_caller();
    int err = start(cfg_in);
    (void)weft__speak_as(was);
    return err;
}

int weft_start(unsigned workers, size_t deque_size, size_t stack_size)
{
    /* Its caller's words from here: weft_config_init reads the environment. */
    const weft__api_words *was = weft__speak_as_caller();
    weft_config cfg;
    int err = weft_config_init(&cfg);
    if (!err) {
        if (workers)
            cfg.workers = workers;
        if (deque_size)
            cfg.deque_size = deque_size;
        if (stack_size)
            cfg.stack_size = stack_size;
        err = start(&cfg);
    }
    (void)weft__speak_as(was);
    return err;
}

/* Under the control lock, with the pool running: no new RUN may enter;
 * waits for those inside, at most runs_wait_ns (false: they have not all
 * left, and the pool stays STOPPING); then joins the workers, writes the
 * reports and frees the pool. */
static bool stop_locked(uint64_t runs_wait_ns)
{
    weft_runtime *p = &weft__rt;
    /* Relaxed: under the lock; the CAS below decides. */
    uint64_t v = atomic_load_explicit(&p->lifecycle, memory_order_relaxed);
    /* No new RUN may enter; wait for those inside.  acq_rel: the CAS keeps
     * the user count; acquire pairs with their exits. */
    while (!atomic_compare_exchange_weak_explicit(
        &p->lifecycle, &v, weft_lifecycle_word(WEFT_RT_STOPPING, (uint32_t)v), memory_order_acq_rel,
        memory_order_relaxed)) {
    }
    if (atomic_load_explicit(&p->suspended, memory_order_relaxed)) /* written under our lock */
        weft__resume_locked();
    uint64_t start = weft_now_ns();
    /* Acquire: pairs with weft__lifecycle_exit. */
    while ((uint32_t)atomic_load_explicit(&p->lifecycle, memory_order_acquire) != 0) {
        if (weft_now_ns() - start >= runs_wait_ns)
            return false;
        weft_sleep_ns(100000);
    }

    threads_stop(p->n_workers);
    if (weft__stats_print_at_stop())
        weft__stats_print_locked(stderr);
    weft__profile_at_stop();
    weft_stats counters;
    weft__stats_get_locked(&counters);
    weft__trace_at_stop(true, WEFT_STATS ? &counters : NULL);
    release_handler();
    pool_free();
    p->n_workers = 0;
    weft__pool_started_by(NULL);
    /* Release: the reports above are written before an exit handler that
     * sees STOPPED (acquire, stop_at_exit) lets the process end. */
    atomic_store_explicit(&p->lifecycle, 0, memory_order_release); /* stopped */
    return true;
}

/* weft_stop, speaking as its caller (start). */
static int stop(void)
{
    const char *me = weft__words()->stop;
    int err = weft__control_begin(me, true);
    if (err)
        return err;
    /* The exit handler stopped the pool while this call waited for the
     * lock (quietly: the reports are written, the process is ending). */
    if (stopped_at_exit || !weft__control_running(me)) {
        weft__control_end();
        return EINVAL;
    }
    /* The pool's starter says who may stop it: written under the lock. */
    const weft__api_words *owner = weft__pool_starter();
    if (owner && owner != weft__words() && owner->stops_only_itself) {
        weft__warn("%s: the running pool is %s, which %s stops: it is left running", me,
                   owner->pool, owner->stop);
        weft__control_end();
        return EBUSY;
    }
    (void)stop_locked(UINT64_MAX);
    weft__control_end();
    return 0;
}

int weft_stop(void)
{
    const weft__api_words *was = weft__speak_as_caller();
    int err = stop();
    (void)weft__speak_as(was);
    return err;
}
