// SPDX-License-Identifier: Apache-2.0
/* The work pool's observability hooks: the profiler's item paths and
 * the tracer's slices (observe/hooks.h, docs/profiling.md).  Each is
 * nothing at all without -DWEFT_PROFILE=ON or -DWEFT_TRACE=ON.  Not
 * installed. */
#ifndef WEFT_WORKPOOL_HOOKS_H
#define WEFT_WORKPOOL_HOOKS_H

#include "workpool/types.h"

/* The profiler's hooks (docs/profiling.md, "Work pool runs"): an item's
 * hidden word is set at its push (0 for the run's initial items) and read
 * when it is processed.  Nothing without -DWEFT_PROFILE=ON. */
#if WEFT_PROFILE
#define WP_PROF_PATH_SET(p, buf, path) ((buf)[(p)->words - 1] = (path))
#define WP_PROF_PATH_COPY(p, to, from) ((to)[(p)->words - 1] = (from)[(p)->words - 1])
#define WP_PROF_PUSHED(w, buf) \
    WP_PROF_PATH_SET((w)->pool, (buf), weft__profile_pool_item_path(&(w)->prof))
#define WP_PROF_ITEM_BEGIN(w, item) \
    weft__profile_pool_item_begin(&(w)->prof, (item)[(w)->pool->words - 1])
#define WP_PROF_ITEM_END(w) weft__profile_pool_item_end(&(w)->prof)
#else
#define WP_PROF_PATH_SET(p, buf, path) ((void)0)
#define WP_PROF_PATH_COPY(p, to, from) ((void)0)
#define WP_PROF_PUSHED(w, buf) ((void)0)
#define WP_PROF_ITEM_BEGIN(w, item) ((void)0)
#define WP_PROF_ITEM_END(w) ((void)0)
#endif

/* The tracer's hooks (docs/profiling.md): a worker's state changes
 * (processing a batch of items, looking for work, asleep), steals and
 * transfers, wake-ups.  Nothing without -DWEFT_TRACE=ON; one test of the
 * track pointer while the run is not traced. */
#if WEFT_TRACE
static inline weft_trace_counts wp_trace_counts(const wp_worker *w)
{
    return (weft_trace_counts){w->ctr.processed, w->ctr.steal_empty + w->ctr.steal_aborts};
}
static inline void wp_trace_push(wp_worker *w, weft_trace_frame *f, int state)
{
    f->state = WEFT_TRACE_NONE;
    if (w->trace)
        weft__trace_track_push(w->trace, f, state, wp_trace_counts(w));
}
#define WP_TRACE_SET(w, state) \
    ((w)->trace ? weft__trace_track_set((w)->trace, (state), wp_trace_counts(w)) : (void)0)
#define WP_TRACE_PUSH(w, var, state) \
    weft_trace_frame var; \
    wp_trace_push((w), &var, (state))
#define WP_TRACE_POP(w, var) \
    ((w)->trace ? weft__trace_track_pop((w)->trace, &(var), wp_trace_counts(w)) : (void)0)
#define WP_TRACE_STEAL(w, transfer, victim, items) \
    ((w)->trace \
         ? weft__trace_track_steal((w)->trace, (transfer), (victim), (items), wp_trace_counts(w)) \
         : (void)0)
#define WP_TRACE_WAKE(self, woken) \
    ((self)->trace ? weft__trace_track_wake((self)->trace, (woken)) : (void)0)
#else
#define WP_TRACE_SET(w, state) ((void)0)
#define WP_TRACE_PUSH(w, var, state) ((void)0)
#define WP_TRACE_POP(w, var) ((void)0)
#define WP_TRACE_STEAL(w, transfer, victim, items) ((void)(items))
#define WP_TRACE_WAKE(self, woken) ((void)0)
#endif

#endif
