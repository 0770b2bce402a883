// SPDX-License-Identifier: Apache-2.0
/* RUNs handed to workers: the queue and its takers.
 *
 * A RUN from outside that borrows no worker (external.c) puts a request
 * pointing to its task descriptor (both on its caller's stack) in this
 * queue, a mutex-protected FIFO, and waits until a worker has run the
 * task.  Workers poll only its count, weft__external_queued (state.h), on
 * its own cache line.  The takers: a worker at top level (lifecycle.c),
 * with its deque empty, runs the task at the bottom; a waiting worker,
 * one whose thread waits in a work pool's run inside a task, runs it at
 * the top its deque had when the wait began.
 *
 * Waiting workers (docs/pool.md, "A pool inside a fork-join task";
 * model: verification/pool_in_task.pml).  A work pool run inside a task
 * on worker w keeps w's thread in the pool until every item is processed,
 * and its other threads are no workers: a fork-join call from their items
 * is a RUN from outside.  If every other worker is busy, or joined on the
 * task that runs the pool, nobody but w can take that RUN.  So w, while
 * it waits in the pool, takes queued RUNs (weft__waiting_serve), and its
 * sleep in the pool counts a queued RUN as something to do
 * (weft_waiting_wanted in its last look).  The submitter that woke no idle
 * worker (weft__wake_for_external) wakes a waiting worker asleep
 * (weft__waiting_wake): the Dekker pair of the parking protocol
 * (parking.h), with the submitter's seq_cst count of its RUN as its
 * "write mine" and its seq_cst peek at the waiter's word as "read theirs";
 * the waiter's are parking's announcement (word, then fence) and its last
 * look.  The list of waiting workers changes and is read under the
 * queue's lock, so a waker never touches a wait that has ended (the word
 * lives in the work pool, freed after the run).
 *
 * Which RUNs a waiting worker takes: those of threads that work for a
 * task (a work pool's, inside a task: the RUNs a wait may depend on),
 * always; those of other threads only while its thread is inside no
 * such RUN it took while waiting (takes_plain).  A RUN it takes runs whole
 * inside its wait; were the waits inside it to take other threads' RUNs
 * too, with waits of their own, the outer wait would end only when the
 * whole nest had (docs/pool.md, "The waiting worker").  RUNs for a task
 * are counted apart, so that a waiter inside such a RUN looks at their
 * count alone, and a submitter of the other kind wakes only a waiter that
 * takes it.
 */
#include "runtime/external_queue.h"

#include "runtime/parking.h"
#include "runtime/sleep.h"
#include "sys/clock.h"
#include "sys/futex.h"

#include <limits.h>
#include <pthread.h>

static struct {
    _Alignas(WEFT_CACHE_LINE) pthread_mutex_t lock;
    weft_external *head, *tail;
    /* The waiting workers, newest first, and how many there are: a
     * submitter reads the count without the lock to skip the list. */
    weft_waiting_worker *waiting;
    _Atomic uint32_t n_waiting;
    /* The queued RUNs of threads that work for a task (for_task). */
    _Atomic uint32_t queued_for_task;
} ext = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* How many RUNs of threads that work for no task this thread runs inside,
 * each taken while it waited. */
static __thread unsigned plain_runs_inside;

void weft__external_queue_init(void)
{
    /* Also called in a child after fork(), where the lock may have been
     * held by a thread that does not exist there: re-initialise it. */
    pthread_mutex_init(&ext.lock, NULL);
    ext.head = ext.tail = NULL;
    ext.waiting = NULL;
    /* Relaxed (all): before the workers start, or in the child alone. */
    atomic_store_explicit(&weft__external_queued, 0, memory_order_relaxed);
    atomic_store_explicit(&ext.n_waiting, 0, memory_order_relaxed);
    atomic_store_explicit(&ext.queued_for_task, 0, memory_order_relaxed);
    plain_runs_inside = 0;
}

