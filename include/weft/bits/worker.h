// SPDX-License-Identifier: Apache-2.0
/* weft internals that inline code must see: the task descriptor and the
 * worker layout.  Not part of the API: user code goes through weft.h.
 *
 * Cache-line plan of a worker (see docs/design.md):
 *   line 0  owner-private hot fields read by SPAWN/SYNC fast paths,
 *           with the scheduler's (weft_sched_own)
 *   lines   the scheduler's thief-visible state (weft_sched_shared, each
 *           group on a line of its own)
 *   then    sleep word (futex), written by the sleeper and its wakers
 *   then    counters (owner-written) and cold state
 * Thieves touch the scheduler's lines and the descriptor they steal.
 */
#ifndef WEFT_BITS_WORKER_H
#define WEFT_BITS_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <weft/config.h>
#include <weft/bits/lang.h>
#include <weft/bits/observe_state.h>

WEFT_BEGIN_DECLS

#define WEFT_CACHE_LINE 64
/* WEFT_TASK_SIZE, the bytes of a task descriptor, is the build's choice
 * (weft/config.h: 64, or 128 with -DWEFT_TASK_SIZE=128). */

#define WEFT_LIKELY(x) __builtin_expect(!!(x), 1)
#define WEFT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define WEFT_UNUSED __attribute__((unused))
/* For the few fast paths every task runs (SPAWN, SYNC, the yield check):
 * inlined even into a client's large task bodies, where the compiler's
 * heuristics would otherwise make them calls. */
#define WEFT_ALWAYS_INLINE inline __attribute__((always_inline))
#define WEFT_NORETURN __attribute__((noreturn))
/* For the profiler's copies of those paths, kept out of the plain ones. */
#define WEFT_NOINLINE __attribute__((noinline))
/* Wrappers are stored in the descriptor's state word, where low bits 10
 * mean "stolen"; 4-byte alignment keeps bit 1 of their address clear even
 * at -Os (bit 0 may be set: ARM Thumb function pointers). */
#define WEFT_WRAPPER_ALIGN __attribute__((aligned(4)))
/* A task's code starts on a cache line, so where its loops fall against
 * the 64-byte lines depends on the task's code alone, not on the code the
 * compiler placed before it.  Lace 1.4.2's queens, the same instructions
 * as on Lace, ran 1.3x slower when its inner loop straddled a line: on a
 * 32-byte boundary that happened whenever the body began in a line's
 * second half (docs/results/lace.md). */
#define WEFT_TASK_CODE_ALIGN __attribute__((aligned(64)))

struct weft_worker;
struct weft_interrupt; /* one interrupt (TOGETHER, NEWFRAME): the runtime's own */

/* A task descriptor: one cache line, stored directly in the owner's deque
 * (Wool's direct task stack).  `state` is the only field thieves and owner
 * race on; the payload holds the arguments and, once run, the result. */
typedef struct weft_task {
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uintptr_t) state;
    unsigned char payload[WEFT_TASK_SIZE - sizeof(uintptr_t)];
} weft_task;

/* Runs the task stored in `t` on worker `w` whose deque top is `head`,
 * writing the result back into `t`. */
typedef void (*weft_wrapper_fn)(struct weft_worker *w, weft_task *head, weft_task *t);

/* Values of weft_task.state:
 *   EMPTY      slot unused; every slot at or above the owner's head is EMPTY
 *   TASK(f)    the wrapper address f: spawned, not (yet) stolen
 *   STOLEN(w)  thief worker address | 2 (low bits 10): being run by thief w
 *   DONE       stolen and completed; the result is in the payload
 *   END        the sentinel in the first slot a spawn may not use
 * Wrapper addresses end in 00, or 01 on ARM Thumb; worker structs are
 * cache-line aligned; so the five kinds never collide. */
#define WEFT_STATE_EMPTY ((uintptr_t)0)
/* The first slot a spawn may not use holds END for the pool's life, so
 * that a spawn's one test of its slot (bits/fork_join.h) also finds a
 * full deque: neither a task, nor stolen, nor DONE. */
