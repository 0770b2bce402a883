// SPDX-License-Identifier: Apache-2.0
/* The hooks the runtime's slow paths and the work pool call, each one
 * line that is nothing at all unless the build has -DWEFT_PROFILE=ON or
 * -DWEFT_TRACE=ON: the profiler's (profiler.h) and the tracer's
 * (trace.h).  A fork-join worker is named by its weft_worker *, a work
 * pool worker by a weft_trace_site or its meter (src/workpool/hooks.h).  docs/profiling.md
 * and docs/timeline.md explain them.  Not installed. */
#ifndef WEFT_OBSERVE_HOOKS_H
#define WEFT_OBSERVE_HOOKS_H

#include "observe/profiler.h"
#include "observe/trace.h"
#include "sys/tls.h" /* WEFT__TLS_MODEL */

#include <stdbool.h>
#include <stdint.h>

#include <weft/weft.h>

/* ------------------------------------------------------------------------
 * Profiler: a task the runtime starts is a computation of its own
 * ------------------------------------------------------------------------ */

#if WEFT_PROFILE
#define WEFT_PROFILE_ROOT(w, var) \
    weft_profile_saved var; \
    weft__profile_root_begin((w), &var)
#define WEFT_PROFILE_RUN_BEGIN(w, var, in_place) \
    weft_profile_saved var; \
    weft__profile_run_begin((w), &var, (in_place))
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
    extern __thread weft_worker *weft__tls_worker WEFT__TLS_MODEL;
    weft_worker *w = weft__tls_worker;
    if (!w || w->prof.strand_start == 0)
        return NULL;
    weft_profile_pause(w);
    return w;
}
#define WEFT_PROFILE_OUTSIDE_STRAND(var) weft_worker *var = weft_profile_pause_current()
#define WEFT_PROFILE_BACK_IN_STRAND(var) ((var) ? weft_profile_resume(var) : (void)0)
/* The worker WEFT_PROFILE_OUTSIDE_STRAND paused (NULL: none). */
#define WEFT_PROFILE_CALLER(var) (var)
/* Around a RUN from outside: if this thread is processing a work pool's
 * item, the item's clock stops (the RUN is a region of its own). */
#define WEFT_PROFILE_OUTSIDE_ITEM(var) \
    weft_profile_pool_meter *var = weft__profile_pool_item_pause()
#define WEFT_PROFILE_BACK_IN_ITEM(var) weft__profile_pool_item_resume(var)
/* A work pool worker's meter (docs/profiling.md, "Work pool runs"): the
 * process function is called for an item pushed at path length `path`,
 * and returned; a push inside it starts at ITEM_PATH. */
#define WEFT_PROFILE_ITEM_BEGIN(meter, path) weft__profile_pool_item_begin((meter), (path))
#define WEFT_PROFILE_ITEM_END(meter) weft__profile_pool_item_end(meter)
#define WEFT_PROFILE_ITEM_PATH(meter) weft__profile_pool_item_path(meter)
#else
#define WEFT_PROFILE_ROOT(w, var) ((void)0)
#define WEFT_PROFILE_RUN_BEGIN(w, var, in_place) ((void)(in_place))
#define WEFT_PROFILE_STOLEN_DONE(w, var, victim, t) ((void)0)
#define WEFT_PROFILE_RUN_DONE(w, var, from) ((void)0)
#define WEFT_PROFILE_PAUSE(w) ((void)0)
#define WEFT_PROFILE_RESUME(w) ((void)0)
#define WEFT_PROFILE_DROPPED(w, t, stolen) ((void)(stolen))
#define WEFT_PROFILE_OUTSIDE_STRAND(var) ((void)0)
#define WEFT_PROFILE_CALLER(var) ((weft_worker *)0)
#define WEFT_PROFILE_OUTSIDE_ITEM(var) ((void)0)
#define WEFT_PROFILE_BACK_IN_ITEM(var) ((void)0)
#define WEFT_PROFILE_BACK_IN_STRAND(var) ((void)0)
#define WEFT_PROFILE_ITEM_BEGIN(meter, path) ((void)0)
#define WEFT_PROFILE_ITEM_END(meter) ((void)0)
#define WEFT_PROFILE_ITEM_PATH(meter) ((uint64_t)0)
#endif