void weft__external_submit(weft_external *req)
{
    pthread_mutex_lock(&ext.lock);
    if (ext.tail)
        ext.tail->next = req;
    else
        ext.head = req;
    ext.tail = req;
    /* seq_cst: the submitter's "write mine" before reading the idle-sleeper
     * count in weft__wake_for_external and the waiting workers' words in
     * weft__waiting_wake. */
    atomic_fetch_add_explicit(&weft__external_queued, 1, memory_order_seq_cst);
    /* seq_cst: the same "write mine" for the waiters that take only RUNs
     * for a task (weft__waiting_pending). */
    if (req->for_task)
        atomic_fetch_add_explicit(&ext.queued_for_task, 1, memory_order_seq_cst);
    pthread_mutex_unlock(&ext.lock);
}

/* The oldest queued RUN, of any thread or (plain_too false) of one that
 * works for a task, out of the queue; NULL if there is none. */
static weft_external *take(bool plain_too)
{
    pthread_mutex_lock(&ext.lock);
    weft_external *prev = NULL, *req = ext.head;
    while (req != NULL && !plain_too && !req->for_task) {
        prev = req;
        req = req->next;
    }
    if (req) {
        if (prev)
            prev->next = req->next;
        else
            ext.head = req->next;
        if (ext.tail == req)
            ext.tail = prev;
        /* Relaxed (both): changed under the lock; the counts are hints
         * (their increments are the submitters' seq_cst writes). */
        atomic_fetch_sub_explicit(&weft__external_queued, 1, memory_order_relaxed);
        if (req->for_task)
            atomic_fetch_sub_explicit(&ext.queued_for_task, 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&ext.lock);
    return req;
}

/* Runs the request's task on w at head and tells its caller. */
static void run_request(weft_worker *w, weft_task *head, weft_external *req)
{
    /* Relaxed: only tells the spinning caller how long the task has run;
     * it reads the value for its prediction after done's acquire. */
    atomic_store_explicit(&req->started_ns, weft_now_ns(), memory_order_relaxed);
    /* acq_rel: one of the caller's CAS (0 -> 1, after its ask) and this
     * exchange comes first; whoever sees the other withdraws the ask, and
     * acquiring the caller's CAS orders our withdrawal after its ask (the
     * unsigned count never wraps). */
    if (atomic_exchange_explicit(&req->ask, 2, memory_order_acq_rel) == 1)
        weft__surplus_unask();
    /* The mutex ordered the caller's writes to the descriptor before us. */
    weft_run_root(w, head, req->task, req->wrapper, true);

    req->finished_ns = weft_now_ns();
    /* Release: the result in the caller's descriptor (and finished_ns) is
     * visible once it reads 1 with acquire.  After this exchange the caller
     * may return and its stack (req) be reused: we only pass the address
     * to futex_wake, which does not touch memory, and waiters re-check
     * their word. */
    if (atomic_exchange_explicit(&req->done, 1, memory_order_release) == 2)
        weft__futex_wake(&req->done, INT_MAX);
}

bool weft__external_take_and_run(weft_worker *w, weft_task *head)
{
    weft_external *req = take(true);
    if (!req)
        return false;
    run_request(w, head, req);
    return true;
}

/* ---- Waiting workers ---- */

bool weft__waiting_begin(weft_waiting_worker *ww, _Atomic uint32_t *word, uint32_t asleep,
                         uint32_t woken)
{
    weft_worker *w = weft__tls_worker;
    if (w == NULL)
        return false;
    /* The top of the deque, as a RUN called here would find it. */
    weft_task *head = weft_head_at_hint(w);
    *ww = (weft_waiting_worker){
        .w = w,
        .head = head ? head : weft__head_search(w),
        .word = word,
        .asleep = asleep,
        .woken = woken,
        .takes_plain = plain_runs_inside == 0,
    };
    pthread_mutex_lock(&ext.lock);
    ww->next = ext.waiting;
    ext.waiting = ww;
    /* seq_cst: before the waiter's first seq_cst look at the RUNs queued
     * (weft_waiting_wanted, weft__waiting_serve); pairs with
     * weft__waiting_wake's read after the submitter's count: a submitter
     * that reads 0 here counted its RUN before that look. */
    atomic_fetch_add_explicit(&ext.n_waiting, 1, memory_order_seq_cst);
    pthread_mutex_unlock(&ext.lock);
    return true;
}

void weft__waiting_end(weft_waiting_worker *ww)
{
    pthread_mutex_lock(&ext.lock);
    weft_waiting_worker **at = &ext.waiting;
    while (*at != ww)
        at = &(*at)->next;
    *at = ww->next;
    /* Relaxed: a waker reads the list under the lock; a stale count only
     * makes it take the lock for nothing. */
    atomic_fetch_sub_explicit(&ext.n_waiting, 1, memory_order_relaxed);
    pthread_mutex_unlock(&ext.lock);
}

/* How a worker takes part in an interrupt: the interrupts' module, a
 * layer above, gives it (weft__waiting_set_interrupt_server) before any
 * worker starts; thread creation publishes it. */
static void (*serve_interrupt)(weft_worker *w, weft_task *head);

void weft__waiting_set_interrupt_server(void (*serve)(weft_worker *w, weft_task *head))
{
    serve_interrupt = serve;
}

bool weft__waiting_serve(const weft_waiting_worker *ww)
{
    bool ran = false;
    /* An interrupt waits for every worker, this one too: it takes part at
     * the top it waits at, where a RUN taken here runs. */
    if (WEFT_UNLIKELY(weft_interrupt_waiting_for(ww->w)) && serve_interrupt != NULL) {
        serve_interrupt(ww->w, ww->head);
        ran = true;
    }
    weft_external *req;
    while (weft__waiting_pending(ww) && (req = take(ww->takes_plain)) != NULL) {
        ran = true;
        if (req->for_task) {
            run_request(ww->w, ww->head, req);
            continue;
        }
        /* Another thread's RUN: the one of this call, as that thread may
         * queue the next as soon as it is done, and the wait looks again
         * at what it waits for in between. */
        plain_runs_inside++;
        run_request(ww->w, ww->head, req);
        plain_runs_inside--;
        break;
    }
    return ran;
}

bool weft__waiting_pending(const weft_waiting_worker *ww)
{
    if (ww->takes_plain)
        return weft_external_pending();
    /* seq_cst: as weft_external_pending's load (pairs with the
     * submitter's increment, then its read of the waiters' words). */
    return atomic_load_explicit(&ext.queued_for_task, memory_order_seq_cst) != 0;
}

/* Claims and wakes waiting workers asleep on their words that take the
 * RUN (all: every one, for an interrupt). */
static void wake_waiting(bool all, bool for_task)
{
    /* seq_cst: after the waker's seq_cst "write mine" (a RUN's count, an
     * interrupt's generation); pairs with weft__waiting_begin's increment
     * (see there). */
    if (atomic_load_explicit(&ext.n_waiting, memory_order_seq_cst) == 0)
        return;
    pthread_mutex_lock(&ext.lock);
    for (weft_waiting_worker *ww = ext.waiting; ww != NULL; ww = ww->next) {
        if (!for_task && !ww->takes_plain)
            continue; /* it would not take the RUN: it sleeps on */
        /* seq_cst peek: the waker's "read theirs" after the seq_cst count
         * of the RUN (weft__external_submit), against the waiter's seq_cst
         * store of the word, fence and last look (weft__park_announce,
         * weft_waiting_wanted); the claim's CAS decides. */
        uint32_t seen = atomic_load_explicit(ww->word, memory_order_seq_cst);
        if (seen == ww->asleep && weft__park_claim(ww->word, &seen, ww->woken)) {
            /* Under the lock: the word is the work pool's, alive until the
             * wait ends (weft__waiting_end takes the lock).  One thread
             * parks on it. */
            weft__park_wake(ww->word, 1);
            if (!all)
                break;
        }
    }
    pthread_mutex_unlock(&ext.lock);
}

void weft__waiting_wake(bool for_task) { wake_waiting(false, for_task); }

void weft__waiting_wake_all(void) { wake_waiting(true, true); }
