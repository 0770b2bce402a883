// SPDX-License-Identifier: Apache-2.0
/* Entering the pool and controlling it (gate.h).
 *
 * The lifecycle word (weft__rt.lifecycle) holds the pool's state in its
 * high half and, in its low half, the threads outside the pool that use
 * it (RUN, TOGETHER, NEWFRAME, readers of its layout).  Entering is a CAS
 * that sees RUNNING; stop turns the state to STOPPING and waits for the
 * count to drain.  The control lock serialises start, stop, suspend and
 * resume against each other; interrupts from outside enter without it.
 */
#include "runtime/gate.h"

#include <errno.h>

#include "runtime/diagnostics.h"
#include "runtime/state.h"
#include "sys/futex.h"

static pthread_mutex_t control_lock = PTHREAD_MUTEX_INITIALIZER;

/* This thread's weft__lifecycle_enter()s not yet exited (a RUN, TOGETHER or
 * NEWFRAME from outside, a counter read), and whether it is inside
 * start/stop/suspend/resume: a signal handler that interrupted either and
 * calls stop or suspend would wait for itself. */
static __thread unsigned tls_pool_holds;
static __thread bool tls_in_control;
/* The thread's cancelability when it took the control lock: none while
 * it holds it (a cancellation in a wait of stop or suspend would leave
 * the lock held for ever), this again after (a request made meanwhile
 * acts at the thread's next cancellation point). */
static __thread int tls_cancel_state;
/* A thread of a work pool running inside a task (weft__gate_set_waited_on). */
static __thread bool tls_waited_on;

void weft__gate_set_waited_on(bool on) { tls_waited_on = on; }
bool weft__gate_waited_on(void) { return tls_waited_on; }

/* Would this thread wait for itself at the control lock (or, `waits`,
 * for its own RUN)?  What the check found, NULL if nothing. */
static const char *self_wait(bool waits)
{
    /* A thread running a borrowed RUN is a worker for now, but to its
     * caller it is inside RUN: the check of tls_pool_holds below says so. */
    if (weft__tls_worker && !weft__tls_guest)
        return "from inside a worker";
    if (tls_in_control)
        return "while this thread is inside weft_start, weft_stop, weft_suspend or weft_resume "
               "(from a signal handler?)";
    if (waits && tls_waited_on)
        return "on a thread of a work pool that runs inside a task (the worker running the task "
               "waits for this thread)";
    if (waits && tls_pool_holds)
        return "on a thread that is inside RUN, TOGETHER or NEWFRAME (from a signal handler "
               "that interrupted it?)";
    return NULL;
}

int weft__control_begin(const char *what, bool waits)
{
    const char *why = self_wait(waits);
    if (why) {
        weft__warn("%s called %s: it would wait for itself", what, why);
        return EDEADLK;
    }
    tls_in_control = true;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &tls_cancel_state);
    pthread_mutex_lock(&control_lock);
    return 0;
}

int weft__control_try_begin(bool waits, const char **why)
{
    if ((*why = self_wait(waits)) != NULL)
        return EDEADLK;
    if (pthread_mutex_trylock(&control_lock) != 0)
        return EBUSY;
    tls_in_control = true;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &tls_cancel_state);
    return 0;
}

void weft__control_end(void)
{
    pthread_mutex_unlock(&control_lock);
    tls_in_control = false;
    pthread_setcancelstate(tls_cancel_state, NULL);
}

bool weft__control_is_running(void)
{
    /* Relaxed: lifecycle transitions happen under control_lock. */
    return (atomic_load_explicit(&weft__rt.lifecycle, memory_order_relaxed) >> 32) ==
           WEFT_RT_RUNNING;
}

bool weft__control_running(const char *what)
{
    if (weft__control_is_running())
        return true;
    weft__warn("%s: the pool is not running", what);
    return false;
}

int weft__control_begin_running(const char *what, bool waits)
{
    int err = weft__control_begin(what, waits);
    if (err)
        return err;
    if (!weft__control_running(what)) {
        weft__control_end();
        return EINVAL;
    }
    return 0;
}

