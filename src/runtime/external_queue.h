// SPDX-License-Identifier: Apache-2.0
/* RUNs handed to workers (external_queue.c): a RUN from a thread that is
 * not a worker and borrows none waits in this queue (external.c) until a
 * worker takes it and runs it: a worker at top level (lifecycle.c), or a
 * waiting worker, whose thread waits in a work pool's run inside a task
 * (src/workpool/run.c; docs/pool.md, "A pool inside a fork-join task").
 * Not installed. */
#ifndef WEFT_RUNTIME_EXTERNAL_QUEUE_H
#define WEFT_RUNTIME_EXTERNAL_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include <weft/weft.h>

#include "observe/hooks.h"
#include "runtime/state.h"

/* A RUN's request, on its caller's stack until the caller has seen done. */
typedef struct weft_external {
    weft_task *task;
    uintptr_t wrapper;
    /* 0 waiting, 1 done, 2 done not yet and the caller sleeps on it. */
    _Atomic uint32_t done;
    /* When a worker took the request (weft_now_ns; 0 until then): read by
     * the spinning caller while the task runs. */
    _Atomic uint64_t started_ns;
    /* The caller's ask for a surplus worker (weft__surplus_ask): 0 none,
     * 1 asked, 2 taken (the taker withdraws a standing ask). */
    _Atomic uint32_t ask;
    /* When the worker finished the task; published by the release exchange
     * of done. */
    uint64_t finished_ns;
    /* The caller works for a task (weft__thread_works_for_task: a thread
     * of a work pool run inside a task), whose worker may be waiting for
     * this RUN: every waiting worker takes it.  A RUN of a thread that
     * works for no task is taken by a waiting worker only outside any
     * such RUN it took (weft_waiting_worker.takes_plain). */
    bool for_task;
    struct weft_external *next;
} weft_external;

/* Before the workers start (and in a forked child): an empty queue, no
 * waiting worker. */
void weft__external_queue_init(void);
/* Queues req (its fields set, done 0) and counts it in
 * weft__external_queued, and a RUN for a task in the count of those too,
 * seq_cst (the submitter's "write mine" before it wakes a worker:
 * weft__wake_for_external, weft__waiting_wake). */
void weft__external_submit(weft_external *req);
/* A worker with nothing of its own above head: takes the oldest queued
 * RUN, if any (weft_external_pending says whether to look), runs it at
 * head and tells its caller.  False if the queue was empty. */
bool weft__external_take_and_run(weft_worker *w, weft_task *head);

/* Runs a RUN's task t on w at head as a root: a frame of its own (a SYNC
 * below head is misuse), traced and profiled as a RUN from outside the
 * pool or, from_outside false, as a RUN called inside a task.  Inline:
 * a RUN inside a task (external.c) pays no call for it. */
static inline void weft_run_root(weft_worker *w, weft_task *head, weft_task *t, uintptr_t wrapper,
                                 bool from_outside)
{
    weft_task *floor = w->frame_floor;
    weft_task *guard = w->join_guard; /* copies of the top made in it end with it */
    uint64_t root = w->root_serial;
    w->frame_floor = head;
    w->root_serial = ++w->roots_begun;
    WEFT_OBSERVE_RUN(w, run, !from_outside,
                     from_outside ? WEFT_TRACE_BY_RUN : WEFT_TRACE_BY_RUN_INSIDE, wrapper,
                     from_outside ? t : NULL);
    weft_run_wrapper(w, head, t, wrapper, "(run by RUN)");
    WEFT_OBSERVE_ROOT_DONE(w, run,
                           from_outside ? WEFT_PROFILE_FROM_OUTSIDE : WEFT_PROFILE_IN_PLACE);
    w->frame_floor = floor;
    w->root_serial = root;
    weft_guard_restore(w, guard);
}

/* ---- Waiting workers ----
 *
 * A worker whose thread waits for something outside the fork-join pool
 * inside a task (a work pool's run: src/workpool/run.c) while that
 * something may wait for RUNs from outside (the work pool's own threads
 * RUN back into the fork-join pool).  Every other worker may be busy or
 * joined on the task, so this one takes queued RUNs while it waits, at
 * the top its deque had when it began to wait (as a RUN inside the task
 * would run there), and a RUN queued while no idle worker sleeps wakes it
 * from its park word.  The protocol: docs/pool.md, "A pool inside a
 * fork-join task"; model: verification/pool_in_task.pml. */
typedef struct weft_waiting_worker {
    weft_worker *w;         /* the calling thread's worker */
    weft_task *head;        /* where the RUNs it takes run */
    _Atomic uint32_t *word; /* the word it parks on (parking.h) while it waits */
    uint32_t asleep;        /* the word's value while it sleeps */
    uint32_t woken;         /* what a claim makes it */
    /* It takes RUNs of threads that work for no task too: its thread is
     * inside no such RUN it took while waiting.  Inside one, it takes only
     * RUNs for a task, those a wait may depend on: each RUN it took would
     * run whole inside its wait, each with waits of its own taking more,
     * and the outer wait would end only when they all had (docs/pool.md,
     * "The waiting worker"). */
    bool takes_plain;
    /* The waiting workers, newest first (the queue's lock): a worker's
     * nested waits stay in it, the outer ones awake. */
    struct weft_waiting_worker *next;
} weft_waiting_worker;

/* On a worker's thread (a task's, or a borrower's), before it waits:
 * registers the worker as waiting, parking on `word` (asleep while it
 * sleeps, woken by a claim); false, and nothing registered, on any other
 * thread.  Seq_cst, before the waiter's first look at the queue. */
bool weft__waiting_begin(weft_waiting_worker *ww, _Atomic uint32_t *word, uint32_t asleep,
                         uint32_t woken);
/* Its wait is over: no waker touches ww or its word after this returns. */
void weft__waiting_end(weft_waiting_worker *ww);
/* Takes part in an interrupt that waits for the worker, then takes and
 * runs the queued RUNs it takes (takes_plain) until none is left; true if
 * it did either.  Called while the worker has nothing above ww->head. */
bool weft__waiting_serve(const weft_waiting_worker *ww);
/* Is a RUN queued that ww takes?  seq_cst: in the waiter's last look this
 * pairs with the submitter's increments and its read of the waiters'
 * words. */
bool weft__waiting_pending(const weft_waiting_worker *ww);
/* A waiting worker's last look before it parks, after the parking
 * protocol's announcement and fence: is a RUN queued that it takes, or an
 * interrupt waiting for it? */
static inline bool weft_waiting_wanted(const weft_waiting_worker *ww)
{
    return weft__waiting_pending(ww) || weft_interrupt_waiting_for(ww->w);
}
/* After weft__external_submit woke no idle worker: claims one waiting
 * worker asleep on its word that takes the RUN (for_task: the request's)
 * and wakes it. */
void weft__waiting_wake(bool for_task);
/* The interrupts' module gives how a waiting worker takes part in an
 * interrupt (weft__interrupt_serve), before any worker starts. */
void weft__waiting_set_interrupt_server(void (*serve)(weft_worker *w, weft_task *head));
/* An interrupt began (its generation stored, seq_cst): claims every
 * waiting worker asleep on its word and wakes it, as the interrupt waits
 * for every worker. */
void weft__waiting_wake_all(void);

#endif
