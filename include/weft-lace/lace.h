// SPDX-License-Identifier: Apache-2.0
/* Lace 1.4's API on weft: a program written for Lace 1.4 (lace.h) builds
 * against weft unchanged and runs on weft's scheduler.
 *
 *     TASK_1(int, fib, int, n)
 *     {
 *         if (n < 2) return n;
 *         SPAWN(fib, n - 1);
 *         int b = CALL(fib, n - 2);
 *         return SYNC(fib) + b;
 *     }
 *     ... lace_start(0, 0); printf("%d\n", RUN(fib, 40)); lace_stop(); ...
 *
 * Everything maps onto weft's public API (the names and what each maps to
 * are listed in docs/lace.md): a Lace task is a weft task whose hidden
 * parameters carry Lace's names, __lace_worker and __lace_dq_head, and
 * whose descriptor is a Lace Task.  The functions (lace_start, ...) live in
 * the weft-lace library, which the `lace` CMake and pkg-config packages
 * link (docs/lace.md: building a Lace program against weft).
 *
 * Differences from Lace 1.4 (docs/lace.md has them all): idle workers
 * sleep instead of spinning; worker stacks are weft's (64 MiB of address
 * space by default, lace_set_stacksize sets them); misuse that Lace leaves
 * undefined (a SYNC with nothing spawned, a task returning with a SPAWN not
 * joined, a full deque) stops with a "weft:" message.
 */
#ifndef WEFT_LACE_H
#define WEFT_LACE_H

/* What Lace's lace.h includes, and so what Lace programs rely on. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#ifndef __cplusplus
#include <stdalign.h>
#include <stdatomic.h>
#else
/* What Lace's lace.h gives a C++ includer (1.4.2 and 1.6 alike): <atomic>,
 * _Atomic(T) spelled as std::atomic<T>, and these four memory orders in the
 * global namespace, so that a C++ file can include a client's C headers
 * (Sylvan's sylvan_int.h, with its _Atomic(uint64_t) fields).  Lace's
 * definition of _Atomic, unless the includer has one (C++23's
 * <stdatomic.h> defines it to the same type). */
#include <atomic>
#ifndef _Atomic
#define _Atomic(T) std::atomic<T>
#endif
using std::memory_order_acquire;
using std::memory_order_relaxed;
using std::memory_order_release;
using std::memory_order_seq_cst;
#endif

#include <weft/weft.h>

/* The Lace API generation (14: Lace 1.4.2, 16: Lace 1.6.3) and Lace's
 * build options, as the installed package configured them; a program (or
 * a test) may define WEFT_LACE_API itself. */
#if defined(__has_include)
#if __has_include(<lace_config.h>)
#include <lace_config.h>
#endif
#endif
#ifndef WEFT_LACE_API
#define WEFT_LACE_API 14
#endif
#if WEFT_LACE_API != 14 && WEFT_LACE_API != 16
#error "WEFT_LACE_API must be 14 (Lace 1.4) or 16 (Lace 1.6)"
#endif

#ifdef WEFT_SHORT_H
#error "lace.h and weft/short.h both define SPAWN, SYNC, CALL...: include only one of them"
#endif

#if WEFT_LACE_API == 14
/* Lace 1.4.2's include guard, which a program may test. */
#define __LACE_H__
#else
/* Lace 1.6's lace.h also includes these (alloca.h for LACE_ALLOCA). */
#include <errno.h>
#include <stddef.h>
#include <time.h>
#ifdef __cplusplus
#include <stdalign.h>
#endif
#if defined(__has_include)
#if __has_include(<alloca.h>)
#include <alloca.h>
#endif
#endif
#endif

WEFT_BEGIN_DECLS

/* Internal: one program links one Lace layer (Lace 1's or Lace 2's): each
 * file that includes a Lace header names its layer's marker, and both
 * layers' libraries define weft__lace_one_layer_per_program beside theirs,
 * so the linker refuses a program with objects of both (Lace 2's
 * lace2_bits.h says more). */
extern const char weft__lace1_layer;
static const char *const weft__lace1_layer_ref_ __attribute__((used)) = &weft__lace1_layer;

/* Lace's version this layer implements. */
#define LACE_VERSION_MAJOR 1
#if WEFT_LACE_API == 14
#define LACE_VERSION_MINOR 4
#define LACE_VERSION_PATCH 2
#else
#define LACE_VERSION_MINOR 6
#define LACE_VERSION_PATCH 3
#endif

/* ------------------------------------------------------------------------
 * Lace's configuration and helper macros (the same names and values)
 * ------------------------------------------------------------------------ */

#ifndef LACE_PIE_TIMES
#define LACE_PIE_TIMES 0
#endif
#ifndef LACE_COUNT_TASKS
#define LACE_COUNT_TASKS 0
#endif
#ifndef LACE_COUNT_STEALS
#define LACE_COUNT_STEALS 0
#endif
#ifndef LACE_COUNT_SPLITS
#define LACE_COUNT_SPLITS 0
#endif
#ifndef LACE_LEAP_RANDOM
#define LACE_LEAP_RANDOM 1
#endif
#ifndef LACE_COUNT_EVENTS
#define LACE_COUNT_EVENTS \
    (LACE_PIE_TIMES || LACE_COUNT_TASKS || LACE_COUNT_STEALS || LACE_COUNT_SPLITS)
