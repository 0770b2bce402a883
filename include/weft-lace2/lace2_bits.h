// SPDX-License-Identifier: Apache-2.0
/* Lace 2's API on weft (the v2 line, 2.x): what lace32.h, lace.h and
 * lace128.h share.  Include one of those three, which set LACE_TASKSIZE
 * first; docs/lace2.md lists every Lace 2 name and what weft provides.
 *
 *     TASK(int, fib, int, n)
 *     int fib_CALL(lace_worker *lw, int n)
 *     {
 *         if (n < 2) return n;
 *         fib_SPAWN(lw, n - 1);
 *         int b = fib_CALL(lw, n - 2);
 *         return fib_SYNC(lw) + b;
 *     }
 *     ... lace_start(0, 0, 0); printf("%d\n", fib(40)); lace_stop(); ...
 *
 * TASK(RT, NAME, T1, a1, ...) (or TASK_n / VOID_TASK_n, n = 0..14) declares
 * a task; the program defines its body as RT NAME_CALL(lace_worker *, T1,
 * ...).  It generates, as Lace 2 does:
 *   NAME_SPAWN(lw, ...)  push the task; returns its lace_task *
 *   NAME_SYNC(lw)        join the last SPAWN not joined yet: its result
 *   NAME_DROP(lw)        join it without running it unless it was stolen
 *   NAME(...)            run it from any thread: on a worker a plain call
 *                        at the top of the worker's deque (whichever
 *                        API's task runs there), from outside on the
 *                        pool, waiting
 *   NAME_NEWFRAME(...)   halt every worker, run it on the pool, resume
 *   NAME_TOGETHER(...)   every worker runs a copy; returns when all are done
 *
 * A Lace 2 task is a weft task: the descriptor is weft's (f and the
 * arguments or result in its payload), SPAWN and SYNC are weft's inline
 * fast paths, and the runtime is weft's.  The lace_worker is this layer's
 * per-worker record: it carries the deque head that Lace 2 passes inside
 * the worker rather than as a parameter (weft passes it as a parameter),
 * so a task body reads and writes lw->head exactly as Lace 2's do.
 *
 * Task sizes.  LACE_TASKSIZE is 32, 64 or 128 bytes (lace32.h, lace.h,
 * lace128.h); a task's arguments or result may take LACE_TASKSIZE - 16
 * bytes, as in Lace, and a task that does not fit is a compile-time
 * error.  weft's descriptor (WEFT_TASK_SIZE) is a build-wide constant:
 * lace32 and lace run on weft's 64-byte descriptors, lace128 on a copy of
 * the runtime built with 128-byte descriptors (docs/lace2.md).
 */
#ifndef WEFT_LACE2_BITS_H
#define WEFT_LACE2_BITS_H

#include <weft/weft.h>
#include <weft-lace2/lace2_arity.h>
#include <weft-lace2/lace_config.h>

#if defined(WEFT_LACE_H) || defined(WEFT_SHORT_H)
#error "Lace 2's lace.h cannot be combined with Lace 1's lace.h or weft/short.h in one file"
#endif
#if LACE_TASKSIZE > WEFT_TASK_SIZE
#error "lace128.h needs weft's 128-byte descriptors: build against the lace128 target or lace128.pc"
#endif

/* What Lace 2's lace.h includes, which its programs rely on. */
#include <assert.h>
#ifndef __cplusplus
#include <stdalign.h>
#endif
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<alloca.h>)
#include <alloca.h>
#endif
#endif

#ifdef __cplusplus
/* Lace 2 spells its atomics _Atomic(T) in C++ too. */
#ifndef _Atomic
#define _Atomic(T) std::atomic<T>
#endif
#endif

/* The version of Lace 2 whose API this layer provides. */
#define LACE_VERSION_MAJOR 2
#define LACE_VERSION_MINOR 3
#define LACE_VERSION_PATCH 2

/* ------------------------------------------------------------------------
 * Portability macros and primitives (as Lace 2 defines them on POSIX)
 * ------------------------------------------------------------------------ */

#define LACE_MSVC 0
#define LACE_UNUSED __attribute__((unused))
#define LACE_NOINLINE __attribute__((noinline))
#define LACE_NORETURN __attribute__((noreturn))
#define LACE_ALIGN(N) __attribute__((aligned(N)))
#define LACE_LIKELY(x) __builtin_expect(!!(x), 1)
#define LACE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LACE_TLS __thread
#define LACE_ALLOCA(sz) __builtin_alloca(sz)
#define LACE_NO_SANITIZE_THREAD
/* Padding that keeps shared data on lines of its own. */
#ifndef LACE_PADDING_TARGET
#define LACE_PADDING_TARGET 128
#endif

WEFT_BEGIN_DECLS

typedef sem_t lace_sem_t;
static inline LACE_UNUSED int lace_sem_init(lace_sem_t *s, unsigned value)
{
    return sem_init(s, 0, value);
}
static inline LACE_UNUSED int lace_sem_wait(lace_sem_t *s) { return sem_wait(s); }
static inline LACE_UNUSED int lace_sem_trywait(lace_sem_t *s) { return sem_trywait(s); }
static inline LACE_UNUSED int lace_sem_post(lace_sem_t *s) { return sem_post(s); }
static inline LACE_UNUSED int lace_sem_destroy(lace_sem_t *s) { return sem_destroy(s); }

