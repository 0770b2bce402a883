// SPDX-License-Identifier: Apache-2.0
/* RUN from threads that are not workers.
 *
 * First choice: the calling thread joins the computation.  It borrows the
 * identity of a worker asleep at top level (weft__borrow_idle: its deque is
 * empty, its thread waits on its futex), runs the task as that worker on
 * the worker's guest stack, and puts the worker back to sleep
 * (weft__sleep_lent_return).  Thieves steal from the borrowed deque as from
 * any worker's, and its SPAWNs wake sleepers through the scheduler's usual
 * path, so a short task costs no wake-up at all.  The worker's id stays in
 * [0, workers): per-worker arrays indexed by weft_worker_id work inside
 * the task.  docs/sleep.md, "RUN on the calling thread", has the protocol.
 *
 * Otherwise (no worker sleeps idle, the pool is suspended or in an
 * interrupt, or the caller asked for a worker's thread with
 * weft__run_task_on_worker): the caller's task descriptor stays on its own
 * stack; a request pointing to it is queued (external_queue.c), an idle
 * worker is woken, else a worker waiting in a work pool's run inside a
 * task, and the caller blocks until a worker has run the task.
 */
#include "runtime/external.h"

#include <weft/weft.h>

#include "observe/hooks.h"
#include "runtime/diagnostics.h"
#include "runtime/external_queue.h"
#include "runtime/gate.h"
#include "runtime/memory.h"
#include "runtime/overflow.h"
#include "runtime/sleep.h"
#include "runtime/state.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/futex.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "sys/stack_call.h"

/* How a RUN caller waits for a RUN it handed to a worker
 * (run_from_outside; docs/sleep.md, "Waiting for a RUN handed to a
 * worker").  If the task of its last handed-over RUN ran for at most the
 * spin time, and no worker had to be woken for this one, it spins: until
 * a worker takes the request, for at most CALLER_PICKUP_NS, and then
 * while the task has run for at most the spin time.  Otherwise, or once
 * those are over, it sleeps.  The spin time is about what a futex
 * wake-up costs: spinning longer costs the workers more than waking
 * does.  Not longer when the pool leaves a CPU free: the kernel need not
 * keep the caller there (it may wake it beside the worker and leave the
 * two sharing a CPU), and a caller spinning on another CPU keeps the
 * process's address space live there, so that every page-table change of
 * the workers (a page fault on fresh memory, an munmap) sends that CPU a
 * TLB shoot-down.  The pickup wait is what an awake worker needs to see
 * the request (it looks about every microsecond): a worker that has to
 * be woken, or one that waits for a CPU (beside other programs, or
 * behind the caller's own spin on the CPU the kernel put it on), takes
 * far longer, and a caller spinning meanwhile may be what it waits for
 * (docs/sleep.md, "Waiting for a RUN handed to a worker"). */
#define CALLER_SPIN_NS 20000u
#define CALLER_PICKUP_NS 5000u
/* A caller asleep this long with its RUN still queued asks a surplus
 * worker to run it (weft__surplus_ask): long enough that a
 * RUN the workers at work take in turn never pays for that wake-up. */
#define CALLER_UNTAKEN_NS 1000000u

/* How long the task of this thread's last RUN handed to a worker ran, from
 * the worker's taking it to its finish (ns): the next one's prediction. */
static __thread uint64_t tls_last_handoff_run_ns;

/* RUN while the pool is suspended: said once. */
static _Atomic uint32_t warned_suspended;

/* ---- RUN on the calling thread, as a borrowed worker ---- */

typedef struct guest_call {
    weft_worker *w;
    weft_task *task;
    uintptr_t wrapper;
} guest_call;

/* On the guest stack: the task runs at the bottom of the borrowed
 * worker's empty deque, as a worker runs a RUN it takes from the queue. */
static void run_as_guest(void *arg)
{
    guest_call *c = arg;
    weft_run_root(c->w, c->w->dq, c->task, c->wrapper, true);
}

/* The worker this thread borrowed last: tried first next time (its lines
 * are likely still in this core's cache). */
static __thread unsigned tls_borrow_hint;

/* An alternate signal stack for a thread that runs borrowed tasks, so
 * that an overflow of the guest stack is explained (memory.c); set up
 * once per thread, unless the thread has one large enough, and freed at
 * its exit.  A thread whose own is too small keeps it, and weft's is
 * installed only while each borrowed task runs.  Whether the thread
 * blocked SIGSEGV is looked at then too: if it did, it is unblocked while
 * each borrowed task runs (weft__segv_unblock).  What the thread changes
 * later is not looked at (system calls per RUN). */
