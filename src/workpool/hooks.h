// SPDX-License-Identifier: Apache-2.0
/* The work pool's side of the observability hooks (observe/hooks.h, whose
 * vocabulary the runtime shares; docs/profiling.md): how the hooks name a
 * pool worker, and the profiler's hidden word of an item.  Each is nothing
 * at all without -DWEFT_PROFILE=ON or -DWEFT_TRACE=ON.  Not installed. */
#ifndef WEFT_WORKPOOL_HOOKS_H
#define WEFT_WORKPOOL_HOOKS_H

#include "observe/hooks.h"
#include "workpool/types.h"

#if WEFT_TRACE
/* Worker w for the tracer's hooks: its track (NULL while the run is not
 * traced) and what its slices count, items processed and failed steals. */
static inline weft_trace_site wp_traced(const wp_worker *w)
{
    return (weft_trace_site){w->trace,
                             {w->ctr.processed, w->ctr.steal_empty + w->ctr.steal_aborts}};
}
#endif

/* In a profiling build an item's hidden last word is the path length at
 * its push (0 for the run's initial and injected items), read when it is
 * processed (WEFT_PROFILE_ITEM_BEGIN); without the profiler items have no
 * such word and these do nothing. */
static inline uint64_t wp_item_path(const wp_pool *p, const uint64_t *item)
{
    return WP_PROF_WORDS ? item[p->words - 1] : 0;
}

static inline void wp_item_set_path(const wp_pool *p, uint64_t *item, uint64_t path)
{
    if (WP_PROF_WORDS)
        item[p->words - 1] = path;
}

/* Both parts of a split item were pushed together: the same path. */
static inline void wp_item_copy_path(const wp_pool *p, uint64_t *to, const uint64_t *from)
{
    if (WP_PROF_WORDS)
        to[p->words - 1] = from[p->words - 1];
}

#endif