typedef pthread_mutex_t lace_mutex_t;
typedef pthread_cond_t lace_cond_t;
static inline LACE_UNUSED void lace_mutex_init(lace_mutex_t *m) { pthread_mutex_init(m, NULL); }
static inline LACE_UNUSED void lace_mutex_destroy(lace_mutex_t *m) { pthread_mutex_destroy(m); }
static inline LACE_UNUSED void lace_mutex_lock(lace_mutex_t *m) { pthread_mutex_lock(m); }
static inline LACE_UNUSED void lace_mutex_unlock(lace_mutex_t *m) { pthread_mutex_unlock(m); }
static inline LACE_UNUSED void lace_cond_init(lace_cond_t *c) { pthread_cond_init(c, NULL); }
static inline LACE_UNUSED void lace_cond_destroy(lace_cond_t *c) { pthread_cond_destroy(c); }
static inline LACE_UNUSED void lace_cond_signal(lace_cond_t *c) { pthread_cond_signal(c); }
static inline LACE_UNUSED void lace_cond_broadcast(lace_cond_t *c) { pthread_cond_broadcast(c); }
static inline LACE_UNUSED void lace_cond_wait(lace_cond_t *c, lace_mutex_t *m)
{
    pthread_cond_wait(c, m);
}

/* Sleeps for this many microseconds (nothing for <= 0). */
void lace_sleep_us(int64_t microseconds);
/* A monotonic timestamp in nanoseconds (Lace reads the TSC on x86, whose
 * unit is unspecified, so programs only compare differences).  Both are
 * library functions here, so that the header needs no POSIX feature macro. */
uint64_t lace_gethrtime(void);

/* ------------------------------------------------------------------------
 * Types
 * ------------------------------------------------------------------------ */

typedef struct lace_worker lace_worker;
typedef struct lace_task lace_task;
/* Lace's thief-visible worker half; weft keeps that state itself. */
typedef struct lace_worker_public lace_worker_public;
typedef void (*lace_task_fn)(lace_worker *, lace_task *);

/* A task descriptor: weft's, seen with Lace 2's field names.
 *   f  the task's identity (the same for every task of one TASK in one
 *      translation unit, different between tasks); set by NAME_SPAWN and
 *      unchanged while the task is stolen, run and completed
 *   d  the arguments, then the result (lace_task_result), at offset 16 as
 *      in Lace
 * lace_is_stolen_task and lace_is_completed_task read weft's state word.
 * sizeof(lace_task) is weft's descriptor size, LACE_TASKSIZE or more. */
struct lace_task {
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uintptr_t) lace2_state_; /* weft_task.state */
    lace_task_fn f;
    char d[LACE_TASKSIZE - 2 * sizeof(void *)];
#if WEFT_TASK_SIZE > 64 && LACE_TASKSIZE < WEFT_TASK_SIZE
    char lace2_pad_[WEFT_TASK_SIZE - (LACE_TASKSIZE < 64 ? 64 : LACE_TASKSIZE)];
#endif
};
WEFT_STATIC_ASSERT(sizeof(lace_task) == sizeof(weft_task) &&
                       WEFT_ALIGNOF(lace_task) == WEFT_ALIGNOF(weft_task),
                   "lace: lace_task must be laid out as weft_task");

typedef struct {
    uint64_t s0, s1;
} lace_rng_state;

/* A worker, as Lace 2's programs see it.  head is the top of the worker's
 * deque while a task of this API runs on it; dq and end bound the deque;
 * worker is the worker's id; rng is lace_rng's state.  split, _public,
 * allstolen and time exist so that programs naming them compile; weft
 * keeps that state elsewhere and leaves them 0.  weft is the weft worker. */
struct lace_worker {
    WEFT_ALIGNAS(WEFT_CACHE_LINE) lace_task *head;
    lace_task *split;
    lace_task *end;
    lace_task *dq;
    lace_worker_public *_public;
    lace_rng_state rng;
    uint16_t worker;
    uint8_t allstolen;
    uint64_t time;
    weft_worker *weft;
};

/* ------------------------------------------------------------------------
 * Lifecycle, workers, task operations, counters (the weft-lace2 library)
 * ------------------------------------------------------------------------ */

/* Starts n_workers workers (0: one per CPU) with room for dqsize tasks
 * each and stacks of stacksize bytes (0 for either: weft's defaults, 1M
 * slots and 64 MiB of address space, or $WEFT_DEQUE_SIZE /
 * $WEFT_STACK_SIZE; smaller than weft's minimums, 16 tasks and 64 KiB:
 * raised to them).  Not from a worker.  A pool that cannot start stops
 * the program with a "weft:" message (Lace 2's lace_start has no way to
 * fail). */
void lace_start(unsigned int n_workers, size_t dqsize, size_t stacksize);
/* Waits for NAME() calls in progress, then stops the workers.  From a
 * task it stops the program with a message (it would wait for itself);
 * with no pool running it only says so. */
void lace_stop(void);
/* Park the workers and let them run again, as in Lace 2.0 to 2.2 (2.3
 * dropped them; idle workers sleep by themselves): Lace's count of resumes
 * less suspends, 1 from lace_start, parks them while it is 0 or less.  A
 * NAME(), NAME_NEWFRAME or NAME_TOGETHER from outside the pool runs its
 * task even then (Lace resumes the workers for it and suspends them again
 * after).  From outside the pool only (from a task: a message, ignored). */
