// SPDX-License-Identifier: Apache-2.0
/* The functions of Lace 1.4's API on weft (include/weft-lace/lace.h): the
 * weft-lace library.  Each maps onto weft's public API, except the random
 * steal attempt, a worker's CPU and RUN from outside the pool, which use
 * the runtime's front-end seam (runtime/frontend.h; this library is built
 * and versioned with weft).  docs/lace.md lists what each does and how it
 * differs from Lace. */
#include "runtime/frontend.h"
#include "lace/common/interrupts.h"
#include "lace/common/lifecycle.h"
#include "lace/common/run.h"
#include "lace/common/suspend.h"

/* The library serves both API generations; 1.6's declarations are a
 * superset of 1.4's. */
#define WEFT_LACE_API 16
#include <lace.h>

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

lace_newframe_t lace_newframe;
/* This layer's marker and the symbol every Lace layer's library defines
 * (include/weft-lace2/lace2_bits.h: a program links one Lace layer). */
const char weft__lace1_layer = 1;
const char weft__lace_one_layer_per_program = 1;

static int verbosity;
static size_t stack_size;   /* 0: weft's default */
static atomic_bool started; /* lace_start ran: "after lace_stop", not "before lace_start" */
/* This is a child process made by fork() while Lace's pool ran (until
 * it starts Lace itself). */
static atomic_bool forked_child;
static __thread bool worker_0_thread; /* lace_startup made this thread worker 0 */
/* Some thread is worker 0 by lace_startup: a stop elsewhere would wait for
 * it forever. */
static atomic_bool worker_0_held;
/* A lace_start or lace_startup is starting the pool (lifecycle.h). */
static atomic_bool starting;
/* lace_init's parameters and their hand-over to a lace_startup (below). */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

#define START_CALL "lace_start(n_workers, dqsize)"

/* The runtime's messages in Lace 1's words (lifecycle.h). */
static const weft__api_words lace_words = {
    .prefix = "lace",
    .sync_pre = "SYNC(",
    .sync_post = ")",
    .spawn = "SPAWN",
    .join = "SYNC or DROP",
    .deque_size = "lace_start's dqsize, or WEFT_DEQUE_SIZE",
    .stack_size =
        "lace_set_stacksize before lace_start (lace_startup's stacksize for its callback), "
        "or WEFT_STACK_SIZE",
    .barrier = "lace_barrier",
    .together = "TOGETHER",
    .me = "LACE_ME used on a thread that is not a Lace worker (it is for code that tasks run; "
          "from outside Lace, call tasks with RUN)",
    .start = "lace_start",
    .stop = "lace_stop",
    .start_first = "call " START_CALL " first",
    .not_running = "call " START_CALL " first, and do not RUN during or after lace_stop",
    .pool = "the pool lace_start started",
    .stop_first = "call lace_stop first",
    .stops_only_itself = true,
    .profile_variant = WEFT_LACE_PROFILE_VARIANT,
    .trace_variant = WEFT_LACE_TRACE_VARIANT,
    .quiet_oversubscription = true,
};

static void require_running(const char *what)
{
    /* Relaxed (both): flags of this thread's own process's history. */
    weft__lace_require_running(
        &lace_words, what, atomic_load_explicit(&started, memory_order_relaxed),
        atomic_load_explicit(&forked_child, memory_order_relaxed), START_CALL);
}

/* RUNEX against RUN from outside the pool: RUNs hold it shared, RUNEX
 * exclusive; writers first, so a RUNEX is not starved by a stream of RUNs.
 * A thread that works for a task (a work pool's, run inside a task) takes
 * no part: its RUNs are that task's, and its RUN or RUNEX waiting here
 * would wait for the RUN or RUNEX that waits for it. */
static pthread_rwlock_t external_lock;
static pthread_once_t external_lock_once = PTHREAD_ONCE_INIT;

void lace_set_verbosity(int level) { verbosity = level; }

void lace_set_stacksize(size_t stacksize) { stack_size = stacksize; }

size_t lace_get_stacksize(void) { return stack_size; }

unsigned int lace_get_pu_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

static void make_external_lock(void)
{
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&external_lock, &attr);
    pthread_rwlockattr_destroy(&attr);
}

/* fork() copies only the calling thread: in the child the RUNs other
 * threads held external_lock for never end, and no interrupt is pending
 * (the common state: lace/common/suspend.c). */
static void forget_in_child(void)
{
    make_external_lock();
    worker_0_thread = false;              /* the runtime let go of the adopted worker too */
    pthread_mutex_init(&init_lock, NULL); /* another thread may have held it */
    /* Relaxed (all): the child has one thread. */
    atomic_store_explicit(&worker_0_held, false, memory_order_relaxed);
    atomic_store_explicit(&starting, false, memory_order_relaxed);
    atomic_store_explicit(&lace_newframe.t, NULL, memory_order_relaxed);
    /* Lace's pool ran in the parent: the child's Lace calls are told it is
     * the parent's (after a lace_stop, that Lace stopped). */
    if (weft__pool_starter_at_fork() == &lace_words)
        atomic_store_explicit(&forked_child, true, memory_order_relaxed);
}

