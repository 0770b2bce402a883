// SPDX-License-Identifier: Apache-2.0
/* The runtime side of the one fork-join core (weft/bits/fork_join.h): what
 * a spawn or a join does when its one test of a slot fails.  Off the fast
 * paths: a body comes here only when its deque is full, or when it meets
 * another API's pending task (docs/design.md, "Mixing the APIs"). */
#include "runtime/fork_join.h"

#include <weft/weft.h>

#include "runtime/diagnostics.h"
#include "runtime/state.h"

/* A worker's context (its weft_worker, a Lace program's lace_worker or
 * __lace_worker) used on another thread: the deque is its owner's alone,
 * so whatever the slot shows is a race, and the message says so first,
 * in the words of the API that started the pool. */
static void stop_if_foreign(const weft_worker *w, const char *what)
{
    if (weft__tls_worker == w)
        return;
    (void)weft__speak_as(weft__pool_words());
    weft__fatal("%s with worker %u's context on a thread that is not that worker's (%s): a "
                "worker's context is its own thread's, for the task running there; from "
                "another thread, RUN the task instead (docs/design.md, \"Mixing the APIs\")",
                what, w->id, weft__tls_worker ? "another worker" : "outside the pool");
}

void weft__fj_check_own(weft_worker *w, const char *what) { stop_if_foreign(w, what); }

void weft__fj_spawn_refused(weft_worker *w, weft_task *t, const char *what)
{
    stop_if_foreign(w, what);
    /* Relaxed: our own slot (see weft_fj_head_is_top). */
    uintptr_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
    if (s == WEFT_STATE_END)
        weft__deque_overflow(w->id, (size_t)(t - w->dq), w->deque_slots);
    weft__fatal("%s on worker %u: its slot (%zu) holds a task still pending, spawned since this "
                "task body read its head: by another API (a C++ task_group's run, a C++ join's "
                "other half, a SPAWN of another API) or from another copy of the head (a second "
                "ME macro, a helper handed the context), or left by a task compiled as C that a "
                "C++ exception passed through (C code cannot catch it; its SPAWNs stay "
                "pending), or left by a task that returned without joining it above a SPAWN "
                "its caller joined (a build with WEFT_CHECKS names that task as it returns); a "
                "spawn may not go above it in one task body: join that task first, or spawn "
                "through the API or the copy that holds the top (docs/design.md, \"Mixing the "
                "APIs\")",
                what, w->id, (size_t)(t - w->dq));
}

void weft__fj_spawn_above_top(weft_worker *w, weft_task *t, const char *what)
{
    stop_if_foreign(w, what);
    weft__fatal("%s on worker %u: the head it holds (slot %zu) is above the deque's top (slot "
                "%zu): a stale head, kept from a task body that has returned or handed over "
                "from another worker's context (from another API's task, call the task by its "
                "name, NAME(), which finds the top; docs/design.md, \"Mixing the APIs\")",
                what, w->id, (size_t)(t - w->dq), (size_t)(weft_current_head(w) - w->dq));
}

void weft__fj_run_at_refused(weft_worker *w, weft_task *t, const char *what)
{
    stop_if_foreign(w, what);
    weft__fatal("%s on worker %u holds a head (slot %zu) below a task still pending, spawned "
                "since this task body read its head: by another API or another copy of the "
                "head, in a block nested in this body; a task run there (a stolen one, an "
                "interrupt's) would run over it.  Join that task first (docs/design.md, "
                "\"Mixing the APIs\")",
                what, w->id, (size_t)(t - w->dq));
}

void weft__fj_join_checked(weft_worker *w, weft_task *t, const char *what)
{
    /* Relaxed: as above. */
    if (atomic_load_explicit(&t[1].state, memory_order_relaxed) == WEFT_STATE_END)
        return; /* t is the last usable slot */
    stop_if_foreign(w, what);
    weft__fatal("%s on worker %u joins the task in slot %zu while the task above it, spawned "
                "later, is still pending: spawns and joins nest, the newest joined first, "
                "whichever API or copy of the head made them (a C++ task_group's run, a SPAWN "
                "of another API or from another copy of the head, not joined yet, a SPAWN of a "
                "task compiled as C that a C++ exception passed through, or a SPAWN left by a "
                "task that returned without joining it (a build with WEFT_CHECKS names that task "
                "as it returns); docs/design.md, \"Mixing the APIs\")",
                what, w->id, (size_t)(t - w->dq));
}

void weft__fj_copied(weft_worker *w, weft_task *head)
{
#if WEFT_SCHED_GUARDS_JOINS
    w->join_guard = head; /* above it: weft_fj_copy_head checked */
    weft_sched_guard_moved(w);
#else
    (void)w;
    (void)head;
#endif
}