void lace_suspend(void);
void lace_resume(void);
/* 1 between lace_start and lace_stop, else 0. */
int lace_is_running(void);
/* 0: no messages (the default); 1: lace_start says what it started. */
void lace_set_verbosity(int level);

unsigned int lace_worker_count(void);

/* All workers wait here for each other: only inside TOGETHER copies. */
void lace_barrier(void);
/* The next three take the calling worker's lace_worker; NULL (what
 * lace_get_worker() gives outside the pool) stops the program with a
 * message. */
/* Joins the last SPAWN without running it if nobody stole it. */
void lace_drop(lace_worker *lw);
/* One steal attempt from a random other worker; runs what it gets. */
void lace_steal_random(lace_worker *lw);
/* Joins a pending NEWFRAME or TOGETHER here; if lace_newframe showed one
 * of this API's, returns only once that one is over, as in Lace (a task
 * of an interrupt does not wait). */
void lace_yield(lace_worker *lw);

/* weft's counters (compiled in with -DWEFT_STATS=ON). */
void lace_count_reset(void);
void lace_count_report_file(FILE *file);
static inline LACE_UNUSED void lace_count_report(void) { lace_count_report_file(stdout); }

/* The entry points NAME(), NAME_NEWFRAME and NAME_TOGETHER use: t's f
 * names the task, its arguments are in d. */
void lace_run_task(lace_task *t);
void lace_run_newframe(lace_task *t);
void lace_run_together(lace_task *t);
/* Stops the program: a deque overflowed. */
LACE_NORETURN void lace_abort_stack_overflow(void);

/* Non-NULL while a NEWFRAME or TOGETHER started through this API is
 * pending or running. */
typedef struct {
    WEFT_ATOMIC(lace_task *) t;
    char pad[LACE_PADDING_TARGET - sizeof(lace_task *)];
} lace_newframe_t;
extern lace_newframe_t lace_newframe;
/* Internal: NEWFRAMEs and TOGETHERs of this API begun so far. */
extern WEFT_ATOMIC(uint64_t) weft__lace2_interrupts;

/* Internal: one program links one Lace layer.  lace32.h and lace.h run on
 * weft's 64-byte descriptors, lace128.h on a copy of the runtime with
 * 128-byte ones, and Lace 1's lace.h on Lace 1's library; an object of one
 * beside an object of another would run on whichever library the linker
 * met first.  Every file that includes a Lace header names its layer's
 * marker, which only that layer's library defines, in the object that
 * also defines weft__lace_one_layer_per_program: with two markers named,
 * both objects are linked, and the linker stops at "multiple definition of
 * weft__lace_one_layer_per_program". */
#if WEFT_TASK_SIZE == 128
extern const char weft__lace2_runtime_128;
static const char *const weft__lace2_runtime_ref_ __attribute__((used)) = &weft__lace2_runtime_128;
#else
extern const char weft__lace2_runtime_64;
static const char *const weft__lace2_runtime_ref_ __attribute__((used)) = &weft__lace2_runtime_64;
#endif

/* Internal: a worker's record lives in its weft worker (api_ext), so the
 * SPAWN and SYNC fast paths find the weft worker from the record without a
 * load; the binding fills it in (src/lace/v2/lace2.c). */
WEFT_STATIC_ASSERT(sizeof(lace_worker) <= WEFT_API_EXT_SIZE &&
                       WEFT_ALIGNOF(lace_worker) <= WEFT_CACHE_LINE,
                   "lace: lace_worker must fit weft_worker's api_ext");
void weft__lace2_bind(lace_worker *lw, weft_worker *w);

/* NAME_SPAWN's value: stamps t's f and returns t.  Declared pure, although
 * it writes f, so that the compiler drops the call where the value is not
 * used (a SPAWN as a statement then stores nothing for f): the write is
 * idempotent (the same f to the same slot), nothing else writes f while
 * the task is in its slot, and a read of f goes through the returned
 * pointer, so after the call.  Thieves and the runtime never read f. */
lace_task *weft__lace2_spawned(lace_task *t, lace_task_fn f) __attribute__((pure));

/* The weft worker whose record lw is. */
static inline weft_worker *weft__lace2_weft(lace_worker *lw)
{
    return (weft_worker *)(void *)((char *)lw - offsetof(weft_worker, api_ext));
}

/* The record of weft worker w, bound to it. */
static inline lace_worker *weft__lace2_of(weft_worker *w)
{
    lace_worker *lw = (lace_worker *)(void *)w->api_ext;
    if (WEFT_UNLIKELY(lw->weft != w || lw->dq != (lace_task *)w->dq))
        weft__lace2_bind(lw, w);
    return lw;
}

/* The top of lw's deque as it is now.  lw->head is exact while a task of
 * this API runs on the worker; under a task of another API (weft's C or
 * C++ API) it is the head of the last Lace 2 task, a stale slot.  The
 * deque keeps the slots below its top non-EMPTY and the rest EMPTY
 * (weft/bits/sched.h), so lw->head is the top exactly when its slot is
 * EMPTY and the one below is not: two loads in the common case, the
 * runtime's search (weft_current_head) otherwise. */
