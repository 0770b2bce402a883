// SPDX-License-Identifier: Apache-2.0
/* The running pool's shared state (state.c): the pool's layout, the
 * calling thread's worker, and the words that idle and waiting workers
 * poll.  Every module above the base layer reads it; each field says
 * which module writes it.  Not installed. */
#ifndef WEFT_RUNTIME_STATE_H
#define WEFT_RUNTIME_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <weft/weft.h>

#include "runtime/limits.h" /* WEFT_MAX_DEQUE_SLOTS, WEFT_MIN_DEQUE_SLOTS */
#include "sys/tls.h"        /* WEFT__TLS_MODEL */
/* The pool as schedulers see it, weft_stop_if_forked. */
#include "runtime/sched_services.h"


/* What a worker needs to lend its identity to RUN callers (external.c,
 * sleep.c): a count of the borrowers using it and a stack for them. */
typedef struct weft_seat {
    /* Borrowers holding the worker or still putting it back, times 2; bit
     * 0: the worker's own thread waits on this word for them to finish. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t loans;
    /* The generation of the suspension the worker is parked in, 0 when
     * it is not parked (interrupt.c: park, suspend). */
    _Atomic uint32_t parked_in;
    /* The guest stack: address space only until touched, with a guard
     * below like a worker stack (memory.c). */
    void *stack_lo;
    size_t stack_size;
    void *guard_lo;
} weft_seat;
#define WEFT_LOAN 2u
#define WEFT_LOAN_WAITER 1u
enum { WEFT_RT_STOPPED = 0, WEFT_RT_RUNNING = 1, WEFT_RT_STOPPING = 2 };

typedef struct weft_runtime {
    /* Read-mostly after start (lifecycle.c writes them before the
     * workers exist). */
    unsigned n_workers;
    weft_worker **workers;
    weft_seat *seats; /* one per worker, by id */
    weft_steal_policy policy;
    unsigned idle_spin_us;
    /* How long an idle worker keeps its core (pause spins) before it
     * yields it: WEFT_IDLE_HOLD_NS, 0 when the pool has more workers than
     * the affinity mask has CPUs (lifecycle.c). */
    unsigned idle_hold_ns;
    /* At most this many workers take work from the top level at a time
     * (0: no limit): the CPUs the pool may use, when it has more workers
     * than that (lifecycle.c; the surplus waits, sleep.c). */
    unsigned active_limit;
    size_t deque_slots;
    size_t stack_size;
    bool report_stack_overflow;
    pthread_t *threads;

    /* The gate (gate.c): state in the high half, external users (RUNs
     * from non-worker threads in progress) in the low half. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t lifecycle;
    _Atomic uint32_t quit; /* lifecycle.c: the workers exit */

    /* Sleepers, by kind (sleep.c). */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t sleeping_idle;
    _Atomic uint32_t sleeping_join;

    /* The active limit (sleep.c): workers looking for work at the top
     * level or running what they found there, the futex word surplus
     * workers wait on (bumped by weft__wake_all, a RUN caller's ask and a
     * surplus worker's pass-on),
     * how many wait, and how many RUN callers ask them for their RUN. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t active;
    _Atomic uint32_t surplus_word;
    _Atomic uint32_t surplus;
    _Atomic uint32_t surplus_asks;

    /* Suspension (interrupt.c). */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t suspended;
    _Atomic uint32_t suspend_word; /* futex: bumped by weft_resume */
    /* Workers in park (the resume's counted wake; interrupt.c). */
    _Atomic uint32_t parked;
    /* Taken anew by each suspension at depth 0, never 0: the mark a
     * parked worker leaves in its seat (weft_seat.parked_in). */
    _Atomic uint32_t suspend_gen;
    /* Threads outside the pool whose TOGETHER/NEWFRAME found it suspended,
     * from their first wait on suspend_word until they have gone in (gate.c):
     * woken with the parked workers, and waited for by the next suspend. */
    _Atomic uint32_t gate_waiters;
    /* Every hold of the suspension in force is a front-end's lazy one
     * (weft__suspend_lazy): idle workers spin before they park, and tasks
     * do not park at their yields and blocked SYNCs (interrupt.c). */
    _Atomic bool suspend_lazy;
    /* How many of the `suspended` holds are lazy ones (under the control
     * lock, gate.c): a resume that leaves only those makes the suspension
     * lazy again. */
    uint32_t suspend_lazy_holds;
    /* How many of the `suspended` holds are weft_suspend's (written under
     * the control lock): a RUN from outside under a front-end's rules is
     * told it waits only for these, not for the front-end's own. */
    _Atomic uint32_t suspend_sync_holds;
    /* TOGETHER/NEWFRAME from threads outside the pool in progress: suspend
     * waits for them (gate.c, weft__lifecycle_enter_interrupt). */
    _Atomic uint32_t interrupts_from_outside;
} weft_runtime;

