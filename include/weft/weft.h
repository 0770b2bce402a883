// SPDX-License-Identifier: Apache-2.0
/** @file
 * weft: fine-grained fork-join parallelism for C11 (the header compiles as
 * C++17 too: a C++ translation unit may declare, spawn and sync tasks and
 * share them with C ones; bits/lang.h).
 *
 * A task is declared with WEFT_TASK_n (n = 0..9 arguments) or
 * WEFT_VOID_TASK_n and written like a sequential function:
 *
 *     WEFT_TASK_1(long, fib, int, n)
 *     {
 *         if (n < 2) return n;
 *         WEFT_SPAWN(fib, n - 1);          // may run on another worker
 *         long b = WEFT_CALL(fib, n - 2);  // a plain call
 *         long a = WEFT_SYNC(fib);         // joins the last unmatched SPAWN
 *         return a + b;
 *     }
 *
 *     int main(void)
 *     {
 *         weft_start(0, 0, 0);             // defaults: one worker per CPU
 *         printf("%ld\n", WEFT_RUN(fib, 40));
 *         weft_stop();
 *     }
 *
 * Semantics follow Wool and Lace: SYNC joins the most recent SPAWN of the
 * current task that has not been joined yet; every SPAWN must be joined
 * (SYNC or DROP) before its task returns.  Arguments and results are copied
 * into a 64-byte descriptor (at most 56 bytes of arguments or result; a build
 * with -DWEFT_TASK_SIZE=128 has 128-byte descriptors, 120 bytes).
 *
 * Inside a task body two hidden parameters are in scope: `weft_w` (the
 * worker running it) and `weft_head` (the top of that worker's deque).
 * SPAWN/SYNC/CALL use them; a helper function that wants to spawn takes
 * them with WEFT_CONTEXT_PARAMS and is called with WEFT_CONTEXT.
 *
 * Threading: weft_start/stop/suspend/resume from any thread that is not a
 * worker; RUN, NEWFRAME and TOGETHER from any thread (from outside they
 * block until done, inside a worker they run in place); everything else
 * only inside tasks.  Misuse is reported on stderr with a "weft:" prefix;
 * misuse that would corrupt memory stops the process (abort).
 *
 * Configuration knobs are documented in docs/configuration.md.
 */
#ifndef WEFT_WEFT_H
#define WEFT_WEFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <weft/config.h>
#include <weft/bits/lang.h>
#include <weft/bits/worker.h>
#include <weft/bits/task_macros.h>
#include <weft/bits/runtime.h>

WEFT_BEGIN_DECLS

/* ------------------------------------------------------------------------
 * Lifecycle
 * ------------------------------------------------------------------------ */

/** Where a worker blocked at a SYNC on a stolen task looks for work. */
typedef enum weft_steal_policy {
    /** Steal from the thief (leapfrogging); when the thief has nothing,
     * steal from a random worker (Lace, section 4.3).  The default. */
    WEFT_STEAL_LEAPFROG_RANDOM = 0,
    /** Only steal from the thief: bounds deque and stack growth to what a
     * sequential run needs, at the price of steal chains. */
    WEFT_STEAL_LEAPFROG = 1,
    /** Steal from the thief, then from the thief's thief and on along the
     * chain of blocked joins (Wool's transitive leapfrogging).  Keeps
     * leapfrogging's bound on deque and stack growth. */
    WEFT_STEAL_TRANSITIVE = 2,
} weft_steal_policy;

/** The pool's settings: weft_config_init fills them, weft_start_config
 * takes them (docs/configuration.md has every range and default). */
typedef struct weft_config {
    unsigned workers;               /**< 0: the CPUs the process may use, or $WEFT_WORKERS */
    size_t deque_size;              /**< task slots per worker; 0: $WEFT_DEQUE_SIZE or 1M */
    size_t stack_size;              /**< bytes per worker stack; 0: $WEFT_STACK_SIZE or 64 MiB */
    weft_steal_policy steal_policy; /**< $WEFT_STEAL=random|leapfrog|transitive */
    int pin; /**< 1: pin worker i to the i-th CPU; 0 or -1 (default): not pinned; $WEFT_PIN */
    unsigned idle_spin_us; /**< how long an idle worker searches before it sleeps; $WEFT_SPIN_US */
    bool report_stack_overflow; /**< catch SIGSEGV on a worker's stack guard and explain it */
} weft_config;