static void init_external_lock(void)
{
    make_external_lock();
    if (pthread_atfork(NULL, NULL, forget_in_child) != 0)
        weft__warn("lace_start: cannot register the fork handler: RUNEX in a child process may "
                   "wait forever");
}

/* lace_start's work; `call` names the user's call in messages. */
static void start_pool(const char *call, unsigned int n_workers, size_t dqsize,
                       const char *stack_what);

void lace_start(unsigned int n_workers, size_t dqsize)
{
    char call[64];
    snprintf(call, sizeof call, "lace_start(%u, %zu)", n_workers, dqsize);
    start_pool(call, n_workers, dqsize, "the stack size set with lace_set_stacksize");
}

/* `stack_what` names where stack_size came from, for the checks' message. */
static void start_pool(const char *call, unsigned int n_workers, size_t dqsize,
                       const char *stack_what)
{
    const weft__api_words *was = weft__speak_as(&lace_words);
    pthread_once(&external_lock_once, init_external_lock);
    weft__lace_begin_start(&starting, call);
    weft__lace_check_start(&lace_words, call, n_workers, dqsize, stack_size, stack_what);
    weft__lace_suspend_reset();
    atomic_store_explicit(&started, true, memory_order_relaxed);
    atomic_store_explicit(&forked_child, false, memory_order_relaxed);
    /* LACE_TRNG draws from each worker's rng, which weft_start seeds. */
    weft__lace_start_workers(call, n_workers, dqsize, stack_size);
    if (verbosity > 0) /* what the pool uses, defaults resolved */
        fprintf(stderr,
                "lace: weft %s (%s scheduler): %u workers, %zu task slots per worker%s, "
                "stacks of %zu bytes%s\n",
                WEFT_VERSION, WEFT_SCHEDULER_NAME, weft_workers(),
                weft__started_deque_slots() - WEFT_LACE_DEQUE_SLACK,
                dqsize ? "" : " (weft's default)", weft__started_stack_size(),
                stack_size ? "" : " (weft's default)");
    weft__lace_end_start(&starting);
    (void)weft__speak_as(was);
}

static void leave_worker_0(const char *call);

/* lace_stop, or lace_exit (`call`): the messages name the call made. */
static void stop_as(const char *call)
{
    const weft__api_words *was = weft__speak_as(&lace_words);
    leave_worker_0(call);
    /* Relaxed (both): flags of this process's own history. */
    weft__lace_stop(&lace_words, call, verbosity > 0,
                    atomic_load_explicit(&started, memory_order_relaxed),
                    atomic_load_explicit(&forked_child, memory_order_relaxed));
    weft__lace_suspend_reset();
    (void)weft__speak_as(was);
}

void lace_stop(void) { stop_as("lace_stop"); }

/* ---- Lace's first API: lace_init, lace_startup, lace_exit ----
 *
 * lace_startup without a callback makes its thread worker 0 for good (the
 * runtime lends it worker 0, as a RUN borrows an idle worker, until
 * lace_exit); with one, it RUNs the callback and stops. */

/* lace_init's parameters, and its hand-over to a lace_startup, under
 * init_lock (two threads may each lace_init and lace_startup at once). */
static unsigned init_workers;
static size_t init_dqsize;
/* Each lace_startup takes the lace_init before it: none, one ready, or one
 * a lace_startup has taken and is starting (a second racing it is told
 * so, not that lace_init was never called). */
enum { INIT_NONE, INIT_READY, INIT_TAKEN };
static atomic_int init_state;
static atomic_bool startup_callback_runs; /* a lace_exit inside it waits for its return */
/* How long lace_startup waits for worker 0 to fall asleep at start (it
 * spins first for up to WEFT_SPIN_US). */
#define ADOPT_WAIT_NS (10u * 1000000000ull)

void lace_init(unsigned int n_workers, size_t dqsize)
{
    const weft__api_words *was = weft__speak_as(&lace_words);
    char call[64];
    snprintf(call, sizeof call, "lace_init(%u, %zu)", n_workers, dqsize);
    weft__lace_check_start(&lace_words, call, n_workers, dqsize, stack_size,
                           "the stack size set with lace_set_stacksize");
    pthread_mutex_lock(&init_lock);
    init_workers = n_workers;
    init_dqsize = dqsize;
    /* Release (and the lock): the lace_startup that takes this lace_init
     * reads its parameters. */
    atomic_store_explicit(&init_state, INIT_READY, memory_order_release);
    pthread_mutex_unlock(&init_lock);
    (void)weft__speak_as(was);
}

