// SPDX-License-Identifier: Apache-2.0
/* The running pool's shared state (state.h), and the calling thread's
 * place in it. */
#include "runtime/state.h"

#include "runtime/diagnostics.h"
#include "runtime/frontend.h"

weft_runtime weft__rt;
__thread weft_worker *weft__tls_worker WEFT__TLS_MODEL;
__thread bool weft__tls_guest;

/* Read on every idle round, written twice per RUN or interrupt: each on
 * its own cache line. */
_Alignas(WEFT_CACHE_LINE) _Atomic uint32_t weft__external_queued;
_Alignas(WEFT_CACHE_LINE) _Atomic uint64_t weft__interrupt_generation;
/* What WEFT_YIELD polls (bits/runtime.h): set by interrupt.c while an
 * interrupt is pending or the pool is suspended. */
_Alignas(WEFT_CACHE_LINE) _Atomic uint32_t weft__attention_g;

bool weft__forked_in_task; /* written in the child only, which has one thread */

void weft__forked_task_stop(void)
{
    weft__fatal("fork() in a task: the child process continued the task into the pool, "
                "whose other threads the child does not have (only the forking thread is "
                "copied); in the child, call exec or _exit before the task returns or joins");
}

weft_worker *weft_self(void) { return weft__tls_worker; }

/* The pool as schedulers see it (sched_services.h): read-mostly fields,
 * written by lifecycle.c before the workers exist. */
unsigned weft__pool_size(void) { return weft__rt.n_workers; }
weft_worker *weft__pool_worker(unsigned id) { return weft__rt.workers[id]; }
weft_steal_policy weft__pool_steal_policy(void) { return weft__rt.policy; }

/* Plain reads: weft_start wrote them before it returned, on the caller's
 * thread, which is the one the seam lets read them. */
size_t weft__started_deque_slots(void) { return weft__rt.deque_slots; }

size_t weft__started_stack_size(void) { return weft__rt.stack_size; }

weft_worker *weft__self_checked(void)
{
    weft_worker *w = weft__tls_worker;
    if (!w) {
        (void)weft__speak_as_caller(); /* WEFT_ME: on no worker, weft's words */
        weft__fatal("%s", weft__words()->me);
    }
    return w;
}

/* The deque keeps every slot below head non-EMPTY and every slot from head
 * on EMPTY (SYNC clears what it pops), so head is found by search.  The
 * search starts where the last one ended (head_hint): a Lace program's RUN
 * from inside a task, LACE_ME and interrupts come here again and again at
 * the same or nearby depths, so the hint is checked first
 * (weft_head_at_hint, which a RUN from inside a task calls inline).  From
 * the hint the search (weft__head_search) gallops (1, 2, 4, ... slots) up
 * or down to bound the head, then bisects, so a call reads about
 * 2 log2(distance) slots, all near the head, rather than bisecting the
 * whole deque, whose probes land megabytes apart. */
weft_task *weft_current_head(weft_worker *w)
{
    if (!w)
        weft__fatal("weft_current_head needs a worker (called outside the pool?)");
    weft_task *at_hint = weft_head_at_hint(w);
    weft_task *top = at_hint ? at_hint : weft__head_search(w);
    return weft_fj_copy_head(w, top); /* the caller holds a second copy of the top */
}

weft_task *weft__head_search(weft_worker *w)
{
    size_t n = w->deque_slots;
    /* Relaxed: a hint of this worker's own; every use checks it. */
    size_t h = atomic_load_explicit(&w->head_hint, memory_order_relaxed);
    if (h > n)
        h = 0;
    size_t lo, hi; /* the head is in [lo, hi]: slots below lo are below it */
    if (h == 0 || weft_below_head(w, h - 1)) {
        lo = h; /* gallop up: probe lo, lo + 1, lo + 3, ... */
        hi = n;
        for (size_t d = 1;; d *= 2) {
            size_t p = lo + d - 1;
            if (p >= n)
                break;
            if (!weft_below_head(w, p)) {
                hi = p;
                break;
            }
            lo = p + 1;
        }
    } else {
        hi = h - 1; /* slot h - 1 is EMPTY: gallop down */
        lo = 0;
        for (size_t d = 1; hi > 0; d *= 2) {
            size_t p = hi >= d ? hi - d : 0;
            if (weft_below_head(w, p)) {
                lo = p + 1;
                break;
            }
            hi = p;
        }
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (weft_below_head(w, mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Relaxed: see the load. */
    atomic_store_explicit(&w->head_hint, lo, memory_order_relaxed);
    return w->dq + lo;
}

void weft__state_forget_in_child(void)
{
    weft_runtime *p = &weft__rt;
    p->workers = NULL;
    p->seats = NULL;
    p->threads = NULL;
    p->n_workers = 0;
    weft__tls_worker = NULL;
    weft__tls_guest = false; /* forked inside a borrowed RUN */
    /* Relaxed (all): the child has one thread. */
    atomic_store_explicit(&p->lifecycle, 0, memory_order_relaxed);
    /* The parent's calls from outside waiting at the gate or in progress
     * are not in the child: its own pool's suspend waits for none. */
    atomic_store_explicit(&p->gate_waiters, 0, memory_order_relaxed);
    atomic_store_explicit(&p->interrupts_from_outside, 0, memory_order_relaxed);
    atomic_store_explicit(&weft__external_queued, 0, memory_order_relaxed);
    atomic_store_explicit(&weft__interrupt_generation, 0, memory_order_relaxed);
    atomic_store_explicit(&weft__attention_g, 0, memory_order_relaxed);
}
