// SPDX-License-Identifier: Apache-2.0
/* The functions of Lace 2's API on weft (include/weft-lace2/lace2_bits.h):
 * the weft-lace2 library, built once against each runtime (64-byte and
 * 128-byte descriptors).  Each maps onto weft's public API, except the
 * random steal attempt and RUN from outside the pool, which use the
 * runtime's front-end seam (runtime/frontend.h; this library is built and
 * versioned with weft).  docs/lace2.md lists what each does and how it
 * differs from Lace. */
#include "runtime/frontend.h"
#include "lace/common/interrupts.h"
#include "lace/common/lifecycle.h"
#include "lace/common/run.h"
#include "lace/common/suspend.h"

#include <lace.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lace_newframe_t lace_newframe;
/* This layer's marker and the symbol every Lace layer's library defines
 * (lace2_bits.h: a program links one Lace layer). */
#if WEFT_TASK_SIZE == 128
const char weft__lace2_runtime_128 = 1;
#else
const char weft__lace2_runtime_64 = 1;
#endif
const char weft__lace_one_layer_per_program = 2;
WEFT_ATOMIC(uint64_t) weft__lace2_interrupts;

static int verbosity;
static atomic_bool started; /* lace_start ran: "after lace_stop", not "before lace_start" */
/* This is a child process made by fork() while Lace's pool ran (until
 * it starts Lace itself). */
static atomic_bool forked_child;
/* A lace_start is starting the pool (lifecycle.h). */
static atomic_bool starting;

#define START_CALL "lace_start(n_workers, dqsize, stacksize)"

/* The runtime's messages in Lace 2's words (src/lace/common/lifecycle.h). */
static const weft__api_words lace_words = {
    .prefix = "lace",
    .sync_pre = "",
    .sync_post = "_SYNC()",
    .spawn = "NAME_SPAWN()",
    .join = "NAME_SYNC() or NAME_DROP()",
    .deque_size = "lace_start's dqsize, or WEFT_DEQUE_SIZE",
    .stack_size = "lace_start's stacksize, or WEFT_STACK_SIZE",
    .barrier = "lace_barrier",
    .together = "NAME_TOGETHER()",
    .me = "a Lace worker is needed on a thread that is not one (lace_get_worker() is NULL "
          "there): from outside Lace, call tasks as NAME()",
    .start = "lace_start",
    .stop = "lace_stop",
    .start_first = "call " START_CALL " first",
    .not_running = "call " START_CALL " first, and do not call tasks during or after lace_stop",
    .pool = "the pool lace_start started",
    .stop_first = "call lace_stop first",
    .stops_only_itself = true,
#if WEFT_TASK_SIZE == 128 /* lace128.h's library: its runtime has no variants */
    .profile_variant = "lace128.h's 128-byte tasks have no profiling variant: profile the program "
                       "with lace.h, whose lace package has one (find_package(lace COMPONENTS "
                       "profile), or pkg-config lace-profile)",
    .trace_variant = "lace128.h's 128-byte tasks have no tracing variant: trace the program with "
                     "lace.h, whose lace package has one (find_package(lace COMPONENTS trace), or "
                     "pkg-config lace-trace)",
#else
    .profile_variant = WEFT_LACE_PROFILE_VARIANT,
    .trace_variant = WEFT_LACE_TRACE_VARIANT,
#endif
    .quiet_oversubscription = true,
};

/* fork() copies only the calling thread: in the child no interrupt is
 * pending (the common state: lace/common/suspend.c). */
static void forget_in_child(void)
{
    /* Relaxed (all): the child has one thread. */
    atomic_store_explicit(&lace_newframe.t, NULL, memory_order_relaxed);
    atomic_store_explicit(&starting, false, memory_order_relaxed);
    /* Lace's pool ran in the parent: the child's Lace calls are told it is
     * the parent's (after a lace_stop, that Lace stopped). */
    if (weft__pool_starter_at_fork() == &lace_words)
        atomic_store_explicit(&forked_child, true, memory_order_relaxed);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void)
{
    if (pthread_atfork(NULL, NULL, forget_in_child) != 0)
        weft__warn("lace_start: cannot register the fork handler: a child process is told of "
                   "Lace's calls as if Lace had stopped");
}