/* The callback's root task: its name is what a message about the
 * callback's task (a SPAWN it left unjoined) calls it. */
VOID_TASK_2(lace_startup_callback, lace_startup_cb, cb, void *, arg)
{
    cb(__lace_worker, __lace_dq_head, arg);
}

void lace_startup(size_t stacksize, lace_startup_cb cb, void *arg)
{
    const weft__api_words *was = weft__speak_as(&lace_words);
    char call[96];
    snprintf(call, sizeof call, "lace_startup(%zu, %s, ...)", stacksize, cb ? "cb" : "NULL");
    pthread_mutex_lock(&init_lock);
    /* Acquire (and the lock): pairs with lace_init's release (its
     * parameters, read with the lock held). */
    int init = atomic_exchange_explicit(&init_state, INIT_TAKEN, memory_order_acquire);
    unsigned n_workers = init_workers;
    size_t dqsize = init_dqsize;
    pthread_mutex_unlock(&init_lock);
    if (init != INIT_READY)
        weft__fatal("%s called %s: call lace_init(n_workers, dqsize) first, once before each "
                    "lace_startup",
                    call,
                    init == INIT_TAKEN   ? "while another lace_startup starts Lace"
                    : weft_workers() > 0 ? "while Lace is running"
                                         : "before lace_init");
    size_t was_stack = stack_size;
    if (stacksize != 0)
        stack_size = stacksize;
    start_pool(call, n_workers, dqsize,
               stacksize != 0 ? "lace_startup's stacksize"
                              : "the stack size set with lace_set_stacksize");
    stack_size = was_stack;
    /* Relaxed: only lace_startup's exchange reads it, and a lace_init is
     * refused from here on (Lace runs). */
    atomic_store_explicit(&init_state, INIT_NONE, memory_order_relaxed);
    if (cb != NULL) {
        /* Relaxed: read by a lace_exit inside the task, which the RUN's
         * hand-off orders after this store. */
        atomic_store_explicit(&startup_callback_runs, true, memory_order_relaxed);
        RUN(lace_startup_callback, cb, arg);
        /* Relaxed: the task is done (the RUN returned). */
        atomic_store_explicit(&startup_callback_runs, false, memory_order_relaxed);
        lace_stop();
    } else {
        int err = weft__adopt_worker(
            0, ADOPT_WAIT_NS,
            "ulimit -s (worker 0's tasks run on the stack of the thread that called "
            "lace_startup without a callback: the program's main thread's is set by ulimit -s; "
            "with a callback they run on a stack of lace_startup's size)",
            "(lace_startup's thread)");
        if (err != 0)
            weft__fatal("%s: the calling thread could not become worker 0 (%s)", call,
                        err == EBUSY ? "worker 0 stayed busy for 10 s" : strerror(err));
        worker_0_thread = true;
        /* Relaxed: a flag for a misuse check; the adoption is ordered by
         * the runtime. */
        atomic_store_explicit(&worker_0_held, true, memory_order_relaxed);
    }
    (void)weft__speak_as(was);
}

/* The thread lace_startup made worker 0 gives the worker back. */
static void leave_worker_0(const char *call)
{
    if (!worker_0_thread) {
        /* Relaxed: see lace_startup's store. */
        if (atomic_load_explicit(&worker_0_held, memory_order_relaxed))
            weft__fatal("%s called on a thread other than the one lace_startup made worker 0: "
                        "that thread holds worker 0 and the stop would wait for it forever "
                        "(call %s on that thread)",
                        call, call);
        return;
    }
    if (weft__leave_adopted_worker() == EBUSY)
        weft__fatal("%s on worker 0 with tasks spawned and not synced: SYNC or DROP each SPAWN "
                    "first",
                    call);
    worker_0_thread = false;
    /* Relaxed: as above. */
    atomic_store_explicit(&worker_0_held, false, memory_order_relaxed);
}

void lace_exit(void)
{
    /* Relaxed: set before the RUN that runs this task (lace_startup). */
    if (worker_0_thread == false && weft_self() != NULL &&
        atomic_load_explicit(&startup_callback_runs, memory_order_relaxed))
        return; /* inside the callback: Lace stops when it returns */
    stop_as("lace_exit");
}

void lace_suspend(void) { weft__lace_suspend(&lace_words); }

void lace_resume(void) { weft__lace_resume(&lace_words); }

unsigned int lace_workers(void) { return weft_workers(); }

int lace_is_worker(void) { return weft_self() != NULL; }

WorkerP *lace_get_worker(void) { return (WorkerP *)weft_self(); }

WorkerP *lace_get_worker_checked(void)
{
    weft_worker *w = weft_self();
    if (w == NULL) {
        (void)weft__speak_as(&lace_words);
        weft__fatal("%s", lace_words.me);
    }
    return (WorkerP *)w;
}