/** Fills *cfg with the defaults, then applies the WEFT_* environment.
 * Returns 0, or EINVAL (with a message) if a WEFT_* variable is malformed;
 * the malformed ones are left at their defaults. */
int weft_config_init(weft_config *cfg);

/** Starts the worker pool.  0 for any argument means its default (see
 * weft_config).  Returns 0, or an errno value with a message on stderr:
 * EBUSY if already started, EINVAL for impossible sizes, ENOMEM/EAGAIN if
 * memory or threads cannot be had. */
int weft_start(unsigned workers, size_t deque_size, size_t stack_size);
/** Starts the worker pool with the settings *cfg (weft_config_init's
 * defaults and environment, then the caller's changes); returns as
 * weft_start does. */
int weft_start_config(const weft_config *cfg);

/** Waits for RUNs in progress to finish, then stops and joins the workers.
 * Not from inside a worker, nor from a thread that is inside RUN,
 * TOGETHER or NEWFRAME (a signal handler that interrupted one): EDEADLK,
 * with a message.  EINVAL if not started; EBUSY, with a message, if
 * Lace's lace_start started the pool (lace_stop stops it).  Like the
 * other lifecycle calls it is not async-signal-safe otherwise. */
int weft_stop(void);

/** Parks every worker (no spinning, no stealing) until weft_resume.  Waits
 * until every task in progress has reached a WEFT_YIELD (it waits there),
 * a SYNC on a stolen task or its end, and until interrupts in progress
 * have finished.  While suspended no task runs: a RUN, TOGETHER or
 * NEWFRAME from another thread waits for weft_resume, and a TOGETHER or
 * NEWFRAME that a resume let through goes in before the next suspension
 * takes effect (a thread that suspends and resumes back to back does not
 * keep them out).  Suspends nest
 * (from any threads): each weft_suspend is undone by one weft_resume, and
 * the pool resumes at the last; weft_resume without a suspend in force is
 * EINVAL.  EDEADLK from a worker, or from a thread inside RUN (a signal
 * handler). */
int weft_suspend(void);
/** Lets the workers parked by weft_suspend run again.  EINVAL (with a
 * message) if no weft_suspend is in force: the pool is not suspended, or
 * only by the Lace layer's lace_suspend, which only lace_resume ends. */
int weft_resume(void);

/** Number of workers of the running pool, 0 when stopped. */
unsigned weft_workers(void);

/** The calling thread's worker, or NULL outside the pool. */
weft_worker *weft_self(void);
/** Worker w's number, 0 to weft_workers() - 1. */
static inline unsigned weft_worker_id(const weft_worker *w) { return w->id; }

/** The current top of the calling worker's deque, for code that runs on a
 * worker but received no context (see WEFT_ME).  O(log depth), depth the
 * number of tasks below the head. */
weft_task *weft_current_head(weft_worker *w);

/* ------------------------------------------------------------------------
 * Tasks: use inside task bodies (they use the hidden weft_w / weft_head)
 * ------------------------------------------------------------------------ */

/** Spawns task NAME with the arguments: it may run on another worker;
 * WEFT_SYNC or WEFT_DROP joins it. */
#define WEFT_SPAWN(NAME, ...) (weft_head = WEFT_SPAWN_FN_(NAME, weft_w, weft_head, ##__VA_ARGS__))
/** Joins the most recent unjoined SPAWN of the current task, which must
 * be of task NAME, and returns its result. */
#define WEFT_SYNC(NAME) WEFT_SYNC_FN_(NAME)(weft_w, --weft_head)
/** Calls task NAME with the arguments, as a plain function call. */
#define WEFT_CALL(NAME, ...) WEFT_CALL_FN_(NAME)(weft_w, weft_head, ##__VA_ARGS__)
/** Joins the last SPAWN without running it if nobody stole it (speculative
 * work that turned out unneeded); if it was stolen, waits for it. */
#define WEFT_DROP(NAME) weft__drop_as(weft_w, --weft_head, "WEFT_DROP")

/** Runs a task from anywhere and returns when it is done.  On a worker it
 * runs in place.  From a non-worker thread it runs on that thread as a
 * worker that sleeps idle (its id, its deque, a stack of weft's), or, if
 * none does, it is handed to the pool while the caller waits. */
