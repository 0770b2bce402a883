// SPDX-License-Identifier: Apache-2.0
/* Starting and stopping the pool as Lace does, shared by the weft-lace
 * and weft-lace2 libraries: the sizes lace_start takes, as weft_start
 * wants them, and lace_stop.  Lace accepts any deque size and any stack
 * size (pthread_attr_setstacksize ignores one below the system's minimum),
 * so neither is refused for being small. */
#ifndef WEFT_LACE_LIFECYCLE_H
#define WEFT_LACE_LIFECYCLE_H

#include <weft/weft.h>

#include "runtime/frontend.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lace's deque of dqsize slots holds dqsize tasks; a scheduler that keeps
 * slots spare (bits/sched.h, WEFT_SCHED_SPARE_SLOTS) gets that many more. */
#define WEFT_LACE_DEQUE_SLACK WEFT_SCHED_SPARE_SLOTS

/* Advice to a Lace program run with WEFT_PROFILE or WEFT_TRACE but built
 * without the profiler or tracer (the words' profile_variant and
 * trace_variant): both generations' lace packages have the variants. */
#define WEFT_LACE_PROFILE_VARIANT \
    "link the lace package's profiling variant instead: find_package(lace COMPONENTS profile), " \
    "or -DWEFT_LACE_VARIANT=profile where the program's CMake files stay as they are, or " \
    "pkg-config lace-profile"
#define WEFT_LACE_TRACE_VARIANT \
    "link the lace package's tracing variant instead: find_package(lace COMPONENTS trace), or " \
    "-DWEFT_LACE_VARIANT=trace where the program's CMake files stay as they are, or pkg-config " \
    "lace-trace"

/* The deque size for weft_start: dqsize tasks fit, and a size below
 * weft's minimum is raised to it (so that many tasks fit: the split deque's
 * spare slot comes on top).  0 (weft's default) and a size weft refuses
 * anyway (with a message naming it) pass unchanged. */
static inline size_t weft__lace_deque_slots(size_t dqsize)
{
    if (dqsize == 0 || dqsize > WEFT_MAX_DEQUE_SLOTS - WEFT_LACE_DEQUE_SLACK)
        return dqsize;
    if (dqsize < WEFT_MIN_DEQUE_SLOTS)
        dqsize = WEFT_MIN_DEQUE_SLOTS;
    return dqsize + WEFT_LACE_DEQUE_SLACK;
}

/* The stack size for weft_start: one below weft's minimum is raised to it;
 * 0 (weft's default) and one above weft's maximum (refused with a
 * message) pass unchanged. */
static inline size_t weft__lace_stack_size(size_t stacksize)
{
    return stacksize != 0 && stacksize < WEFT_MIN_STACK_SIZE ? WEFT_MIN_STACK_SIZE : stacksize;
}

/* The C library's rand() after lace_start, as on Lace: each Lace worker
 * seeds its generator with two rand() draws as its thread starts (Lace
 * 1.4.2, 1.6 and 2.0.3's lace_init_worker), so that srand(s) and then
 * lace_start(n, ...) leave rand() 2n numbers further on.  weft's workers
 * seed their own generators; the draws are made here, for the `workers`
 * lace_start started, on the caller's thread before lace_start returns
 * (Lace's, on the workers' threads, may come after; the caller's own next
 * rand() then races with them).  docs/lace.md, "lace_start and rand()". */
static inline void weft__lace_skip_seed_draws(unsigned workers)
{
    for (unsigned i = 0; i < 2 * workers; i++)
        (void)rand();
}

/* lace_start's start of the pool, once its checks have passed (`call` as
 * made): weft_start with the sizes as Lace means them, then rand() moved
 * on as Lace's workers move it.  Lace's lace_start has no way to fail, so
 * where weft_start refuses the program stops with its reason. */
static inline void weft__lace_start_workers(const char *call, unsigned n_workers, size_t dqsize,
                                            size_t stacksize)
{
    int err =
        weft_start(n_workers, weft__lace_deque_slots(dqsize), weft__lace_stack_size(stacksize));
    if (err != 0)
        weft__fatal("%s: Lace could not start (%s)", call, strerror(err));
    weft__lace_skip_seed_draws(weft_workers());
}

/* One start at a time (`starting`: the library's flag, cleared in a child
 * process after fork()): a start that races another thread's is told so
 * in its own call's words, before weft_start would refuse it in
 * lace_start's.  `call` as made. */
static inline void weft__lace_begin_start(atomic_bool *starting, const char *call)
{
    /* Acquire: pairs with weft__lace_end_start's release, so that a start
     * after a finished one finds its pool running (the checks' message). */
    if (atomic_exchange_explicit(starting, true, memory_order_acquire))
        weft__fatal("%s called while another thread starts Lace: Lace runs one pool (start it "
                    "once, and call lace_stop before starting it again)",
                    call);
}

static inline void weft__lace_end_start(atomic_bool *starting)
{
    /* Release: the pool just started, for the next start's checks. */
    atomic_store_explicit(starting, false, memory_order_release);
}

/* Lace's misuse in Lace's words.  Each library has its words for the
 * runtime's own messages (`lace`: the prefix "lace", the Lace calls that
 * fix each misuse), which it speaks as (weft__speak_as) around the
 * runtime's calls it makes for its user -- lace_start, lace_stop, RUN
 * from outside, lace_barrier -- and which its pool's workers speak
 * (lace_start started it); a program that also uses weft's C or C++ API
 * is told about those calls in their words.  The checks below catch
 * before weft does what a Lace program gets wrong about the pool's life,
 * so that the message names the Lace call made and the Lace call that
 * fixes it.  `started` is whether lace_start ever ran (before: "before
 * lace_start"; after: "after lace_stop"); `start_call` is the library's
 * lace_start with its parameters' names. */

