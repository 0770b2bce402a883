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

#include <weft/weft.h>

#ifdef WEFT_SHORT_H
#error "lace.h and weft/short.h both define SPAWN, SYNC, CALL...: include only one of them"
#endif

WEFT_BEGIN_DECLS

/* Lace's version this layer implements. */
#define LACE_VERSION_MAJOR 1
#define LACE_VERSION_MINOR 4
#define LACE_VERSION_PATCH 2

/* ------------------------------------------------------------------------
 * Types
 * ------------------------------------------------------------------------ */

/* A worker: weft's.  LACE_WORKER_ID, LACE_WORKER_PU and LACE_TRNG read it. */
typedef struct weft_worker WorkerP;

/* A task descriptor: weft's, seen with Lace's field names.
 *   f  the task's function identity (its wrapper), the same for every task
 *      of one TASK definition and different between definitions; set in
 *      every Task that SPAWN returns (and in RUN/NEWFRAME/TOGETHER's), and
 *      unchanged while the task is stolen, run and completed
 *   d  arguments, then the result (TASK_RESULT)
 * TASK_IS_STOLEN and TASK_IS_COMPLETED read weft's state word. */
typedef struct _Task Task;
typedef void (*lace_task_fn)(WorkerP *, struct weft_task *, struct weft_task *);
struct _Task {
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uintptr_t) weft_state_; /* weft_task.state */
    char d[WEFT_TASK_SIZE - sizeof(uintptr_t) - sizeof(lace_task_fn)];
    lace_task_fn f;
};
WEFT_STATIC_ASSERT(sizeof(Task) == sizeof(weft_task) && WEFT_ALIGNOF(Task) == WEFT_ALIGNOF(weft_task),
                   "lace: Task must be laid out as weft_task");
/* The bytes a task's arguments, or its result, may take (Lace's
 * LACE_TASKSIZE): 48 in a 64-byte descriptor, 112 with WEFT_TASK_SIZE=128. */
#define LACE_TASKSIZE (WEFT_TASK_SIZE - 2 * sizeof(void *))

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
/* Per task: the arguments and the result fit in front of f (a compile-time
 * error names the task otherwise), d is where TASK_RESULT says, and RUNEX. */
