// SPDX-License-Identifier: Apache-2.0
/* The one fork-join core.  Every API's spawn and join goes through these
 * few inline functions: weft's C macros and the Lace 1 layer (the
 * templates of bits/task_macros.h), the Lace 2 layer, the C++ API's join,
 * task_group and parallel algorithms.  No front-end writes a descriptor's
 * state or moves the deque's top by itself, and the profiler's hooks are
 * placed here once.  Not part of the API; docs/frontends.md says how a
 * front-end uses it, docs/design.md ("Mixing the APIs") the rule it keeps.
 *
 * One truth about the top.  The deque itself says where its top is: the
 * slots below it are not EMPTY and the slots from it on are (every
 * scheduler keeps this; bits/sched.h).  What a front-end holds -- the head
 * in a register of a C or Lace 1 task body, the C++ API's thread-local
 * context, Lace 2's worker record -- is a copy of it, which another API's
 * spawn (or a join out of order) makes wrong.  The core checks the copy
 * where a wrong one would do harm:
 *
 *   spawn   the slot at the held head must be EMPTY.  The first slot a
 *           spawn may not use holds a sentinel (WEFT_STATE_END), so this
 *           one test is also the test for a full deque: a spawn costs no
 *           more than before.  A task there is another API's, spawned
 *           since the head was read and still pending: the spawn is
 *           refused with a message (it would overwrite that task).
 *   join    the slot above the one joined must be EMPTY (or the
 *           sentinel): the task joined is the newest pending one.
 *           Otherwise a task spawned after it is still pending, and the
 *           join is refused with a message: joins nest, whatever API made
 *           them.
 *
 * Where the join's test is made.  Only a second copy of the top can leave
 * a task pending above the one a copy joins, and every second copy is
 * made by the search for the top (weft_current_head: an ME macro, the C++
 * API's record found stale, a task_group's frame, Lace 2's record bound
 * or found stale) or announced by weft_fj_copy_head (a copy made by hand:
 * Lace 2's lace_get_worker); the copies a task body passes on by value
 * (CALL, the body a SYNC runs inline) nest, and so do the bodies a RUN or
 * a call through another API's entry runs to their end.  A scheduler that defines
 * WEFT_SCHED_GUARDS_JOINS lets the search raise a guard to the top it
 * found, and its SYNC fast path fails for every slot below the guard
 * until the runtime-started task running then returns (RUN, stolen task,
 * interrupt).  Its joins test the slot above on the slow path only: a
 * join at or above the guard is of a copy made at or below the top it
 * joins, with no other copy made since.  So the test costs the fast path
 * nothing (fib: 7.6 % fewer instructions) and still refuses every join
 * out of order between two copies.  A copy whose held head may be
 * another's (a task_group's frame, DROP) tests on every join
 * (weft_fj_join_slot_exact), as does every join under a scheduler without
 * the guard.  A join out of order within one copy (a task body that
 * returned with a SPAWN not joined, and its caller's SYNC) is a SYNC of
 * another task than the last one spawned: caught by WEFT_CHECKS
 * (docs/configuration.md, "Misuse that is reported").
 *
 * Front-ends whose head is a searched copy (the C++ API's context, Lace
 * 2's NAME() from a worker) find the top again when their copy's slot is
 * not EMPTY, and so spawn above another API's pending task; the C and
 * Lace 1 macros keep their head in a register, the source of their speed,
 * and cannot be told: their spawn above such a task is the refusal.
 *
 * The profiler's hooks.  In a profiling build, weft_fj_profiling is the
 * one test of whether they run (profiling off: WEFT_PROFILE_OFF=1,
 * docs/profiling.md).  The spawn and join below make it themselves; the
 * _as forms take its answer from the caller, so that a front-end can test
 * it once and branch to a copy of its SPAWN, SYNC and task entry compiled
 * with the hooks, keeping the hooks out of the plain copy: the task macros
 * do, so that a profiling build with profiling off runs the plain build's
 * code and a test per spawn, join and task
 * (docs/results/profiling.md, "Profiling off").
 */
#ifndef WEFT_BITS_FORK_JOIN_H
#define WEFT_BITS_FORK_JOIN_H

#include <weft/bits/observe.h>
#include <weft/bits/sched.h>
#include <weft/bits/worker.h>

WEFT_BEGIN_DECLS

/* Runtime side (src/runtime/fork_join.c). */
/* A spawn (`what`, named) from held head t found t not EMPTY: stops the
 * program, saying whether the deque is full (the sentinel) or another
 * API's pending task sits there. */