#define WEFT_STATE_END ((uintptr_t)7)
#define WEFT_STATE_DONE ((uintptr_t)3)
#define WEFT_STATE_STOLEN_TAG ((uintptr_t)2)
#define WEFT_STATE_IS_STOLEN(s) (((s)&3u) == WEFT_STATE_STOLEN_TAG)
#define WEFT_STATE_STOLEN(thief) ((uintptr_t)(thief) | WEFT_STATE_STOLEN_TAG)
#define WEFT_STATE_THIEF(s) ((struct weft_worker *)((s) & ~(uintptr_t)3))

/* The scheduler's per-worker state (weft_sched_own, weft_sched_shared,
 * weft_sched_cold), the state an interrupt saves (weft_sched_saved) and its
 * own counters (weft_sched_counters), from src/sched/<name>/state.h; the
 * configured weft/config.h names the header. */
#include WEFT_SCHED_STATE_HEADER

/* Event counters (only compiled in with -DWEFT_STATS=ON).  Written by the
 * owning worker only, with relaxed atomics so a live report is race-free.
 * These are the runtime's; the scheduler adds its own in `sched`. */
typedef struct weft_counters {
    WEFT_ATOMIC(uint64_t) tasks;       /* spawns */
    WEFT_ATOMIC(uint64_t) steals;      /* successful steals while idle / random */
    WEFT_ATOMIC(uint64_t) steal_fails; /* steal attempts that got nothing */
    WEFT_ATOMIC(uint64_t) leaps;       /* successful steals from the thief at a blocked sync */
    WEFT_ATOMIC(uint64_t) leap_fails;  /* leapfrog attempts that got nothing */
    WEFT_ATOMIC(uint64_t) sleeps;      /* times this worker went to sleep */
    WEFT_ATOMIC(uint64_t) wakes;       /* times this worker woke another */
    WEFT_ATOMIC(uint64_t) peak_depth;  /* deepest deque slot used */
    weft_sched_counters sched;         /* the scheduler's (named in its .c file) */
} weft_counters;

/* The bytes of weft_worker's api_ext. */
#define WEFT_API_EXT_SIZE (2 * WEFT_CACHE_LINE)

typedef struct weft_worker {
    /* ---- line 0: owner-private, read by the SPAWN/SYNC fast paths ---- */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) weft_task *end; /* one past the last usable slot */
    weft_task *dq;                                /* slot 0 */
    unsigned id;                                  /* 0 .. workers-1 */
    weft_sched_own own;                           /* the scheduler's owner-private hot fields */

    /* ---- lines 1..: the scheduler's thief-visible state ---- */
    weft_sched_shared shared;

    /* ---- sleeping (see src/runtime/sleep.c) and leapfrogging ---- */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uint32_t) sleep_word;
    /* Joiners asleep in pure-leapfrog mode waiting for work from this
     * worker (their thief); it wakes one when it shares. */
    WEFT_ATOMIC(uint32_t) leap_sleepers;
    /* The stolen task this worker is blocked on at a SYNC, or NULL: lets
     * a leapfrogging joiner find its thief's thief (transitive leapfrog). */
    WEFT_ATOMIC(weft_task *) joining;
    /* The CPU of the thread that last claimed this worker's sleep: woken
     * on that CPU, the worker's first idle hold yields to it. */
    WEFT_ATOMIC(int) waker_cpu;

    /* ---- a record an API layer keeps in the worker (Lace 2's
     * lace_worker, include/weft-lace2/), which then finds the worker from
     * the record by address arithmetic instead of a load; zero at start,
     * owner-private ---- */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) unsigned char api_ext[WEFT_API_EXT_SIZE];

#if WEFT_STATS
    WEFT_ALIGNAS(WEFT_CACHE_LINE) weft_counters ctr;
#endif
#if WEFT_PROFILE
    /* ---- the profiler (bits/observe.h), owner-private, every strand ---- */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) weft_profile_worker prof;