static __thread bool tls_altstack_checked;
static __thread bool tls_segv_blocked;
static __thread bool tls_altstack_swapped;
static __thread stack_t tls_own_altstack, tls_weft_altstack;
static pthread_key_t altstack_key;
static pthread_once_t altstack_key_once = PTHREAD_ONCE_INIT;

static void altstack_key_create(void)
{
    if (pthread_key_create(&altstack_key, weft__altstack_teardown) != 0)
        weft__warn("no thread-specific key for alternate signal stacks; overflows of a RUN's "
                   "stack will not be explained");
}

static void ensure_altstack(void)
{
    if (tls_altstack_checked || !weft__rt.report_stack_overflow)
        return;
    tls_altstack_checked = true;
    tls_segv_blocked = weft__segv_blocked();
    stack_t own;
    if (weft__altstack_own_fits(&own))
        return; /* the application's own */
    pthread_once(&altstack_key_once, altstack_key_create);
    void *mem = NULL;
    if (weft__altstack_setup(&mem) != 0) {
        weft__warn("no alternate signal stack for a thread calling RUN; an overflow of its "
                   "task's stack will not be explained");
        return;
    }
    if (pthread_setspecific(altstack_key, mem) != 0) {
        weft__altstack_teardown(mem);
        if (!(own.ss_flags & SS_DISABLE))
            (void)sigaltstack(&own, NULL);
        return;
    }
    if (!(own.ss_flags & SS_DISABLE) && sigaltstack(&own, NULL) == 0) {
        /* Too small for the report: the application's own stays, but for
         * the borrowed tasks. */
        tls_own_altstack = own;
        tls_weft_altstack = weft__altstack_of(mem);
        tls_altstack_swapped = true;
    }
}

/* Runs the task as a borrowed worker; false if none could be borrowed
 * (then the caller hands the task over). */
static bool run_borrowed(weft_task *t, uintptr_t wrapper)
{
    weft_runtime *p = &weft__rt;
    /* Relaxed (both): while the pool is suspended or an interrupt is on,
     * the workers are parked or busy with it and the hand-off path waits
     * for them; one that starts after the check is served by the borrower
     * as the worker would (at its interrupt points, or by waking the
     * worker when it gives it back). */
    if (atomic_load_explicit(&p->suspended, memory_order_relaxed) || weft_interrupt_pending())
        return false;
    weft_worker *w = weft__borrow_idle(tls_borrow_hint);
    if (!w)
        return false;
    tls_borrow_hint = w->id;
    ensure_altstack();
    weft_seat *seat = &p->seats[w->id];
    guest_call call = {.w = w, .task = t, .wrapper = wrapper};
    weft__tls_worker = w;
    weft__tls_guest = true;
    weft__worker_speaks(weft__pool_starter()); /* its tasks' messages: as a worker's */
    bool segv_was_blocked = tls_segv_blocked && weft__segv_unblock();
    bool altstack_swapped = tls_altstack_swapped && sigaltstack(&tls_weft_altstack, NULL) == 0;
    weft__call_on_stack(run_as_guest, &call, seat->stack_lo, seat->stack_size);
    if (altstack_swapped)
        (void)sigaltstack(&tls_own_altstack, NULL);
    weft__segv_reblock(segv_was_blocked);
    weft_stop_if_forked(); /* the task forked; this is the child: no seat to return */
    weft__worker_speaks(NULL);
    weft__tls_guest = false;
    weft__tls_worker = NULL;
    weft__sleep_lent_return(w);
    return true;
}

/* RUN from outside the pool: borrow a worker's place (may_borrow) or hand
 * the task to the workers and wait.  False if no pool is running: nothing
 * ran.  A call that meets a weft_suspend in force is told it waits, under
 * a front-end's rules too (a front-end's own, lazy, suspension lets its
 * calls in: not that one).  Kept out of line so that
 * RUN from inside a task, which Lace clients make by the tens of
 * thousands, pays for none of this path's registers. */
static bool run_from_outside_(weft_task *t, uintptr_t wrapper, bool may_borrow);

