// SPDX-License-Identifier: Apache-2.0
/* The trace recorder's records, shared with the trace writer
 * (trace_write.c): the events, the tracks, the work pool runs and the RUNs
 * of threads outside the pool, and what one file is made of.  Not
 * installed. */
#ifndef WEFT_OBSERVE_TRACE_RECORD_H
#define WEFT_OBSERVE_TRACE_RECORD_H

#include "observe/trace_types.h"

#include <weft/weft.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Event kinds: the states of observe.h are slices; these are instants. */
enum {
    EV_STEAL = 32, /* peer: the victim */
    EV_LEAP,       /* peer: the victim (a thief of a blocked SYNC) */
    EV_WAKE,       /* peer: the worker woken */
    EV_TOGETHER,   /* an interrupt begins on this worker */
    EV_NEWFRAME,
    EV_RUN_TAKEN,     /* ptr: the descriptor of an outside thread's RUN */
    EV_POOL_STEAL,    /* peer: the victim; count: items */
    EV_POOL_TRANSFER, /* a steal-half transfer: peer: the victim; count: items */
    EV_DROPPED,       /* records were dropped before this one, from `start` on; count: the
                       * track's drop count so far (a streamed session's buffer was full) */
};

/* How a slice's frame was opened (trace_event.opened): pushed on the one
 * before (a task the runtime starts, a wait), popped back to (the one
 * before it ended), or set in its place. */
enum { TRACE_OPENED_SET = 0, TRACE_OPENED_PUSH, TRACE_OPENED_POP };

#define COUNT_UNKNOWN UINT64_MAX

typedef struct trace_event {
    uint64_t start, end; /* ns, CLOCK_MONOTONIC */
    uintptr_t ptr;       /* slices of tasks: the wrapper; EV_RUN_TAKEN: the descriptor */
    uint64_t count;      /* tasks: SPAWNs; pool batches: items; searching: failed steals */
    uint32_t peer;
    uint8_t kind, how, opened;
} trace_event;

/* A track's buffer is a ring of `cap` events: event k (counted from the
 * track's creation) is at ev[k % cap].  The owner appends while fewer than
 * `cap` events are not yet consumed; a session's events are those from
 * `consumed` (set where it begins) on.  A session streamed to its file
 * consumes them as it writes them; any other keeps them all, so its
 * buffer holds `cap` and drops the rest. */
struct weft_trace_track {
    /* The owner's: the open slice. */
    uint8_t state, how, opened;
    uintptr_t task; /* RUNNING: the wrapper */
    uint64_t start;
    weft_trace_counts base; /* the counters when the slice opened */
    uint64_t fails;         /* failed steals so far (the fork-join's own count) */
    /* The owner's: where it writes, how far it may (consumed + cap, as
     * last read), drops not yet marked (streamed sessions). */
    uint32_t at;
    uint64_t room;
    uint64_t unmarked_from; /* ns: when the first unmarked drop happened */
    bool unmarked;
    /* The buffer. */
    trace_event *ev;
    uint32_t cap;
    _Atomic uint64_t n;       /* events written (owner: release store) */
    _Atomic uint64_t dropped; /* events that did not fit (owner-written) */
    /* The writers', on a line of their own (the owner reads `consumed`
     * only when its room runs out): set where a session begins (under the
     * recorder's lock) and, in a streamed session, by the stream as it
     * writes (under its lock, which it takes after the recorder's). */
    _Alignas(64) _Atomic uint64_t consumed; /* events the session no longer needs */
    uint64_t base_dropped;                  /* `dropped` where the session began */
};

struct weft_trace_pool_run {
    unsigned index, workers;
    char queue[24];
    bool half;
    uint64_t session;             /* the session that recorded it */
    weft_trace_pool_counts stats; /* at its end */
    uint64_t ended;               /* ns: when it ended */
    bool finished;
    struct weft_trace_pool_run *next;
    weft_trace_track *tracks[];
};

typedef struct external_run {
    long tid;
    uint64_t start, end;
    uintptr_t task;
} external_run;

/* What one file holds: the recorder fills it under its lock and the
 * writer writes it, still under that lock (the writer keeps it in a
 * file-scope pointer while it writes). */
typedef struct weft__trace_file {
    uint64_t t0;                    /* ns: timestamps are written relative to it */
    weft_worker *const *workers;    /* the fork-join workers with their tracks */
    unsigned n_workers;             /* (0: none in this file) */
    weft_trace_pool_run *pool_runs; /* the work pool runs, newest first */
    unsigned pool_runs_untraced;
    external_run *externals; /* RUNs from outside threads (sorted here) */
    size_t n_externals;
    uint64_t externals_dropped;
    uint64_t events_per_track;
    const weft_stats *counters; /* the runtime's, at a stop (else NULL) */
} weft__trace_file;

#endif