static inline weft_task *weft__lace2_true_head(lace_worker *lw)
{
    weft_worker *w = weft__lace2_weft(lw);
    weft_task *h = (weft_task *)lw->head;
    /* The slot at h is the core's test (weft_fj_head_is_top).  Relaxed,
     * the one below: the owner's own slot (below dq, the deque's floor,
     * never EMPTY); thieves move the slots below the top between
     * non-EMPTY values only. */
    if (WEFT_LIKELY(h >= w->dq && h < w->end && weft_fj_head_is_top(h) &&
                    atomic_load_explicit(&h[-1].state, memory_order_relaxed) != WEFT_STATE_EMPTY))
        return h;
    return weft_current_head(w);
}

/* The calling thread's worker, or NULL outside the pool. */
static inline LACE_UNUSED lace_worker *lace_get_worker(void)
{
    weft_worker *w = weft_self();
    if (w == NULL)
        return NULL;
    lace_worker *lw = weft__lace2_of(w);
    /* The record's head handed out: a copy of the top for the core. */
    (void)weft_fj_copy_head(w, (weft_task *)lw->head);
    return lw;
}

static inline LACE_UNUSED int lace_is_worker(void) { return weft_self() != NULL; }

/* The calling worker's id, -1 outside the pool. */
static inline LACE_UNUSED int lace_worker_id(void)
{
    weft_worker *w = weft_self();
    return w != NULL ? (int)weft_worker_id(w) : -1;
}

/* Internal: stops the program, `what` was called outside the pool. */
WEFT_NORETURN void weft__lace2_not_worker(const char *what);
/* NAME(), NAME_NEWFRAME() or NAME_TOGETHER() (`what`) called from outside
 * while Lace is not running: stops with a message that names it and says
 * to call lace_start (returns if Lace is running after all). */
void weft__lace2_require_running(const char *what);

/* The top of the calling worker's deque (on a worker only: elsewhere it
 * stops the program with a message). */
static inline LACE_UNUSED lace_task *lace_get_head(void)
{
    lace_worker *lw = lace_get_worker();
    if (WEFT_UNLIKELY(lw == NULL))
        weft__lace2_not_worker("lace_get_head()");
    return (lace_task *)weft__lace2_true_head(lw);
}

static inline LACE_UNUSED uint64_t lace_rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* Per-worker pseudo-random numbers (xoroshiro128**; seeded by lace_start). */
static inline LACE_UNUSED uint64_t lace_rng(lace_worker *lw)
{
    uint64_t s0 = lw->rng.s0, s1 = lw->rng.s1;
    uint64_t x = s0 * 5u;
    uint64_t result = ((x << 7) | (x >> 57)) * 9u;
    s1 ^= s0;
    lw->rng.s0 = ((s0 << 24) | (s0 >> 40)) ^ s1 ^ (s1 << 16);
    lw->rng.s1 = (s1 << 37) | (s1 >> 27);
    return result;
}

static inline LACE_UNUSED int lace_is_stolen_task(lace_task *t)
{
    /* Acquire: a DONE read here makes the thief's result visible. */
    uintptr_t s = atomic_load_explicit(&t->lace2_state_, memory_order_acquire);
    return WEFT_STATE_IS_STOLEN(s) || s == WEFT_STATE_DONE;
}

static inline LACE_UNUSED int lace_is_completed_task(lace_task *t)
{
    /* Acquire: the thief stored DONE (release) after the result. */
    return atomic_load_explicit(&t->lace2_state_, memory_order_acquire) == WEFT_STATE_DONE;
}

static inline LACE_UNUSED void *lace_task_result(lace_task *t) { return (void *)&t->d[0]; }

/* Joins a pending NEWFRAME or TOGETHER (and a weft_suspend) here, and
 * returns once one of this API's that lace_newframe showed is over (as
 * lace_yield); returns 1 if one of this API's was pending at the call or
 * began during it. */
static inline LACE_UNUSED int lace_check_yield(lace_worker *lw)
{
    if (WEFT_UNLIKELY(lw == NULL))
        weft__lace2_not_worker("lace_check_yield(NULL)");
    /* Relaxed, both: the count only tells whether an interrupt began
     * meanwhile, and a stale NULL only delays joining; lace_yield and
     * weft_yield synchronise with the interrupt itself. */
    uint64_t before = atomic_load_explicit(&weft__lace2_interrupts, memory_order_relaxed);
    int pending = atomic_load_explicit(&lace_newframe.t, memory_order_relaxed) != NULL;
    if (pending)
        lace_yield(lw);
    else
        weft_yield(lw->weft, weft__lace2_true_head(lw));
    /* Relaxed: as above; an interrupt this worker joined was counted
     * before it could be joined (the initiator counts, then starts it). */
    return pending || atomic_load_explicit(&weft__lace2_interrupts, memory_order_relaxed) != before;
}

/* weft's deque shares tasks when thieves ask (the split deque) or by its
 * own protocol (the other schedulers): nothing to do. */
static inline LACE_UNUSED void lace_make_all_shared(void) {}

/* Lace's counter and thief macros, for programs that name them (weft's
 * counters are its own: -DWEFT_STATS=ON, lace_count_report). */
#define LACE_COUNT_EVENTS 0
#define PR_COUNTTASK(s)
#define PR_COUNTSTEALS(s, i)
#define PR_COUNTSPLITS(s, i)
#define PR_ADD(s, i, k)
#define PR_INC(s, i)
#define THIEF_EMPTY ((struct lace_worker_public *)0x0)
#define THIEF_TASK ((struct lace_worker_public *)0x1)
#define THIEF_COMPLETED ((struct lace_worker_public *)0x2)