__attribute__((noinline)) static bool run_from_outside(weft_task *t, uintptr_t wrapper,
                                                       bool may_borrow)
{
    /* The profiler: a RUN from a work pool's item is a region of its own,
     * not part of the item's work (the item's clock stops meanwhile). */
    WEFT_PROFILE_OUTSIDE_ITEM(item_);
    bool ran = run_from_outside_(t, wrapper, may_borrow);
    WEFT_PROFILE_BACK_IN_ITEM(item_);
    return ran;
}

static inline bool run_from_outside_(weft_task *t, uintptr_t wrapper, bool may_borrow)
{
    if (!weft__lifecycle_enter())
        return false;
    WEFT_TRACE_EXTERNAL_START(trace_since_);
    if (may_borrow && run_borrowed(t, wrapper)) {
        WEFT_TRACE_EXTERNAL_END(trace_since_, t);
        weft__lifecycle_exit();
        return true;
    }
    /* Relaxed (both): a warning printed once, decided by the exchange; the
     * count of weft_suspend's holds is read as it is now (a suspension
     * only of a front-end's, lazy, lets the call in: it is not told). */
    if (atomic_load_explicit(&weft__rt.suspend_sync_holds, memory_order_relaxed) != 0 &&
        !atomic_exchange_explicit(&warned_suspended, 1, memory_order_relaxed))
        weft__warn("RUN while the pool is suspended: it waits for weft_resume()");

    uint64_t submitted = weft_now_ns();
    weft_external req = {
        .task = t, .wrapper = wrapper, .for_task = weft__thread_works_for_task(), .next = NULL};
    atomic_init(&req.done, 0);
    atomic_init(&req.started_ns, 0);
    atomic_init(&req.ask, 0);
    weft__external_submit(&req);
    /* An idle worker, else a worker waiting in a work pool's run inside a
     * task: while every other worker is busy or joined on that task, it
     * may be the only one that can take our RUN (we may be one of that
     * pool's threads). */
    bool woke_sleeper = weft__wake_for_external();
    if (!woke_sleeper)
        weft__waiting_wake(req.for_task);

    /* A short RUN (its result within microseconds) is best waited for
     * spinning: sleeping adds a wake-up to every RUN of a loop.  A longer
     * one is best waited for asleep: a spinning caller takes a CPU from
     * the workers running its task whenever they fill the CPUs, or share
     * them with other programs, and a caller that yields its CPU waits a
     * whole time slice to get it back.  The last RUN this thread handed
     * over predicts this one (RUNs of a loop are alike).  A worker we
     * just woke takes a wake-up's time to start, and the kernel may start
     * it on our CPU (or pull it here once we leave it): we sleep. */
    if (tls_last_handoff_run_ns <= CALLER_SPIN_NS && !woke_sleeper) {
        for (;;) {
            /* Acquire: pairs with the worker's release exchange (the result). */
            if (atomic_load_explicit(&req.done, memory_order_acquire) == 1)
                goto done;
            /* Relaxed: a time, as the worker's store says. */
            uint64_t started = atomic_load_explicit(&req.started_ns, memory_order_relaxed);
            int64_t waited = (int64_t)(weft_now_ns() - (started ? started : submitted));
            if (waited > (int64_t)(started ? CALLER_SPIN_NS : CALLER_PICKUP_NS))
                break;
            for (unsigned i = 0; i < 32; i++) /* about a microsecond between looks */
                weft_cpu_relax();
        }
    }
    /* With an active limit, sleep until CALLER_UNTAKEN_NS from the first
     * sleep, by the clock (a signal must not restart the wait), then ask
     * for a surplus worker if the RUN is still queued, and sleep on.  The
     * timer costs short RUNs (docs/sleep.md: up to 1.15 times). */
    /* Relaxed: a RUN seen taken needs no ask; a stale 0 only arms the
     * timer. */
    bool may_ask = weft__rt.active_limit != 0 &&
                   atomic_load_explicit(&req.started_ns, memory_order_relaxed) == 0;
    uint64_t ask_at = 0;
    for (;;) {
        uint32_t expected = 0;
        /* acq_rel: announce that we sleep; acquire if it is already done. */
        if (atomic_compare_exchange_strong_explicit(&req.done, &expected, 2, memory_order_acq_rel,
                                                    memory_order_acquire) ||
            expected == 2) {
            if (!may_ask) {
                weft__futex_wait(&req.done, 2);
                continue;
            }
            uint64_t now = weft_now_ns();
            if (ask_at == 0)
                ask_at = now + CALLER_UNTAKEN_NS;
            if (now < ask_at && weft__futex_wait_for(&req.done, 2, ask_at - now))
                continue;
            may_ask = false;
            /* Relaxed: a stale 0 costs one ask (withdrawn by the taker or by
             * our CAS below) and one spare wake of a surplus worker. */
            if (atomic_load_explicit(&req.started_ns, memory_order_relaxed) == 0) {
                weft__surplus_ask();
                uint32_t none = 0;
                /* acq_rel: see weft__external_take_and_run's exchange. */
                if (!atomic_compare_exchange_strong_explicit(
                        &req.ask, &none, 1, memory_order_acq_rel, memory_order_acquire))
                    weft__surplus_unask(); /* taken meanwhile */
            }
        } else if (expected == 1) {
            break;
        }
    }
done:
    /* The task's own time, without the worker's pickup or our wake-up: a
     * RUN that waited asleep does not make the next one wait asleep too.
     * Relaxed: stored before the release exchange we acquired. */
    tls_last_handoff_run_ns =
        req.finished_ns - atomic_load_explicit(&req.started_ns, memory_order_relaxed);
    WEFT_TRACE_EXTERNAL_END(trace_since_, t);
    weft__lifecycle_exit();
    return true;
}