#endif
/* A cache line, for the program's own alignment (Lace's default). */
#ifndef LINE_SIZE
#define LINE_SIZE 64
#endif
#define P_SZ (sizeof(void *))
#define PAD(x, b) (((b) - ((x) % (b))) & ((b)-1)) /* b a power of 2 */
#define ROUND(x, b) ((x) + PAD((x), (b)))
#ifndef likely
#define likely(x) __builtin_expect((x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect((x), 0)
#endif
/* weft counts with -DWEFT_STATS=ON (lace_count_report_file); Lace's
 * per-event hooks are empty, as in a Lace built without LACE_COUNT_*. */
#define PR_COUNTTASK(s)
#define PR_COUNTSTEALS(s, i)
#define PR_COUNTSPLITS(s, i)
#define PR_ADD(s, i, k)
#define PR_INC(s, i) PR_ADD(s, i, 1)
typedef enum {
    CTR_tasks,
    CTR_steal_tries,
    CTR_leap_tries,
    CTR_steals,
    CTR_leaps,
    CTR_steal_busy,
    CTR_leap_busy,
    CTR_split_grow,
    CTR_split_shrink,
    CTR_split_req,
    CTR_fast_sync,
    CTR_slow_sync,
    CTR_init,
    CTR_close,
    CTR_wapp,
    CTR_lapp,
    CTR_wsteal,
    CTR_lsteal,
    CTR_wstealsucc,
    CTR_lstealsucc,
    CTR_wsignal,
    CTR_lsignal,
#if WEFT_LACE_API >= 16
    CTR_backoff,
#endif
    CTR_MAX
} CTR_index;

/* ------------------------------------------------------------------------
 * Types
 * ------------------------------------------------------------------------ */

/* Lace's thief-visible worker: opaque here (weft's lives in its worker). */
typedef struct _Worker Worker;
#define THIEF_EMPTY ((struct _Worker *)0x0)
#define THIEF_TASK ((struct _Worker *)0x1)
#define THIEF_COMPLETED ((struct _Worker *)0x2)
#define LACE_STOLEN ((Worker *)0)
#define LACE_BUSY ((Worker *)1)
#define LACE_NOWORK ((Worker *)2)
typedef union {
    struct {
        WEFT_ATOMIC(uint32_t) tail;
        WEFT_ATOMIC(uint32_t) split;
    } ts;
    WEFT_ATOMIC(uint64_t) v;
} TailSplit;
typedef union {
    struct {
        uint32_t tail;
        uint32_t split;
    } ts;
    uint64_t v;
} TailSplitNA;

/* A task descriptor: weft's, seen with Lace's field names.
 *   f  the task's function identity (its wrapper), the same for every task
 *      of one TASK definition and different between definitions; set in
 *      every Task that SPAWN returns (and in RUN/NEWFRAME/TOGETHER's), and
 *      unchanged while the task is stolen, run and completed
 *   d  arguments, then the result; a task whose arguments or result need
 *      more than pointer alignment (long double) has them at the next
 *      multiple of their alignment, 16 bytes into the Task instead of 8:
 *      TASK_RESULT points at the result in both cases (for that, the f of
 *      a Task SPAWN returned has bit 1 set then: compare f, do not call it)
 * TASK_IS_STOLEN and TASK_IS_COMPLETED read weft's state word. */
typedef struct _Task Task;
struct _WorkerP;
typedef void (*lace_task_fn)(struct weft_worker *, struct weft_task *, struct weft_task *);
struct _Task {
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uintptr_t) weft_state_; /* weft_task.state */
    char d[WEFT_TASK_SIZE - sizeof(uintptr_t) - sizeof(lace_task_fn)];
    lace_task_fn f;
};
WEFT_STATIC_ASSERT(sizeof(Task) == sizeof(weft_task) &&
                       WEFT_ALIGNOF(Task) == WEFT_ALIGNOF(weft_task),
                   "lace: Task must be laid out as weft_task");
/* Lace's common task fields, for programs that build descriptor types of
 * their own with them (weft's Task has f and d only). */
#define TASK_COMMON_FIELDS(type) \
    void (*f)(struct _WorkerP *, struct _Task *, struct type *); \
    WEFT_ATOMIC(struct _Worker *) thief;
struct lace_common_fields_only_ {
    TASK_COMMON_FIELDS(_Task)
};
#define LACE_COMMON_FIELD_SIZE sizeof(struct lace_common_fields_only_)
/* Lace 1.4's LACE_TASKSIZE is the bytes a task's arguments, or its result,
 * may take: 48 in a 64-byte descriptor, 112 with WEFT_TASK_SIZE=128.  Lace
 * 1.6's is the whole descriptor (sizeof(Task)), of which that much is left
 * for them. */
#if WEFT_LACE_API == 14
#define LACE_TASKSIZE (WEFT_TASK_SIZE - 2 * sizeof(void *))
#else
#define LACE_TASKSIZE (WEFT_TASK_SIZE)
#endif

