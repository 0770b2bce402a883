// SPDX-License-Identifier: Apache-2.0
/* Entering the pool and controlling it (gate.h).
 *
 * The lifecycle word (weft__rt.lifecycle) holds the pool's state in its
 * high half and, in its low half, the threads outside the pool that use
 * it (RUN, TOGETHER, NEWFRAME, readers of its layout).  Entering is a CAS
 * that sees RUNNING; stop turns the state to STOPPING and waits for the
 * count to drain.  The control lock serialises start, stop, suspend and
 * resume against each other and against interrupts entering from outside.
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

bool weft__lifecycle_enter_interrupt(void)
{
    weft_runtime *p = &weft__rt;
    /* Counted first, as a RUN is: a stop waits for this call (and lets the
     * pool run for it) instead of stopping under it, and the exit handler
     * sees a thread inside the pool. */
    if (!weft__lifecycle_enter())
        return false;
    for (;;) {
        if (pthread_mutex_trylock(&control_lock) == 0) {
            /* Relaxed: written under the lock we hold. */
            if (!atomic_load_explicit(&p->suspended, memory_order_relaxed)) {
                /* seq_cst: suspend (under the same lock later) waits for it
                 * to drop. */
                atomic_fetch_add_explicit(&p->interrupts_from_outside, 1, memory_order_seq_cst);
                pthread_mutex_unlock(&control_lock);
                return true;
            }
            /* Acquire: read the word before unlocking, so a resume in
             * between bumps it and the wait returns at once. */
            uint32_t word = atomic_load_explicit(&p->suspend_word, memory_order_acquire);
            /* Relaxed: counted in under control_lock, which every resume
             * takes before it reads the count (weft__unpark_all), so a
             * resume after this unlock sees us and wakes the word. */
            atomic_fetch_add_explicit(&p->gate_waiters, 1, memory_order_relaxed);
            pthread_mutex_unlock(&control_lock);
            weft__futex_wait(&p->suspend_word, word);
            /* Relaxed: a count that is too high only costs a wake-up. */
            atomic_fetch_sub_explicit(&p->gate_waiters, 1, memory_order_relaxed);
            continue;
        }
        /* A control call holds the lock.  A stop waits for this call (it is
         * counted) and resumes a suspended pool: go on without the lock,
         * which no suspend can take before the stop ends.  Acquire: the
         * stop's CAS to STOPPING, made under the lock. */
        if ((atomic_load_explicit(&p->lifecycle, memory_order_acquire) >> 32) == WEFT_RT_STOPPING) {
            /* seq_cst: as above (no suspend runs until the stop ends). */
            atomic_fetch_add_explicit(&p->interrupts_from_outside, 1, memory_order_seq_cst);
            return true;
        }
        /* Another control call (a suspend, a resume): it ends soon. */
        weft_sleep_ns(20000);
    }
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