#endif

    /* ---- cold, owner-private runtime state (src/runtime/) ---- */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) uint64_t rng;
    uint64_t seen_interrupt; /* generation of the last interrupt served */
    int in_interrupt;        /* kind of interrupt being served, 0 if none */
    /* While it runs its own TOGETHER copy (not a stolen task, nor a
     * NEWFRAME's task): that TOGETHER's record, whose barrier weft_barrier
     * uses (interrupt.c); NULL otherwise. */
    struct weft_interrupt *together;
    void *stack_lo, *stack_hi; /* usable stack (for overflow reports) */
    void *guard_lo, *guard_hi; /* stack guard region */
    weft_task *frame_floor;    /* lowest slot the running stolen/root task may join */
    /* The running stolen/root task's number, new at each start (roots_begun
     * counts them) and back to its caller's when it ends: a C++
     * task_group tells the frame that made it from a task the runtime
     * started on top of that frame at the same head (a RUN on a worker, an
     * interrupt's task; bits/cpp_task_group.hpp).  With WEFT_CHECKS every
     * task's body is numbered so (bits/task_macros.h). */
    uint64_t root_serial;
    uint64_t roots_begun;
    /* The highest top a search found (a second copy of the top) since the
     * running stolen/root task began: joins below it test their order on
     * the slow path (bits/fork_join.h, "Where the join's test is made"). */
    weft_task *join_guard;
    size_t deque_slots;
    /* Where weft_current_head last found the head: its search starts
     * there.  Relaxed atomic: a hint, checked against the slots on every
     * use; only the thread running as this worker uses it. */
    WEFT_ATOMIC(size_t) head_hint;
    /* Set at start, read-only after: the thief-visible part (&shared, for
     * API views that expose it as a pointer, Lace's _public) and the CPU
     * the worker is pinned to (-1: not pinned). */
    void *shared_part;
    int16_t cpu;
    weft_sched_cold cold; /* the scheduler's owner-private state off the fast paths */
#if WEFT_TRACE
    /* The tracer (src/observe/trace.c): this worker's track, NULL while
     * nothing is traced. */
    WEFT_ATOMIC(struct weft_trace_track *) trace;
#endif
} weft_worker;

/* Stops with a message: worker's deque of `slots` slots is full with
 * `used` tasks (every scheduler's reserve; src/runtime/diagnostics.c). */
WEFT_NORETURN void weft__deque_overflow(unsigned worker, size_t used, size_t slots);

/* The usual weft_sched_reserve: room for a task at slot t, or stop with a
 * message.  (The split deque keeps one more slot free; src/sched/split/owner.h.) */
static inline void weft_deque_reserve(weft_worker *w, weft_task *t)
{
    if (WEFT_UNLIKELY(t >= w->end))
        weft__deque_overflow(w->id, (size_t)(t - w->dq), w->deque_slots);
}

/* WEFT_COUNT(w, tasks, 1) counts a runtime event, WEFT_COUNT(w, sched.grows,
 * 1) one of the scheduler's. */
#if WEFT_STATS
#define WEFT_COUNT(w, field, n) \
    atomic_store_explicit(&(w)->ctr.field, \
                          atomic_load_explicit(&(w)->ctr.field, memory_order_relaxed) + (n), \
                          memory_order_relaxed) /* owner-only counter */
#define WEFT_COUNT_PEAK(w, t) \
    do { \
        uint64_t d_ = (uint64_t)((t) - (w)->dq) + 1; \
        if (d_ > atomic_load_explicit(&(w)->ctr.peak_depth, memory_order_relaxed)) \
            atomic_store_explicit(&(w)->ctr.peak_depth, d_, memory_order_relaxed); \
    } while (0)
#else
#define WEFT_COUNT(w, field, n) ((void)0)
#define WEFT_COUNT_PEAK(w, t) ((void)0)
#endif

WEFT_END_DECLS

#endif