/* A worker: weft's worker, seen with Lace's field names.  Reading them is
 * what Lace programs do (lace_get_worker()->worker):
 *   worker     the worker's id, 0 .. lace_workers()-1 (weft's id)
 *   dq, end    its deque's first slot and one past its last
 *   split      the owner's split point, with a scheduler that has one
 *              (the split deque's owner.h says where it is)
 *   allstolen  the thieves' "nothing to steal" hint, with the same
 *   rng        the per-worker generator LACE_TRNG advances (weft's victim
 *              choice draws from it too); seed is its upper half
 *   _public    the worker's thief-visible part (opaque Worker *), distinct
 *              per worker and fixed from lace_start to lace_stop
 *   pu         the CPU the worker is pinned to, -1 if not pinned (what
 *              LACE_WORKER_PU gives)
 * Lace's ctr, time and level exist only when Lace is built with
 * LACE_COUNT_EVENTS, which lace_config.h sets to 0 (lace_count_report_file
 * prints weft's counters).  Write none of them except through LACE_TRNG. */
typedef struct _WorkerP WorkerP;
struct _WorkerP {
    union {
        struct weft_worker weft_;
        struct {
            Task *end;
            Task *dq;
            unsigned int worker;
        };
#if defined(WEFT_SCHED_SPLIT_POINT_OFFSET)
        struct {
            char lace_at_split_[WEFT_SCHED_SPLIT_POINT_OFFSET];
            Task *split;
        };
        struct {
            char lace_at_allstolen_[WEFT_SCHED_ALLSTOLEN_OFFSET];
            uint8_t allstolen;
        };
#endif
        struct {
            char lace_at_rng_[offsetof(struct weft_worker, rng)];
            uint64_t rng;
        };
        struct {
            char lace_at_seed_[offsetof(struct weft_worker, rng) + 4];
            uint32_t seed;
        };
        struct {
            char lace_at_public_[offsetof(struct weft_worker, shared_part)];
            Worker *_public;
        };
        struct {
            char lace_at_pu_[offsetof(struct weft_worker, cpu)];
            int16_t pu;
        };
    };
};
WEFT_STATIC_ASSERT(offsetof(struct weft_worker, end) == 0 &&
                       offsetof(struct weft_worker, dq) == sizeof(void *) &&
                       offsetof(struct weft_worker, id) == 2 * sizeof(void *),
                   "lace: WorkerP's end, dq and worker must overlay weft_worker's end, dq and id");

/* The Lace flavour's worker type: the task functions take WorkerP *. */
#define LACE_FLAVOR_WORKER_T WorkerP

/* ------------------------------------------------------------------------
 * Declaring tasks: TASK_n, VOID_TASK_n, TASK_DECL_n / TASK_IMPL_n and
 * VOID_TASK_DECL_n / VOID_TASK_IMPL_n for n = 0..9 (RT, NAME, T1, a1, ...).
 * Each generates NAME_SPAWN, NAME_SYNC, NAME_CALL (WorkerP *, Task *,
 * args...), NAME_RUN, NAME_RUNEX, NAME_NEWFRAME and NAME_TOGETHER.
 * ------------------------------------------------------------------------ */

/* The Lace flavour of weft's task templates (weft/bits/task_macros.h). */
#define LACE_FLAVOR_TASK_T Task
#define LACE_FLAVOR_W __lace_worker
#define LACE_FLAVOR_HEAD __lace_dq_head
#define LACE_FLAVOR_RUN lace_weft_run_
#define LACE_FLAVOR_NEWFRAME lace_weft_newframe_
#define LACE_FLAVOR_TOGETHER lace_weft_together_
#define LACE_FLAVOR_THREW weft__lace_task_threw
/* Per task: the arguments and the result fit in front of f (a compile-time
 * error names the task otherwise), and RUNEX.  Arguments and results of
 * any alignment up to a cache line are stored at their aligned offset in
 * the frame (d lands at 16 for long double), as weft's own tasks do. */
