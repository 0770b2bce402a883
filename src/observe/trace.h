// SPDX-License-Identifier: Apache-2.0
/* The trace recorder (trace.c): sessions, the fork-join workers' and the
 * work pool's tracks, the RUNs of threads outside the pool.  The runtime
 * and the pool call it through the hooks of observe/hooks.h;
 * docs/timeline.md explains the tracer.  Not installed. */
#ifndef WEFT_OBSERVE_TRACE_H
#define WEFT_OBSERVE_TRACE_H

#include "observe/trace_types.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <weft/weft.h>

weft_trace_pool_run *weft__trace_pool_begin(unsigned workers, const char *queue, bool half);
weft_trace_track *weft__trace_pool_track(weft_trace_pool_run *run, unsigned worker);
void weft__trace_pool_end(weft_trace_pool_run *run, const weft_trace_pool_counts *counts);

/* weft_start / weft_stop (no-ops without the tracer): the workers, kept
 * by the tracer until the stop, with their tracks when tracing is on
 * (with no memory for the tracks the pool runs untraced, said); at stop
 * (or a failed start, write false) the file, with the runtime's counters if it has them (else NULL), and the tracks freed;
 * the environment (EINVAL); the end of a worker's track when its thread
 * exits; in a child after fork(), a fresh start (the parent's tracks are
 * left alone, like its pool). */
void weft__trace_at_start(weft_worker *const *workers, unsigned n);
void weft__trace_at_stop(bool write, const weft_stats *counters);
int weft__trace_check_env(void);
void weft__trace_worker_exit(weft_worker *w);
void weft__trace_forget_in_child(void);
/* The session in progress will write (or streams to) the file `path`
 * names, however named, or an earlier session of this process wrote it:
 * another writer of it would destroy the trace (false without the
 * tracer). */
bool weft__trace_writes_to(const char *path);
/* How many passes the streaming thread has finished (each drains every
 * track and flushes the file); 0 in a build without the tracer.  Of the
 * passes counted after a moment, the second began after it: the tests'
 * wait for what was recorded before that moment to be in the file. */
uint64_t weft__trace_stream_passes(void);

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
/* A session records (the exit handler: a timeline is due; one seen ended
 * was written whole first). */
bool weft__trace_session_on(void);
/* The file a session in progress streams to (a .pftrace), copied into
 * `path` (cap bytes); false when none streams. */
bool weft__trace_streaming_to(char *path, size_t cap);
static inline struct weft_trace_track *weft_trace_of(weft_worker *w)
{
    /* Acquire: pairs with the release that published the track (trace.c),
     * so its buffer is initialised before we write to it. */
    return atomic_load_explicit(&w->trace, memory_order_acquire);
}
#endif

#endif