void weft__lace2_require_running(const char *what)
{
    /* Relaxed (both): flags of this thread's own process's history. */
    weft__lace_require_running(
        &lace_words, what, atomic_load_explicit(&started, memory_order_relaxed),
        atomic_load_explicit(&forked_child, memory_order_relaxed), START_CALL);
}

/* splitmix64: distinct, well-mixed lace_rng seeds per worker. */
static uint64_t mix_seed(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Called by the worker (or the thread acting as it) on its first use of
 * the record and whenever the record was last bound to another weft
 * worker (a new pool, a borrowed identity): only that thread writes it. */
void weft__lace2_bind(lace_worker *lw, weft_worker *w)
{
    lw->weft = w;
    lw->dq = (lace_task *)w->dq;
    lw->end = (lace_task *)w->end;
    lw->head = (lace_task *)weft_current_head(w);
    lw->worker = (uint16_t)weft_worker_id(w);
    if (lw->rng.s0 == 0 && lw->rng.s1 == 0) {
        lw->rng.s0 = mix_seed(2 * (uint64_t)lw->worker + 1);
        lw->rng.s1 = mix_seed(2 * (uint64_t)lw->worker + 2);
    }
}

lace_task *weft__lace2_spawned(lace_task *t, lace_task_fn f)
{
    t->f = f;
    return t;
}

void lace_set_verbosity(int level) { verbosity = level; }

void lace_start(unsigned int n_workers, size_t dqsize, size_t stacksize)
{
    /* The records are in the new workers' memory, zero (unbound, unseeded)
     * until each worker binds its own. */
    const weft__api_words *was = weft__speak_as(&lace_words);
    char call[96];
    snprintf(call, sizeof call, "lace_start(%u, %zu, %zu)", n_workers, dqsize, stacksize);
    pthread_once(&atfork_once, register_atfork);
    weft__lace_begin_start(&starting, call);
    weft__lace_check_start(&lace_words, call, n_workers, dqsize, stacksize, "stacksize");
    weft__lace_suspend_reset();
    atomic_store_explicit(&started, true, memory_order_relaxed);
    atomic_store_explicit(&forked_child, false, memory_order_relaxed);
    weft__lace_start_workers(call, n_workers, dqsize, stacksize);
    weft__profile_set_frontend_note(
        "Lace 2: a task's own NAME_CALL of another task is a plain C call, which the profiler "
        "does not see: its time is its caller's (strand and task type) and it is no task of "
        "the counts (lace2.md, \"Profiling and tracing a Lace 2 program\")");
    if (verbosity > 0) {
        /* The sizes in use, defaults resolved (the runtime's record). */
        fprintf(stderr,
                "lace: weft %s (%s scheduler, %d-byte tasks): %u workers, %zu task slots "
                "per worker, stacks of %zu bytes\n",
                WEFT_VERSION, WEFT_SCHEDULER_NAME, WEFT_TASK_SIZE, weft_workers(),
                weft__started_deque_slots() - WEFT_LACE_DEQUE_SLACK, weft__started_stack_size());
    }
    weft__lace_end_start(&starting);
    (void)weft__speak_as(was);
}

void lace_stop(void)
{
    const weft__api_words *was = weft__speak_as(&lace_words);
    /* Relaxed (both): flags of this process's own history. */
    weft__lace_stop(&lace_words, "lace_stop", verbosity > 0,
                    atomic_load_explicit(&started, memory_order_relaxed),
                    atomic_load_explicit(&forked_child, memory_order_relaxed));
    weft__lace_suspend_reset();
    (void)weft__speak_as(was);
}

void lace_suspend(void) { weft__lace_suspend(&lace_words); }

void lace_resume(void) { weft__lace_resume(&lace_words); }

void weft__lace2_not_worker(const char *what) { weft__lace_stop_not_worker(&lace_words, what); }

static void require_worker(const lace_worker *lw, const char *what)
{
    if (lw == NULL)
        weft__lace2_not_worker(what);
}

int lace_is_running(void) { return weft_workers() > 0; }

unsigned int lace_worker_count(void) { return weft_workers(); }

void lace_barrier(void)
{
    const weft__api_words *was = weft__speak_as(&lace_words); /* the barrier runs no task */
    weft_barrier();
    (void)weft__speak_as(was);
}

void lace_drop(lace_worker *lw)
{
    require_worker(lw, "lace_drop(NULL)");
    weft__drop_as(lw->weft, (weft_task *)--lw->head, "lace_drop()");
}

void lace_steal_random(lace_worker *lw)
{
    require_worker(lw, "lace_steal_random(NULL)");
    /* A stolen task runs at the record's head: it must be the top (a head
     * kept while another API spawned in a nested block is below that
     * task, still pending). */
    if (!weft_fj_head_is_top((weft_task *)lw->head))
        weft__fj_run_at_refused(lw->weft, (weft_task *)lw->head, "lace_steal_random()");
    weft_worker *victim = weft__random_victim(lw->weft);
    if (victim != NULL)
        weft__steal_and_run(lw->weft, (weft_task *)lw->head, victim, false);
}

void lace_yield(lace_worker *lw)
{
    require_worker(lw, "lace_yield(NULL)");
    /* Acquire: pairs with show_newframe's release (the interrupt is in the
     * pending list before lace_newframe.t shows it). */
    lace_task *shown = atomic_load_explicit(&lace_newframe.t, memory_order_acquire);
    weft__lace_yield_until_over(lw->weft, weft__lace2_true_head(lw), shown);
}

void lace_count_reset(void) { weft_stats_reset(); }

void lace_count_report_file(FILE *file) { weft__lace_count_report_file(&lace_words, file); }

static uintptr_t task_wrapper(lace_task *t, const char *what)
{
    return weft__lace_wrapper_of(t != NULL ? (uintptr_t)t->f : 0, &lace_words, what,
                                 "declare tasks with TASK and run them with NAME()");
}

/* From outside the pool the task runs on a worker's thread
 * (weft__lace_run_outside). */
void lace_run_task(lace_task *t)
{
    uintptr_t wrapper = task_wrapper(t, "lace_run_task");
    if (weft__run_task_if_worker((weft_task *)t, wrapper))
        return;
    weft__lace2_require_running("lace_run_task");
    weft__lace_run_outside((weft_task *)t, wrapper, &lace_words);
}

/* Shows the newest NEWFRAME or TOGETHER pending in lace_newframe.t, and
 * counts each as it starts (lace_check_yield compares the count). */
static void show_newframe(void *top, bool started)
{
    /* Release: a task that sees top and reads it sees it filled in (and
     * the list that lace_yield's acquire load pairs with).  Tasks poll it
     * with relaxed loads (lace_check_yield). */
    atomic_store_explicit(&lace_newframe.t, (lace_task *)top, memory_order_release);
    /* Relaxed: a count lace_check_yield compares; the interrupt's own start
     * (after this) orders it before any worker can join. */
    if (started)
        atomic_fetch_add_explicit(&weft__lace2_interrupts, 1, memory_order_relaxed);
}

void lace_run_newframe(lace_task *t)
{
    weft__lace2_require_running("lace_run_newframe");
    weft__lace_interrupt((weft_task *)t, task_wrapper(t, "lace_run_newframe"), false, show_newframe,
                         &lace_words);
}

void lace_run_together(lace_task *t)
{
    weft__lace2_require_running("lace_run_together");
    weft__lace_interrupt((weft_task *)t, task_wrapper(t, "lace_run_together"), true, show_newframe,
                         &lace_words);
}

void lace_abort_stack_overflow(void)
{
    (void)weft__speak_as(&lace_words);
    weft__fatal("task stack overflow: a worker's task deque is full (start Lace with a larger "
                "dqsize: " START_CALL ")");
}