#define LACE_FLAVOR_FITS_(NAME) \
    WEFT_STATIC_ASSERT(sizeof(NAME##_frame) <= offsetof(Task, f), \
                       "lace: the arguments or the result of task " #NAME \
                       " do not fit the task descriptor (its size less 16 bytes; " \
                       "configure weft with -DWEFT_TASK_SIZE=128 for larger tasks)");
#define LACE_FLAVOR_MORE(RT, NAME, N, TYPES) \
    LACE_FLAVOR_FITS_(NAME) WEFT_ENTRY_(RT, NAME, N, TYPES, _RUNEX, lace_weft_runex_)
#define LACE_FLAVOR_MORE_VOID(NAME, N, TYPES) \
    LACE_FLAVOR_FITS_(NAME) WEFT_VOID_ENTRY_(NAME, N, TYPES, _RUNEX, lace_weft_runex_)

#define TASK_DECL_0(RT, NAME) WEFT_GEN_DECL_0(LACE_FLAVOR, RT, NAME)
#define TASK_DECL_1(RT, NAME, ...) WEFT_GEN_DECL_1(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define TASK_DECL_2(RT, NAME, ...) WEFT_GEN_DECL_2(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define TASK_DECL_3(RT, NAME, ...) WEFT_GEN_DECL_3(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define TASK_DECL_4(RT, NAME, ...) WEFT_GEN_DECL_4(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define TASK_DECL_5(RT, NAME, ...) WEFT_GEN_DECL_5(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define TASK_DECL_6(RT, NAME, ...) WEFT_GEN_DECL_6(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define TASK_DECL_7(RT, NAME, ...) WEFT_GEN_DECL_7(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define TASK_DECL_8(RT, NAME, ...) WEFT_GEN_DECL_8(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define TASK_DECL_9(RT, NAME, ...) WEFT_GEN_DECL_9(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define TASK_DECL_10(RT, NAME, ...) WEFT_GEN_DECL_10(LACE_FLAVOR, RT, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_0(NAME) WEFT_GEN_VOID_DECL_0(LACE_FLAVOR, NAME)
#define VOID_TASK_DECL_1(NAME, ...) WEFT_GEN_VOID_DECL_1(LACE_FLAVOR, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_2(NAME, ...) WEFT_GEN_VOID_DECL_2(LACE_FLAVOR, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_3(NAME, ...) WEFT_GEN_VOID_DECL_3(LACE_FLAVOR, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_4(NAME, ...) WEFT_GEN_VOID_DECL_4(LACE_FLAVOR, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_5(NAME, ...) WEFT_GEN_VOID_DECL_5(LACE_FLAVOR, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_6(NAME, ...) WEFT_GEN_VOID_DECL_6(LACE_FLAVOR, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_7(NAME, ...) WEFT_GEN_VOID_DECL_7(LACE_FLAVOR, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_8(NAME, ...) WEFT_GEN_VOID_DECL_8(LACE_FLAVOR, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_9(NAME, ...) WEFT_GEN_VOID_DECL_9(LACE_FLAVOR, NAME, __VA_ARGS__)
#define VOID_TASK_DECL_10(NAME, ...) WEFT_GEN_VOID_DECL_10(LACE_FLAVOR, NAME, __VA_ARGS__)

#define TASK_IMPL_0(RT, NAME) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 0, )
#define TASK_IMPL_1(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 1, __VA_ARGS__)
#define TASK_IMPL_2(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 2, __VA_ARGS__)
#define TASK_IMPL_3(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 3, __VA_ARGS__)
#define TASK_IMPL_4(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 4, __VA_ARGS__)
#define TASK_IMPL_5(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 5, __VA_ARGS__)
#define TASK_IMPL_6(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 6, __VA_ARGS__)
#define TASK_IMPL_7(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 7, __VA_ARGS__)
#define TASK_IMPL_8(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 8, __VA_ARGS__)
#define TASK_IMPL_9(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 9, __VA_ARGS__)
#define TASK_IMPL_10(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 10, __VA_ARGS__)
#define VOID_TASK_IMPL_0(NAME) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 0, )
#define VOID_TASK_IMPL_1(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 1, __VA_ARGS__)
#define VOID_TASK_IMPL_2(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 2, __VA_ARGS__)
#define VOID_TASK_IMPL_3(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 3, __VA_ARGS__)
#define VOID_TASK_IMPL_4(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 4, __VA_ARGS__)
#define VOID_TASK_IMPL_5(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 5, __VA_ARGS__)
#define VOID_TASK_IMPL_6(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 6, __VA_ARGS__)
#define VOID_TASK_IMPL_7(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 7, __VA_ARGS__)
#define VOID_TASK_IMPL_8(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 8, __VA_ARGS__)
#define VOID_TASK_IMPL_9(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 9, __VA_ARGS__)
#define VOID_TASK_IMPL_10(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 10, __VA_ARGS__)

#define TASK_0(RT, NAME) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 0, )
#define TASK_1(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 1, __VA_ARGS__)
#define TASK_2(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 2, __VA_ARGS__)
#define TASK_3(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 3, __VA_ARGS__)
#define TASK_4(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 4, __VA_ARGS__)
#define TASK_5(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 5, __VA_ARGS__)
#define TASK_6(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 6, __VA_ARGS__)
#define TASK_7(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 7, __VA_ARGS__)
#define TASK_8(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 8, __VA_ARGS__)
#define TASK_9(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 9, __VA_ARGS__)
#define TASK_10(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 10, __VA_ARGS__)
#define VOID_TASK_0(NAME) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 0, )
#define VOID_TASK_1(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 1, __VA_ARGS__)
#define VOID_TASK_2(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 2, __VA_ARGS__)
#define VOID_TASK_3(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 3, __VA_ARGS__)
#define VOID_TASK_4(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 4, __VA_ARGS__)
#define VOID_TASK_5(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 5, __VA_ARGS__)
#define VOID_TASK_6(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 6, __VA_ARGS__)
#define VOID_TASK_7(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 7, __VA_ARGS__)
#define VOID_TASK_8(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 8, __VA_ARGS__)
#define VOID_TASK_9(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 9, __VA_ARGS__)
#define VOID_TASK_10(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 10, __VA_ARGS__)

/* Lace's lace14.h has tasks of 11 to 14 parameters; weft's take up to 10:
 * such a task stops the compile with a message saying so (the body that
 * follows the macro becomes a function of no parameters, so that the
 * message comes first). */
#define LACE_TOO_MANY_PARAMETERS_(NAME, N) \
    WEFT_STATIC_ASSERT(0, "task " #NAME " has " #N " parameters: Lace tasks on weft take up to " \
                          "10 (docs/lace.md)"); \
    static inline WEFT_UNUSED void NAME##_has_too_many_parameters_(void)
#define TASK_DECL_11(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 11)
#define VOID_TASK_DECL_11(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 11)
#define TASK_IMPL_11(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 11)
#define VOID_TASK_IMPL_11(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 11)
#define TASK_11(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 11)
#define VOID_TASK_11(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 11)
#define TASK_DECL_12(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 12)
#define VOID_TASK_DECL_12(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 12)
#define TASK_IMPL_12(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 12)
#define VOID_TASK_IMPL_12(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 12)
#define TASK_12(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 12)
#define VOID_TASK_12(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 12)
#define TASK_DECL_13(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 13)
#define VOID_TASK_DECL_13(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 13)
#define TASK_IMPL_13(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 13)
#define VOID_TASK_IMPL_13(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 13)
#define TASK_13(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 13)
#define VOID_TASK_13(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 13)
#define TASK_DECL_14(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 14)
#define VOID_TASK_DECL_14(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 14)
#define TASK_IMPL_14(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 14)
#define VOID_TASK_IMPL_14(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 14)
#define TASK_14(RT, NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 14)
#define VOID_TASK_14(NAME, ...) LACE_TOO_MANY_PARAMETERS_(NAME, 14)

#if WEFT_LACE_API >= 16
/* Lace 1.6's TASK(rtype, name, T1, a1, ...): TASK_n, or VOID_TASK_n for
 * TASK(void, name, ...); n = 0..10 from the argument count. */
#define LACE_CAT_(a, b) LACE_CAT_I_(a, b)
#define LACE_CAT_I_(a, b) a##b
#define LACE_PICK22_(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, \
                     _17, _18, _19, _20, N, ...) \
    N
