// SPDX-License-Identifier: Apache-2.0
/* The runtime's side of the profiler (profile.c) and the tracer
 * (trace.c): the hooks the runtime's slow paths call, each one line that
 * is nothing at all unless the build has -DWEFT_PROFILE=ON or
 * -DWEFT_TRACE=ON.  docs/profiling.md explains both.  Not installed. */
#ifndef WEFT_OBSERVE_HOOKS_H
#define WEFT_OBSERVE_HOOKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <weft/weft.h>

/* ------------------------------------------------------------------------
 * Profiler: a task the runtime starts is a computation of its own
 * ------------------------------------------------------------------------ */

/* What a started task's figures replace while it runs (its caller's). */
typedef struct weft_profile_saved {
#if WEFT_PROFILE
    weft_profile_figures f;
#endif
    bool running;  /* a strand was running (a RUN or interrupt inside a task) */
    bool borrowed; /* the worker's CPU clock readings were another thread's */
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
/* DROP of the task at t, after the slow path (the clock paused before
 * it): if it was stolen (and so ran), join its figures. */
void weft__profile_dropped(weft_worker *w, weft_task *t, bool stolen);
#define WEFT_PROFILE_ROOT(w, var) \
    weft_profile_saved var; \
    weft__profile_root_begin((w), &var)
#define WEFT_PROFILE_STOLEN_DONE(w, var, victim, t) \
    weft__profile_stolen_done((w), &(var), (victim), (t))
#define WEFT_PROFILE_RUN_DONE(w, var, from) weft__profile_run_done((w), &(var), (from))
#define WEFT_PROFILE_PAUSE(w) weft_profile_pause(w)
#define WEFT_PROFILE_RESUME(w) weft_profile_resume(w)
#define WEFT_PROFILE_DROPPED(w, t, stolen) weft__profile_dropped((w), (t), (stolen))
/* Around a system call the runtime makes for others (waking a sleeper)
 * from wherever it is: if the calling worker is in a strand, its clock
 * stops, so the figures do not depend on how many workers sleep. */
static inline weft_worker *weft_profile_pause_current(void)
{
    extern __thread weft_worker *weft__tls_worker __attribute__((tls_model("initial-exec")));
    weft_worker *w = weft__tls_worker;
    if (!w || w->prof.strand_start == 0)
        return NULL;
    weft_profile_pause(w);
    return w;
}
#define WEFT_PROFILE_OUTSIDE_STRAND(var) weft_worker *var = weft_profile_pause_current()
#define WEFT_PROFILE_BACK_IN_STRAND(var) ((var) ? weft_profile_resume(var) : (void)0)
#else
#define WEFT_PROFILE_ROOT(w, var) ((void)0)
#define WEFT_PROFILE_STOLEN_DONE(w, var, victim, t) ((void)0)
#define WEFT_PROFILE_RUN_DONE(w, var, from) ((void)0)
#define WEFT_PROFILE_PAUSE(w) ((void)0)
#define WEFT_PROFILE_RESUME(w) ((void)0)
#define WEFT_PROFILE_DROPPED(w, t, stolen) ((void)(stolen))
#define WEFT_PROFILE_OUTSIDE_STRAND(var) ((void)0)
#define WEFT_PROFILE_BACK_IN_STRAND(var) ((void)0)
#endif

/* ------------------------------------------------------------------------
 * Profiler: work pool runs (src/workpool; docs/profiling.md, "Work pool
 * runs"): an item's path is its pusher's path at the push plus its own
 * processing; the run's span is the longest, its work their sum
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
/* After the run (threads joined): adds a worker's figures to *f (work
 * summed, span the longest path, tasks the items) and its clock's totals
 * to the profiler's (off-CPU time, counted cycles and blocks). */
void weft__profile_pool_collect(weft_profile_pool_meter *m, weft_profile_figures *f);
/* The run's figures become a run of the region named `name`. */
void weft__profile_pool_record(const char *name, const weft_profile_figures *f);
#endif

/* ------------------------------------------------------------------------
 * Tracer: every worker is, at every moment, in one state; each change of
 * state ends one slice of its track and starts the next
 * ------------------------------------------------------------------------ */

typedef enum weft_trace_state {
    WEFT_TRACE_NONE = 0, /* not traced (tracing began meanwhile) */
    WEFT_TRACE_RUNNING,  /* running a task the runtime started, and what it runs inline */
    WEFT_TRACE_SEARCH,   /* idle: looking for work */
    WEFT_TRACE_JOIN,     /* at a SYNC whose task was stolen: looking for work meanwhile */
    WEFT_TRACE_SLEEP,    /* asleep */
    WEFT_TRACE_BARRIER,  /* at an interrupt's barrier, or weft_barrier */
    WEFT_TRACE_HELP,     /* in an interrupt: looking for its work */
    WEFT_TRACE_PARKED,   /* suspended (weft_suspend) */
    WEFT_TRACE_BATCH,    /* a work pool worker processing items */
    WEFT_TRACE_STATES
} weft_trace_state;

/* How a task came to run (WEFT_TRACE_RUNNING slices). */
typedef enum weft_trace_how {
    WEFT_TRACE_BY_STEAL = 0,  /* stolen while idle or by a random steal */
    WEFT_TRACE_BY_LEAP,       /* stolen from the thief of a blocked SYNC */
    WEFT_TRACE_BY_RUN,        /* RUN from outside the pool */
    WEFT_TRACE_BY_RUN_INSIDE, /* RUN called inside a task: runs in place */
    WEFT_TRACE_BY_TOGETHER,   /* a TOGETHER copy */
    WEFT_TRACE_BY_NEWFRAME,   /* a NEWFRAME task */
} weft_trace_how;

/* The state to return to, kept by the function that changed it. */
typedef struct weft_trace_frame {
    uintptr_t task; /* RUNNING: the task's wrapper (its name, in the file) */
    uint8_t state, how;
} weft_trace_frame;

/* What a slice counts, read at its start and end: `work` (SPAWNs of a
 * task slice, items of a pool batch) and `fails` (failed steals of a
 * search). */
typedef struct weft_trace_counts {
    uint64_t work, fails;
} weft_trace_counts;

typedef struct weft_trace_track weft_trace_track;
typedef struct weft_trace_pool_run weft_trace_pool_run;

/* A work pool run (src/workpool): its tracks, if a trace is being
 * recorded (else NULL; always NULL without the tracer); at its end, its
 * counters go into the trace (NULL: the run failed, and is left out). */
typedef struct weft_trace_pool_counts {
    uint64_t processed, duplicates, steals, stolen_items, requests, sleeps;
} weft_trace_pool_counts;
weft_trace_pool_run *weft__trace_pool_begin(unsigned workers, const char *queue, bool half);
weft_trace_track *weft__trace_pool_track(weft_trace_pool_run *run, unsigned worker);
void weft__trace_pool_end(weft_trace_pool_run *run, const weft_trace_pool_counts *counts);

/* weft_start / weft_stop (no-ops without the tracer): the workers, kept
 * by the tracer until the stop, with their tracks when tracing is on
 * (ENOMEM); at stop (or a failed start, write false) the file, with the
 * runtime's counters if it has them (else NULL), and the tracks freed;
 * the environment (EINVAL); the end of a worker's track when its thread
 * exits; in a child after fork(), a fresh start (the parent's tracks are
 * left alone, like its pool). */
int weft__trace_at_start(weft_worker *const *workers, unsigned n);
void weft__trace_at_stop(bool write, const weft_stats *counters);
int weft__trace_check_env(void);
void weft__trace_worker_exit(weft_worker *w);
void weft__trace_forget_in_child(void);

#if WEFT_TRACE
/* A pool worker's track (owner only). */
void weft__trace_track_set(weft_trace_track *tr, int state, weft_trace_counts counts);
void weft__trace_track_push(weft_trace_track *tr, weft_trace_frame *f, int state,
                            weft_trace_counts counts);
void weft__trace_track_pop(weft_trace_track *tr, const weft_trace_frame *f,
                           weft_trace_counts counts);
/* A steal or transfer that got items: the batch that processes them
 * starts here. */
void weft__trace_track_steal(weft_trace_track *tr, bool transfer, unsigned victim, uint64_t items,
                             weft_trace_counts counts);
void weft__trace_track_wake(weft_trace_track *tr, unsigned woken);

void weft__trace_task_begin_slow(weft_worker *w, weft_trace_frame *f, int how, uintptr_t wrapper,
                                 weft_worker *victim, const void *task);
void weft__trace_push_slow(weft_worker *w, weft_trace_frame *f, int state);
void weft__trace_pop_slow(weft_worker *w, const weft_trace_frame *f);
void weft__trace_set_slow(weft_worker *w, int state);
void weft__trace_steal_failed_slow(weft_worker *w);
void weft__trace_wake_slow(weft_worker *self, weft_worker *woken);
void weft__trace_interrupt_slow(weft_worker *w, int newframe);
/* A RUN from a thread outside the pool: from submission to return. */
void weft__trace_external_run(const void *task, uint64_t start_ns, uint64_t end_ns);
bool weft__trace_external_on(void);
static inline struct weft_trace_track *weft_trace_of(weft_worker *w)
{
    /* Acquire: pairs with the release that published the track (trace.c),
     * so its buffer is initialised before we write to it. */
    return atomic_load_explicit(&w->trace, memory_order_acquire);
}

static inline void weft_trace_task_begin(weft_worker *w, weft_trace_frame *f, int how,
                                         uintptr_t wrapper, weft_worker *victim, const void *task)
{
    f->state = WEFT_TRACE_NONE;
    if (weft_trace_of(w))
        weft__trace_task_begin_slow(w, f, how, wrapper, victim, task);
}

static inline void weft_trace_push(weft_worker *w, weft_trace_frame *f, int state)
{
    f->state = WEFT_TRACE_NONE;
    if (weft_trace_of(w))
        weft__trace_push_slow(w, f, state);
}

/* The runtime starts the task with this wrapper (`how`: weft_trace_how;
 * victim: whom it was stolen from; task: an outside RUN's descriptor). */
#define WEFT_TRACE_TASK(w, var, how, wrapper, victim, task) \
    weft_trace_frame var; \
    weft_trace_task_begin((w), &var, (how), (wrapper), (victim), (task))
#define WEFT_TRACE_PUSH(w, var, state) \
    weft_trace_frame var; \
    weft_trace_push((w), &var, (state))
#define WEFT_TRACE_POP(w, var) (weft_trace_of(w) ? weft__trace_pop_slow((w), &(var)) : (void)0)
#define WEFT_TRACE_SET(w, state) (weft_trace_of(w) ? weft__trace_set_slow((w), (state)) : (void)0)
#define WEFT_TRACE_STEAL_FAILED(w) (weft_trace_of(w) ? weft__trace_steal_failed_slow(w) : (void)0)
#define WEFT_TRACE_WAKE(self, woken) \
    ((self) && weft_trace_of(self) ? weft__trace_wake_slow((self), (woken)) : (void)0)
#define WEFT_TRACE_INTERRUPT(w, newframe) \
    (weft_trace_of(w) ? weft__trace_interrupt_slow((w), (newframe)) : (void)0)
#define WEFT_TRACE_EXTERNAL_START(var) uint64_t var = weft__trace_external_on() ? weft_now_ns() : 0
#define WEFT_TRACE_EXTERNAL_END(var, task) \
    ((var) ? weft__trace_external_run((task), (var), weft_now_ns()) : (void)0)
#else
#define WEFT_TRACE_TASK(w, var, how, wrapper, victim, task) ((void)(how))
#define WEFT_TRACE_PUSH(w, var, state) ((void)0)
#define WEFT_TRACE_POP(w, var) ((void)0)
#define WEFT_TRACE_SET(w, state) ((void)0)
#define WEFT_TRACE_STEAL_FAILED(w) ((void)0)
#define WEFT_TRACE_WAKE(self, woken) ((void)0)
#define WEFT_TRACE_INTERRUPT(w, newframe) ((void)0)
#define WEFT_TRACE_EXTERNAL_START(var) ((void)0)
#define WEFT_TRACE_EXTERNAL_END(var, task) ((void)0)
#endif

#endif