WEFT_END_DECLS

/* ------------------------------------------------------------------------
 * Task templates
 * ------------------------------------------------------------------------ */

/* A C++ exception thrown by a task body (in a C++ file) cannot reach the
 * task that joins it: a stolen task returns through the runtime's C code.
 * It stops the program where it leaves the task's wrapper, SYNC or NAME(),
 * with one message naming the task and the exception, as the Lace 1
 * layer's tasks do (weft/bits/task_macros.h).  LACE2_TRY_/LACE2_CATCH_
 * bracket those calls of NAME_CALL; a body's direct NAME_CALL of another
 * task is inside its caller's bracket. */
#if defined(__cplusplus) && (defined(__cpp_exceptions) || defined(__EXCEPTIONS))
#define LACE2_TRY_ try {
#define LACE2_CATCH_(NAME) \
    } \
    catch (...) { weft__lace_task_threw(#NAME); /* weft/bits/task_macros.h */ }
#else
#define LACE2_TRY_ {
#define LACE2_CATCH_(NAME) }
#endif

/* M(f_, T1, a1, ...): the pairs spliced in before M is invoked. */
#define LACE2_APPLY_(M, ...) M(__VA_ARGS__)
/* A wrapper as a lace_task's f (only ever compared, never called as such;
 * the detour through void (*)(void) says the cast is meant). */
#define LACE2_FN_(WRAP) ((lace_task_fn)(void (*)(void)) & WRAP)

/* A descriptor on the caller's stack for NAME(), NEWFRAME and TOGETHER. */
#ifdef __cplusplus
#define LACE2_STACK_TASK_(NAME, var) \
    union NAME##_lace2_stack_ { \
        weft_task task; \
        task_##NAME frame; \
        NAME##_lace2_stack_() {} \
    } var
#else
#define LACE2_STACK_TASK_(NAME, var) \
    union { \
        weft_task task; \
        task_##NAME frame; \
    } var
#endif

/* The arguments and the result fit the descriptor and sit where
 * lace_task_result says. */
#define LACE2_FITS_(NAME) \
    WEFT_STATIC_ASSERT(sizeof(task_##NAME) <= LACE_TASKSIZE, \
                       "task_" #NAME " is too large to fit in the lace_task struct " \
                       "(LACE_TASKSIZE - 16 bytes of arguments or result; lace128.h " \
                       "has 112)"); \
    WEFT_STATIC_ASSERT(offsetof(task_##NAME, d) == offsetof(lace_task, d), \
                       "task_" #NAME " has an argument or result aligned to more than 16 " \
                       "bytes");

/* An entry point from any thread (ENTRY: lace_run_task, _newframe,
 * _together) with the arguments in a descriptor on the stack. */
#define LACE2_WHAT_lace_run_task "()"
#define LACE2_WHAT_lace_run_newframe "_NEWFRAME()"
#define LACE2_WHAT_lace_run_together "_TOGETHER()"
#define LACE2_STACK_RUN_(NAME, N, ARGS, ENTRY) \
    if (!lace_is_running()) \
        weft__lace2_require_running(#NAME LACE2_WHAT_##ENTRY); \
    LACE2_STACK_TASK_(NAME, u_); \
    task_##NAME *f_ = &u_.frame; \
    f_->f = LACE2_FN_(NAME##_WRAP); \
    LACE2_APPLY_(LACE2_ST_##N, f_, WEFT_UNPAREN_ ARGS) \
    ENTRY((lace_task *)&u_.task);

/* The parts every task has.  RT_OR_VOID is the result type or void; RES
 * declares the result member (empty for void); SAVE is `f_->d.res =` or
 * empty; the pairs are (T1, a1, ...). */
#define LACE2_COMMON_(RT_OR_VOID, NAME, N, RES, SAVE, ARGS) \
    typedef struct task_##NAME { \
        uintptr_t lace2_state_; /* weft_task.state: accessed through weft_task only */ \
        lace_task_fn f; \
        union { \
            struct { \
                LACE2_FLD_##N ARGS \
            } args; \
            RES \
        } d; \
    } task_##NAME; \
    LACE2_FITS_(NAME) \
    WEFT_TASK_CODE_ALIGN RT_OR_VOID NAME##_CALL(lace_worker *LACE2_P_##N ARGS); \
    WEFT_PROFILE_TYPE_(NAME) \
    /* Runs a task from its descriptor (a thief, NAME() from outside, an                      \
     * interrupt): the task's pushes go at the head the runtime gives. */ \
    static WEFT_WRAPPER_ALIGN LACE_UNUSED void NAME##_WRAP(weft_worker *w_, weft_task *head_, \
                                                           weft_task *t_) \
    { \
        task_##NAME *f_ WEFT_UNUSED = (task_##NAME *)t_; \
        lace_worker *lw_ = weft__lace2_of(w_); \
        lace_task *saved_ = lw_->head; \
        lw_->head = (lace_task *)head_; \
        WEFT_PROFILE_ENTER_(w_, NAME, weft_pt_) \
        LACE2_TRY_ \
        SAVE NAME##_CALL(lw_ LACE2_APPLY_(LACE2_LD_##N, f_, WEFT_UNPAREN_ ARGS)); \
        LACE2_CATCH_(NAME) \
        WEFT_PROFILE_LEAVE_(w_, weft_pt_) \
        weft_check_return(w_, head_, #NAME); /* names the task in every build */ \
        lw_->head = saved_; \
    } \
    WEFT_TRACE_NAME_(NAME) \
    static inline LACE_UNUSED lace_task *NAME##_SPAWN(lace_worker *lw_ LACE2_P_##N ARGS) \
    { \
        LACE2_CHECK_WORKER_(lw_, #NAME "_SPAWN()", #NAME "_SPAWN(NULL, ...)"); \
        weft_worker *w_ = weft__lace2_weft(lw_); \
        weft_task *t_ = \
            weft_fj_spawn_slot_exact_as(w_, (weft_task *)lw_->head, #NAME "_SPAWN()", false); \
        task_##NAME *f_ WEFT_UNUSED = (task_##NAME *)t_; \
        LACE2_APPLY_(LACE2_ST_##N, f_, WEFT_UNPAREN_ ARGS) \
        lw_->head = (lace_task *)weft_fj_spawn_publish_told(w_, t_, (uintptr_t)&NAME##_WRAP); \
        return weft__lace2_spawned((lace_task *)t_, LACE2_FN_(NAME##_WRAP)); \
    } \
    static inline LACE_UNUSED void NAME##_DROP(lace_worker *lw_) \
    { \
        LACE2_CHECK_WORKER_(lw_, #NAME "_DROP()", #NAME "_DROP(NULL)"); \
        weft__drop_as(lw_->weft, (weft_task *)--lw_->head, #NAME "_DROP()"); \
    } \
    static inline LACE_UNUSED void NAME##_TOGETHER(LACE2_PV_##N ARGS) \
    { \
        LACE2_STACK_RUN_(NAME, N, ARGS, lace_run_together) \
    }

/* With WEFT_CHECKS, a NAME_SPAWN, NAME_SYNC or NAME_DROP given no worker
 * (lace_get_worker() outside the pool) stops with Lace's message, as
 * lace_drop(NULL) does in every build; without, it is the SIGSEGV of
 * Lace's own.  So does one given a worker that is not the calling
 * thread's (a lace_worker saved from a task and used on another thread),
 * which without WEFT_CHECKS races with that worker for its deque.  `call`
 * as the program wrote it, `null_call` with the NULL. */
#if WEFT_CHECKS
#define LACE2_CHECK_WORKER_(lw, call, null_call) \
    ((lw) == NULL ? weft__lace2_not_worker(null_call) \
                  : weft__fj_check_own(weft__lace2_weft(lw), call))
#else
#define LACE2_CHECK_WORKER_(lw, call, null_call) ((void)0)
#endif

/* A task the program's code runs inline (its SYNC, NAME() on a worker)
 * returns with every SPAWN joined: with WEFT_CHECKS it checks at the head
 * it ran at, before its caller reads a result from that slot, as the Lace
 * 1 layer's tasks check their own return (weft/bits/task_macros.h,
 * weft_check_return).  A NAME_CALL the program calls itself is its own
 * function, which no macro wraps. */
#if WEFT_CHECKS
#define LACE2_CHECK_RETURN_(w, head, NAME) weft_check_return((w), (weft_task *)(head), #NAME)
#else
#define LACE2_CHECK_RETURN_(w, head, NAME) ((void)0)
#endif

/* A SYNC, NAME##SUFFIX: pop the slot back and call the body inline, or
 * (it was stolen) wait for the thief, running other work meanwhile, and
 * read the result.  In a profiling build each task has two, as the task
 * macros' (weft/bits/task_macros.h): NAME##_SYNC_PROFILED_ with the
 * profiler's hooks (PROFILED true), and NAME##_SYNC without them, which
 * goes to the first when profiling is on (weft/bits/fork_join.h, "The
 * profiler's hooks"). */
#define LACE2_SYNC_AS_(RT, NAME, N, ARGS, SUFFIX, PROFILED, STORAGE) \
    STORAGE LACE_UNUSED RT NAME##SUFFIX(lace_worker *lw_) \
    { \
        LACE2_CHECK_WORKER_(lw_, #NAME "_SYNC()", #NAME "_SYNC(NULL)"); \
        weft_worker *w_ = weft__lace2_weft(lw_); \
        WEFT_TO_PROFILED_(PROFILED, w_, return NAME##_SYNC_PROFILED_(lw_)) \
        weft_task *t_ = weft_fj_join_slot(w_, (weft_task *)--lw_->head, #NAME "_SYNC()"); \
        task_##NAME *f_ = (task_##NAME *)t_; \
        WEFT_CHECK_SYNC_(w_, t_, NAME); \
        weft_fj_join j_; \
        if (!weft_fj_join_begin_as(w_, t_, &j_, #NAME "_SYNC()", PROFILED)) \
            return f_->d.res; \
        WEFT_ENTER_AS_(PROFILED, w_, NAME) \
        LACE2_TRY_ \
        RT r_ = NAME##_CALL(lw_ LACE2_APPLY_(LACE2_LD_##N, f_, WEFT_UNPAREN_ ARGS)); \
        LACE2_CHECK_RETURN_(w_, t_, NAME); \
        WEFT_LEAVE_AS_(PROFILED, w_) \
        weft_fj_join_inlined_as(w_, &j_, PROFILED); \
        return r_; \
        LACE2_CATCH_(NAME) \
        return f_->d.res; /* not reached: the catch stops the program */ \
    }
#define LACE2_VOID_SYNC_AS_(NAME, N, ARGS, SUFFIX, PROFILED, STORAGE) \
    STORAGE LACE_UNUSED void NAME##SUFFIX(lace_worker *lw_) \
    { \
        LACE2_CHECK_WORKER_(lw_, #NAME "_SYNC()", #NAME "_SYNC(NULL)"); \
        weft_worker *w_ = weft__lace2_weft(lw_); \
        WEFT_TO_PROFILED_(PROFILED, w_, NAME##_SYNC_PROFILED_(lw_); return ) \
        weft_task *t_ = weft_fj_join_slot(w_, (weft_task *)--lw_->head, #NAME "_SYNC()"); \
        task_##NAME *f_ WEFT_UNUSED = (task_##NAME *)t_; \
        WEFT_CHECK_SYNC_(w_, t_, NAME); \
        weft_fj_join j_; \
        if (!weft_fj_join_begin_as(w_, t_, &j_, #NAME "_SYNC()", PROFILED)) \
            return; \
        WEFT_ENTER_AS_(PROFILED, w_, NAME) \
        LACE2_TRY_ \
        NAME##_CALL(lw_ LACE2_APPLY_(LACE2_LD_##N, f_, WEFT_UNPAREN_ ARGS)); \
        LACE2_CATCH_(NAME) \
        LACE2_CHECK_RETURN_(w_, t_, NAME); \
        WEFT_LEAVE_AS_(PROFILED, w_) \
        weft_fj_join_inlined_as(w_, &j_, PROFILED); \
    }

#define LACE2_TASK_(RT, NAME, N, ARGS) \
    LACE2_COMMON_(RT, NAME, N, RT res;, f_->d.res =, ARGS) \
    WEFT_IF_PROFILE_( \
        LACE2_SYNC_AS_(RT, NAME, N, ARGS, _SYNC_PROFILED_, true, static WEFT_NOINLINE)) \
    LACE2_SYNC_AS_(RT, NAME, N, ARGS, _SYNC, false, static inline) \
    static inline LACE_UNUSED RT NAME(LACE2_PV_##N ARGS) \
    { \
        lace_worker *lw_ = lace_get_worker(); \
        if (lw_ != NULL) { \
            lace_task *outer_ = lw_->head; \
            lace_task *at_ = (lace_task *)weft__lace2_true_head(lw_); \
            lw_->head = at_; \
            LACE2_TRY_ \
            RT r_ = NAME##_CALL(lw_ LACE2_A_##N ARGS); \
            LACE2_CHECK_RETURN_(weft__lace2_weft(lw_), at_, NAME); \
            lw_->head = outer_; \
            return r_; \
            LACE2_CATCH_(NAME) \
        } \
        LACE2_STACK_RUN_(NAME, N, ARGS, lace_run_task) \
        return f_->d.res; \
    } \
    static inline LACE_UNUSED RT NAME##_NEWFRAME(LACE2_PV_##N ARGS) \
    { \
        LACE2_STACK_RUN_(NAME, N, ARGS, lace_run_newframe) \
        return f_->d.res; \
    }

#define LACE2_VOID_TASK_(NAME, N, ARGS) \
    LACE2_COMMON_(void, NAME, N, , , ARGS) \
    WEFT_IF_PROFILE_( \
        LACE2_VOID_SYNC_AS_(NAME, N, ARGS, _SYNC_PROFILED_, true, static WEFT_NOINLINE)) \
    LACE2_VOID_SYNC_AS_(NAME, N, ARGS, _SYNC, false, static inline) \
    static inline LACE_UNUSED void NAME(LACE2_PV_##N ARGS) \
    { \
        lace_worker *lw_ = lace_get_worker(); \
        if (lw_ != NULL) { \
            lace_task *outer_ = lw_->head; \
            lace_task *at_ = (lace_task *)weft__lace2_true_head(lw_); \
            lw_->head = at_; \
            LACE2_TRY_ \
            NAME##_CALL(lw_ LACE2_A_##N ARGS); \
            LACE2_CATCH_(NAME) \
            LACE2_CHECK_RETURN_(weft__lace2_weft(lw_), at_, NAME); \
            lw_->head = outer_; \
            return; \
        } \
        LACE2_STACK_RUN_(NAME, N, ARGS, lace_run_task) \
    } \
    static inline LACE_UNUSED void NAME##_NEWFRAME(LACE2_PV_##N ARGS) \
    { \
        LACE2_STACK_RUN_(NAME, N, ARGS, lace_run_newframe) \
    }

/* ------------------------------------------------------------------------
 * Declaring tasks
 * ------------------------------------------------------------------------ */

/* TASK(RT, NAME, T1, a1, ..., Tn, an), TASK(void, NAME, ...) for a task
 * without a result; n = 0..14. */
#define TASK(RT, ...) LACE2_TASK_SEL_(LACE2_IS_VOID_(RT), RT, __VA_ARGS__)
#define LACE2_TASK_SEL_(V, RT, ...) LACE2_TASK_SEL2_(V, RT, __VA_ARGS__)
#define LACE2_TASK_SEL2_(V, RT, ...) LACE2_TASK_V##V##_(RT, __VA_ARGS__)
#define LACE2_TASK_V0_(RT, NAME, ...) \
    LACE2_TASK_N_(LACE2_PARAMS_(NAME, ##__VA_ARGS__), RT, NAME, ##__VA_ARGS__)
#define LACE2_TASK_V1_(RT, NAME, ...) \
    LACE2_VOID_TASK_N_(LACE2_PARAMS_(NAME, ##__VA_ARGS__), NAME, ##__VA_ARGS__)
#define LACE2_PARAMS_(...) LACE2_PARAMS2_(LACE2_NARG_(__VA_ARGS__))
#define LACE2_PARAMS2_(K) LACE2_PARAMS3_(K)
#define LACE2_PARAMS3_(K) LACE2_PARAMS_OF_##K
#define LACE2_TASK_N_(N, RT, NAME, ...) LACE2_TASK_N2_(N, RT, NAME, ##__VA_ARGS__)
#define LACE2_TASK_N2_(N, RT, NAME, ...) LACE2_TASK_(RT, NAME, N, (__VA_ARGS__))
#define LACE2_VOID_TASK_N_(N, NAME, ...) LACE2_VOID_TASK_N2_(N, NAME, ##__VA_ARGS__)
#define LACE2_VOID_TASK_N2_(N, NAME, ...) LACE2_VOID_TASK_(NAME, N, (__VA_ARGS__))
/* 1 if the type's first token is `void` (void, not void *: a pointer
 * result is `void *`, whose first token is void too, so TASK(void *, ...)
 * is written TASK_n(void *, ...) as with Lace). */
#define LACE2_IS_VOID_(T) LACE2_SECOND_(LACE2_VOID_PROBE_##T, 0, ~)
#define LACE2_SECOND_(...) LACE2_SECOND2_(__VA_ARGS__)
#define LACE2_SECOND2_(a, b, ...) b
#define LACE2_VOID_PROBE_void ~, 1

#define TASK_0(RT, NAME) LACE2_TASK_(RT, NAME, 0, ())
#define VOID_TASK_0(NAME) LACE2_VOID_TASK_(NAME, 0, ())
#define TASK_1(RT, NAME, ...) LACE2_TASK_(RT, NAME, 1, (__VA_ARGS__))
#define TASK_2(RT, NAME, ...) LACE2_TASK_(RT, NAME, 2, (__VA_ARGS__))
#define TASK_3(RT, NAME, ...) LACE2_TASK_(RT, NAME, 3, (__VA_ARGS__))
#define TASK_4(RT, NAME, ...) LACE2_TASK_(RT, NAME, 4, (__VA_ARGS__))
#define TASK_5(RT, NAME, ...) LACE2_TASK_(RT, NAME, 5, (__VA_ARGS__))
#define TASK_6(RT, NAME, ...) LACE2_TASK_(RT, NAME, 6, (__VA_ARGS__))
#define TASK_7(RT, NAME, ...) LACE2_TASK_(RT, NAME, 7, (__VA_ARGS__))
#define TASK_8(RT, NAME, ...) LACE2_TASK_(RT, NAME, 8, (__VA_ARGS__))
#define TASK_9(RT, NAME, ...) LACE2_TASK_(RT, NAME, 9, (__VA_ARGS__))
#define TASK_10(RT, NAME, ...) LACE2_TASK_(RT, NAME, 10, (__VA_ARGS__))
#define TASK_11(RT, NAME, ...) LACE2_TASK_(RT, NAME, 11, (__VA_ARGS__))
#define TASK_12(RT, NAME, ...) LACE2_TASK_(RT, NAME, 12, (__VA_ARGS__))
#define TASK_13(RT, NAME, ...) LACE2_TASK_(RT, NAME, 13, (__VA_ARGS__))
#define TASK_14(RT, NAME, ...) LACE2_TASK_(RT, NAME, 14, (__VA_ARGS__))
#define VOID_TASK_1(NAME, ...) LACE2_VOID_TASK_(NAME, 1, (__VA_ARGS__))
#define VOID_TASK_2(NAME, ...) LACE2_VOID_TASK_(NAME, 2, (__VA_ARGS__))
#define VOID_TASK_3(NAME, ...) LACE2_VOID_TASK_(NAME, 3, (__VA_ARGS__))
#define VOID_TASK_4(NAME, ...) LACE2_VOID_TASK_(NAME, 4, (__VA_ARGS__))
#define VOID_TASK_5(NAME, ...) LACE2_VOID_TASK_(NAME, 5, (__VA_ARGS__))
#define VOID_TASK_6(NAME, ...) LACE2_VOID_TASK_(NAME, 6, (__VA_ARGS__))
#define VOID_TASK_7(NAME, ...) LACE2_VOID_TASK_(NAME, 7, (__VA_ARGS__))
#define VOID_TASK_8(NAME, ...) LACE2_VOID_TASK_(NAME, 8, (__VA_ARGS__))
#define VOID_TASK_9(NAME, ...) LACE2_VOID_TASK_(NAME, 9, (__VA_ARGS__))
#define VOID_TASK_10(NAME, ...) LACE2_VOID_TASK_(NAME, 10, (__VA_ARGS__))
#define VOID_TASK_11(NAME, ...) LACE2_VOID_TASK_(NAME, 11, (__VA_ARGS__))
#define VOID_TASK_12(NAME, ...) LACE2_VOID_TASK_(NAME, 12, (__VA_ARGS__))
#define VOID_TASK_13(NAME, ...) LACE2_VOID_TASK_(NAME, 13, (__VA_ARGS__))
#define VOID_TASK_14(NAME, ...) LACE2_VOID_TASK_(NAME, 14, (__VA_ARGS__))

#endif
