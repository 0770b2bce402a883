// SPDX-License-Identifier: Apache-2.0
/* The front-end seam: everything an API layer on weft (the Lace libraries,
 * src/lace) may use of the runtime beyond the public headers.  A front-end
 * includes this header and public ones, and nothing else of src/
 * (docs/design.md, "Module map"; scripts/check_layers.py checks it).  A
 * shared libweft exports every function named here, so a front-end built
 * as a library of its own links against libweft like any program.
 *
 *   run a task           weft__run_task_on_worker, weft__run_task_if_worker
 *                        (below); weft__run_task,
 *                        weft__newframe_task, weft__together_task (the
 *                        task macros', <weft/weft.h>)
 *   steal and run        weft__random_victim, weft__steal_and_run
 *                        (stealing.h)
 *   the current head     weft_current_head (<weft/weft.h>)
 *   the sizes            the bounds weft_start accepts (limits.h) and the
 *                        sizes it settled on (below)
 *   a worker's CPU       weft__topology_worker_cpu (below)
 *   messages             weft__speak_as (the API's words around the
 *                        runtime's calls it makes for its user),
 *                        weft__pool_starter (which API started the
 *                        pool), weft__warn, weft__fatal (diagnostics.h)
 *   fork                 weft__pool_starter_at_fork (below)
 *   spinning             weft_cpu_relax (sys/cpu.h, inline)
 *
 * The C++ API (include/weft/weft.hpp) needs none of it: it is built on
 * the public headers alone.
 *
 * The seam declares; the runtime's modules define (each declaration names
 * its file), and their own headers include this one.  So that those
 * headers' arrows run down, it includes nothing above the base layer
 * (docs/design.md, "The module map").  Not installed. */
#ifndef WEFT_RUNTIME_FRONTEND_H
#define WEFT_RUNTIME_FRONTEND_H

#include <weft/weft.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/diagnostics.h"
#include "runtime/limits.h"
#include "runtime/stealing.h"
#include "sys/cpu.h"

WEFT_BEGIN_DECLS

/* In a child process, from its fork handlers on: the API that started
 * the pool running in the parent when it forked, NULL if none ran then
 * (the runtime notes it before the fork, as its own handler forgets the
 * pool in the child).  So a front-end tells its calls in the child that
 * its pool is the parent's, and a child forked after its stop that it has
 * stopped (lifecycle.c). */
const weft__api_words *weft__pool_starter_at_fork(void);

/* A line the profile's table ("note: ...") and JSON ("note") give, for a
 * front-end whose programs need it to read the figures right (calls the
 * profiler cannot see).  A static string, one per process (the last one
 * set); NULL: none.  Without the profiler, kept and never shown
 * (runtime/diagnostics.c). */
void weft__profile_set_frontend_note(const char *line);

/* weft__run_task without borrowing: from outside the pool the task is
 * always handed to a worker and runs on that worker's thread, never on the
 * caller's.  For APIs whose programs keep per-thread state in the workers'
 * threads (Lace's: a TOGETHER sets up thread-locals, tasks read them). */
void weft__run_task_on_worker(weft_task *t, uintptr_t wrapper); /* external.c */
/* If the calling thread is a worker (a RUN from inside a task), runs t in
 * place and returns true; otherwise runs nothing and returns false.  The
 * first step of an API's RUN, one call where the pool's own RUN takes
 * two (external.c). */
bool weft__run_task_if_worker(weft_task *t, uintptr_t wrapper);
/* The calling thread, outside the pool, works for a task: it is a thread
 * of a work pool run inside a fork-join task (or inside an item of such a
 * pool), whose worker waits for it.
 * Its RUNs are part of that task (an API's exclusion of RUNs from outside,
 * Lace's RUNEX, must not make them wait for a RUN that waits for them:
 * docs/pool.md, "A pool inside a fork-join task"; external.c). */
bool weft__thread_works_for_task(void);

/* The calling thread, outside the pool, becomes worker `id` until
 * weft__leave_adopted_worker: for an API whose main thread was one of the
 * workers (Lace's first one: lace_startup without a callback).  The worker
 * is borrowed as a RUN borrows an idle one, for as long as the thread
 * keeps it; the tasks the thread calls run on its own stack, and thieves
 * steal what it spawns.  Waits up to wait_ns for the worker to fall asleep
 * at top level.  0; EINVAL if the thread is a worker already or id is no
 * worker's; ENOENT if no pool runs; EBUSY if the worker stayed busy (or
 * the pool suspended or in an interrupt) for wait_ns.  Stop waits for the
 * thread to leave, as for a RUN in progress (external.c).  An overflow
 * of the thread's own stack while it is the worker is explained, with
 * raise_stack saying how to make that stack larger.  The observers show
 * the thread's time as the worker as a slice and a region named
 * observed_as (a string that lives as long as the process). */
int weft__adopt_worker(unsigned id, uint64_t wait_ns, const char *raise_stack,
                       const char *observed_as);
/* The adopted worker, given back (it sleeps as an idle worker does).  Its
 * deque must be empty: EBUSY if tasks it spawned are not synced (it stays
 * adopted), EINVAL if the thread adopted none. */
int weft__leave_adopted_worker(void);

/* weft_suspend without its waits, for an API whose programs suspend the
 * pool between operations (Lace's lace_suspend): the workers park when
 * they next look, after spinning as an idle worker spins before it sleeps
 * (so a resume soon after costs no wake-up), and idle sleepers sleep on.
 * Undone by weft_resume; a weft_suspend over it waits as usual
 * (interrupt.c).  EINVAL, without a message, when the pool is not running
 * (a front-end's count may settle after a stop); on a thread of a work
 * pool inside a task, which may not wait for the control lock, EBUSY
 * without a message when another thread holds it (the front-end settles
 * again later). */
int weft__suspend_lazy(void);
/* weft_resume for the same API, undoing its lazy suspension: EINVAL,
 * without a message, when the pool is not running or not suspended (a
 * stop, or another API's resume, came first). */
int weft__resume_quiet(void);

/* Rules an API layer sets for every RUN from outside the pool, whichever
 * API makes it (weft's RUN, the C++ API's, the work pool's), from the
 * time it sets them on: the task runs on a worker's thread (as with
 * weft__run_task_on_worker: the layer's programs keep per-worker state in
 * the workers' threads), and the call is bracketed by begin and end
 * (begin's answer passed to end): the layer's suspension lets the call's
 * task run.  Lace's layers set theirs at their first lace_start or
 * lace_suspend; NULL goes back to weft's own rules (external.c). */
typedef struct weft__outside_rules {
    bool (*begin)(void);
    void (*end)(bool begun);
} weft__outside_rules;
void weft__set_outside_rules(const weft__outside_rules *rules);

/* The deque slots per worker and the stack size of the pool weft_start
 * last started, its defaults resolved.  Read by the thread that called
 * weft_start, after it returned. */
size_t weft__started_deque_slots(void);
size_t weft__started_stack_size(void); /* state.c */

/* The CPU worker is pinned to, or -1 (topology.c). */
int weft__topology_worker_cpu(unsigned worker);

WEFT_END_DECLS

#endif