/* A RUN on worker w, the calling thread's: an ordinary call at the
 * current deque top. */
static inline void run_in_place(weft_worker *w, weft_task *t, uintptr_t wrapper)
{
    /* Relaxed: the descriptor is this call's alone. */
    atomic_store_explicit(&t->state, wrapper, memory_order_relaxed);
    weft_task *head = weft_head_at_hint(w);
    weft_run_root(w, head ? head : weft__head_search(w), t, wrapper, false);
}

/* An API layer's rules for RUNs from outside (frontend.h), or NULL. */
static WEFT_ATOMIC(const weft__outside_rules *) outside_rules;

void weft__set_outside_rules(const weft__outside_rules *rules)
{
    /* Release: the rules' table before the pointer; pairs with run_task's
     * acquire. */
    atomic_store_explicit(&outside_rules, rules, memory_order_release);
}

/* may_borrow false: the task runs on a worker's thread in every case
 * (weft__run_task_on_worker).  False if called from outside with no pool
 * running: nothing ran. */
static inline bool run_task(weft_task *t, uintptr_t wrapper, bool may_borrow)
{
    weft_worker *w = weft__tls_worker;
    if (w) {
        run_in_place(w, t, wrapper);
        return true;
    }
    /* Relaxed: the descriptor is private to this call until it is queued
     * (the mutex publishes it). */
    atomic_store_explicit(&t->state, wrapper, memory_order_relaxed);
    /* Acquire: pairs with weft__set_outside_rules's release (the table). */
    const weft__outside_rules *rules = atomic_load_explicit(&outside_rules, memory_order_acquire);
    if (rules == NULL)
        return run_from_outside(t, wrapper, may_borrow);
    bool begun = rules->begin();
    bool ran = run_from_outside(t, wrapper, false);
    rules->end(begun);
    return ran;
}

static void run_task_or_stop(weft_task *t, uintptr_t wrapper, bool may_borrow)
{
    if (!run_task(t, wrapper, may_borrow)) {
        (void)weft__speak_as_caller(); /* WEFT_RUN's, or a front-end's for its user */
        weft__fatal("RUN called while the pool is not running (%s)", weft__words()->not_running);
    }
}

void weft__run_task(weft_task *t, uintptr_t wrapper) { run_task_or_stop(t, wrapper, true); }

bool weft__run_task_if_running(weft_task *t, uintptr_t wrapper)
{
    return run_task(t, wrapper, true);
}

void weft__run_task_on_worker(weft_task *t, uintptr_t wrapper)
{
    run_task_or_stop(t, wrapper, false);
}

bool weft__thread_works_for_task(void) { return weft__gate_waited_on(); }

bool weft__run_task_if_worker(weft_task *t, uintptr_t wrapper)
{
    weft_worker *w = weft__tls_worker;
    if (!w)
        return false;
    run_in_place(w, t, wrapper);
    return true;
}

/* ---- A thread that stays a worker (weft__adopt_worker) ---- */

/* The worker this thread adopted, or NULL. */
static __thread weft_worker *tls_adopted;
/* Its own stack, for the overflow report while it is the worker (its
 * tasks run there), and the report it replaced. */
static __thread weft_thread_stack tls_adopted_stack;
static __thread const weft_thread_stack *tls_adopted_outer;
/* The observers' records of its time as the worker, and their name. */
static __thread weft_observed_thread tls_adopted_observed WEFT_UNUSED;
static __thread const char *tls_adopted_name;