/* A Lace call given no worker (`what` as the program wrote it, with
 * NULL): stops the program, in Lace's words. */
static inline WEFT_NORETURN void weft__lace_stop_not_worker(const weft__api_words *lace,
                                                            const char *what)
{
    (void)weft__speak_as(lace);
    weft__fatal("%s called on a thread that is not a Lace worker (lace_get_worker() is NULL "
                "there): call it from a task",
                what);
}

/* lace_count_report_file: weft's counters (weft_stats_print); a NULL file
 * is said in Lace's words, naming the call made. */
static inline void weft__lace_count_report_file(const weft__api_words *lace, FILE *file)
{
    if (file == NULL) {
        const weft__api_words *was = weft__speak_as(lace);
        weft__warn("lace_count_report_file(NULL): no file to write the counters to (nothing "
                   "written)");
        (void)weft__speak_as(was);
        return;
    }
    weft_stats_print(file);
}

/* A call that needs Lace running (RUN, NEWFRAME, TOGETHER, NAME() ...),
 * `what` as the program wrote it. */
static inline void weft__lace_require_running(const weft__api_words *lace, const char *what,
                                              bool started, bool forked, const char *start_call)
{
    if (weft_self() != NULL || weft_workers() > 0)
        return;
    (void)weft__speak_as(lace);
    if (forked)
        weft__fatal("%s called in a child process after fork(): Lace's pool is the parent's, and "
                    "this process has none (call %s in the child first)",
                    what, start_call);
    if (!started)
        weft__fatal("%s called before lace_start: call %s first", what, start_call);
    weft__fatal("%s called after lace_stop: Lace is not running (call %s again first)", what,
                start_call);
}

/* lace_start's arguments, checked before weft_start sees them, speaking
 * as `lace`: `call` is the call as made ("lace_start(2, 0)"), `stack_what`
 * names where the stack size came from.  A pool that runs is Lace's (its
 * lace_start ran) or another API's: weft_start's, a weft::scheduler's, or
 * the C++ default pool of the first weft:: call, which lace_start does
 * not replace (docs/lace.md, "Mixing with weft's own APIs"): the message
 * names it, and how to stop it. */
static inline void weft__lace_check_start(const weft__api_words *lace, const char *call,
                                          unsigned n_workers, size_t dqsize, size_t stacksize,
                                          const char *stack_what)
{
    const weft__api_words *owner = weft__pool_starter();
    bool other = owner != NULL && owner != lace;
    if (weft_self() != NULL && other)
        weft__fatal("%s called from inside a task of %s: lace_start cannot start a second pool "
                    "(call it outside tasks, when no other pool runs)",
                    call, owner->pool);
    if (weft_self() != NULL)
        weft__fatal("%s called from inside a task: Lace is running already (call lace_start "
                    "once, outside Lace's tasks, and lace_stop before starting it again)",
                    call);
    if (weft_workers() > 0 && other)
        weft__fatal("%s called while %s is running: lace_start cannot start a second pool (%s)",
                    call, owner->pool, owner->stop_first);
    if (weft_workers() > 0)
        weft__fatal("%s called while Lace is running: call lace_stop first", call);
    if (n_workers > WEFT_MAX_WORKERS)
        weft__fatal("%s: %u workers requested; Lace on weft runs 1 to %u (0: one per CPU)", call,
                    n_workers, WEFT_MAX_WORKERS);
    if (dqsize > WEFT_MAX_DEQUE_SLOTS - WEFT_LACE_DEQUE_SLACK)
        weft__fatal("%s: dqsize %zu is too large: at most %zu tasks (0: weft's default)", call,
                    dqsize, WEFT_MAX_DEQUE_SLOTS - WEFT_LACE_DEQUE_SLACK);
    if (stacksize > WEFT_MAX_STACK_SIZE)
        weft__fatal("%s: %s is %zu bytes, too large: at most %zu bytes (0: weft's default)", call,
                    stack_what, stacksize, WEFT_MAX_STACK_SIZE);
}

/* lace_stop (`call`: or lace_exit): Lace's has no way to fail, so where it would wait for itself
 * (from a task) it stops the program; a pool that is not running is only
 * reported.  Says so when `verbose`. */
static inline void weft__lace_stop(const weft__api_words *lace, const char *call, int verbose,
                                   bool started, bool forked)
{
    if (weft_self() != NULL)
        weft__fatal("%s called from inside a task: it would wait for itself (call it where "
                    "lace_start was called)",
                    call);
    const weft__api_words *owner = weft__pool_starter();
    if (weft_workers() != 0 && owner != NULL && owner != lace) {
        weft__warn("%s: the running pool is %s, not Lace's: it is left running (stop it with "
                   "its own call)",
                   call, owner->pool);
        return;
    }
    if (weft_workers() == 0 && forked) {
        weft__warn("%s called in a child process after fork(): Lace's pool is the parent's "
                   "(nothing to stop here)",
                   call);
        return;
    }
    if (weft_workers() == 0) {
        weft__warn("%s called %s: Lace is not running (nothing to stop)", call,
                   started ? "after lace_stop" : "before lace_start");
        return;
    }
    int err = weft_stop();
    if (err == EDEADLK)
        weft__fatal("%s: the pool cannot stop from here (the message above says why)", call);
    if (err == 0 && verbose)
        fprintf(stderr, "lace: stopped\n");
}

#endif