WEFT_NORETURN void weft__fj_spawn_refused(weft_worker *w, weft_task *t, const char *what);
/* A spawn (`what`) from a held head t above the deque's top (the slot
 * below t is EMPTY): stops the program.  For front-ends whose head may be
 * stale (Lace 2's worker record). */
WEFT_NORETURN void weft__fj_spawn_above_top(weft_worker *w, weft_task *t, const char *what);
/* A call (`what`) that would run a task at held head t (a steal, an
 * interrupt served at a yield) found t not EMPTY: another API's task,
 * spawned in a nested block, is still pending there.  Stops the program. */
WEFT_NORETURN void weft__fj_run_at_refused(weft_worker *w, weft_task *t, const char *what);
/* A join (`what`) of the task at t found the slot above not EMPTY: returns
 * if that is the sentinel, else stops the program (a task spawned later
 * is still pending). */
void weft__fj_join_checked(weft_worker *w, weft_task *t, const char *what);

/* A call (`what`) with worker w's context: stops the program if w is
 * not the calling thread's worker (a context saved from a task and used
 * on another thread).  For the front-ends' checked builds (WEFT_CHECKS);
 * the refusals above say the same where a slot's test fails. */
void weft__fj_check_own(weft_worker *w, const char *what);

/* The runtime side of a second copy of the top (src/runtime/fork_join.c):
 * raises w's join guard to `head`, which is above it. */
void weft__fj_copied(weft_worker *w, weft_task *head);

/* Do the profiler's hooks run in w's spawns and joins?  Never in a build
 * without the profiler; in one with it, unless profiling is off, which
 * the first start decides for the process (a worker's flag is set before
 * it runs a task and never changes while it runs one). */
static WEFT_ALWAYS_INLINE bool weft_fj_profiling(const weft_worker *w)
{
#if WEFT_PROFILE
    return !w->prof.off;
#else
    (void)w;
    return false;
#endif
}

/* A second copy of the top is made: weft_current_head hands one out, or a
 * front-end makes one by hand (a context of its own from another API's
 * head, or its head handed to another API).  Announced here, so that
 * joins below it test their order (see the top of this file).  Returns
 * head. */
static WEFT_ALWAYS_INLINE weft_task *weft_fj_copy_head(weft_worker *w, weft_task *head)
{
#if WEFT_SCHED_GUARDS_JOINS
    if (WEFT_UNLIKELY(head > w->join_guard))
        weft__fj_copied(w, head);
#else
    (void)w;
#endif
    return head;
}

/* Is the held head the top?  Relaxed: our own slot; thieves change slots
 * below the top between non-EMPTY values only, and only the owner fills
 * or empties the slot at the top. */
static WEFT_ALWAYS_INLINE bool weft_fj_head_is_top(const weft_task *head)
{
    return atomic_load_explicit(&head->state, memory_order_relaxed) == WEFT_STATE_EMPTY;
}

/* ---- spawn ----
 *
 *     weft_task *t = weft_fj_spawn_slot(w, head, "SPAWN(fib)");
 *     ... write the arguments into t ...
 *     weft_fj_spawn_publish(w, t, wrapper);
 *     head = t + 1;
 */

/* A spawn at t, which the front-end has found to be the top by a search
 * or weft_fj_head_is_top: room checked, the profiler told if `profiled`
 * (the caller's weft_fj_profiling). */
static WEFT_ALWAYS_INLINE void weft_fj_spawn_at_as(weft_worker *w, weft_task *t, bool profiled)
{
    weft_sched_reserve(w, t);
    if (profiled) {
        WEFT_PROFILE_SPAWN_(w, t)
    }
}

static WEFT_ALWAYS_INLINE void weft_fj_spawn_at(weft_worker *w, weft_task *t)
{
    weft_fj_spawn_at_as(w, t, weft_fj_profiling(w));
}

/* The slot to write a spawned task's arguments into: the held head,
 * checked (room for it, and no other API's task there); the profiler told
 * if `profiled` (the caller's weft_fj_profiling). */
static WEFT_ALWAYS_INLINE weft_task *weft_fj_spawn_slot_as(weft_worker *w, weft_task *head,
                                                           const char *what, bool profiled)
{
    if (WEFT_UNLIKELY(!weft_fj_head_is_top(head)))
        weft__fj_spawn_refused(w, head, what);
    if (profiled) {
        WEFT_PROFILE_SPAWN_(w, head)
    }
    return head;
}

static WEFT_ALWAYS_INLINE weft_task *weft_fj_spawn_slot(weft_worker *w, weft_task *head,
                                                        const char *what)
{
    return weft_fj_spawn_slot_as(w, head, what, weft_fj_profiling(w));
}