extern weft_runtime weft__rt;

/* The calling thread's worker (NULL outside the pool).  Read from the
 * SIGSEGV handler, which must not allocate: a load off the thread pointer
 * in an executable and in the shared library (sys/tls.h); in a shared
 * object that links the static library, a lookup of a block the thread
 * allocated when it first touched weft (a thread that never did and
 * faults there may allocate in the handler). */
extern __thread weft_worker *weft__tls_worker WEFT__TLS_MODEL;
/* True on a thread running a RUN as a borrowed worker (external.c). */
extern __thread bool weft__tls_guest;

/* ---- What idle and waiting workers poll, each on its own line ---- */

/* RUNs from outside queued and not yet taken (external.c writes it). */
extern _Atomic uint32_t weft__external_queued;
/* The generation of the pending interrupt, 0 if none (interrupt.c). */
extern _Atomic uint64_t weft__interrupt_generation;

/* Is a RUN from outside waiting for a worker? */
static inline bool weft_external_pending(void)
{
    /* seq_cst: in a sleeper's last look this pairs with the submitter's
     * increment and its read of the idle-sleeper count (sleep.c). */
    return atomic_load_explicit(&weft__external_queued, memory_order_seq_cst) != 0;
}

/* Is an interrupt pending that w has not served yet? */
static inline bool weft_interrupt_waiting_for(weft_worker *w)
{
    /* seq_cst: in a sleeper's last look this pairs with the initiator's
     * store before wake_all; elsewhere a stale 0 only delays joining. */
    uint64_t g = atomic_load_explicit(&weft__interrupt_generation, memory_order_seq_cst);
    return g != 0 && g != w->seen_interrupt;
}

/* Is an interrupt in progress?  A hint. */
static inline bool weft_interrupt_pending(void)
{
    /* Relaxed: a hint for RUN's choice of path; a borrower serves an
     * interrupt that comes after it anyway. */
    return atomic_load_explicit(&weft__interrupt_generation, memory_order_relaxed) != 0;
}

/* Whether slot i of w's deque is below the head (not EMPTY).  Relaxed:
 * the slots' states are w's to change between EMPTY and not (thieves move
 * them only between non-EMPTY values), so this owner-only read is exact. */
static inline bool weft_below_head(const weft_worker *w, size_t i)
{
    uintptr_t s = atomic_load_explicit(&w->dq[i].state, memory_order_relaxed);
    return s != WEFT_STATE_EMPTY && s != WEFT_STATE_END;
}

/* The head of w's deque if it is still where weft_current_head last found
 * it (slot h EMPTY, slot h - 1 not), else NULL.  Inline, so that a RUN from
 * inside a task at the depth of the last one, the usual case, costs three
 * loads here rather than a call and a search. */
static inline weft_task *weft_head_at_hint(const weft_worker *w)
{
    /* Relaxed: the hint is w's own, and checked here. */
    size_t h = atomic_load_explicit(&w->head_hint, memory_order_relaxed);
    if (h >= w->deque_slots || weft_below_head(w, h))
        return NULL;
    if (h > 0 && !weft_below_head(w, h - 1))
        return NULL;
    return w->dq + h;
}

/* weft_current_head's search, for a caller that checked the hint
 * (weft_head_at_hint) and found it moved. */
weft_task *weft__head_search(weft_worker *w);

/* The join guard (weft/bits/fork_join.h, "Where the join's test is
 * made").  weft_current_head raises it to the top it hands out, a second
 * copy of the top (weft_fj_copy_head); the runtime-started tasks (a RUN,
 * a stolen task, an interrupt's task) keep what it was before them and
 * put it back after them, when the copies made inside them are gone.
 * Owner only. */
static inline void weft_guard_restore(weft_worker *w, weft_task *before)
{
#if WEFT_SCHED_GUARDS_JOINS
    if (WEFT_UNLIKELY(w->join_guard != before)) {
        w->join_guard = before;
        weft_sched_guard_moved(w);
    }
#else
    (void)w;
    (void)before;
#endif
}

/* Runs the task in descriptor t at head on w, as the runtime does for a
 * RUN, a stolen task or an interrupt's task, and checks that it joined
 * every SPAWN (`what` names it in the message). */
static inline void weft_run_wrapper(weft_worker *w, weft_task *head, weft_task *t,
                                    uintptr_t wrapper, const char *what)
{
    ((weft_wrapper_fn)wrapper)(w, head, t);
    weft_check_return(w, head, what);
}

/* In a child after fork(): the pool is forgotten (lifecycle.c). */
void weft__state_forget_in_child(void);

#endif
