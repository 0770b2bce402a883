// SPDX-License-Identifier: Apache-2.0
/* The running pool's shared state (state.h), and the calling thread's
 * place in it. */
#include "runtime/state.h"

#include "runtime/diagnostics.h"

weft_runtime weft__rt;
__thread weft_worker *weft__tls_worker __attribute__((tls_model("initial-exec")));
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

weft_worker *weft__self_checked(void)
{
    weft_worker *w = weft__tls_worker;
    if (!w)
        weft__fatal("WEFT_ME used on a thread that is not a weft worker (use WEFT_RUN to "
                    "enter the pool)");
    return w;
}

/* Whether slot i is below the head.  Relaxed: our own slots; thieves only
 * move them between non-EMPTY values. */
static inline bool below_head(const weft_worker *w, size_t i)
{
    return atomic_load_explicit(&w->dq[i].state, memory_order_relaxed) != WEFT_STATE_EMPTY;
}

/* The deque keeps every slot below head non-EMPTY and every slot from head
 * on EMPTY (SYNC clears what it pops), so head is found by search.  The
 * head is rarely more than a few hundred slots up a deque of a million:
 * gallop up from the bottom (slots 0, 1, 3, 7, ...) to bound it, then
 * bisect within the bound, so a call reads about 2 log2(depth) slots, all
 * in the deque's first pages, rather than bisecting the whole deque, whose
 * probes land megabytes apart on every call (a Lace program's LACE_ME and
 * RUN from inside a task come here). */
weft_task *weft_current_head(weft_worker *w)
{
    if (!w)
        weft__fatal("weft_current_head needs a worker (called outside the pool?)");
    size_t n = w->deque_slots;
    size_t lo = 0, hi = 1; /* slots below lo are below the head */
    while (hi <= n && below_head(w, hi - 1)) {
        lo = hi;
        hi = 2 * hi + 1;
    }
    if (hi > n)
        hi = n; /* the head is in [lo, n] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (below_head(w, mid))
            lo = mid + 1;
        else
            hi = mid;
    }
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
    atomic_store_explicit(&weft__external_queued, 0, memory_order_relaxed);
    atomic_store_explicit(&weft__interrupt_generation, 0, memory_order_relaxed);
    atomic_store_explicit(&weft__attention_g, 0, memory_order_relaxed);
}