/* weft_fj_spawn_slot_as for a held head that may be stale in either
 * direction (kept in a record across task bodies): also refuses a head
 * above the top, whose slot is EMPTY but the one below too (a spawn there
 * would leave a gap below its task).  The slot below the deque's first is
 * a floor that holds WEFT_STATE_END (src/runtime/lifecycle.c), so head[-1]
 * can be read at every head.  Relaxed: as weft_fj_head_is_top. */
static WEFT_ALWAYS_INLINE weft_task *weft_fj_spawn_slot_exact_as(weft_worker *w, weft_task *head,
                                                                 const char *what, bool profiled)
{
    if (WEFT_UNLIKELY(atomic_load_explicit(&head[-1].state, memory_order_relaxed) ==
                      WEFT_STATE_EMPTY))
        weft__fj_spawn_above_top(w, head, what);
    return weft_fj_spawn_slot_as(w, head, what, profiled);
}

/* Makes the task in t (its arguments written) a task: thieves may take it
 * from here on. */
static WEFT_ALWAYS_INLINE void weft_fj_spawn_publish(weft_worker *w, weft_task *t,
                                                     uintptr_t wrapper)
{
    weft_sched_push(w, t, wrapper);
}

#if WEFT_PROFILE
/* weft_fj_spawn_publish_told's profiled path, out of line. */
static WEFT_NOINLINE WEFT_UNUSED weft_task *weft_fj_spawn_told(weft_worker *w, weft_task *t,
                                                               uintptr_t wrapper)
{
    WEFT_PROFILE_SPAWN_(w, t)
    weft_fj_spawn_publish(w, t, wrapper);
    return t + 1;
}
#endif

/* For a front-end that took the slot with weft_fj_spawn_slot_as (or
 * _exact_as) and `profiled` false:
 * the profiler told if it is on, then weft_fj_spawn_publish; returns the
 * head after the task.  The profiled path is one call that returns that
 * head, so the plain path keeps nothing more across it: a profiling
 * build's SPAWN with profiling off is the plain one and a test. */
static WEFT_ALWAYS_INLINE weft_task *weft_fj_spawn_publish_told(weft_worker *w, weft_task *t,
                                                                uintptr_t wrapper)
{
#if WEFT_PROFILE
    if (WEFT_UNLIKELY(weft_fj_profiling(w)))
        return weft_fj_spawn_told(w, t, wrapper);
#endif
    weft_fj_spawn_publish(w, t, wrapper);
    return t + 1;
}

/* For a front-end that took the slot with weft_fj_spawn_slot_as(...,
 * false): the profiler told once, with the hook inline if `profiled`
 * (the caller's weft_fj_profiling), else by weft_fj_spawn_publish_told if
 * it is on; the task published; returns the head after the task.  The
 * hook comes after the arguments' stores: the values stored are dead
 * before the hook's rare calls (a long strand's check, in time), not
 * saved across them (a vector of them would need an aligned frame). */
static WEFT_ALWAYS_INLINE weft_task *weft_fj_spawn_publish_as(weft_worker *w, weft_task *t,
                                                              uintptr_t wrapper, bool profiled)
{
    if (!profiled)
        return weft_fj_spawn_publish_told(w, t, wrapper);
    WEFT_PROFILE_SPAWN_(w, t)
    weft_fj_spawn_publish(w, t, wrapper);
    return t + 1;
}

/* ---- join ----
 *
 *     weft_fj_join j;
 *     weft_task *t = weft_fj_join_slot(w, --head, "SYNC(fib)");
 *     if (weft_fj_join_begin(w, t, &j, "SYNC(fib)")) {
 *         ... run the task's body here, from its arguments in t ...
 *         weft_fj_join_inlined(w, &j);
 *     } else {
 *         ... it was stolen and is done: its result is in t ...
 *     }
 *
 * (weft_fj_join_begin inlined false and the task's body run after it is
 * the same as true: a task nobody stole.)  A task joined without being run
 * (DROP, the C++ API's join left by an exception) goes through
 * weft__drop_as, named as its program wrote it. */

/* What a join keeps between its begin and its end (the profiler's path
 * lengths of the continuation; nothing otherwise). */
typedef struct weft_fj_join {
#if WEFT_PROFILE
    weft_profile_join pj;
#else
    char unused_;
#endif
} weft_fj_join;

/* The join's test: the slot above t is EMPTY (or the sentinel), so t is
 * the newest pending task; otherwise stops with a message.  Relaxed: the
 * slot above is our own; only the owner fills or empties a slot at the
 * top. */