/* ------------------------------------------------------------------------
 * Tracer: a worker's changes of state, its steals, wake-ups and interrupts
 * ------------------------------------------------------------------------ */

#if WEFT_TRACE
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

static inline void weft_trace_pop(weft_worker *w, const weft_trace_frame *f)
{
    if (weft_trace_of(w))
        weft__trace_pop_slow(w, f);
}

static inline void weft_trace_set(weft_worker *w, int state)
{
    if (weft_trace_of(w))
        weft__trace_set_slow(w, state);
}

static inline void weft_trace_wake(weft_worker *self, weft_worker *woken)
{
    if (self && weft_trace_of(self))
        weft__trace_wake_slow(self, woken);
}

/* The same for a work pool worker (a weft_trace_site). */
static inline void weft_trace_site_push(weft_trace_site s, weft_trace_frame *f, int state)
{
    f->state = WEFT_TRACE_NONE;
    if (s.track)
        weft__trace_track_push(s.track, f, state, s.counts);
}

static inline void weft_trace_site_pop(weft_trace_site s, const weft_trace_frame *f)
{
    if (s.track)
        weft__trace_track_pop(s.track, f, s.counts);
}

static inline void weft_trace_site_set(weft_trace_site s, int state)
{
    if (s.track)
        weft__trace_track_set(s.track, state, s.counts);
}

static inline void weft_trace_site_wake(weft_trace_site s, unsigned woken)
{
    if (s.track)
        weft__trace_track_wake(s.track, woken);
}

/* The runtime starts the task with this wrapper (`how`: weft_trace_how;
 * victim: whom it was stolen from; task: an outside RUN's descriptor). */
#define WEFT_TRACE_TASK(w, var, how, wrapper, victim, task) \
    weft_trace_frame var; \
    weft_trace_task_begin((w), &var, (how), (wrapper), (victim), (task))
/* A change of state, for a fork-join worker (weft_worker *) or a work
 * pool worker (weft_trace_site): PUSH keeps the state to return to in
 * `var`, POP returns to it, SET replaces the state.  WAKE: self woke
 * woken, a worker (fork-join) or a worker's id (work pool). */
/* clang-format off */
#define WEFT_TRACE_FOR_(who, for_worker, for_site) \
    _Generic((who), weft_trace_site: for_site, default: for_worker)
/* clang-format on */
#define WEFT_TRACE_PUSH(w, var, state) \
    weft_trace_frame var; \
    WEFT_TRACE_FOR_((w), weft_trace_push, weft_trace_site_push)((w), &var, (state))
#define WEFT_TRACE_POP(w, var) \
    WEFT_TRACE_FOR_((w), weft_trace_pop, weft_trace_site_pop)((w), &(var))
#define WEFT_TRACE_SET(w, state) \
    WEFT_TRACE_FOR_((w), weft_trace_set, weft_trace_site_set)((w), (state))
#define WEFT_TRACE_WAKE(self, woken) \
    WEFT_TRACE_FOR_((self), weft_trace_wake, weft_trace_site_wake)((self), (woken))
/* A work pool worker's steal (one item) or transfer (steal-half) that got
 * `items` from worker `victim`: the batch that processes them starts. */
#define WEFT_TRACE_STEAL(s, transfer, victim, items) \
    ((s).track ? weft__trace_track_steal((s).track, (transfer), (victim), (items), (s).counts) \
               : (void)0)
#define WEFT_TRACE_STEAL_FAILED(w) (weft_trace_of(w) ? weft__trace_steal_failed_slow(w) : (void)0)
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
#define WEFT_TRACE_STEAL(s, transfer, victim, items) ((void)(items))
#define WEFT_TRACE_INTERRUPT(w, newframe) ((void)0)
#define WEFT_TRACE_EXTERNAL_START(var) ((void)0)
#define WEFT_TRACE_EXTERNAL_END(var, task) ((void)0)
#endif

