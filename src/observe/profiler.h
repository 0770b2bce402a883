// SPDX-License-Identifier: Apache-2.0
/* The profiler's runtime side (profiler.c): the per-worker state at start
 * and stop, the tasks the runtime starts (a computation of their own), and
 * the work pool's meters.  The runtime and the pool call these through the
 * hooks of observe/hooks.h; docs/profiling.md explains the profiler.  Not
 * installed. */
#ifndef WEFT_OBSERVE_PROFILER_H
#define WEFT_OBSERVE_PROFILER_H

#include <stdbool.h>
#include <stdint.h>

#include <weft/weft.h>

/* What a started task's figures replace while it runs (its caller's). */
typedef struct weft_profile_saved {
#if WEFT_PROFILE
    weft_profile_running f;
    uint64_t computation; /* the caller's (weft_profile_worker's computation) */
#endif
    bool running;  /* a strand was running (a RUN or interrupt inside a task) */
    bool borrowed; /* the worker's CPU clock readings were another thread's */
    bool as_call;  /* a RUN inside a task kept as its caller's figures' growth */
} weft_profile_saved;

/* weft_start / weft_stop (no-ops without the profiler): the per-worker
 * state (ENOMEM), the reports at stop, the environment (EINVAL). */
int weft__profile_worker_init(weft_worker *w);
void weft__profile_worker_destroy(weft_worker *w);
void weft__profile_at_stop(void);
int weft__profile_check_env(void);
/* In a child after fork(): the locks are re-initialised. */
void weft__profile_forget_in_child(void);

#if WEFT_PROFILE
void weft__profile_root_begin(weft_worker *w, weft_profile_saved *saved);
/* A RUN's task starts: as a root (root_begin), or, inside a task
 * (in_place), as a call whose figures are what it adds to its caller's
 * running ones: nothing is cleared and added back, and no clock is read
 * but the one that ends the caller's strand.  Ends with run_done. */
void weft__profile_run_begin(weft_worker *w, weft_profile_saved *saved, bool in_place);
/* A stolen task returned: its figures go to victim's record of slot t. */
void weft__profile_stolen_done(weft_worker *w, weft_profile_saved *saved, weft_worker *victim,
                               weft_task *t);
/* Where a task the runtime started as a region came from. */
typedef enum weft_profile_start {
    WEFT_PROFILE_FROM_OUTSIDE, /* a RUN from a thread outside the pool */
    WEFT_PROFILE_IN_PLACE,     /* a RUN inside a task: a call, for the caller's figures */
    WEFT_PROFILE_INTERRUPT,    /* a NEWFRAME task or a TOGETHER copy */
} weft_profile_start;
/* Such a task returned: its figures are a run of the region named by its
 * task; in place, they are also the caller's, as a call's would be; from
 * outside, they count for the regions marked outside the pool. */
void weft__profile_run_done(weft_worker *w, weft_profile_saved *saved, weft_profile_start from);
/* A thread outside the pool that became worker w (weft__adopt_worker:
 * its code, and the tasks it called, from root_begin on) gives it back:
 * its figures are a run of the region named `region`, from outside. */
void weft__profile_thread_done(weft_worker *w, weft_profile_saved *saved, const char *region);
/* DROP of the task at t, after the slow path (the clock paused before
 * it): if it was stolen (and so ran), join its figures. */
void weft__profile_dropped(weft_worker *w, weft_task *t, bool stolen);
#endif

/* ------------------------------------------------------------------------
 * Work pool runs (src/workpool; docs/profiling.md, "Work pool runs"): an
 * item's path is its pusher's path at the push plus its own processing;
 * the run's span is the longest, its work their sum
 * ------------------------------------------------------------------------ */

#if WEFT_PROFILE
/* A pool worker's figures, owner-only until the run's threads are joined.
 * `clock` times the items as a fork-join worker's strands are timed (its
 * strand_start, count_start, counting, long_cycles, sync_*, off-CPU and
 * counted totals; nothing else of it is used). */
typedef struct weft_profile_pool_meter {
    weft_profile_worker clock;
    uint64_t base;     /* the running item's path length at its push */
    uint64_t done;     /* the running item's length up to its last push */
    uint64_t last_end; /* cycles when this worker's last item ended (0: none yet) */
    uint64_t work, span, longest, items;
} weft_profile_pool_meter;
/* Before the pool's threads start: the unit and the clock's thresholds. */
void weft__profile_pool_meter_init(weft_profile_pool_meter *m);
/* The process function is called for an item pushed at path length base. */
void weft__profile_pool_item_begin(weft_profile_pool_meter *m, uint64_t base);
/* A push inside the process function: the path length the new item
 * starts at (its pusher's path up to now). */
uint64_t weft__profile_pool_item_path(weft_profile_pool_meter *m);
/* The process function returned. */
void weft__profile_pool_item_end(weft_profile_pool_meter *m);
/* The item this thread is processing, its clock stopped (NULL: none, or
 * profiling off); and started again. */
weft_profile_pool_meter *weft__profile_pool_item_pause(void);
void weft__profile_pool_item_resume(weft_profile_pool_meter *m);
/* After the run (threads joined): adds a worker's figures to *f (work
 * summed, span the longest path, tasks the items) and its clock's totals
 * to the profiler's (off-CPU time, counted cycles and blocks). */
void weft__profile_pool_collect(weft_profile_pool_meter *m, weft_profile_figures *f);
/* The run's figures become a run of the region named `name`.  caller: the
 * fork-join worker whose task made the run (its strand paused for it,
 * weft_profile_pause_current), or NULL: then the run is a call of that
 * task, whose figures it joins, as a RUN inside a task is. */
void weft__profile_pool_record(const char *name, const weft_profile_figures *f,
                               weft_worker *caller);
#endif

#endif