static WEFT_ALWAYS_INLINE void weft_fj_join_test(weft_worker *w, weft_task *t, const char *what)
{
    if (WEFT_UNLIKELY(atomic_load_explicit(&t[1].state, memory_order_relaxed) != WEFT_STATE_EMPTY))
        weft__fj_join_checked(w, t, what);
}

/* The slot a join from held head `held` (the head after the pop) joins.
 * Tested here unless the scheduler guards its fast path
 * (WEFT_SCHED_GUARDS_JOINS), and then in weft_fj_join_begin's slow path
 * (see the top of this file). */
static WEFT_ALWAYS_INLINE weft_task *weft_fj_join_slot(weft_worker *w, weft_task *held,
                                                       const char *what)
{
#if WEFT_SCHED_GUARDS_JOINS
    (void)w;
    (void)what;
#else
    weft_fj_join_test(w, held, what);
#endif
    return held;
}

/* weft_fj_join_slot for a held head that may be another copy's (a C++
 * task_group's frame, a DROP): tested on every join. */
static WEFT_ALWAYS_INLINE weft_task *weft_fj_join_slot_exact(weft_worker *w, weft_task *held,
                                                             const char *what)
{
    weft_fj_join_test(w, held, what);
    return held;
}

#if WEFT_PROFILE
/* weft_fj_join_begin_as's slow path with the profiler's hooks, out of
 * line: a profiled body has its SYNCs inline, and the hooks of a join
 * that waits or finds its task stolen (the clock stopped and started,
 * the thief's figures joined) would otherwise be inline at each of them
 * (docs/results/profiling.md, "The profiled SYNC's slow path out of
 * line").  True if the task was stolen and is done, its figures joined. */
static WEFT_NOINLINE WEFT_UNUSED bool weft_fj_join_slow_profiled(weft_worker *w, weft_task *t,
                                                                 const weft_profile_join *pj)
{
    WEFT_PROFILE_PAUSE_(w)
    bool stolen = weft_sched_sync_slow(w, t);
    WEFT_PROFILE_SYNC_SLOW_DONE_(w, !stolen)
    if (stolen)
        weft_profile_sync_stolen(w, t, pj);
    return stolen;
}
#endif

/* Pops the task at t back, or joins it where a thief has it: true when the
 * caller runs it now, false when it was stolen and is done (its result in
 * t; the thief's writes are visible).  `what` names the join in the
 * message of a join out of order.  The profiler's hooks run if `profiled`
 * (the caller's weft_fj_profiling; the join's weft_fj_join_inlined_as is
 * given the same). */
static WEFT_ALWAYS_INLINE bool weft_fj_join_begin_as(weft_worker *w, weft_task *t, weft_fj_join *j,
                                                     const char *what, bool profiled)
{
    (void)j;
    (void)what;
    (void)profiled;
#if WEFT_PROFILE
    if (profiled) {
        j->pj = weft_profile_sync_begin(w, t);
    } else { /* never read: the end is given the same `profiled`, but the
              * compiler cannot always see so */
        j->pj.span = 0;
        j->pj.bspan = 0;
    }
#endif
    if (WEFT_LIKELY(weft_sched_sync_fast(w, t)))
        return true;
#if WEFT_SCHED_GUARDS_JOINS
    weft_fj_join_test(w, t, what); /* every join below the guard comes here */
#endif
#if WEFT_PROFILE
    if (profiled)
        return !weft_fj_join_slow_profiled(w, t, &j->pj);
#endif
    return !weft_sched_sync_slow(w, t);
}

static WEFT_ALWAYS_INLINE bool weft_fj_join_begin(weft_worker *w, weft_task *t, weft_fj_join *j,
                                                  const char *what)
{
    return weft_fj_join_begin_as(w, t, j, what, weft_fj_profiling(w));
}

/* After the caller ran a task that weft_fj_join_begin gave back. */
static WEFT_ALWAYS_INLINE void weft_fj_join_inlined_as(weft_worker *w, weft_fj_join *j,
                                                       bool profiled)
{
    (void)w;
    (void)j;
    (void)profiled;
#if WEFT_PROFILE
    if (profiled)
        weft_profile_sync_inlined(w, &j->pj);
#endif
}

static WEFT_ALWAYS_INLINE void weft_fj_join_inlined(weft_worker *w, weft_fj_join *j)
{
    weft_fj_join_inlined_as(w, j, weft_fj_profiling(w));
}

WEFT_END_DECLS

#endif
