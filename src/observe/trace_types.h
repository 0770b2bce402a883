// SPDX-License-Identifier: Apache-2.0
/* The tracer's vocabulary: every worker is, at every moment, in one state;
 * each change of state ends one slice of its track and starts the next.
 * The states, how a task came to run, the frame a hook keeps to return to
 * a state, what a slice counts.  Shared by the recorder (trace.c), the
 * writer (trace_write.c) and the hooks (hooks.h).  Not installed. */
#ifndef WEFT_OBSERVE_TRACE_TYPES_H
#define WEFT_OBSERVE_TRACE_TYPES_H

#include <stdbool.h>
#include <stdint.h>

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
    WEFT_TRACE_BY_ADOPTION,   /* a thread outside the pool became the worker: its own code
                               * while it is (Lace's lace_startup without a callback) */
    WEFT_TRACE_RESUMED,       /* the same task again, after a RUN inside it or a wait at a
                               * SYNC cut its slice: what started it is on its first slice */
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

/* A work pool worker as the hooks name it (src/workpool/hooks.h): its
 * track (NULL while the run is not traced) and what its slices count now
 * (items processed, failed steals). */
typedef struct weft_trace_site {
    weft_trace_track *track;
    weft_trace_counts counts;
} weft_trace_site;

#endif