bool weft__lifecycle_enter(void)
{
    weft_runtime *p = &weft__rt;
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

void weft__lifecycle_exit(void)
{
    tls_pool_holds--;
    /* Release: our use of the pool happens before stop tears it down. */
    atomic_fetch_sub_explicit(&weft__rt.lifecycle, 1, memory_order_release);
}

bool weft__lifecycle_hold(bool *held)
{
    /* On a worker the pool cannot go away: stop waits for every RUN. */
    if (weft__tls_worker) {
        *held = false;
        return true;
    }
    *held = weft__lifecycle_enter();
    return *held;
}

void weft__lifecycle_release(bool held)
{
    if (held)
        weft__lifecycle_exit();
}

unsigned weft_workers(void)
{
    bool held;
    if (!weft__lifecycle_hold(&held))
        return 0;
    unsigned n = weft__rt.n_workers;
    weft__lifecycle_release(held);
    return n;
}

/* Without the control lock, which a thread that suspends and resumes back
 * to back holds almost all the time: the caller counts itself among the
 * interrupts in progress and then looks at `suspended`, and a suspend sets
 * it and then waits for that count to drop (both seq_cst: of the two, the
 * later sees the earlier).  While the pool is suspended the caller waits
 * for a resume, counted in `gate_waiters` from its first wait until it has
 * gone in; a suspend of a running pool first waits for that count to drop
 * (weft__gate_drain_locked), so that the threads a resume lets in are in
 * before the pool is suspended again (verification/gate.pml). */
bool weft__lifecycle_enter_interrupt(void)
{
    weft_runtime *p = &weft__rt;
    /* Counted first, as a RUN is: a stop waits for this call (and resumes
     * the pool for it) instead of stopping under it, and the exit handler
     * sees a thread inside the pool. */
    if (!weft__lifecycle_enter())
        return false;
    bool counted = false;
    for (;;) {
        /* seq_cst (both): the Dekker pair of suspend's store of the flag,
         * then its read of the count. */
        atomic_fetch_add_explicit(&p->interrupts_from_outside, 1, memory_order_seq_cst);
        if (atomic_load_explicit(&p->suspended, memory_order_seq_cst) == 0) {
            /* Release: a suspend that reads the gate's count (acquire)
             * finds this interrupt counted. */
            if (counted)
                atomic_fetch_sub_explicit(&p->gate_waiters, 1, memory_order_release);
            return true;
        }
        /* seq_cst: not in after all; a suspend waiting for the count sees
         * it drop. */
        atomic_fetch_sub_explicit(&p->interrupts_from_outside, 1, memory_order_seq_cst);
        /* Acquire: the word before the look below, so that a resume after
         * the look bumps it and the wait returns at once. */
        uint32_t word = atomic_load_explicit(&p->suspend_word, memory_order_acquire);
        if (!counted) {
            /* seq_cst: the counted wake's Dekker pair, this count-in then
             * the look, with the resume's clear, bump and read of the count
             * (weft__unpark_all). */
            atomic_fetch_add_explicit(&p->gate_waiters, 1, memory_order_seq_cst);
            counted = true;
        }
        /* seq_cst: the look of that pair. */
        if (atomic_load_explicit(&p->suspended, memory_order_seq_cst) != 0)
            weft__futex_wait(&p->suspend_word, word);
    }
}

void weft__gate_drain_locked(void)
{
    /* Acquire: pairs with a thread's count-out at the gate, made after it
     * counted its interrupt, which the suspend then waits for. */
    while (atomic_load_explicit(&weft__rt.gate_waiters, memory_order_acquire) != 0)
        weft_sleep_ns(20000);
}

bool weft__lifecycle_stopping(void)
{
    /* Relaxed: for a message only. */
    return (atomic_load_explicit(&weft__rt.lifecycle, memory_order_relaxed) >> 32) ==
           WEFT_RT_STOPPING;
}

void weft__lifecycle_exit_interrupt(void)
{
    /* seq_cst: the interrupt is over before suspend reads 0. */
    atomic_fetch_sub_explicit(&weft__rt.interrupts_from_outside, 1, memory_order_seq_cst);
    weft__lifecycle_exit();
}

void weft__gate_forget_in_child(void)
{
    pthread_mutex_init(&control_lock, NULL);
    tls_pool_holds = 0;
    tls_in_control = false;
    tls_waited_on = false; /* the worker that waited for this thread is the parent's */
}