#define WEFT_RUN(NAME, ...) NAME##_RUN(__VA_ARGS__)

/** Context passing for helper functions called from tasks. */
#define WEFT_CONTEXT_PARAMS weft_worker *weft_w, weft_task *weft_head
/** The arguments that hand the context to a WEFT_CONTEXT_PARAMS function. */
#define WEFT_CONTEXT weft_w, weft_head
/** Recovers the context in code running on a worker without one. */
#define WEFT_ME \
    weft_worker *weft_w = weft__self_checked(); \
    weft_task *weft_head = weft_current_head(weft_w)


/* ------------------------------------------------------------------------
 * Interrupts: stop-the-world operations (garbage collection, phase changes)
 * ------------------------------------------------------------------------ */

/** Every worker runs its own copy of the task; all copies start after every
 * worker has stopped between tasks and the call returns when all are done.
 * Inside the copies, weft_barrier() synchronises the workers. */
#define WEFT_TOGETHER(NAME, ...) NAME##_TOGETHER(__VA_ARGS__)

/** Halts every worker between tasks, runs this one task on the whole pool
 * (its subtasks are stolen by the halted workers), then lets all resume.
 * Returns the task's result. */
#define WEFT_NEWFRAME(NAME, ...) NAME##_NEWFRAME(__VA_ARGS__)

/** Waits until every worker has reached it; only inside TOGETHER copies. */
void weft_barrier(void);

/** Long-running tasks call this now and then so that interrupts and
 * weft_suspend need not wait for them (an interrupt is joined here, and a
 * suspended pool parks the task here until weft_resume), and -- with the
 * wool, private-deque and chase-lev schedulers, whose owners see thieves'
 * or sleepers' requests only when they poll -- so that idle workers get
 * work.  Costs one load when nothing is pending (two with those
 * schedulers). */
#define WEFT_YIELD() weft_yield(weft_w, weft_head)

/* ------------------------------------------------------------------------
 * Counters (compiled in with -DWEFT_STATS=ON; WEFT_STATS=1 prints at stop)
 * ------------------------------------------------------------------------ */

/** The counters of every worker, summed (weft_stats_get). */
typedef struct weft_stats {
    /** @{ */
    /** The runtime's counters: tasks run, steals and failed steals, leaps
     * (steals from a thief at a blocked SYNC) and failed leaps. */
    uint64_t tasks, steals, steal_fails, leaps, leap_fails;
    /** @} */
    /** @{ */
    /** The scheduler's counters of these names (0 where it has none: grows
     * and shrinks are the split and Wool schedulers', requests and
     * transfers Wool's and the private deques'); weft_stats_counters lists
     * exactly what a build counts. */
    uint64_t grows, shrinks;
    /** @} */
    /** @{ */
    /** Times a worker went to sleep, times one woke a sleeper, and the
     * deepest deque any worker reached. */
    uint64_t sleeps, wakes, peak_depth;
    /** @} */
    /** @{ */
    /** The scheduler's counters of these names, as grows and shrinks. */
    uint64_t requests, transfers;
    /** @} */
} weft_stats;

/** Sums the counters of all workers into *out (peak_depth: the maximum).
 * Returns 0; ENOTSUP (and zeros) when counters are compiled out; EINVAL
 * (with a message) if out is NULL. */
int weft_stats_get(weft_stats *out);

/** One counter by name: the runtime's ("tasks", "steals", "steal_fails",
 * "leaps", "leap_fails", "sleeps", "wakes", "peak") and then the
 * scheduler's own (docs/schedulers.md). */
typedef struct weft_counter {
    const char *name; /**< static storage */
    uint64_t value;   /**< summed over workers; "peak" is the maximum */
} weft_counter;

/** Writes up to max counters of this build to out, in report order, and
 * returns how many the build has (0 when counters are compiled out), so
 * weft_stats_counters(NULL, 0) sizes the array. */
size_t weft_stats_counters(weft_counter *out, size_t max);

/** Sets every worker's counters to zero. */
void weft_stats_reset(void);
/** Prints a per-worker table and the totals, or a note that counters are
 * compiled out. */
void weft_stats_print(FILE *out);

WEFT_END_DECLS

#endif