/* The kernel's gap below a growing stack (stack_guard_gap: 256 pages):
 * where a stack that overflows faults. */
#define OVERFLOW_GAP_BYTES (1u << 20)

/* Arms the overflow report for the calling thread's own stack, as worker
 * w; nothing if its bounds cannot be read. */
static void arm_own_stack_report(const weft_worker *w, const char *raise)
{
    pthread_attr_t attr;
    void *lo = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    int got = pthread_attr_getstack(&attr, &lo, &size);
    pthread_attr_destroy(&attr);
    if (got != 0 || lo == NULL || (uintptr_t)lo < OVERFLOW_GAP_BYTES)
        return;
    char *gap = (char *)lo - OVERFLOW_GAP_BYTES;
    if (weft__guard_note(gap, OVERFLOW_GAP_BYTES + weft__page_size()) != 0)
        return;
    /* A page above the lowest address too: the main thread's bound is
     * computed from its limit and may round. */
    tls_adopted_stack = (weft_thread_stack){
        .guard_lo = gap,
        .lo = (char *)lo + weft__page_size(),
        .size = size,
        .who = "worker",
        .id = w->id,
        .raise = raise,
    };
    tls_adopted_outer = weft__tls_stack;
    weft__tls_stack = &tls_adopted_stack;
}

int weft__adopt_worker(unsigned id, uint64_t wait_ns, const char *raise_stack,
                       const char *observed_as)
{
    if (weft__tls_worker)
        return EINVAL;
    if (!weft__lifecycle_enter())
        return ENOENT;
    weft_runtime *p = &weft__rt;
    if (id >= p->n_workers) {
        weft__lifecycle_exit();
        return EINVAL;
    }
    uint64_t until = weft_now_ns() + wait_ns;
    weft_worker *w;
    for (;;) {
        /* Relaxed (both): as in run_borrowed; a worker lent while parked
         * by a suspension or busy in an interrupt is never taken. */
        if (!atomic_load_explicit(&p->suspended, memory_order_relaxed) &&
            !weft_interrupt_pending() && (w = weft__borrow_idle_worker(id)) != NULL)
            break;
        if (weft_now_ns() >= until) {
            weft__lifecycle_exit();
            return EBUSY;
        }
        /* A fresh worker falls asleep within its spin time: look again
         * every 20 microseconds. */
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 20000};
        nanosleep(&pause, NULL);
    }
    ensure_altstack();
    arm_own_stack_report(w, raise_stack);
    tls_adopted = w;
    weft__tls_worker = w;
    weft__tls_guest = true;
    weft__worker_speaks(weft__pool_starter());
    tls_adopted_name = observed_as;
    WEFT_OBSERVE_ADOPTED(w, &tls_adopted_observed, observed_as);
    return 0;
}

/* This thread is no longer the adopted worker's. */
static void unadopt_thread(void)
{
    weft__worker_speaks(NULL);
    weft__tls_guest = false;
    weft__tls_worker = NULL;
    tls_adopted = NULL;
    if (weft__tls_stack == &tls_adopted_stack) {
        weft__tls_stack = tls_adopted_outer;
        weft__guard_forget(tls_adopted_stack.guard_lo, OVERFLOW_GAP_BYTES + weft__page_size());
    }
}

int weft__leave_adopted_worker(void)
{
    weft_worker *w = tls_adopted;
    if (w == NULL || weft__tls_worker != w)
        return EINVAL;
    if (weft_current_head(w) != w->dq)
        return EBUSY;
    WEFT_OBSERVE_ADOPTED_DONE(w, &tls_adopted_observed, tls_adopted_name);
    unadopt_thread();
    weft__sleep_lent_return(w);
    weft__lifecycle_exit();
    return 0;
}

bool weft__adopted_forget_in_child(void)
{
    weft_worker *w = tls_adopted;
    if (w == NULL || weft__tls_worker != w || weft_current_head(w) != w->dq)
        return false; /* in a task's code with tasks spawned: the child goes on with the task */
    unadopt_thread(); /* the worker is the parent's: nothing to give back */
    return true;
}

void weft__external_init(void)
{
    weft__external_queue_init();
    /* Relaxed: before the workers start, or in a forked child alone. */
    atomic_store_explicit(&warned_suspended, 0, memory_order_relaxed);
}