#define LACE_FLAVOR_FITS_(NAME)                                                         \
    WEFT_STATIC_ASSERT(sizeof(NAME##_frame) <= offsetof(Task, f),                        \
                       "lace: the arguments or the result of task " #NAME                \
                       " do not fit the task descriptor (LACE_TASKSIZE bytes; "          \
                       "configure weft with -DWEFT_TASK_SIZE=128 for larger tasks)");    \
    WEFT_STATIC_ASSERT(offsetof(NAME##_frame, d) == offsetof(Task, d),                   \
                       "lace: task " #NAME " has an over-aligned argument or result");
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

#define TASK_IMPL_0(RT, NAME) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 0)
#define TASK_IMPL_1(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 1, __VA_ARGS__)
#define TASK_IMPL_2(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 2, __VA_ARGS__)
#define TASK_IMPL_3(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 3, __VA_ARGS__)
#define TASK_IMPL_4(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 4, __VA_ARGS__)
#define TASK_IMPL_5(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 5, __VA_ARGS__)
#define TASK_IMPL_6(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 6, __VA_ARGS__)
#define TASK_IMPL_7(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 7, __VA_ARGS__)
#define TASK_IMPL_8(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 8, __VA_ARGS__)
#define TASK_IMPL_9(RT, NAME, ...) WEFT_GEN_IMPL_(LACE_FLAVOR, RT, NAME, 9, __VA_ARGS__)
#define VOID_TASK_IMPL_0(NAME) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 0)
#define VOID_TASK_IMPL_1(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 1, __VA_ARGS__)
#define VOID_TASK_IMPL_2(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 2, __VA_ARGS__)
#define VOID_TASK_IMPL_3(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 3, __VA_ARGS__)
#define VOID_TASK_IMPL_4(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 4, __VA_ARGS__)
#define VOID_TASK_IMPL_5(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 5, __VA_ARGS__)
#define VOID_TASK_IMPL_6(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 6, __VA_ARGS__)
#define VOID_TASK_IMPL_7(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 7, __VA_ARGS__)
#define VOID_TASK_IMPL_8(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 8, __VA_ARGS__)
#define VOID_TASK_IMPL_9(NAME, ...) WEFT_GEN_VOID_IMPL_(LACE_FLAVOR, NAME, 9, __VA_ARGS__)

#define TASK_0(RT, NAME) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 0)
#define TASK_1(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 1, __VA_ARGS__)
#define TASK_2(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 2, __VA_ARGS__)
#define TASK_3(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 3, __VA_ARGS__)
#define TASK_4(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 4, __VA_ARGS__)
#define TASK_5(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 5, __VA_ARGS__)
#define TASK_6(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 6, __VA_ARGS__)
#define TASK_7(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 7, __VA_ARGS__)
#define TASK_8(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 8, __VA_ARGS__)
#define TASK_9(RT, NAME, ...) WEFT_GEN_TASK_(LACE_FLAVOR, RT, NAME, 9, __VA_ARGS__)
#define VOID_TASK_0(NAME) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 0)
#define VOID_TASK_1(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 1, __VA_ARGS__)
#define VOID_TASK_2(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 2, __VA_ARGS__)
#define VOID_TASK_3(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 3, __VA_ARGS__)
#define VOID_TASK_4(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 4, __VA_ARGS__)
#define VOID_TASK_5(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 5, __VA_ARGS__)
#define VOID_TASK_6(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 6, __VA_ARGS__)
#define VOID_TASK_7(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 7, __VA_ARGS__)
#define VOID_TASK_8(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 8, __VA_ARGS__)
#define VOID_TASK_9(NAME, ...) WEFT_GEN_VOID_TASK_(LACE_FLAVOR, NAME, 9, __VA_ARGS__)

/* ------------------------------------------------------------------------
 * Inside tasks (the hidden __lace_worker and __lace_dq_head in scope)
 * ------------------------------------------------------------------------ */

/* Spawns a task; the expression's value is its Task *.  Only when the
 * program uses that value is f stamped (lace_spawned): a SPAWN used as a
 * statement costs what weft's does (docs/lace.md, "The f field"). */
#define SPAWN(f, ...)                                                                   \
    ({                                                                                  \
        __lace_dq_head = f##_SPAWN(__lace_worker, __lace_dq_head, ##__VA_ARGS__);       \
        lace_spawned(__lace_dq_head - 1, &f##_WRAP);                                    \
    })
/* Joins the most recent SPAWN not joined yet; its value is the result. */
#define SYNC(f) (f##_SYNC(__lace_worker, --__lace_dq_head))
/* Joins the most recent SPAWN without running it if nobody stole it. */
#define DROP() (lace_drop(__lace_worker, --__lace_dq_head))
#define CALL(f, ...) (f##_CALL(__lace_worker, __lace_dq_head, ##__VA_ARGS__))
/* The task's NAME_CALL as a pointer (for callback tables), and a call of
 * such a pointer (or any function taking the context first). */
#define TASK(f) (f##_CALL)
#define WRAP(f, ...) ((f)(__lace_worker, __lace_dq_head, ##__VA_ARGS__))
/* A pointer type for TASK(f) of tasks returning t with these arguments. */
#define LACE_TYPEDEF_CB(t, f, ...) typedef t (*f)(WorkerP *, Task *, ##__VA_ARGS__);
#define LACE_WORKER_ID (weft_worker_id(__lace_worker))
#define LACE_WORKER_PU (lace_worker_pu(__lace_worker))
/* A per-worker pseudo-random 64-bit number (Lace's LCG). */
#define LACE_TRNG (lace_trng(__lace_worker))
#define STEAL_RANDOM() (lace_steal_random_CALL(__lace_worker, __lace_dq_head))
#define lace_steal_random() STEAL_RANDOM()
/* Joins a pending NEWFRAME or TOGETHER (and a weft_suspend) here. */
#define YIELD_NEWFRAME() lace_yield(__lace_worker, __lace_dq_head)

/* On the Task * a SPAWN returned, until it is joined. */
#define TASK_IS_STOLEN(t) (lace_task_is_stolen(t))
#define TASK_IS_COMPLETED(t) (lace_task_is_completed(t))
#define TASK_RESULT(t) ((void *)&(t)->d[0])

/* ------------------------------------------------------------------------
 * Outside tasks
 * ------------------------------------------------------------------------ */

/* Declares __lace_worker and __lace_dq_head in code running on a worker
 * (a "weft: ... not a worker" stop elsewhere). */
#define LACE_VARS                                                             \
    WorkerP *__lace_worker WEFT_UNUSED = lace_get_worker_checked();           \
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
 * $WEFT_STACK_SIZE or 64 MiB), and the value set. */
void lace_set_stacksize(size_t stacksize);
size_t lace_get_stacksize(void);
/* CPUs this process may run on. */
unsigned int lace_get_pu_count(void);
/* Starts n_workers workers (0: one per CPU) with dqsize task slots each
 * (0: weft's default).  A pool that cannot start stops the program with a
 * message. */
void lace_start(unsigned int n_workers, size_t dqsize);
void lace_stop(void);
/* Parks the workers until lace_resume (weft_suspend); RUNs wait meanwhile. */
void lace_suspend(void);
void lace_resume(void);
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

/* Non-NULL while a NEWFRAME or TOGETHER started through this API is
 * pending or running: a task that waits for something (a lock...) polls it
 * and calls lace_yield, so that it takes part instead of blocking it. */
typedef struct {
    WEFT_ATOMIC(Task *) t;
    char pad[WEFT_CACHE_LINE - sizeof(Task *)];
} lace_newframe_t;
extern lace_newframe_t lace_newframe;

/* SPAWN's value: stamps t's f and returns t.  Declared pure, although it
 * writes f, so that the compiler drops the call where SPAWN's value is not
 * used; that is safe because the write is idempotent (the same f to the
 * same slot) and no one else writes f while the task is in its slot. */
Task *lace_spawned(Task *t, lace_task_fn f) __attribute__((pure));

/* Per-worker LACE_TRNG state, indexed by worker id (seeded by lace_start). */
typedef struct {
    WEFT_ALIGNAS(WEFT_CACHE_LINE) uint64_t state;
} lace_trng_slot;
extern lace_trng_slot lace_trng_slots[];

static inline void lace_yield(WorkerP *w, Task *head)
{
    weft_yield(w, (weft_task *)head);
}

static inline void lace_drop(WorkerP *w, Task *t)
{
    weft_drop(w, (weft_task *)t);
}

static inline uint64_t lace_trng(WorkerP *w)
{
    uint64_t *s = &lace_trng_slots[weft_worker_id(w)].state;
    return *s = 2862933555777941757ULL * *s + 3037000493ULL;
}

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

#endif
