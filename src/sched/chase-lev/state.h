// SPDX-License-Identifier: Apache-2.0
/* Per-worker state of the Chase-Lev scheduler (chase_lev_deque.c).
 * Included by bits/worker.h, which places each struct on its lines. */
#ifndef WEFT_SCHED_CHASE_LEV_STATE_H
#define WEFT_SCHED_CHASE_LEV_STATE_H

/* A circular array of task pointers; grows by doubling (the old one is
 * kept until the pool stops: a thief may still read it). */
typedef struct weft_cl_array {
    struct weft_cl_array *retired; /* the array this one replaced */
    int64_t mask;                  /* size - 1, size a power of two */
    WEFT_ATOMIC(weft_task *) slot[];
} weft_cl_array;

/* Owner-private, on line 0. */
typedef struct weft_sched_own {
    int64_t bottom;       /* the owner's copy of bottom */
    int64_t top_seen;     /* a lower bound of top: spares a load at push */
    weft_cl_array *array; /* the owner's copy of the current array */
} weft_sched_own;

typedef struct weft_sched_shared {
    /* thieves' CAS target, alone on its line */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(int64_t) top;
    /* written by the owner at every SPAWN and SYNC, read by thieves */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(int64_t) bottom;
    WEFT_ATOMIC(weft_cl_array *) array;
    /* set by workers going to sleep (src/runtime/sleep.c); the owner wakes one */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uint32_t) wake_req;
} weft_sched_shared;

/* Owner-private state off the fast paths: none. */
typedef struct weft_sched_cold {
    char unused_;
} weft_sched_cold;

/* What an interrupt's freeze keeps until its thaw. */
typedef struct weft_sched_saved {
    int64_t top, bottom;
    weft_cl_array *array; /* the hidden tasks' array; the frame has its own */
} weft_sched_saved;

typedef struct weft_sched_counters {
    WEFT_ATOMIC(uint64_t) grows; /* the array doubled */
} weft_sched_counters;

#endif