void weft__lace_not_worker(const char *what) { weft__lace_stop_not_worker(&lace_words, what); }

Task *lace_get_head(WorkerP *w)
{
    if (w == NULL)
        weft__lace_not_worker("lace_get_head(NULL)");
    return (Task *)weft_current_head((weft_worker *)w);
}

void lace_barrier(void)
{
    const weft__api_words *was = weft__speak_as(&lace_words); /* the barrier runs no task */
    weft_barrier();
    (void)weft__speak_as(was);
}

static uintptr_t task_wrapper(Task *t, const char *what)
{
    return weft__lace_wrapper_of(t != NULL ? (uintptr_t)t->f : 0, &lace_words, what,
                                 "build tasks with TASK_n and run them with RUN");
}

/* A RUN (RUNEX: exclusive) from outside the pool, on a worker's thread
 * (weft__lace_run_outside), under external_lock. */
static void run_outside_locked(Task *t, uintptr_t wrapper, bool exclusive)
{
    if (weft__thread_works_for_task()) {
        weft__lace_run_outside((weft_task *)t, wrapper, &lace_words);
        return;
    }
    pthread_once(&external_lock_once, init_external_lock);
    if (exclusive)
        pthread_rwlock_wrlock(&external_lock);
    else
        pthread_rwlock_rdlock(&external_lock);
    weft__lace_run_outside((weft_task *)t, wrapper, &lace_words);
    pthread_rwlock_unlock(&external_lock);
}

/* On a worker the task runs in place; from outside the pool, on a worker's
 * thread (weft__lace_run_outside). */
void lace_run_task(Task *t)
{
    uintptr_t wrapper = task_wrapper(t, "lace_run_task");
    if (weft__run_task_if_worker((weft_task *)t, wrapper))
        return;
    require_running("RUN");
    run_outside_locked(t, wrapper, false);
}

void lace_run_task_exclusive(Task *t)
{
    uintptr_t wrapper = task_wrapper(t, "lace_run_task_exclusive");
    if (weft__run_task_if_worker((weft_task *)t, wrapper))
        return;
    require_running("RUNEX");
    run_outside_locked(t, wrapper, true);
}

/* Shows the newest NEWFRAME or TOGETHER pending in lace_newframe.t. */
static void show_newframe(void *top, bool started)
{
    (void)started;
    /* Release: a task that sees top and reads it sees it filled in (and
     * the list that weft__lace_yield_newframe's acquire load pairs with).
     * Workers poll it with relaxed loads (YIELD_NEWFRAME). */
    atomic_store_explicit(&lace_newframe.t, (Task *)top, memory_order_release);
}

void lace_run_newframe(Task *t)
{
    require_running("NEWFRAME");
    weft__lace_interrupt((weft_task *)t, task_wrapper(t, "lace_run_newframe"), false, show_newframe,
                         &lace_words);
}

void lace_run_together(Task *t)
{
    require_running("TOGETHER");
    weft__lace_interrupt((weft_task *)t, task_wrapper(t, "lace_run_together"), true, show_newframe,
                         &lace_words);
}

void weft__lace_yield_newframe(WorkerP *lw, Task *head)
{
    /* Acquire: pairs with show_newframe's release (the interrupt is in the
     * pending list before lace_newframe.t shows it). */
    Task *shown = atomic_load_explicit(&lace_newframe.t, memory_order_acquire);
    weft__lace_yield_until_over((weft_worker *)lw, (weft_task *)head, shown);
}

void lace_steal_random_CALL(WorkerP *lw, Task *head)
{
    if (lw == NULL)
        weft__lace_not_worker("lace_steal_random_CALL(NULL, ...)");
    weft_worker *w = (weft_worker *)lw;
    /* The stolen task runs at the head held: it must be the top. */
    if (!weft_fj_head_is_top((weft_task *)head))
        weft__fj_run_at_refused(w, (weft_task *)head, "STEAL_RANDOM()");
    weft_worker *victim = weft__random_victim(w);
    if (victim != NULL)
        weft__steal_and_run(w, (weft_task *)head, victim, false);
}

void lace_count_reset(void) { weft_stats_reset(); }

void lace_count_report_file(FILE *file) { weft__lace_count_report_file(&lace_words, file); }

int lace_worker_pu(WorkerP *w)
{
    return weft__topology_worker_cpu(weft_worker_id((weft_worker *)w));
}

void lace_abort_stack_overflow(void)
{
    (void)weft__speak_as(&lace_words);
    weft__fatal("task stack overflow: a worker's task deque is full (start Lace with a larger "
                "dqsize: lace_start(n_workers, dqsize))");
}

int lace_is_running(void) { return weft_workers() > 0; }