#define LACE_NPAIRS_(dummy, ...) \
    LACE_PICK22_(dummy, ##__VA_ARGS__, 10, 10, 9, 9, 8, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, \
                 1, 0)
#define LACE_SECOND_(a, b, ...) b
#define LACE_SECOND_X_(...) LACE_SECOND_(__VA_ARGS__)
#define LACE_EMPTY_PROBE_() ~, 1
/* 1 when RT is exactly `void`: LACE_VOID_EAT_void leaves nothing, which
 * turns LACE_EMPTY_PROBE_ () into a call ("void *" leaves a "*"). */
#define LACE_VOID_EAT_void
#define LACE_IS_VOID_(RT) LACE_IS_VOID_I_(LACE_CAT_(LACE_VOID_EAT_, RT))
#define LACE_IS_VOID_I_(x) LACE_SECOND_X_(LACE_EMPTY_PROBE_ x(), 0, ~)
#define LACE_TASK_SEL_0(RT, NAME, N, ...) LACE_CAT_(TASK_, N)(RT, NAME, ##__VA_ARGS__)
#define LACE_TASK_SEL_1(RT, NAME, N, ...) LACE_CAT_(VOID_TASK_, N)(NAME, ##__VA_ARGS__)
#define TASK(RT, NAME, ...) \
    LACE_CAT_(LACE_TASK_SEL_, LACE_IS_VOID_(RT)) \
    (RT, NAME, LACE_NPAIRS_(~, ##__VA_ARGS__), ##__VA_ARGS__)
#endif

/* ------------------------------------------------------------------------
 * Inside tasks (the hidden __lace_worker and __lace_dq_head in scope)
 * ------------------------------------------------------------------------ */

/* Spawns a task; the expression's value is its Task *, whose f it stamps
 * (docs/lace.md, "The f field").  A comma expression, as Lace's own: an
 * inline function stamps f with one store to the slot's line that the
 * push has just written. */
#define SPAWN(NAME, ...) \
    (__lace_dq_head = WEFT_SPAWN_FN_(NAME, __lace_worker, __lace_dq_head, ##__VA_ARGS__), \
     lace_spawned_(__lace_dq_head, LACE_F_(NAME)))
/* The f SPAWN stamps: the wrapper, with bit 1 (clear in a wrapper's
 * address: wrappers are 4-aligned, and bit 0 may be ARM Thumb's) set when
 * the arguments and result start 16 bytes into the Task (long double,
 * __int128) rather than 8.  TASK_RESULT reads it. */
#define LACE_F_(f) ((lace_task_fn)((uintptr_t)&f##_WRAP | (offsetof(f##_frame, d) == 16 ? 2u : 0u)))
/* Joins the most recent SPAWN not joined yet; its value is the result. */
#define SYNC(f) (WEFT_SYNC_FN_(f)(__lace_worker, --__lace_dq_head))
/* Joins the most recent SPAWN without running it if nobody stole it. */
#define DROP() (lace_drop(__lace_worker, --__lace_dq_head))
#define CALL(f, ...) (WEFT_CALL_FN_(f)(__lace_worker, __lace_dq_head, ##__VA_ARGS__))
/* The task's NAME_CALL as a pointer (for callback tables), and a call of
 * such a pointer (or any function taking the context first). */
#if WEFT_LACE_API < 16
#define TASK(f) (f##_CALL)
#endif
#define WRAP(f, ...) ((f)(__lace_worker, __lace_dq_head, ##__VA_ARGS__))
/* A pointer type for TASK(f) of tasks returning t with these arguments. */
#define LACE_TYPEDEF_CB(t, f, ...) typedef t (*f)(WorkerP *, Task *, ##__VA_ARGS__);
#define LACE_WORKER_ID ((int)__lace_worker->worker)
#define LACE_WORKER_PU (lace_worker_pu(__lace_worker))
/* A per-worker pseudo-random 64-bit number (Lace 1.4's LCG on the
 * worker's rng; in 1.6 an alias of lace_rng). */
#if WEFT_LACE_API < 16
#define LACE_TRNG (lace_trng(__lace_worker))
#else
#define LACE_TRNG (lace_rng(__lace_worker))
#endif
#define STEAL_RANDOM() (lace_steal_random_CALL(__lace_worker, __lace_dq_head))
#define lace_steal_random() STEAL_RANDOM()
/* Joins a NEWFRAME or TOGETHER published to the workers (and a
 * weft_suspend) here: weft_yield, one relaxed load when nothing is on.
 * Clients call it at every operation (Sylvan's garbage-collection test), so
 * it does not also read lace_newframe.t as lace_yield does: an interrupt
 * shown there but not published yet has nothing to join yet. */
#define YIELD_NEWFRAME() weft_yield((weft_worker *)__lace_worker, (weft_task *)__lace_dq_head)

/* On the Task * a SPAWN returned, until it is joined. */
#define TASK_IS_STOLEN(t) (lace_task_is_stolen(t))
#define TASK_IS_COMPLETED(t) (lace_task_is_completed(t))
/* Where the result of a task SPAWN returned is: right after the state
 * word (8 bytes into the Task), or 16 for a result or arguments aligned to 16 (what f's bit 1 records).
 * (Results aligned to more than 16 are read through SYNC, as in Lace.) */
#define TASK_RESULT(t) \
    ((void *)((char *)(t) + (((uintptr_t)(t)->f & 2u) ? 16u : sizeof(uintptr_t))))

/* ------------------------------------------------------------------------
 * Outside tasks
 * ------------------------------------------------------------------------ */

/* Declares __lace_worker and __lace_dq_head in code running on a worker
 * (a "weft: ... not a worker" stop elsewhere). */
#define LACE_VARS \
    WorkerP *__lace_worker WEFT_UNUSED = lace_get_worker_checked(); \
    Task *__lace_dq_head WEFT_UNUSED = lace_get_head(__lace_worker);
#define LACE_ME LACE_VARS

/* From a thread outside the pool: runs the task on the pool and waits;
 * from a worker: calls it.  RUNEX also waits until no other RUN from
 * outside the pool is in progress and keeps new ones out until it is done. */
#define RUN(f, ...) (f##_RUN(__VA_ARGS__))
#define RUNEX(f, ...) (f##_RUNEX(__VA_ARGS__))
/* Every worker runs a copy (lace_barrier synchronises them); the call
 * returns when all are done. */
#define TOGETHER(f, ...) (f##_TOGETHER(__VA_ARGS__))
/* Suspends all work, runs this task on the whole pool, then resumes. */
#define NEWFRAME(f, ...) (f##_NEWFRAME(__VA_ARGS__))

/* ------------------------------------------------------------------------
 * Functions (the weft-lace library)
 * ------------------------------------------------------------------------ */

/* 0: no messages (the default); 1: lace_start says what it started. */
void lace_set_verbosity(int level);
/* The stack size of the workers lace_start starts next (0: weft's default,
 * $WEFT_STACK_SIZE or 64 MiB; a size below weft's minimum, 64 KiB, is
 * raised to it), and the value set. */
void lace_set_stacksize(size_t stacksize);
size_t lace_get_stacksize(void);
/* CPUs this process may run on. */
unsigned int lace_get_pu_count(void);
/* Starts n_workers workers (0: one per CPU) with room for dqsize tasks
 * each (0: weft's default; at least 16).  A pool that cannot start (bad
 * sizes, a pool already running, from a task) stops the program with a
 * message. */
void lace_start(unsigned int n_workers, size_t dqsize);
/* Waits for RUNs in progress, then stops the workers.  From a task it stops
 * the program with a message; with no pool running it only says so. */
void lace_stop(void);
/* Park the workers and let them run again, as in Lace: Lace's count of
 * resumes less suspends, 1 from lace_start, parks them (weft_suspend)
 * while it is 0 or less.  A RUN, NEWFRAME or TOGETHER from outside the
 * pool runs its task even then (Lace resumes the workers for it and
 * suspends them again after).  From outside the pool only (from a task: a
 * message, ignored). */
void lace_suspend(void);
void lace_resume(void);
/* Lace's first API (before 1.3), for programs written against it.
 * lace_init records the pool lace_startup starts: n_workers (0: one per
 * CPU) and dqsize (0: weft's default); it starts no thread.
 * lace_startup(stacksize, cb, arg) starts it, workers' stacks of stacksize
 * bytes (0: weft's default).  With a callback (a task type's TASK(f), or
 * any LACE_TYPEDEF_CB(void, lace_startup_cb, void *) function), the calling
 * thread waits while a worker runs cb(arg) as the root task, then Lace
 * stops and lace_startup returns.  Without one (NULL), the calling thread
 * becomes worker 0 and lace_startup returns: from then on it uses LACE_ME
 * and CALLs tasks itself, on its own stack, and the other workers steal
 * what it spawns; it ends Lace with lace_exit (or lace_stop).  Misuse (no
 * lace_init first, lace_exit with tasks not synced) stops the program with
 * a message.  docs/lace.md, "Lace's first API". */
LACE_TYPEDEF_CB(void, lace_startup_cb, void *)
void lace_init(unsigned int n_workers, size_t dqsize);
void lace_startup(size_t stacksize, lace_startup_cb cb, void *arg);
/* Stops Lace: lace_stop, after the thread that lace_startup made worker 0
 * gave the worker back (call it on that thread).  From inside the
 * callback's task: Lace stops when the callback returns. */
void lace_exit(void);
unsigned int lace_workers(void);
int lace_is_worker(void);
/* The calling thread's worker, NULL outside the pool. */
WorkerP *lace_get_worker(void);
WorkerP *lace_get_worker_checked(void);
/* The current top of w's deque (for LACE_VARS). */
Task *lace_get_head(WorkerP *w);
/* All workers wait here for each other (inside TOGETHER copies). */
void lace_barrier(void);
/* The entry points RUN, RUNEX, NEWFRAME and TOGETHER use: t's f names the
 * task, its arguments are in d. */
void lace_run_task(Task *t);
void lace_run_task_exclusive(Task *t);
void lace_run_newframe(Task *t);
void lace_run_together(Task *t);
/* One steal attempt from a random other worker; runs what it gets. */
void lace_steal_random_CALL(WorkerP *w, Task *head);
/* weft's counters (compiled in with -DWEFT_STATS=ON). */
void lace_count_reset(void);
void lace_count_report_file(FILE *file);
/* The CPU w is pinned to, or -1. */
int lace_worker_pu(WorkerP *w);
/* Stops the program with Lace's message (weft's SPAWN stops by itself
 * with a "weft:" message when a deque is full). */
WEFT_NORETURN void lace_abort_stack_overflow(void);

/* Makes all tasks of the worker stealable.  weft shares tasks when thieves
 * ask for them, so there is nothing to do. */
#define LACE_MAKE_ALL_SHARED() lace_make_all_shared(__lace_worker, __lace_dq_head)
static inline WEFT_UNUSED void lace_make_all_shared(WorkerP *w, Task *head)
{
    (void)w;
    (void)head;
}

#if WEFT_LACE_API >= 16
/* ---- Lace 1.6 additions ---- */
/* 1 between lace_start and lace_stop. */
int lace_is_running(void);
/* Sleeps for this many microseconds (nothing for 0 or less). */
void lace_sleep_us(int64_t microseconds);
/* A monotonic clock in nanoseconds. */
uint64_t lace_gethrtime(void);
static inline void lace_count_report(void) { lace_count_report_file(stdout); }
/* Lace 1.6's build options: idle workers sleep (weft's always do). */
#ifndef LACE_BACKOFF
#define LACE_BACKOFF 1
#endif
/* Portability macros. */
#define LACE_LIKELY(x) __builtin_expect(!!(x), 1)
#define LACE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LACE_NOINLINE __attribute__((noinline))
#define LACE_NORETURN __attribute__((noreturn))
#define LACE_ALIGN(n) __attribute__((aligned(n)))
#define LACE_UNUSED __attribute__((unused))
/* As Lace spells it with gcc and clang: C11's keyword in C, __thread in
 * C++ (where __STDC_VERSION__ is not defined). */
#if defined(__STDC_VERSION__) && (__STDC_VERSION__ >= 201112L)
#define LACE_TLS _Thread_local
#else
#define LACE_TLS __thread
#endif
/* Lace 1.6's other portability names, as it defines them on POSIX. */
#define LACE_MSVC 0
#define LACE_ALLOCA(sz) alloca(sz)
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LACE_NO_SANITIZE_THREAD __attribute__((no_sanitize("thread")))
#endif
#endif
#ifndef LACE_NO_SANITIZE_THREAD
#define LACE_NO_SANITIZE_THREAD
#endif
/* The padding Lace puts between data of different threads. */
#ifndef LACE_PADDING_TARGET
#define LACE_PADDING_TARGET 128
#endif
/* Lace 1.6's rotation (its lace_rng uses it). */
static inline LACE_UNUSED uint64_t lace_rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}
#endif

/* Non-NULL while a NEWFRAME or TOGETHER started through this API is
 * pending or running: a task that waits for something (a lock...) polls it
 * and calls lace_yield, so that it takes part instead of blocking it. */
typedef struct {
    WEFT_ATOMIC(Task *) t;
    char pad[WEFT_CACHE_LINE - sizeof(Task *)];
} lace_newframe_t;
extern lace_newframe_t lace_newframe;

/* lace_yield with lace_newframe.t set: returns once the caller has taken
 * part in an interrupt (or none is pending any more, or it is inside one). */
void weft__lace_yield_newframe(WorkerP *w, Task *head);
/* Stops the program: `what` was given a NULL worker (lace_get_worker()
 * on a thread that is not a Lace worker). */
WEFT_NORETURN void weft__lace_not_worker(const char *what);

/* Takes part in a pending NEWFRAME or TOGETHER.  A task that saw
 * lace_newframe.t set (a collector's "wait for the collection" path) gets
 * back only after that interrupt has run, as in Lace, even if it is not
 * published to the workers yet. */
static inline void lace_yield(WorkerP *w, Task *head)
{
    if (WEFT_UNLIKELY(w == NULL))
        weft__lace_not_worker("lace_yield(NULL, ...)");
    /* Relaxed: a hint; the slow path synchronises with the interrupt. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&lace_newframe.t, memory_order_relaxed) != NULL))
        weft__lace_yield_newframe(w, head);
    else
        weft_yield((weft_worker *)w, (weft_task *)head);
}

static inline void lace_drop(WorkerP *w, Task *t)
{
    if (WEFT_UNLIKELY(w == NULL))
        weft__lace_not_worker("lace_drop(NULL, ...)");
    weft__drop_as((weft_worker *)w, (weft_task *)t, "DROP()");
}

/* SPAWN's value: the Task below the head the spawn returned, with its f
 * stamped.  Under GCC on x86-64 the stamp is an asm whose one output is
 * the returned pointer, so GCC drops it where the program leaves SPAWN's
 * value unused (a SPAWN as a statement: fib's loop runs 13 % faster
 * without the store) and makes it in line where the value is used; its
 * memory clobber orders it before every later access through the
 * pointer.  f is read only through a Task * that SPAWN returned
 * (docs/lace.md, "The f field").  Other compilers (clang keeps such an
 * asm), x32 (pointers of 4 bytes) and sanitizer builds (which should see
 * the store) store f. */
static WEFT_ALWAYS_INLINE Task *lace_spawned_(Task *head, lace_task_fn f)
{
    Task *t = head - 1;
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__LP64__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    Task *stamped;
    __asm__("movq %2, %c3(%1)" : "=r"(stamped) : "0"(t), "r"(f), "i"(offsetof(Task, f)) : "memory");
    return stamped;
#else
    t->f = f;
    return t;
#endif
}

/* Lace 1.4's LACE_TRNG: an LCG step on the worker's rng. */
static inline uint64_t lace_trng(WorkerP *w)
{
    return w->rng = 2862933555777941757ULL * w->rng + 3037000493ULL;
}

#if WEFT_LACE_API >= 16
/* Lace 1.6's per-worker generator (a splitmix64 step on the worker's rng;
 * Lace's is xoroshiro128**: other numbers, the same use). */
static inline uint64_t lace_rng(WorkerP *w)
{
    uint64_t z = (w->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
#endif

static inline int lace_task_is_stolen(const Task *t)
{
    /* Acquire: a DONE read here makes the thief's result visible. */
    uintptr_t s = atomic_load_explicit(&t->weft_state_, memory_order_acquire);
    return WEFT_STATE_IS_STOLEN(s) || s == WEFT_STATE_DONE;
}

static inline int lace_task_is_completed(const Task *t)
{
    /* Acquire: the thief stored DONE (release) after the result. */
    return atomic_load_explicit(&t->weft_state_, memory_order_acquire) == WEFT_STATE_DONE;
}

/* The flavour's entry points: stamp f, then hand the task to the library. */
static inline void lace_weft_run_(weft_task *t, uintptr_t wrapper)
{
    ((Task *)t)->f = (lace_task_fn)wrapper;
    lace_run_task((Task *)t);
}
static inline void lace_weft_runex_(weft_task *t, uintptr_t wrapper)
{
    ((Task *)t)->f = (lace_task_fn)wrapper;
    lace_run_task_exclusive((Task *)t);
}
static inline void lace_weft_newframe_(weft_task *t, uintptr_t wrapper)
{
    ((Task *)t)->f = (lace_task_fn)wrapper;
    lace_run_newframe((Task *)t);
}
static inline void lace_weft_together_(weft_task *t, uintptr_t wrapper)
{
    ((Task *)t)->f = (lace_task_fn)wrapper;
    lace_run_together((Task *)t);
}

WEFT_END_DECLS

#if WEFT_LACE_API >= 16
/* Lace 1.6's portable semaphore, mutex and condition variable (POSIX). */
#include <semaphore.h>
typedef sem_t lace_sem_t;
static inline int lace_sem_init(lace_sem_t *s, unsigned value) { return sem_init(s, 0, value); }
static inline int lace_sem_wait(lace_sem_t *s) { return sem_wait(s); }
static inline int lace_sem_trywait(lace_sem_t *s) { return sem_trywait(s); }
static inline int lace_sem_post(lace_sem_t *s) { return sem_post(s); }
static inline int lace_sem_destroy(lace_sem_t *s) { return sem_destroy(s); }
typedef pthread_mutex_t lace_mutex_t;
typedef pthread_cond_t lace_cond_t;
static inline void lace_mutex_init(lace_mutex_t *m) { pthread_mutex_init(m, NULL); }
static inline void lace_mutex_destroy(lace_mutex_t *m) { pthread_mutex_destroy(m); }
static inline void lace_mutex_lock(lace_mutex_t *m) { pthread_mutex_lock(m); }
static inline void lace_mutex_unlock(lace_mutex_t *m) { pthread_mutex_unlock(m); }
static inline void lace_cond_init(lace_cond_t *c) { pthread_cond_init(c, NULL); }
static inline void lace_cond_destroy(lace_cond_t *c) { pthread_cond_destroy(c); }
static inline void lace_cond_wait(lace_cond_t *c, lace_mutex_t *m) { pthread_cond_wait(c, m); }
static inline void lace_cond_signal(lace_cond_t *c) { pthread_cond_signal(c); }
static inline void lace_cond_broadcast(lace_cond_t *c) { pthread_cond_broadcast(c); }
#endif

#endif