/* ------------------------------------------------------------------------
 * Both: a task the runtime starts (stolen, a RUN, a TOGETHER copy, a
 * NEWFRAME task) is a slice of its own for the tracer and a computation of
 * its own for the profiler.  WEFT_OBSERVE_ROOT opens both;
 * WEFT_OBSERVE_ROOT_DONE closes both for a run of a region (`from`:
 * weft_profile_start), WEFT_OBSERVE_STOLEN_DONE for a stolen task, whose
 * figures go to its victim's record of slot t before DONE publishes them.
 * `how`: weft_trace_how; victim: whom it was stolen from; task: an
 * outside RUN's descriptor.
 * ------------------------------------------------------------------------ */

#define WEFT_OBSERVE_ROOT(w, var, how, wrapper, victim, task) \
    WEFT_TRACE_TASK((w), var##_trace_, (how), (wrapper), (victim), (task)); \
    WEFT_PROFILE_ROOT((w), var##_profile_)
/* The same for a RUN's task, inside a task (in_place) or from outside. */
#define WEFT_OBSERVE_RUN(w, var, in_place, how, wrapper, task) \
    WEFT_TRACE_TASK((w), var##_trace_, (how), (wrapper), NULL, (task)); \
    WEFT_PROFILE_RUN_BEGIN((w), var##_profile_, (in_place))
#define WEFT_OBSERVE_ROOT_DONE(w, var, from) \
    do { \
        WEFT_PROFILE_RUN_DONE((w), var##_profile_, (from)); \
        WEFT_TRACE_POP((w), var##_trace_); \
    } while (0)
/* A thread outside the pool becomes worker w (weft__adopt_worker): its
 * own code and the tasks it calls, until it gives the worker back, are a
 * slice (the worker's track, named `name`, started by "adopted") and a
 * run of the region `name` (docs/timeline.md, docs/profiling.md, "Lace's
 * first API").  The records are kept in `rec` meanwhile. */
typedef struct weft_observed_thread {
#if WEFT_TRACE
    weft_trace_frame trace;
#endif
#if WEFT_PROFILE
    weft_profile_saved profile;
#endif
    char unused_; /* (a struct needs a member in a build without either) */
} weft_observed_thread;
#if WEFT_TRACE
static inline void weft_trace_adopted(weft_worker *w, weft_trace_frame *f, const char *name)
{
    f->state = WEFT_TRACE_NONE;
    if (weft_trace_of(w)) {
        weft__trace_name((uintptr_t)name, name); /* the slice's name, as a task's */
        weft__trace_task_begin_slow(w, f, WEFT_TRACE_BY_ADOPTION, (uintptr_t)name, NULL, NULL);
    }
}
#define WEFT_TRACE_ADOPTED_(w, rec, name) weft_trace_adopted((w), &(rec)->trace, (name))
#define WEFT_TRACE_ADOPTED_DONE_(w, rec) weft_trace_pop((w), &(rec)->trace)
#else
#define WEFT_TRACE_ADOPTED_(w, rec, name) ((void)(name))
#define WEFT_TRACE_ADOPTED_DONE_(w, rec) ((void)0)
#endif
#if WEFT_PROFILE
#define WEFT_PROFILE_ADOPTED_(w, rec) weft__profile_root_begin((w), &(rec)->profile)
#define WEFT_PROFILE_ADOPTED_DONE_(w, rec, name) \
    weft__profile_thread_done((w), &(rec)->profile, (name))
#else
#define WEFT_PROFILE_ADOPTED_(w, rec) ((void)0)
#define WEFT_PROFILE_ADOPTED_DONE_(w, rec, name) ((void)(name))
#endif
#define WEFT_OBSERVE_ADOPTED(w, rec, name) \
    do { \
        WEFT_TRACE_ADOPTED_((w), (rec), (name)); \
        WEFT_PROFILE_ADOPTED_((w), (rec)); \
    } while (0)
#define WEFT_OBSERVE_ADOPTED_DONE(w, rec, name) \
    do { \
        WEFT_PROFILE_ADOPTED_DONE_((w), (rec), (name)); \
        WEFT_TRACE_ADOPTED_DONE_((w), (rec)); \
    } while (0)
#define WEFT_OBSERVE_STOLEN_DONE(w, var, victim, t) \
    do { \
        WEFT_PROFILE_STOLEN_DONE((w), var##_profile_, (victim), (t)); \
        WEFT_TRACE_POP((w), var##_trace_); \
    } while (0)

#endif
